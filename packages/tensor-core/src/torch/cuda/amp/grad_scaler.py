"""``torch.cuda.amp.GradScaler``: ``torch.amp.GradScaler("cuda", ...)`` under its old name."""

from __future__ import annotations

import warnings

from ...amp import grad_scaler

__all__ = ["GradScaler"]


class GradScaler(grad_scaler.GradScaler):
    """Deprecated: ``torch.amp.GradScaler("cuda", ...)``; same arguments less ``device``."""

    def __init__(
        self,
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        warnings.warn(
            "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
            "`torch.amp.GradScaler('cuda', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__(
            "cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled
        )
