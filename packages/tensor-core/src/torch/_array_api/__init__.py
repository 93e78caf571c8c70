"""The array API standard (2024.12 revision) for ``torch.Tensor``:
``x.__array_namespace__()`` returns this module.

Functions follow the standard's semantics where they differ from PyTorch's (``sum`` of
unsigned integers gives uint64, ``std`` takes ``correction``, ``unique_*`` give named
tuples, uint16/32/64 compute everywhere). They compute on the NumPy arrays of CPU
tensors and return tensors; where an input requires grad and PyTorch has an op of the
same meaning (most arithmetic, reductions and views), that op runs instead, so
gradients flow. Extensions: ``linalg`` and ``fft``.
"""

from __future__ import annotations

import math

from .. import _dtype
from . import fft, linalg  # noqa: F401 - the standard's extensions
from ._creation import *  # noqa: F403
from ._creation import __all__ as _creation_names
from ._elementwise import *  # noqa: F403
from ._elementwise import __all__ as _elementwise_names
from ._info import __array_namespace_info__  # noqa: F401 - in __all__
from ._manipulation import *  # noqa: F403
from ._manipulation import __all__ as _manipulation_names
from ._reductions import *  # noqa: F403
from ._reductions import __all__ as _reduction_names

__array_api_version__ = "2024.12"

# constants
e = math.e
inf = math.inf
nan = math.nan
pi = math.pi
newaxis = None

# data types
bool = _dtype.bool_  # noqa: A001 - the standard's name
int8, int16, int32, int64 = _dtype.int8, _dtype.int16, _dtype.int32, _dtype.int64
uint8, uint16, uint32, uint64 = _dtype.uint8, _dtype.uint16, _dtype.uint32, _dtype.uint64
float32, float64 = _dtype.float32, _dtype.float64
complex64, complex128 = _dtype.complex64, _dtype.complex128

_DTYPE_NAMES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
]

__all__ = sorted(
    [
        *_creation_names,
        *_elementwise_names,
        *_manipulation_names,
        *_reduction_names,
        *_DTYPE_NAMES,
        "e",
        "inf",
        "nan",
        "pi",
        "newaxis",
        "fft",
        "linalg",
        "__array_namespace_info__",
        "__array_api_version__",
    ]
)
