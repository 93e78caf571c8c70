"""Window functions in SciPy's spelling (``M`` points, ``sym=True`` for a symmetric
window, ``sym=False`` for the periodic one used in spectral analysis)."""

from .windows import *  # noqa: F403 - the window functions
from .windows import __all__ as __all__
