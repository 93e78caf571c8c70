"""Signal processing: ``torch.signal.windows``, window functions in SciPy's spelling."""

from . import windows

__all__ = ["windows"]
