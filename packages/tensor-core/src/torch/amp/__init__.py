"""Mixed precision: :class:`autocast` regions that run chosen ops in a lower precision
dtype, and :class:`GradScaler`, which scales losses so small gradients survive it."""

from .autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from .grad_scaler import GradScaler

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler"]
