"""``torch.cuda.amp.autocast``, ``custom_fwd``, ``custom_bwd``: ``torch.amp``'s for
``"cuda"`` under their old names."""

from __future__ import annotations

import functools
import warnings

from ...amp import autocast_mode

__all__ = ["autocast", "custom_fwd", "custom_bwd"]


def _deprecated(old: str, new: str) -> None:
    warnings.warn(
        f"`torch.cuda.amp.{old}(args...)` is deprecated. Please use `{new}` instead.",
        FutureWarning,
        stacklevel=3,
    )


#: Deprecated: ``torch.amp.autocast("cuda", ...)``.
autocast = autocast_mode._old_name_class("cuda", autocast_mode._dtype.float16, __name__)


def custom_fwd(fwd=None, *, cast_inputs=None):
    """Deprecated: ``torch.amp.custom_fwd(..., device_type="cuda")``."""
    _deprecated("custom_fwd", "torch.amp.custom_fwd(args..., device_type='cuda')")
    return functools.partial(autocast_mode.custom_fwd, device_type="cuda")(
        fwd=fwd, cast_inputs=cast_inputs
    )


def custom_bwd(bwd=None):
    """Deprecated: ``torch.amp.custom_bwd(..., device_type="cuda")``."""
    _deprecated("custom_bwd", "torch.amp.custom_bwd(args..., device_type='cuda')")
    return functools.partial(autocast_mode.custom_bwd, device_type="cuda")(bwd)
