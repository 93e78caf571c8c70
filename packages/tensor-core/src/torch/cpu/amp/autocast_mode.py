"""``torch.cpu.amp.autocast``: ``torch.amp.autocast("cpu", ...)`` under its old name."""

from __future__ import annotations

import warnings

from ...amp import autocast_mode

__all__ = ["autocast"]


class autocast(autocast_mode.autocast):  # noqa: N801 - PyTorch's name
    """Deprecated: ``torch.amp.autocast("cpu", ...)``.

    Args:
        enabled (bool): Default: True.
        dtype (torch.dtype): Default: ``torch.bfloat16``.
        cache_enabled (bool): Default: True.
    """

    def __init__(self, enabled: bool = True, dtype=None, cache_enabled: bool = True) -> None:
        warnings.warn(
            "`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
            "`torch.amp.autocast('cpu', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        dtype = autocast_mode._dtype.bfloat16 if dtype is None else dtype
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
