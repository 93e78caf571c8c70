"""``torch.cpu.amp.autocast``: ``torch.amp.autocast("cpu", ...)`` under its old name."""

from __future__ import annotations

from ...amp import autocast_mode

__all__ = ["autocast"]


#: Deprecated: ``torch.amp.autocast("cpu", ...)``.
autocast = autocast_mode._old_name_class("cpu", autocast_mode._dtype.bfloat16, __name__)
