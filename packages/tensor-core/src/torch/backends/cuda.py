"""torch.backends.cuda: cuBLAS, cuFFT and scaled-dot-product-attention switches.

The switches (``matmul.allow_tf32``, the ``enable_*_sdp`` toggles, the preferred
libraries) are kept here and read back as in PyTorch whether or not a CUDA device exists;
the CUDA kernels read them. :func:`is_built` says whether a CUDA runtime is active.

Examples::

    >>> torch.backends.cuda.matmul.allow_tf32 = True
    >>> torch.backends.cuda.matmul.allow_tf32
    True
    >>> torch.backends.cuda.matmul.allow_tf32 = False
"""

from __future__ import annotations

import contextlib as _contextlib
import warnings as _warnings

from . import _precision
from ._enums import native_enum as _native_enum

__all__ = [
    "is_built",
    "cuFFTPlanCacheAttrContextProp",
    "cuFFTPlanCache",
    "cuFFTPlanCacheManager",
    "cuBLASModule",
    "preferred_linalg_library",
    "preferred_blas_library",
    "cublas_workspace_size",
    "cublaslt_workspace_size",
    "blas_workspace_size",
    "preferred_rocm_fa_library",
    "is_ck_sdpa_available",
    "cufft_plan_cache",
    "matmul",
    "SDPAParams",
    "SDPBackend",
    "enable_cudnn_sdp",
    "cudnn_sdp_enabled",
    "enable_flash_sdp",
    "flash_sdp_enabled",
    "enable_mem_efficient_sdp",
    "mem_efficient_sdp_enabled",
    "math_sdp_enabled",
    "enable_math_sdp",
    "allow_fp16_bf16_reduction_math_sdp",
    "fp16_bf16_reduction_math_sdp_allowed",
    "is_flash_attention_available",
    "can_use_flash_attention",
    "can_use_efficient_attention",
    "can_use_cudnn_attention",
    "sdp_kernel",
]


def _runtime():
    from ..cuda import _runtime

    return _runtime.get()


def _runtime_method(name: str):
    """A method of the active CUDA runtime that is not part of the base contract."""
    method = getattr(_runtime(), name, None)
    if method is None:
        raise NotImplementedError(
            f"the active CUDA runtime does not provide {name}(); torch.backends.cuda needs it"
        )
    return method


def _missing_cuda_binding(name: str) -> AttributeError:
    # what PyTorch's CPU build raises for the CUDA-only entry points of torch._C
    return AttributeError(f"module 'torch._C' has no attribute '{name}'")


def is_built() -> bool:
    """Whether CUDA can be used by this installation (a CUDA runtime is active).

    Examples::

        >>> torch.backends.cuda.is_built() == torch.cuda.is_available()
        True
    """
    return _runtime() is not None


# ------------------------------------------------------------------ cuFFT plan cache
class cuFFTPlanCacheAttrContextProp:  # noqa: N801 - PyTorch's name
    """A per-device plan-cache attribute; ``setter`` may be a message for read-only ones."""

    def __init__(self, getter, setter):
        self.getter = getter
        self.setter = setter

    def __get__(self, obj, objtype):
        return self.getter(obj.device_index)

    def __set__(self, obj, val):
        if isinstance(self.setter, str):
            raise RuntimeError(self.setter)
        self.setter(obj.device_index, val)


_DEFAULT_PLAN_CACHE_SIZE = 4096  # PyTorch's default capacity for CUDA 10 and later
_plan_cache_limits: dict[int, int] = {}


class cuFFTPlanCache:  # noqa: N801 - PyTorch's name
    """The cuFFT plan cache of one device: ``size`` (read-only), ``max_size``, ``clear()``.
    This project's FFTs keep no cuFFT plans, so ``size`` stays 0."""

    def __init__(self, device_index):
        self.device_index = device_index

    size = cuFFTPlanCacheAttrContextProp(
        lambda index: 0,
        ".size is a read-only property showing the number of plans currently in the cache. "
        "To change the cache capacity, set cufft_plan_cache.max_size.",
    )
    max_size = cuFFTPlanCacheAttrContextProp(
        lambda index: _plan_cache_limits.get(index, _DEFAULT_PLAN_CACHE_SIZE),
        lambda index, value: _plan_cache_limits.__setitem__(index, int(value)),
    )

    def clear(self):
        """Drop every cached plan of this device."""


