"""The autocast interceptor: casts the arguments of the ops of the autocast table.

It is active (``torch._op_calls``) only while autocast is on in some thread; each call
then reads this thread's state, so threads without autocast run ops unchanged.
"""

from __future__ import annotations

from .. import _dtype, _op_calls
from .._tensor import Tensor
from . import _policy
from ._state import get_autocast_dtype, state

__all__ = ["interceptor"]

_float32, _float64 = _dtype.float32, _dtype.float64


class _AutocastInterceptor:
    # inside a profile and transform levels, outside a trace (which records the casts)
    order = _op_calls.AUTOCAST_ORDER

    def wants(self, op_name: str) -> bool:
        return op_name in _policy.POLICY or op_name in _policy.CONDITIONAL

    def __call__(self, op_name, function, args, kwargs):
        local = state
        if local.running_cast_op or not any(local.enabled.values()):
            return function(*args, **kwargs)
        if kwargs.get("out") is not None:  # out variants are not autocast ops
            return function(*args, **kwargs)
        policy = _policy.policy_of(op_name, args, kwargs)
        if policy is None:
            return function(*args, **kwargs)
        if policy is not _policy.AS_IS:
            args, kwargs = _cast_arguments(policy, args, kwargs, local)
        # PyTorch runs the op with autocast excluded: its inner ops are left alone
        local.running_cast_op = True
        try:
            return function(*args, **kwargs)
        finally:
            local.running_cast_op = False


interceptor = _AutocastInterceptor()


def _eligible(value, local) -> bool:
    """A floating-point tensor, not float64, on a device autocast is on for."""
    return (
        isinstance(value, Tensor)
        and value.dtype.is_floating_point
        and value.dtype is not _float64
        and local.enabled.get(value.device.type, False)
    )


def _tensors(args, kwargs):
    for value in (*args, *kwargs.values()):
        if isinstance(value, Tensor):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (item for item in value if isinstance(item, Tensor))


def _cast_arguments(policy, args, kwargs, local):
    targets = {}  # device type -> dtype its eligible tensors are cast to
    for tensor in _tensors(args, kwargs):
        if not _eligible(tensor, local):
            continue
        kind = tensor.device.type
        if policy == _policy.LOWER:
            targets[kind] = get_autocast_dtype(kind)
        elif policy == _policy.FLOAT32:
            targets[kind] = _float32
        else:
            current = targets.get(kind) or get_autocast_dtype(kind)
            targets[kind] = _prioritize(current, tensor.dtype, get_autocast_dtype(kind))
    if not targets:
        return args, kwargs
    cache = policy == _policy.LOWER and local.cache_enabled

    def cast(value):
        if isinstance(value, Tensor):
            if not _eligible(value, local):
                return value
            return _cast(value, targets[value.device.type], cache, local)
        if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
            return type(value)(cast(item) for item in value)
        return value

    return tuple(cast(a) for a in args), {k: cast(v) for k, v in kwargs.items()}


def _prioritize(current, candidate, lower):
    """The dtype of a promote op so far, given one more eligible argument (PyTorch's
    rule: float32 wins over the autocast dtype; a third floating type is an error)."""
    if current is _float32 or candidate is current:
        return current
    if current is lower and candidate is _float32:
        return _float32
    raise RuntimeError("Unexpected floating ScalarType in at::autocast::prioritize")


def _cast(tensor: Tensor, dtype, cache: bool, local) -> Tensor:
    if tensor.dtype is dtype:
        return tensor
    # weights (leaves that require grad) are cast once per autocast region
    if cache and tensor.requires_grad and tensor.grad_fn is None:
        key = id(tensor)
        hit = local.cache.get(key)
        if hit is not None and hit[0] is tensor and hit[1].dtype is dtype:
            return hit[1]
        cast = tensor.to(dtype)
        local.cache[key] = (tensor, cast)
        return cast
    return tensor.to(dtype)
