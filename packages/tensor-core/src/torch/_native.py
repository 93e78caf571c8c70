"""Selects native kernels (``torch._C``) or their NumPy references.

``TORCH_NATIVE=0`` in the environment selects the pure NumPy path; otherwise the
compiled module must be importable and a broken build fails loudly here.
"""

from __future__ import annotations

import math
import os

import numpy as np

ENABLED = os.environ.get("TORCH_NATIVE", "1") != "0"

if ENABLED:
    from . import _C as kernels  # noqa: F401, N811
    from ._C import special  # noqa: F401
else:
    from . import _mt19937_ref as kernels  # noqa: F401
    from ._special_ref import special  # noqa: F401


def _log_api_usage_once(event: str) -> None:
    """PyTorch's usage-logging hook (libraries such as torchmetrics call it as
    ``torch._C._log_api_usage_once``): nothing is recorded here."""


def _get_tracing_state():
    """The running torch.jit trace (torch-jit's interception), or None: PyTorch's
    ``torch._C._get_tracing_state``, which pyro asks."""
    from ._interface import tracing

    return tracing.active()


def _parse_to(*args, **kwargs):
    """``(device, dtype, non_blocking, memory_format)`` from the arguments of
    ``Tensor.to`` / ``Module.to``: PyTorch's ``torch._C._nn._parse_to``, which lightning's
    modules call."""
    import torch

    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = kwargs.pop("non_blocking", False)
    memory_format = kwargs.pop("memory_format", None)
    copy = kwargs.pop("copy", False)  # accepted, as Tensor.to does
    del copy
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments: {sorted(kwargs)}")
    for arg in args:
        if isinstance(arg, torch.Tensor):
            device, dtype = arg.device, arg.dtype
        elif isinstance(arg, torch.dtype):
            dtype = arg
        elif isinstance(arg, bool):
            non_blocking = arg
        elif isinstance(arg, (str, torch.device, int)):
            device = torch.device(arg)
        else:
            raise TypeError(f"to() received an invalid argument: {type(arg).__name__}")
    if device is not None and not isinstance(device, torch.device):
        device = torch.device(device)
    return device, dtype, non_blocking, memory_format


if ENABLED:
    import types as _types

    kernels._log_api_usage_once = _log_api_usage_once
    kernels._get_tracing_state = _get_tracing_state
    kernels._nn = _types.SimpleNamespace(_parse_to=_parse_to)
    # the metaclass of torch.Tensor (lightning annotates with it): plain ``type`` here
    kernels._TensorMeta = type

# ------------------------------------------------------------------ process-wide settings
# Two settings change the whole process at import; each has an environment variable that
# turns it off ("0") and a function saying whether it is in effect. docs/native.md gives
# what each gains, measured with and without.
_KEPT_BUFFER_BYTES = 256 << 20


def _setting_on(variable: str) -> bool:
    return ENABLED and os.environ.get(variable, "1") != "0"


# glibc keeps freed buffers of up to 256 MiB in the heap for reuse, instead of unmapping
# them (process/settings.cpp: a fresh large result would page-fault all its memory in).
_freed_buffers_kept = _setting_on("TORCH_KEEP_FREED_BUFFERS") and bool(
    kernels.keep_freed_buffers(_KEPT_BUFFER_BYTES, 2 * _KEPT_BUFFER_BYTES)
)

# Array data starts on a cache line, as with PyTorch's allocator (process/aligned_alloc.cpp:
# GEMM and the vector kernels run faster on aligned operands).
if _setting_on("TORCH_ALIGNED_ALLOCATOR"):
    kernels.install_aligned_numpy_allocator()


def freed_buffers_kept() -> bool:
    """Whether glibc keeps freed buffers of up to 256 MiB for reuse (``mallopt`` at import;
    ``TORCH_KEEP_FREED_BUFFERS=0`` leaves the C library's defaults)."""
    return _freed_buffers_kept


def aligned_allocator_active() -> bool:
    """Whether NumPy allocates array data on 64-byte boundaries in this context (a NumPy
    memory handler installed at import; ``TORCH_ALIGNED_ALLOCATOR=0`` keeps NumPy's)."""
    return ENABLED and bool(kernels.aligned_numpy_allocator_active())