class cuFFTPlanCacheManager:  # noqa: N801 - PyTorch's name
    """``torch.backends.cuda.cufft_plan_cache``: index it by device; its attributes are
    those of the current device's cache."""

    _ready = False

    def __init__(self):
        self.caches = []
        self._ready = True

    def __getitem__(self, device):
        import torch

        from ..cuda import _state

        index = _state.device_index(device)
        count = torch.cuda.device_count()
        if index < 0 or index >= count:
            raise RuntimeError(
                f"cufft_plan_cache: expected 0 <= device index < {count}, but got device with "
                f"index {index}"
            )
        if not self.caches:
            self.caches.extend(cuFFTPlanCache(i) for i in range(count))
        return self.caches[index]

    def __getattr__(self, name):
        if name.startswith("__"):  # introspection (copy, pickle, doc tools) finds nothing
            raise AttributeError(name)
        import torch

        return getattr(self[torch.cuda.current_device()], name)

    def __setattr__(self, name, value):
        if not self._ready:
            return super().__setattr__(name, value)
        import torch

        return setattr(self[torch.cuda.current_device()], name, value)


# ------------------------------------------------------------------ cuBLAS switches
_reductions = {"fp16": (True, True), "bf16": (True, True)}
_fp16_accumulation = [False]


class cuBLASModule:  # noqa: N801 - PyTorch's name
    """``torch.backends.cuda.matmul``: the cuBLAS switches (``allow_tf32``,
    ``allow_fp16_reduced_precision_reduction``, ``allow_bf16_reduced_precision_reduction``,
    ``allow_fp16_accumulation``, ``fp32_precision``)."""

    @staticmethod
    def _parse_reduction_setting(value, attr_name: str) -> tuple[bool, bool]:
        def as_bool(obj, which: str) -> bool:
            if isinstance(obj, bool):
                return obj
            raise TypeError(f"{attr_name} expects a bool for {which}, but got {type(obj)!r}")

        if isinstance(value, bool):
            return value, True
        if isinstance(value, (list, tuple)):
            if not value:
                raise TypeError(f"{attr_name} expects at least one boolean argument")
            if len(value) > 2:
                raise TypeError(f"{attr_name} expects at most two boolean arguments")
            reduced = as_bool(value[0], "allow_reduced_precision")
            split_k = as_bool(value[1], "allow_splitk") if len(value) == 2 else True
            return reduced, split_k
        raise TypeError(
            f"{attr_name} expects a bool or a tuple/list of bools, but got {type(value)!r}"
        )

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _precision.cublas_allow_tf32()
        if name.startswith(("allow_fp16_reduced", "allow_bf16_reduced")):
            kind = name[6:10]
            if name == f"allow_{kind}_reduced_precision_reduction":
                return _reductions[kind][0]
            if name == f"allow_{kind}_reduced_precision_reduction_split_k":
                return _reductions[kind][1]
        if name == "allow_fp16_accumulation":
            return _fp16_accumulation[0]
        if name == "fp32_precision":
            return _precision.get("cuda", "matmul")
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            return _precision.set_cublas_allow_tf32(value)
        if name in (
            "allow_fp16_reduced_precision_reduction",
            "allow_bf16_reduced_precision_reduction",
        ):
            _reductions[name[6:10]] = self._parse_reduction_setting(value, name)
            return None
        if name == "allow_fp16_accumulation":
            _precision.check_bool("set_allow_fp16_accumulation_cublas", value)
            _fp16_accumulation[0] = value
            return None
        if name == "fp32_precision":
            return _precision.set("cuda", "matmul", value)
        raise AttributeError("Unknown attribute " + name)


# ------------------------------------------------------------------ preferred libraries
_LinalgBackend = _native_enum(
    "_LinalgBackend",
    {"Default": 0, "Cusolver": 1, "Magma": 2},
    "torch._C",
    "torch._C._LinalgBackend",
)
_BlasBackend = _native_enum(
    "_BlasBackend",
    {"Default": 0, "Cublas": 1, "Cublaslt": 2, "Ck": 3},
    "torch._C",
    "torch._C._BlasBackend",
)
_ROCmFABackend = _native_enum(
    "_ROCmFABackend", {"Default": 0, "AOTriton": 1, "Ck": 2}, "torch._C", "torch._C._ROCmFABackend"
)


def _choices(enum: type, **aliases: str) -> dict:
    """The strings a ``preferred_*_library`` setter takes: each member's lower-case name,
    followed by the ROCm spelling ``aliases[member_name]`` where there is one (the order
    of PyTorch's "Choose from" list)."""
    table = {}
    for name, member in enum.__members__.items():
        table[name.lower()] = member
        if name in aliases:
            table[aliases[name]] = member
    return table


