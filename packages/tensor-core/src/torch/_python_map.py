"""``Tensor.apply_``, ``map_`` and ``map2_``: a Python callable applied element by element
(the Lua Torch ``apply``/``map``/``map2`` kept by PyTorch), and the warnings of the
removed ``volatile`` flag.

Each element reaches the callable as the Python number its dtype stands for (``float``,
``int``, ``bool`` or ``complex``), in the tensor's logical (row-major) order, and the
result is converted back as PyTorch converts it: integers unpacked as int64 and checked
against the dtype's range (``uint8`` lets negative values wrap), floats and 0-dim tensors
accepted where the dtype allows. The writes do not bump the version counter, as in
PyTorch, where these methods bypass autograd entirely.
"""

from __future__ import annotations

import numbers
import operator
import warnings

import numpy as np

from . import _dtype
from ._tensor import Tensor

__all__ = ["apply_", "map_", "map2_", "warn_volatile_read", "warn_volatile_set"]

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def warn_volatile_read() -> None:
    warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=3)


def warn_volatile_set() -> None:
    warnings.warn(
        "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
        stacklevel=3,
    )


def apply_(self: Tensor, fn) -> Tensor:
    _check(self, "apply_", ())
    _run(self, fn, ())
    return self


def map_(self: Tensor, other, fn) -> Tensor:
    _check_tensor_arguments("map_", (("other", other),))
    _check(self, "map_", (other,))
    _check_dtype(self, other, "map_: expected {} for 'other' (got {})")
    _run(self, fn, (other.expand(self.shape),))
    return self


def map2_(self: Tensor, x, y, fn) -> Tensor:
    _check_tensor_arguments("map2_", (("x", x), ("y", y)))
    _check(self, "map2_", (x, y))
    _check_dtype(self, x, "map2_: expected {} for argument 'x' (got {})")
    _check_dtype(self, y, "map2_: expected {} for argument 'y' (got {})")
    _run(self, fn, (x.expand(self.shape), y.expand(self.shape)))
    return self


def _check_tensor_arguments(name: str, arguments) -> None:
    for position, (argument, value) in enumerate(arguments, start=1):
        if not isinstance(value, Tensor):
            raise TypeError(
                f"{name}(): argument '{argument}' (position {position}) must be Tensor, not "
                f"{type(value).__name__}"
            )


def _check(self: Tensor, name: str, others: tuple) -> None:
    if any(t._requires_grad for t in (self, *others)):
        raise RuntimeError(
            f"Can't call {name}() on Variable that requires grad. Use "
            f"var.detach().{name}() instead."
        )
    if any(t._device.type != "cpu" for t in (self, *others)):
        raise TypeError(f"{name} is only implemented on CPU tensors")


def _check_dtype(self: Tensor, other: Tensor, message: str) -> None:
    if other._dtype is not self._dtype:
        raise TypeError(message.format(_type_name(self), _type_name(other)))


def _type_name(t: Tensor) -> str:
    return f"torch.{t._dtype._legacy}"


def _run(self: Tensor, fn, others: tuple) -> None:
    target = self._np
    sources = [o._np for o in others]
    read, convert = _converters(self._dtype)
    other_reads = [_converters(o._dtype)[0] for o in others]
    with np.errstate(over="ignore", invalid="ignore"):  # a float too large becomes inf
        for index in np.ndindex(target.shape):
            arguments = [read(target[index])]
            arguments += [r(s[index]) for r, s in zip(other_reads, sources)]
            target[index] = convert(fn(*arguments))


def _converters(dtype):
    """(element -> Python number, callable's result -> value to store) for ``dtype``."""
    if dtype is _dtype.bool_:
        return bool, _to_bool
    if dtype.is_complex:
        return complex, _to_complex
    if dtype.is_floating_point:
        return float, _to_float
    info = np.iinfo(dtype.np_dtype)
    return int, lambda value: _to_int(value, dtype, info)


def _unwrap(value):
    # a 0-dim (or one-element) tensor stands for its number
    return value.item() if isinstance(value, Tensor) else value


def _to_float(value):
    value = _unwrap(value)
    if isinstance(value, numbers.Real):
        return float(value)
    raise TypeError(f"must be real number, not {type(value).__name__}")


def _to_complex(value):
    value = _unwrap(value)
    if isinstance(value, numbers.Number):
        return complex(value)
    raise TypeError(f"must be real number, not {type(value).__name__}")


def _as_int64(value):
    """PyTorch's unpacking of an integer argument: floats truncate, other objects need
    ``__index__``, and the result must fit an int64."""
    value = _unwrap(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    value = operator.index(value)
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    return value


def _to_bool(value) -> bool:
    return bool(_as_int64(value))


def _to_int(value, dtype, info):
    value = _as_int64(value)
    low = -info.max if info.min == 0 else info.min  # unsigned: negatives wrap around
    if not low <= value <= info.max or value != value:
        raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")
    return int(value) % (info.max + 1) if info.min == 0 else int(value)
