"""``torch.cuda.amp``: the deprecated CUDA spellings of ``torch.amp``."""

from .autocast_mode import autocast, custom_bwd, custom_fwd
from .grad_scaler import GradScaler

__all__ = ["autocast", "custom_bwd", "custom_fwd", "GradScaler"]
