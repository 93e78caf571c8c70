"""``torch.autocast``: regions where chosen ops run in lower precision, and the decorators
that keep custom autograd Functions consistent with it."""

from __future__ import annotations

import functools
import warnings

from .. import _dtype
from . import _state

__all__ = ["autocast_decorator", "autocast", "is_autocast_available", "custom_fwd", "custom_bwd"]

#: device types autocast knows (``is_autocast_available``)
_AUTOCAST_DEVICE_TYPES = frozenset(
    {"cpu", "cuda", "xpu", "ipu", "xla", "hpu", "mps", "mtia", "privateuseone"}
)
_CPU_DTYPES = (_dtype.bfloat16, _dtype.float16)


def is_autocast_available(device_type: str) -> bool:
    """Whether autocast can be used for ``device_type`` (``"cpu"``, ``"cuda"``, ...)."""
    return _state._device_type(device_type) in _AUTOCAST_DEVICE_TYPES


def _cuda_available() -> bool:
    import torch.cuda

    return torch.cuda.is_available()


class autocast:  # noqa: N801 - PyTorch's name
    """Run the ops of a region in mixed precision: matrix products and convolutions in a
    lower precision dtype, precision-sensitive ops (losses, linear algebra, FFTs) in
    float32, and concatenations in the widest of their input types. Other ops run on
    what they are given. The table of ops is PyTorch 2.13's for the CPU.

    Works as a context manager and as a decorator; regions nest, and
    ``autocast(..., enabled=False)`` inside one turns it off for a part. Gradients flow
    through the casts: backward runs each op's derivative in the dtype of its forward.

    Args:
        device_type (str): ``"cpu"`` (or ``"cuda"``, which needs a CUDA device).
        dtype (torch.dtype, optional): the lower precision dtype: ``torch.bfloat16``
            (the CPU's default) or ``torch.float16``. Default: the device type's
            (``torch.get_autocast_dtype(device_type)``).
        enabled (bool): whether autocast is on inside the region. Default: True.
        cache_enabled (bool, optional): reuse the cast of a weight (a leaf that requires
            grad) within the region. Default: True.

    Examples::

        >>> a, b = torch.ones(2, 3), torch.ones(3, 2)
        >>> with torch.autocast("cpu", dtype=torch.bfloat16):
        ...     (a @ b).dtype, (a + 1).dtype
        (torch.bfloat16, torch.float32)
    """

    def __init__(
        self,
        device_type: str,
        dtype=None,
        enabled: bool = True,
        cache_enabled: bool | None = None,
    ) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = _state.get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        self.custom_backend_name = "privateuseone"
        self._cache_enabled = (
            _state.is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        )
        self._enabled = enabled
        if not is_autocast_available(device_type):
            raise RuntimeError(
                f"User specified an unsupported autocast device_type '{device_type}'"
            )
        if self.device == "cpu" and self._enabled and self.fast_dtype not in _CPU_DTYPES:
            warnings.warn(
                "In CPU autocast, but the target dtype is not supported. Disabling "
                "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                "torch.float16 currently.",
                stacklevel=2,
            )
            self._enabled = False
        elif self.device == "cuda" and self._enabled and not _cuda_available():
            warnings.warn(
                "CUDA is not available or torch_xla is imported. Disabling autocast.",
                stacklevel=2,
            )
            self._enabled = False

    def __enter__(self):
        self.prev_cache_enabled = _state.is_autocast_cache_enabled()
        self.prev = _state.is_autocast_enabled(self.device)
        self.prev_fastdtype = _state.get_autocast_dtype(self.device)
        _state.set_autocast_dtype(self.device, self.fast_dtype)
        _state.set_autocast_enabled(self.device, bool(self._enabled))
        _state.autocast_increment_nesting()
        _state.set_autocast_cache_enabled(bool(self._cache_enabled))

    def __exit__(self, exc_type, exc_value, traceback):
        if _state.autocast_decrement_nesting() == 0:
            _state.clear_autocast_cache()
        _state.set_autocast_enabled(self.device, self.prev)
        _state.set_autocast_dtype(self.device, self.prev_fastdtype)
        _state.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        return autocast_decorator(self, func)


