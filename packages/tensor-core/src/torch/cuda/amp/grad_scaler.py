"""``torch.cuda.amp.GradScaler``: ``torch.amp.GradScaler("cuda", ...)`` under its old name."""

from __future__ import annotations

from ...amp import grad_scaler

__all__ = ["GradScaler"]


class GradScaler(grad_scaler.GradScaler):
    """Deprecated: ``torch.amp.GradScaler("cuda", ...)``; same arguments less ``device``."""

    __init__ = grad_scaler._old_name_init("cuda")
