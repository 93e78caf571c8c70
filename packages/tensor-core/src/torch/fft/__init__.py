"""torch.fft: discrete Fourier transforms on NumPy's pocketfft.

The kernels, the primitives that carry the gradients and the public functions live in
``torch._ops.fft``; the derivative formulas in torch-autograd's ``_derivatives/fft.py``.
"""

from .._ops import fft as _family
from .._ops.fft import *  # noqa: F403 - the functions of the family's __all__

__all__ = list(_family.__all__)
