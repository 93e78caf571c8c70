"""torch: tensors on NumPy with a C++ core.

This module is the root of a namespace shared by several distributions: torch-core
ships it, and torch-autograd, torch-nn, torch-optim, ... install their subpackages next
to it. ``torch.nn`` and friends are imported on first attribute access, so
``import torch`` stays cheap and works with torch-core alone.
"""

__path__ = __import__("pkgutil").extend_path(__path__, __name__)

# NumPy's OpenBLAS keeps its threads polling for about 2**28 cycles (~0.1 s) after each
# matrix product; on a machine with few cores they take the CPU from whatever runs next
# (our own kernels' threads included: a convolution after a matmul ran 2x slower). 2**20
# cycles keeps back-to-back products fast. Takes effect only if NumPy is not loaded yet.
__import__("os").environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "20")

from . import _siblings

_siblings.install_finder()

from . import _bindings, _compat_names, _indexing, _ops, _sparse, serialization  # noqa: F401
from . import _return_types as return_types
from ._compat_names import *  # noqa: F403 - torch.is_distributed, has_lapack, sym_int, ...
from ._creation import (
    arange,
    as_tensor,
    empty,
    empty_like,
    empty_strided,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
    ones,
    ones_like,
    range,
    tensor,
    zeros,
    zeros_like,
)
from ._default_type import is_storage, set_default_tensor_type
from ._deterministic import (
    are_deterministic_algorithms_enabled,
    get_deterministic_debug_mode,
    is_deterministic_algorithms_warn_only_enabled,
    set_deterministic_debug_mode,
    use_deterministic_algorithms,
)
from ._device import device, get_default_device
from ._dtype import (
    bfloat16,
    complex32,
    complex64,
    complex128,
    dtype,
    float8_e4m3fn,
    float8_e4m3fnuz,
    float8_e5m2,
    float8_e5m2fnuz,
    float8_e8m0fnu,
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
    uint16,
    uint32,
    uint64,
)
from ._dtype import bool_ as bool  # PyTorch's public names shadow builtins here
from ._dtype import complex32 as chalf
from ._dtype import complex64 as cfloat
from ._dtype import complex128 as cdouble
from ._dtype import float16 as half
from ._dtype import float32 as float
from ._dtype import float64 as double
from ._dtype import int16 as short
from ._dtype import int32 as int
from ._dtype import int64 as long
from ._dtype_info import finfo, iinfo
from ._format import get_printoptions, set_printoptions
from ._grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ._interop import from_dlpack
from ._layout import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    layout,
    memory_format,
    preserve_format,
    sparse_coo,
    strided,
)
from ._legacy import LEGACY_TYPES
from ._ops._dispatch import result_type
from ._random import (
    Generator,
    bernoulli,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    multinomial,
    normal,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
)
from ._random_samplers import binomial, poisson
from ._serialization.file_reader import PyTorchFileReader
from ._serialization.storage_types import LEGACY_STORAGES
from ._size import Size
from ._sparse import sparse_coo_tensor
from ._storage import TypedStorage, UntypedStorage
from ._symbolic import SymBool, SymFloat, SymInt
from ._tensor import Tensor
from ._threads import (
    get_num_interop_threads,
    get_num_threads,
    set_num_interop_threads,
    set_num_threads,
)
from .amp._scaler_kernels import (  # noqa: F401 - torch._amp_*: GradScaler's ops
    _amp_foreach_non_finite_check_and_unscale_,
    _amp_update_scale_,
)
from .amp._state import *  # noqa: F403 - torch.is_autocast_enabled, set_autocast_dtype, ...
from .amp.autocast_mode import autocast
from .compiler import compile  # noqa: A004 (PyTorch's name)
from .serialization import load, save
from .version import __version__

# torch.add, Tensor.add, torch.sum(out=), ... and the hot paths of torch._fastpath, from the
# registry; then the operators and properties
_bindings.bind_ops(globals())
_bindings.bind()
_sparse.bind()
_compat_names.bind()  # Tensor.dim_order, storage_type, the removed eig/solve/..., ...
globals().update(LEGACY_TYPES)  # torch.FloatTensor, torch.LongTensor, ...
globals().update(LEGACY_STORAGES)  # torch.FloatStorage, ... (the names checkpoints use)
Storage = LEGACY_STORAGES["FloatStorage"]  # torch.Storage is FloatStorage, as in PyTorch


def is_tensor(obj) -> bool:
    """Whether ``obj`` is a Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> bool:
    """Whether ``input`` has a floating dtype."""
    return input.is_floating_point()


def numel(input: Tensor) -> int:
    """Number of elements of ``input``."""
    return input.numel()


# the math constants and NumPy's newaxis, as PyTorch exports them
from math import e, inf, nan, pi  # noqa: E402

newaxis = None

__all__ = sorted(
    name for name in globals() if not name.startswith("_") and name not in ("annotations",)
) + ["__version__"]

# PyTorch's namespace holds itself as ``torch`` (kornia annotates with ``torch.torch.Tensor``)
torch = __import__("sys").modules[__name__]

# Subpackages of this namespace that are imported on first use: core's own optional
# modules, then the sibling distributions (see torch._siblings.SIBLINGS).
_LAZY_SUBMODULES = (
    "random",
    "linalg",
    "special",
    "fft",
    "sparse",
    "cuda",
    "backends",
    "testing",
    "utils",
    "autograd",
    "nn",
    "optim",
    "multiprocessing",
    "legacy",
    "func",
    "profiler",
    "amp",
    "cpu",
    "jit",
    "onnx",
    "distributions",
    "distributed",
    "hub",
    "compiler",
    "fx",
    "signal",
    "types",
    "storage",
    "functional",
)


# names of torch that a sibling or an optional module defines, found there on first use
# (lightning does ``from torch import ScriptModule``)
_LAZY_NAMES = {
    "ScriptModule": "jit",
    "windows": "signal",
    "vmap": "func",
    "GradScaler": "amp",
    # anomaly mode's state is torch-autograd's
    "is_anomaly_enabled": "autograd.anomaly_mode",
    "is_anomaly_check_nan_enabled": "autograd.anomaly_mode",
    "set_anomaly_enabled": "autograd.anomaly_mode",
}


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        return _siblings.import_sibling(f"{__name__}.{name}")
    if name in _LAZY_NAMES:
        return getattr(_siblings.import_sibling(f"{__name__}.{_LAZY_NAMES[name]}"), name)
    if name == "has_mkl":  # the BLAS is chosen at run time: ask it on first use
        from .backends import mkl

        return mkl.is_available()
    raise AttributeError(f"module 'torch' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))