def cpu_isa() -> str:
    """The instruction-set tier the native kernels run (``"avx512"``, ``"avx2"`` or
    ``"baseline"``; ``TORCH_CPU_ISA=avx2`` or ``baseline`` caps it), ``"none"`` when the
    pure NumPy path is selected."""
    return kernels.cpu_isa() if ENABLED else "none"


def process_settings() -> dict:
    """Each process-wide setting torch made at import, and whether it is in effect."""
    return {
        "keep_freed_buffers": freed_buffers_kept(),
        "aligned_numpy_allocator": aligned_allocator_active(),
    }


def on_host(*arrays) -> bool:
    """Whether every array given (None skipped) is host memory: native kernels read only
    host arrays; a device array (CuPy's) takes the array-generic NumPy path, which its
    array module runs on the device (NEP 13/18)."""
    for array in arrays:
        if array is not None and not isinstance(array, np.ndarray):
            return False
    return True


def device_library(array):
    """The library calls of the backend a device array belongs to (``special``, cuDNN's
    ``convolution``... on CUDA; see ``torch.cuda._device_library``), or None."""
    from ._interface.backends import backend_of_array

    return getattr(backend_of_array(array), "library", None)


def special_of(name: str, array):
    """Special function ``name`` (``erf``, ``lgamma``, ``digamma``, ...) of a float32/64
    array: the native kernel on the host, the device library's on a device."""
    if isinstance(array, np.ndarray):
        return special(name, array)
    library = device_library(array)
    if library is None:
        raise TypeError(f"special function {name}: no kernel for {type(array).__name__}")
    return library.special(name, array)


def all_c_contiguous_numpy(*operands) -> bool:
    """Whether every NumPy array among ``operands`` is C-contiguous."""
    return all(a.flags.c_contiguous for a in operands if isinstance(a, np.ndarray))


# the same check, native: it reads the flags without building a flags object
all_c_contiguous = kernels.all_c_contiguous if ENABLED else all_c_contiguous_numpy


def array_address_numpy(array: np.ndarray) -> int:
    """Where a NumPy array's first element is (the reference of torch._C.array_address)."""
    return array.__array_interface__["data"][0]


# the same, native: it reads the data pointer without building the interface's dict
array_address = kernels.array_address if ENABLED else array_address_numpy


def small_matmul_numpy(a, b):
    """``a @ b`` of two NumPy float32 or float64 matrices of one dtype, non-empty and with at
    most 4096 multiply-adds, as a fresh C-contiguous array; None for other operands (the
    callers then take their general path). The reference of ``torch._C.small_matmul``."""
    if type(a) is not np.ndarray or type(b) is not np.ndarray or a.ndim != 2 or b.ndim != 2:
        return None
    (m, k), n = a.shape, b.shape[1]
    if a.dtype != b.dtype or a.dtype.name not in _FLOATS or b.shape[0] != k:
        return None
    if not (a.dtype.isnative and b.dtype.isnative) or not 0 < m * k * n <= 4096:
        return None
    return np.matmul(a, b)


# the same product natively, in a third of NumPy's call
small_matmul = kernels.small_matmul if ENABLED else small_matmul_numpy

# Arrays at least this large go to the multi-threaded native kernels: below it, starting
# threads costs more than it saves.
PARALLEL_MIN_SIZE = 1 << 16
_FLOATS = ("float32", "float64")
# the same dtypes by scalar type: `dtype.type in` is a pointer comparison, `dtype.name`
# a Python-level property that builds a string
_FLOAT_TYPES = (np.float32, np.float64)


def large_binary(name: str, a, b, out=None):
    """``a (name) b`` by the threaded native kernel when both are big same-shape
    C-contiguous float arrays of one dtype; None otherwise (the caller uses NumPy). With
    ``out`` (an array of the same kind, or ``a`` or ``b`` itself): written there, or None
    when ``out`` does not qualify or may share memory with an operand it is not."""
    if not ENABLED or getattr(a, "size", 0) < PARALLEL_MIN_SIZE or type(a) is not np.ndarray:
        return None
    if (
        type(b) is not type(a)
        or a.dtype != b.dtype
        or a.shape != b.shape
        or a.dtype.char not in "fd"  # not dtype.name: about 1.4 us, computed in Python
        or not (a.flags.c_contiguous and b.flags.c_contiguous)
    ):
        return None
    if out is None:
        return kernels.binary(name, a, b)
    if not _writable_like(out, a) or not (_same_or_apart(out, a) and _same_or_apart(out, b)):
        return None
    return kernels.binary(name, a, b, 0, out)