def autocast_decorator(autocast_instance, func):
    """``func`` run inside the region ``autocast_instance``."""

    @functools.wraps(func)
    def decorate_autocast(*args, **kwargs):
        with autocast_instance:
            return func(*args, **kwargs)

    return decorate_autocast


def _cast(value, device_type: str, dtype):
    """``value`` with its floating-point tensors on ``device_type`` cast to ``dtype``
    (through lists, tuples and dicts)."""
    from .._tensor import Tensor

    if isinstance(value, Tensor):
        eligible = (
            value.is_floating_point()
            and value.device.type == device_type
            and value.dtype is not _dtype.float64
        )
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, dict):
        return {k: _cast(v, device_type, dtype) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, device_type, dtype) for v in value)
    return value


def _check_device_type(device_type) -> None:
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")


def custom_fwd(fwd=None, *, device_type: str, cast_inputs=None):
    """Decorate the ``forward`` of a custom ``torch.autograd.Function`` so that it works
    under autocast: with ``cast_inputs``, forward runs with autocast off on its inputs
    cast to that dtype (when autocast is on); without, it runs under the caller's
    autocast state, which :func:`custom_bwd` then restores for backward.

    Args:
        device_type (str): the device type of the autocast state to follow.
        cast_inputs (torch.dtype, optional): the dtype to run forward in. Default: None.
    """
    _check_device_type(device_type)
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        ctx = args[0]
        ctx._dtype = _state.get_autocast_dtype(device_type)
        if cast_inputs is None:
            ctx._fwd_used_autocast = _state.is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = _state.is_autocast_enabled(device_type)
        ctx._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(
                    *_cast(args, device_type, cast_inputs),
                    **_cast(kwargs, device_type, cast_inputs),
                )
        return fwd(*args, **kwargs)

    return decorate_fwd


def custom_bwd(bwd=None, *, device_type: str):
    """Decorate the ``backward`` of a custom ``torch.autograd.Function`` whose forward
    :func:`custom_fwd` decorates: backward runs under the autocast state of forward.

    Args:
        device_type (str): the device type of the autocast state to follow.
    """
    _check_device_type(device_type)
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        ctx = args[0]
        with autocast(device_type=device_type, enabled=ctx._fwd_used_autocast, dtype=ctx._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd


def _old_name_init(device_type: str, default_dtype):
    """The ``__init__`` of ``torch.<device_type>.amp.autocast``, the deprecated spelling of
    ``autocast(device_type, ...)``: ``dtype`` defaults to ``default_dtype``, and a
    FutureWarning."""

    def __init__(self, enabled: bool = True, dtype=None, cache_enabled: bool = True) -> None:  # noqa: N807
        warnings.warn(
            f"`torch.{device_type}.amp.autocast(args...)` is deprecated. Please use "
            f"`torch.amp.autocast('{device_type}', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        dtype = default_dtype if dtype is None else dtype
        autocast.__init__(
            self, device_type, enabled=enabled, dtype=dtype, cache_enabled=cache_enabled
        )

    __init__.__qualname__ = "autocast.__init__"  # as errors about its arguments name it
    return __init__


def _old_name_class(device_type: str, default_dtype, module: str) -> type:
    """``torch.<device_type>.amp.autocast`` (defined in ``module``): the subclass of
    :class:`autocast` whose ``__init__`` is :func:`_old_name_init`'s."""
    doc = f"""Deprecated: ``torch.amp.autocast("{device_type}", ...)``.

    Args:
        enabled (bool): Default: True.
        dtype (torch.dtype): Default: ``{default_dtype}``.
        cache_enabled (bool): Default: True.
    """
    namespace = {
        "__module__": module,
        "__doc__": doc,
        "__init__": _old_name_init(device_type, default_dtype),
    }
    return type("autocast", (autocast,), namespace)