_LINALG = _choices(_LinalgBackend)
_BLAS = _choices(_BlasBackend, Cublas="hipblas", Cublaslt="hipblaslt")
_ROCM_FA = _choices(_ROCmFABackend)
_preferred = {
    "linalg": _LinalgBackend.Default,
    "blas": _BlasBackend.Cublas,  # what PyTorch reports before any choice
    "rocm_fa": _ROCmFABackend.Default,
}


def _choose(table: dict, backend, enum: type, bad_type: type[Exception]):
    if isinstance(backend, str):
        if backend not in table:
            raise RuntimeError(f"Unknown input value. Choose from: {', '.join(table)}.")
        return table[backend]
    if isinstance(backend, enum):
        return backend
    if bad_type is ValueError:
        raise ValueError(f"Unknown input value. Choose from: {', '.join(table)}.")
    raise RuntimeError("Unknown input value type.")


def preferred_linalg_library(backend=None):
    """The library CUDA linear algebra prefers (``"default"``, ``"cusolver"``,
    ``"magma"``); pass a name to choose it. cuSOLVER needs a CUDA runtime; MAGMA is never
    built here."""
    if backend is not None:
        choice = _choose(_LINALG, backend, _LinalgBackend, RuntimeError)
        _preferred["linalg"] = choice  # PyTorch keeps the choice even when it then refuses it
        if choice is _LinalgBackend.Cusolver and not is_built():
            raise RuntimeError(
                "Cannot set preferred backend to cuSOLVER if PyTorch has not been compiled "
                "with cuSOLVER."
            )
        if choice is _LinalgBackend.Magma:
            raise RuntimeError(
                "Cannot set preferred backend to MAGMA if PyTorch has not been compiled with MAGMA."
            )
    return _preferred["linalg"]


def preferred_blas_library(backend=None):
    """The library CUDA matrix products prefer (``"cublas"``, ``"cublaslt"``, ...); pass a
    name to choose it. cuBLASLt needs a CUDA runtime."""
    if backend is not None:
        choice = _choose(_BLAS, backend, _BlasBackend, RuntimeError)
        if choice is _BlasBackend.Cublaslt and not is_built():
            raise RuntimeError(
                "Cannot set preferred backend to cuBLASLt if PyTorch has not been compiled "
                "with cuBLASLt."
            )
        _preferred["blas"] = _BlasBackend.Cublas if choice is _BlasBackend.Default else choice
    return _preferred["blas"]


def preferred_rocm_fa_library(backend=None):
    """The flash-attention library of ROCm builds (kept and read back only)."""
    if backend is not None:
        _preferred["rocm_fa"] = _choose(_ROCM_FA, backend, _ROCmFABackend, ValueError)
    return _preferred["rocm_fa"]


def cublas_workspace_size(size: int | None = None) -> int:
    """cuBLAS's workspace size in bytes (set it with ``size``); needs a CUDA runtime."""
    if not is_built():
        raise _missing_cuda_binding("_cuda_getCublasWorkspaceSize")
    return _runtime_method("cublas_workspace_size")(size)


def cublaslt_workspace_size(size: int | None = None) -> int:
    """cuBLASLt's workspace size in bytes (set it with ``size``); needs a CUDA runtime."""
    if not is_built():
        raise _missing_cuda_binding("_cuda_getCublasLtWorkspaceSize")
    return _runtime_method("cublaslt_workspace_size")(size)


def blas_workspace_size(size: int | None = None, backend=None) -> int:
    """The workspace size of the given (or preferred) BLAS library."""
    if backend is None:
        resolved = preferred_blas_library()
    elif isinstance(backend, str):
        if backend not in _BLAS:
            raise RuntimeError(f"Unknown backend string. Choose from: {', '.join(_BLAS)}.")
        resolved = _BLAS[backend]
    elif isinstance(backend, _BlasBackend):
        resolved = backend
    else:
        raise RuntimeError("Unknown backend type.")
    if resolved is _BlasBackend.Ck:
        raise RuntimeError("CK backend does not use a workspace.")
    if resolved is _BlasBackend.Cublaslt:
        return cublaslt_workspace_size(size)
    return cublas_workspace_size(size)


# ------------------------------------------------------------------ attention
SDPBackend = _native_enum(
    "SDPBackend",
    {
        "ERROR": -1,
        "MATH": 0,
        "FLASH_ATTENTION": 1,
        "EFFICIENT_ATTENTION": 2,
        "CUDNN_ATTENTION": 3,
        "OVERRIDEABLE": 4,
    },
    "torch.nn.attention",
    "torch._C._SDPBackend",
)