def _writable_like(out, a) -> bool:
    """Whether ``out`` is a writable C-contiguous NumPy array of ``a``'s dtype and shape."""
    return (
        type(out) is np.ndarray
        and out.dtype == a.dtype
        and out.shape == a.shape
        and out.flags.c_contiguous
        and out.flags.writeable
    )


def _same_or_apart(out: np.ndarray, a: np.ndarray) -> bool:
    """Whether ``out`` is ``a`` itself (an in-place write) or cannot touch its memory."""
    return out is a or not np.may_share_memory(out, a)


def large_fill(out, value) -> bool:
    """Write ``value`` into every element of ``out`` by the threaded native kernel when it
    is a big writable C-contiguous float array; False otherwise (the caller uses NumPy)."""
    if (
        not ENABLED
        or type(out) is not np.ndarray
        or out.size < PARALLEL_MIN_SIZE
        or out.dtype.char not in "fd"
        or not (out.flags.c_contiguous and out.flags.writeable)
    ):
        return False
    kernels.fill(out, value)
    return True


def large_unary(name: str, a):
    """``name(a)`` ("exp" or "sigmoid") by the vectorised threaded native kernel for a big
    C-contiguous float array, or None (the caller uses NumPy)."""
    if (
        not ENABLED
        or type(a) is not np.ndarray
        or a.size < PARALLEL_MIN_SIZE
        or a.dtype.char not in "fd"
        or not a.flags.c_contiguous
    ):
        return None
    return kernels.unary(name, a)


def large_exp(a):
    """``exp(a)`` by :func:`large_unary`, or None."""
    return large_unary("exp", a)


def native_sum(a):
    """The full sum of a C-contiguous float32/64 array by a native kernel, or None: up to
    PARALLEL_MIN_SIZE elements in PyTorch's summation order (bit-identical results),
    above it split across threads and accumulated in double precision."""
    # dtype.char, not dtype.name: the name is computed in Python on every access
    if not ENABLED or type(a) is not np.ndarray or a.dtype.char not in "fd":
        return None
    if not a.flags.c_contiguous:
        return None
    if a.size < PARALLEL_MIN_SIZE:
        return kernels.cascade_sum(a)
    return kernels.sum_all(a)


# ------------------------------------------------------------------ convolution
# Stride-1 convolutions of float32/float64 tensors with 1 to 3 spatial dims run in
# torch._C (conv.h); the NumPy unfold + BLAS path in _ops/nn_kernels.py is their reference.
# Below this many multiply-adds one thread does the whole convolution.
_CONV_PARALLEL_MIN_WORK = 1 << 18


def _as_5d(array: np.ndarray) -> np.ndarray:
    """(N, C, *spatial) with 1-3 spatial dims as a C-contiguous (N, C, D, H, W) array."""
    spatial = array.shape[2:]
    return np.ascontiguousarray(array).reshape(
        array.shape[:2] + (1,) * (3 - len(spatial)) + spatial
    )


def _conv_eligible(x: np.ndarray, w: np.ndarray, stride) -> bool:
    return (
        ENABLED
        and on_host(x, w)
        and x.dtype == w.dtype
        and x.dtype.type in _FLOAT_TYPES
        and 1 <= x.ndim - 2 <= 3
        and all(s == 1 for s in stride)
        and x.size > 0
    )


def _conv_threads(x: np.ndarray, w: np.ndarray) -> int:
    work = x.shape[0] * w.size * math.prod(x.shape[2:])
    return 0 if work >= _CONV_PARALLEL_MIN_WORK else 1


def _padding_lists(pads, dilation):
    lead = 3 - len(pads)
    lo = [0] * lead + [a for a, _ in pads]
    hi = [0] * lead + [b for _, b in pads]
    return [1] * lead + list(dilation), lo, hi


def _cudnn(array):
    """cuDNN's kernels for a device array (see ``torch.cuda._device_library``), or None."""
    library = device_library(array)
    return None if library is None else library.cudnn


