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

from . import _bindings, _fastpath, _indexing, _ops, _sparse, serialization  # noqa: F401
from . import _return_types as return_types
from ._conversion import clone
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
from ._device import device
from ._dtype import (
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
from ._ops import out_variants as _out_variants
from ._ops._dispatch import result_type
from ._ops.api_extras import *  # noqa: F403 - isin, unravel_index, asarray, rms_norm, ...
from ._ops.binary_math import *  # noqa: F403 - the binary math functions
from ._ops.combining import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    block_diag,
    cartesian_prod,
    cdist,
    column_stack,
    combinations,
    cross,
    diag_embed,
    diagflat,
    dsplit,
    dstack,
    fliplr,
    flipud,
    hsplit,
    kron,
    msort,
    repeat_interleave,
    tensor_split,
    tril_indices,
    triu_indices,
    unique_consecutive,
    vsplit,
)
from ._ops.complex_views import imag, real, view_as_complex, view_as_real
from ._ops.conveniences import *  # noqa: F403 - ravel, adjoint, narrow_copy, ...
from ._ops.fill import fill, zero_
from ._ops.gather_scatter import flip, gather, index_select, masked_fill, scatter, scatter_add
from ._ops.householder import geqrf, ormqr
from ._ops.index_ops import (
    index_add,
    index_copy,
    index_fill,
    index_put,
    index_reduce,
    masked_scatter,
    scatter_reduce,
    take_along_dim,
)
from ._ops.linalg import (
    addbmm,
    addmm,
    addmv,
    baddbmm,
    bmm,
    dot,
    einsum,
    matmul,
    mm,
    mv,
    outer,
    tensordot,
)
from ._ops.linalg_extras import *  # noqa: F403 - vdot, inner, addr, det, svd, lu, ...
from ._ops.math_extras import (
    complex,
    conj,
    dist,
    frexp,
    heaviside,
    ldexp,
    logcumsumexp,
    nanmedian,
    nanquantile,
    nextafter,
    polar,
    quantile,
)
from ._ops.nn_aliases import *  # noqa: F403 - pdist, cosine_similarity, losses, ...
from ._ops.nn_functional import *  # noqa: F403 - layer_norm, dropout, embedding, ...
from ._ops.nn_kernels import *  # noqa: F403 - conv, pooling, softmax, relu
from ._ops.numeric import *  # noqa: F403 - diff, gradient, cov, trapezoid, histogram, ...
from ._ops.pointwise import (
    abs,
    absolute,
    add,
    bitwise_and,
    bitwise_left_shift,
    bitwise_not,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    can_cast,
    div,
    eq,
    exp,
    floor_divide,
    ge,
    gt,
    le,
    log,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    lt,
    mul,
    ne,
    neg,
    negative,
    positive,
    pow,
    remainder,
    sign,
    sub,
    true_divide,
)
from ._ops.pointwise_composites import *  # noqa: F403 - clamp_min, xlogy, isclose, ...
from ._ops.reduction import (
    all,
    amax,
    amin,
    aminmax,
    any,
    argmax,
    argmin,
    count_nonzero,
    cummax,
    cummin,
    cumprod,
    cumsum,
    kthvalue,
    logsumexp,
    max,
    mean,
    median,
    min,
    mode,
    nanmean,
    nansum,
    norm,
    prod,
    std,
    std_mean,
    sum,
    var,
    var_mean,
)
from ._ops.resampling import *  # noqa: F403 - adaptive pooling, pixel shuffles
from ._ops.shape_ops import *  # noqa: F403 - cat, stack, repeat, ...
from ._ops.sorting import *  # noqa: F403 - sort, topk, unique, ...
from ._ops.special_functions import i0, igamma, igammac, mvlgamma, polygamma
from ._ops.ternary import addcdiv, addcmul, clamp, clip, lerp, where
from ._ops.unary_math import *  # noqa: F403 - the unary math functions
from ._ops.views import (
    as_strided,
    chunk,
    diagonal,
    flatten,
    moveaxis,
    movedim,
    narrow,
    permute,
    reshape,
    select,
    split,
    squeeze,
    swapaxes,
    swapdims,
    t,
    transpose,
    unbind,
    unflatten,
    unsqueeze,
)
from ._predicates import is_complex, is_nonzero, is_same_size, typename
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
from ._serialization.storage_types import LEGACY_STORAGES
from ._size import Size
from ._sparse import sparse_coo_tensor
from ._storage import TypedStorage, UntypedStorage
from ._tensor import Tensor
from ._threads import (
    get_num_interop_threads,
    get_num_threads,
    set_num_interop_threads,
    set_num_threads,
)
from .serialization import load, save
from .version import __version__

_bindings.bind()
globals().update(_ops.conveniences.torch_inplace_functions())  # torch.sigmoid_, ...
globals().update(_ops.api_extras.copies())  # torch.view_copy, torch.t_copy, ...
globals().update(_ops.api_extras.REMOVED)  # torch.solve, torch.eig, ... raise as PyTorch
_fastpath.install()
_sparse.bind()
globals().update(LEGACY_TYPES)  # torch.FloatTensor, torch.LongTensor, ...
globals().update(LEGACY_STORAGES)  # torch.FloatStorage, ... (the names checkpoints use)

# out= for the functions whose kernels make a new result (see torch._ops.out_variants)
_WITH_OUT = """
lerp addcmul addcdiv where isposinf isneginf sum mean prod std var amax amin aminmax argmax
argmin norm logsumexp cumsum cumprod cummax cummin all any median mode kthvalue nansum nanmean
hstack vstack gather scatter scatter_add index_select masked_select take nonzero tril triu sort
argsort topk searchsorted bucketize histc tensordot outer diag mm bmm matmul mv dot addmm addbmm
baddbmm addmv
index_add index_copy index_reduce scatter_reduce take_along_dim dstack column_stack kron cross
msort logcumsumexp nanmedian quantile nanquantile frexp ldexp
nextafter heaviside polar complex vdot inner addr ger slogdet inverse cholesky cholesky_solve
cholesky_inverse qr svd matrix_power triangular_solve diff gcd lcm sinc renorm histogram
narrow_copy polygamma mvlgamma igamma igammac
""".split()
for _name in _WITH_OUT:
    globals()[_name] = _out_variants.add_out(globals()[_name], _name)
for _name in _ops.nn_aliases.WITH_OUT:  # torch.softmax(..., out=) & co.
    if _name in globals():
        globals()[_name] = _out_variants.add_out(globals()[_name], _name)

# aliases PyTorch also exposes
subtract, multiply, divide = sub, mul, div
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne


def is_tensor(obj) -> bool:
    """Whether ``obj`` is a Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> bool:
    """Whether ``input`` has a floating dtype."""
    return input.is_floating_point()


def numel(input: Tensor) -> int:
    """Number of elements of ``input``."""
    return input.numel()


__all__ = sorted(
    name for name in globals() if not name.startswith("_") and name not in ("annotations",)
) + ["__version__"]

# Subpackages of this namespace that are imported on first use: core's own optional
# modules, then the sibling distributions (see torch._siblings.SIBLINGS).
_LAZY_SUBMODULES = (
    "linalg",
    "special",
    "fft",
    "sparse",
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