class SDPAParams:
    """The arguments of one scaled-dot-product-attention call, as the ``can_use_*``
    checks take them."""

    def __init__(self, *args):
        if len(args) != 7:
            raise TypeError(
                "__init__(): incompatible constructor arguments. The following argument types "
                "are supported:\n    1. torch._C._SDPAParams(arg0: torch.Tensor, arg1: "
                "torch.Tensor, arg2: torch.Tensor, arg3: torch.Tensor | None, arg4: float, "
                "arg5: bool, arg6: bool)"
            )
        (
            self.query,
            self.key,
            self.value,
            self.attn_mask,
            self.dropout,
            self.is_causal,
            self.enable_gqa,
        ) = args


_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True, "fp16_bf16": False}


def _sdp_setter(key: str):
    def enable(enabled: bool) -> None:
        _precision.check_bool("set_sdp_use_math", enabled)  # PyTorch names math for all
        _sdp[key] = enabled

    return enable


def flash_sdp_enabled() -> bool:
    """Whether scaled dot product attention may use the flash kernel."""
    return _sdp["flash"]


def mem_efficient_sdp_enabled() -> bool:
    """Whether scaled dot product attention may use the memory-efficient kernel."""
    return _sdp["mem_efficient"]


def math_sdp_enabled() -> bool:
    """Whether scaled dot product attention may use the plain math kernel."""
    return _sdp["math"]


def cudnn_sdp_enabled() -> bool:
    """Whether scaled dot product attention may use the cuDNN kernel."""
    return _sdp["cudnn"]


def fp16_bf16_reduction_math_sdp_allowed() -> bool:
    """Whether the math kernel may reduce in half precision."""
    return _sdp["fp16_bf16"]


def enable_flash_sdp(enabled: bool) -> None:
    """Allow or forbid the flash attention kernel."""
    _sdp_setter("flash")(enabled)


def enable_mem_efficient_sdp(enabled: bool) -> None:
    """Allow or forbid the memory-efficient attention kernel."""
    _sdp_setter("mem_efficient")(enabled)


def enable_math_sdp(enabled: bool) -> None:
    """Allow or forbid the math attention kernel."""
    _sdp_setter("math")(enabled)


def enable_cudnn_sdp(enabled: bool) -> None:
    """Allow or forbid the cuDNN attention kernel."""
    _sdp_setter("cudnn")(enabled)


def allow_fp16_bf16_reduction_math_sdp(enabled: bool) -> None:
    """Allow or forbid half-precision reductions in the math attention kernel."""
    _sdp_setter("fp16_bf16")(enabled)


def is_flash_attention_available() -> bool:
    """Whether a flash attention kernel is built in (``False``: none is)."""
    return False


def is_ck_sdpa_available() -> bool:
    """Whether ROCm's composable-kernel attention is built in (``False``)."""
    return False


def _fused_kernel_unavailable(kind: str, debug: bool) -> bool:
    if debug:
        _warnings.warn(f"{kind} attention is not built in this project.", stacklevel=3)
    return False


def can_use_flash_attention(params: SDPAParams, debug: bool = False) -> bool:
    """Whether the flash kernel could run ``params`` (``False``: no fused kernel is built)."""
    return _fused_kernel_unavailable("Flash", debug)


def can_use_efficient_attention(params: SDPAParams, debug: bool = False) -> bool:
    """Whether the memory-efficient kernel could run ``params`` (``False``)."""
    return _fused_kernel_unavailable("Memory-efficient", debug)


def can_use_cudnn_attention(params: SDPAParams, debug: bool = False) -> bool:
    """Whether the cuDNN attention kernel could run ``params`` (``False``)."""
    return _fused_kernel_unavailable("cuDNN", debug)


@_contextlib.contextmanager
def _sdp_backends(flash: bool, math: bool, mem_efficient: bool, cudnn: bool):
    previous = dict(_sdp)
    _sdp.update(flash=flash, math=math, mem_efficient=mem_efficient, cudnn=cudnn)
    try:
        yield
    finally:
        _sdp.update(previous)


def sdp_kernel(
    enable_flash: bool = True,
    enable_math: bool = True,
    enable_mem_efficient: bool = True,
    enable_cudnn: bool = True,
):
    """Deprecated: choose the attention kernels inside a ``with`` block (PyTorch points to
    ``torch.nn.attention.sdpa_kernel``). Warns when called, as PyTorch's does."""
    _warnings.warn(
        "`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager "
        "will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context "
        "manager, with updated signature.",
        FutureWarning,
        stacklevel=2,
    )
    return _sdp_backends(enable_flash, enable_math, enable_mem_efficient, enable_cudnn)


cufft_plan_cache = cuFFTPlanCacheManager()
matmul = cuBLASModule()