def conv_forward(x: np.ndarray, w: np.ndarray, bias, stride, pads, dilation, groups):
    """The convolution by the native kernel (``pads`` as (before, after) pairs), or None
    when it does not apply (strided, other dtypes): the caller uses NumPy. On a device:
    cuDNN's, or None (the NumPy path then runs on the device's array module)."""
    if not on_host(x, w, bias):
        cudnn = _cudnn(x)
        return (
            None if cudnn is None else cudnn.convolution(x, w, bias, stride, pads, dilation, groups)
        )
    if not _conv_eligible(x, w, stride) or (bias is not None and bias.dtype != x.dtype):
        return None
    if not on_host(bias):
        return None
    dil, lo, hi = _padding_lists(pads, dilation)
    # the kernel gives the result its own shape: a reshaped view would have a base, and
    # autograd copies such gradients before keeping them in .grad
    threads, spatial_dims = _conv_threads(x, w), x.ndim - 2
    return kernels.conv_forward(
        _as_5d(x), _as_5d(w), bias, dil, lo, hi, groups, threads, spatial_dims
    )


def conv_weight_grad(
    x: np.ndarray, grad: np.ndarray, w: np.ndarray, stride, pads, dilation, groups
):
    """The weight gradient of a convolution by the native kernel (cuDNN's on a device),
    or None."""
    if not on_host(x, grad, w):
        cudnn = _cudnn(x)
        return (
            None
            if cudnn is None
            else cudnn.convolution_weight_grad(x, grad, w, stride, pads, dilation, groups)
        )
    if not _conv_eligible(x, w, stride) or grad.dtype != x.dtype or not on_host(grad):
        return None
    dil, lo, hi = _padding_lists(pads, dilation)
    threads, spatial_dims = _conv_threads(x, w), x.ndim - 2
    return kernels.conv_weight_grad(
        _as_5d(x), _as_5d(grad), _as_5d(w), dil, lo, hi, groups, threads, spatial_dims
    )


# ------------------------------------------------------------ indexing along a dimension
# Accumulation and gathering by index run in torch._C (indexing.h) on the arrays seen as
# (outer, dim, inner); np.add.at and np.take_along_axis are their references. Each
# function returns False / None when it does not apply (other dtypes, non-contiguous
# output) and the caller uses NumPy.
_INDEXING_DTYPES = ("float32", "float64", "int64", "int32")


def _along(array: np.ndarray, dim: int) -> np.ndarray:
    """A C-contiguous array as its (outer, size of dim, inner) view."""
    shape = array.shape
    return array.reshape(
        int(np.prod(shape[:dim], dtype=np.int64)),
        shape[dim],
        int(np.prod(shape[dim + 1 :], dtype=np.int64)),
    )


def _indexing_applies(out: np.ndarray, src: np.ndarray) -> bool:
    return (
        ENABLED
        and on_host(out, src)
        and out.dtype.name in _INDEXING_DTYPES
        and src.dtype == out.dtype
        and out.flags.c_contiguous
        and out.flags.writeable
    )


def index_accumulate(out: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray, alpha=1):
    """``out[..., index[j], ...] += alpha * src[..., j, ...]`` along ``dim`` in place
    (indices in [0, size)); False when the native kernel does not apply."""
    if not _indexing_applies(out, src) or out.ndim == 0 or not on_host(index):
        return False
    index = np.ascontiguousarray(index, dtype=np.int64).reshape(-1)
    source = _along(np.ascontiguousarray(src), dim)
    kernels.index_accumulate(_along(out, dim), index, source, alpha)
    return True


def scatter_accumulate(out: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray):
    """``out[..., index[i, j, k], ...] += src[i, j, k]`` along ``dim`` in place, for an
    index shaped like ``out`` except along ``dim`` and a source shaped like the index."""
    if not _indexing_applies(out, src) or out.ndim == 0 or index.shape != src.shape:
        return False
    if not on_host(index):
        return False
    if any(n != m for i, (n, m) in enumerate(zip(index.shape, out.shape)) if i != dim):
        return False
    index = _along(np.ascontiguousarray(index, dtype=np.int64), dim)
    kernels.scatter_accumulate(_along(out, dim), index, _along(np.ascontiguousarray(src), dim))
    return True


def gather_along(src: np.ndarray, dim: int, index: np.ndarray):
    """``src[..., index[i, j, k], ...]`` along ``dim`` for an index shaped like ``src``
    except along ``dim``; None when the native kernel does not apply."""
    if not ENABLED or src.dtype.name not in _INDEXING_DTYPES or src.ndim == 0:
        return None
    if not on_host(src, index):
        return None
    if any(n != m for i, (n, m) in enumerate(zip(index.shape, src.shape)) if i != dim):
        return None
    along = _along(np.ascontiguousarray(index, dtype=np.int64), dim)
    result = kernels.gather_along(_along(np.ascontiguousarray(src), dim), along)
    return result.reshape(index.shape)


