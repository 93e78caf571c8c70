"""``torch.cpu.amp.autocast``: ``torch.amp.autocast("cpu", ...)`` under its old name."""

from __future__ import annotations

from ...amp import autocast_mode

__all__ = ["autocast"]


class autocast(autocast_mode.autocast):  # noqa: N801 - PyTorch's name
    """Deprecated: ``torch.amp.autocast("cpu", ...)``.

    Args:
        enabled (bool): Default: True.
        dtype (torch.dtype): Default: ``torch.bfloat16``.
        cache_enabled (bool): Default: True.
    """

    __init__ = autocast_mode._old_name_init("cpu", autocast_mode._dtype.bfloat16)
