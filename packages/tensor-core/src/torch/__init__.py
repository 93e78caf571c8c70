"""torch: tensors on NumPy with a C++ core.

This module is the root of a namespace shared by several distributions: torch-core
ships it, and torch-autograd, torch-nn, torch-optim, ... install their subpackages next
to it. ``torch.nn`` and friends are imported on first attribute access, so
``import torch`` stays cheap and works with torch-core alone.
"""

__path__ = __import__("pkgutil").extend_path(__path__, __name__)

from . import _siblings  # noqa: E402

_siblings.install_finder()

from . import _bindings, _ops  # noqa: E402,F401
from ._creation import (  # noqa: E402
    arange,
    as_tensor,
    empty,
    from_numpy,
    full,
    ones,
    ones_like,
    rand,
    tensor,
    zeros,
    zeros_like,
)
from ._device import device  # noqa: E402
from ._dtype import (  # noqa: E402
    bfloat16,
    complex32,
    complex64,
    complex128,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    set_default_dtype,
    uint8,
)
from ._dtype import bool_ as bool  # noqa: E402,A001 - PyTorch's public names
from ._dtype import complex32 as chalf  # noqa: E402
from ._dtype import complex64 as cfloat  # noqa: E402
from ._dtype import complex128 as cdouble  # noqa: E402
from ._dtype import float16 as half  # noqa: E402
from ._dtype import float32 as float  # noqa: E402,A001
from ._dtype import float64 as double  # noqa: E402
from ._dtype import int16 as short  # noqa: E402
from ._dtype import int32 as int  # noqa: E402,A001
from ._dtype import int64 as long  # noqa: E402
from ._grad_mode import (  # noqa: E402
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ._ops.linalg import matmul  # noqa: E402
from ._ops.pointwise import add, div, mul, neg, sub  # noqa: E402
from ._ops.reduction import mean, sum  # noqa: E402,A004
from ._ops.shape import reshape, t, transpose  # noqa: E402
from ._random import Generator, default_generator, initial_seed, manual_seed, seed  # noqa: E402
from ._size import Size  # noqa: E402
from ._storage import UntypedStorage  # noqa: E402
from ._tensor import Tensor  # noqa: E402
from .version import __version__  # noqa: E402

_bindings.bind()

__all__ = [
    "Generator",
    "Size",
    "Tensor",
    "UntypedStorage",
    "add",
    "arange",
    "as_tensor",
    "bfloat16",
    "bool",
    "cdouble",
    "cfloat",
    "chalf",
    "complex32",
    "complex64",
    "complex128",
    "default_generator",
    "device",
    "div",
    "double",
    "dtype",
    "empty",
    "enable_grad",
    "float",
    "float16",
    "float32",
    "float64",
    "from_numpy",
    "full",
    "get_default_dtype",
    "half",
    "inference_mode",
    "initial_seed",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "long",
    "manual_seed",
    "matmul",
    "mean",
    "mul",
    "neg",
    "no_grad",
    "ones",
    "ones_like",
    "promote_types",
    "rand",
    "seed",
    "set_default_dtype",
    "set_grad_enabled",
    "short",
    "sub",
    "sum",
    "t",
    "tensor",
    "transpose",
    "uint8",
    "reshape",
    "zeros",
    "zeros_like",
    "__version__",
]

# Subpackages of this namespace that are imported on first use: core's own optional
# modules, then the sibling distributions (see torch._siblings.SIBLINGS).
_LAZY_SUBMODULES = (
    "cuda",
    "testing",
    "utils",
    "autograd",
    "nn",
    "optim",
    "multiprocessing",
    "legacy",
)


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        return _siblings.import_sibling(f"{__name__}.{name}")
    raise AttributeError(f"module 'torch' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))