# ------------------------------------------------------------------ matrix products
# Float matrix products go to Intel MKL when the optional `mkl` wheel is installed
# (`pip install torch-core[mkl]`): PyTorch's CPU build uses MKL, and NumPy's bundled
# OpenBLAS is 7-20% slower per core here. torch._C calls it single-threaded on blocks of
# rows over its own thread pool (blas.cpp). TORCH_BLAS=numpy keeps NumPy's BLAS;
# TORCH_BLAS=/path/to/libcblas.so loads another CBLAS library.
_BLAS_MIN_WORK = 32**3  # multiply-adds; below it NumPy's call is cheaper
_blas_state = {"loaded": None}  # None: not tried yet; then True/False


def _mkl_library_path():
    """The libmkl_rt shared library of the installed `mkl` distribution, or None."""
    from importlib import metadata

    try:
        files = metadata.distribution("mkl").files or ()
    except metadata.PackageNotFoundError:
        return None
    for file in files:
        if file.name.startswith("libmkl_rt.so"):
            return os.path.normpath(str(file.locate()))
    return None


def blas_library_path():
    """The CBLAS library matrix products use, or None for NumPy's own BLAS."""
    choice = os.environ.get("TORCH_BLAS", "")
    if choice in ("numpy", "0"):
        return None
    return choice or _mkl_library_path()


def _blas_ready() -> bool:
    loaded = _blas_state["loaded"]
    if loaded is None:
        path = blas_library_path() if ENABLED else None
        loaded = bool(path) and kernels.blas_load(path)
        _blas_state["loaded"] = loaded
    return loaded


def blas_matmul(a, b):
    """``a @ b`` for float32/64 arrays of 2 dims, or 3 with one batch size, by the
    external BLAS; None when there is none or the operands do not fit (the caller uses
    NumPy: broadcasting, small products, other dtypes, unusual strides)."""
    if (
        not on_host(a, b)
        or a.ndim != b.ndim
        or a.ndim not in (2, 3)
        or a.dtype is not b.dtype
        or a.dtype.char not in "fd"
        or a.shape[-1] != b.shape[-2]
        or (a.ndim == 3 and a.shape[0] != b.shape[0])
        or a.size * b.shape[-1] < _BLAS_MIN_WORK
        or not _blas_ready()
    ):
        return None
    out = np.empty(a.shape[:-1] + b.shape[-1:], dtype=a.dtype)
    return out if _gated_blas_gemm(a, b, out) else None


# the GEMM passes the fork gate as NumPy's BLAS calls do (see torch/_blas.py)
_gated_blas_gemm = kernels.fork_gated(kernels.blas_gemm) if ENABLED else None


# ------------------------------------------------------------------ optimizer updates
# Fused Adam/AdamW, SGD, RMSprop and Adagrad steps for torch.optim (csrc/optim_kernels.h):
# one pass over memory per parameter, rounding exactly as PyTorch's sequence of kernels.
# PyTorch's square roots are Intel MKL's VML sqrt (not always correctly rounded); the
# kernels call it too when the `mkl` wheel is installed, else the correctly rounded sqrt
# (about 0.7% of roots then differ from PyTorch's by one ulp). TORCH_OPTIM_VML=0 skips MKL.
_optim_state = {"vml": None}  # None: not tried yet; then True/False


def optim_kernels():
    """torch._C with its optimizer kernels (``adam_step``, ``sgd_step``, ``rmsprop_step``,
    ``adagrad_step``, each over lists of C-contiguous arrays, in place), MKL's sqrt loaded
    when available; None when the pure NumPy path is selected (``TORCH_NATIVE=0``)."""
    if not ENABLED:
        return None
    if _optim_state["vml"] is None:
        path = _mkl_library_path() if os.environ.get("TORCH_OPTIM_VML", "1") != "0" else None
        try:
            _optim_state["vml"] = bool(path) and kernels.optim_vml_load(path)
        except RuntimeError:  # the library exists but cannot be loaded
            _optim_state["vml"] = False
    return kernels


def optim_sqrt_is_pytorchs() -> bool:
    """Whether the optimizer kernels take square roots as PyTorch does (MKL's VML)."""
    return optim_kernels() is not None and bool(_optim_state["vml"])
