"""Levels of the function transforms (``torch.func.vmap``, forward-mode AD): the wrapper
tensors each level makes, the stack of active levels and the dispatch of an op call on
wrappers to the level that owns the outermost one.

A wrapper (:class:`TransformTensor`) is a ``Tensor`` subclass holding no data of its own:
a :class:`~torch.func._vmap.BatchedTensor` holds a tensor with one more dim (the batch),
a :class:`~torch.autograd._transforms.dual.DualTensor` a primal and a tangent. What a
wrapper holds may itself be a wrapper of a lower (outer) level, so transforms nest: the
level numbers grow inwards, and an op call is handled by the highest level among its
arguments, whose rule computes with what the wrappers hold (those calls dispatch again,
down to plain tensors).

Op calls reach :func:`dispatch` two ways: ``Tensor`` methods are overridden on the
wrapper class, and the ``torch.*`` functions and the op registry's functions are
interposed while a level is active (:mod:`._interpose`). A core kernel that is handed a
wrapper some other way reads its array and raises :data:`ESCAPED`, naming the op.
"""

from __future__ import annotations

import torch
from torch._interface import tensors as _tensors

__all__ = ["TransformTensor", "Level", "dispatch", "call", "has_wrapper", "active_levels"]

_Tensor = torch.Tensor

#: the active levels, by number (a dict keeps them in the order they were entered)
_active: dict[int, Level] = {}
_next_level = [1]


class Level:
    """One active transform: subclasses implement :meth:`process` (an op call whose
    highest-level wrapper is this level's) and :meth:`lift_dead` (a wrapper of this
    level met after the level exited)."""

    kind = "level"

    def __init__(self) -> None:
        self.number = 0

    def enter(self) -> Level:
        from . import _interpose

        self.number = _next_level[0]
        _next_level[0] += 1
        _active[self.number] = self
        _interpose.install()
        return self

    def exit(self) -> None:
        from . import _interpose

        _active.pop(self.number, None)
        _interpose.uninstall()

    def process(self, name, original, args, kwargs):
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.number})"


def active_levels() -> list[Level]:
    """The active levels, outermost first."""
    return list(_active.values())


def _escaped(self):
    raise RuntimeError(
        f"a {type(self).__name__} (a tensor inside torch.func.vmap or forward-mode AD) "
        "reached a kernel directly; this op has no transform rule on this path"
    )


class TransformTensor(_Tensor):
    """Base of the wrappers: a ``Tensor`` to ``isinstance`` and to user code, whose ops
    go to :func:`dispatch`. ``_level`` is the number of the level that made it."""

    __slots__ = ("_level",)

    # -- metadata, from what the wrapper holds (subclasses define _logical_*)
    @property
    def shape(self):
        return torch.Size(self._logical_shape())

    def size(self, dim=None):
        shape = self._logical_shape()
        if dim is None:
            return torch.Size(shape)
        return shape[_wrap(dim, len(shape))]

    def dim(self) -> int:
        return len(self._logical_shape())

    ndimension = dim

    @property
    def ndim(self) -> int:
        return len(self._logical_shape())

    def numel(self) -> int:
        count = 1
        for n in self._logical_shape():
            count *= n
        return count

    nelement = numel

    def __len__(self) -> int:
        shape = self._logical_shape()
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return shape[0]

    def element_size(self) -> int:
        return self._inner().element_size()

    def is_floating_point(self) -> bool:
        return self._inner().is_floating_point()

    def is_complex(self) -> bool:
        return self._inner().is_complex()

    def is_contiguous(self, memory_format=None) -> bool:
        return True

    @property
    def grad(self):
        return None

    def __hash__(self) -> int:
        return id(self)

    def __iter__(self):
        return iter(self.unbind(0))

    def _inner(self):
        raise NotImplementedError

    def _logical_shape(self) -> tuple:
        raise NotImplementedError


def _from_inner(name: str) -> property:
    return property(lambda self: getattr(self._inner(), name))


# metadata that the wrapped tensor answers for its wrapper
for _name in (
    "dtype", "device", "layout", "is_cuda", "is_cpu", "itemsize", "requires_grad", "is_leaf",
    "grad_fn", "_version",
):  # fmt: skip
    setattr(TransformTensor, _name, _from_inner(_name))

_tensors.block_array_reads(TransformTensor, _escaped)

#: ``Tensor`` members the wrappers answer themselves (above) or that only plumbing uses
_OWN = {name for name in vars(TransformTensor) if not name.startswith("__")} | {
    "__init__",
    "__new__",
    "__init_subclass__",
    "__getattribute__",
    "__getattr__",
    "__setattr__",
    "__delattr__",
    "__hash__",
    "__len__",
    "__iter__",
    "__class_getitem__",
    "__reduce__",
    "__reduce_ex__",
    "__getstate__",
    "__setstate__",
    "__sizeof__",
    "__dir__",
    "__repr__",
    "__str__",
    "__format__",
    "__deepcopy__",
    "__copy__",
    "__array_priority__",
    "_wrap_dim",
}

#: properties computed by an op: dispatched under these names
_OP_PROPERTIES = ("T", "mT", "H", "mH", "real", "imag", "data")


def _wrap(dim: int, rank: int) -> int:
    bound = max(rank, 1)
    if not -bound <= dim < bound:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-bound}, {bound - 1}], "
            f"but got {dim})"
        )
    return dim % bound


def _method(name: str, original):
    def method(self, *args, **kwargs):
        return dispatch(name, original, (self, *args), kwargs)

    method.__name__ = method.__qualname__ = name
    return method


def _op_property(name: str):
    def original(t):
        return getattr(t, name)

    def getter(self):
        return dispatch(name, original, (self,), {})

    return property(getter)


def _reflected(name: str, reflected):
    """``Tensor.__rmul__`` and friends take numbers only (a tensor on the left runs its own
    ``__mul__``); the wrapper's reflected operator also meets tensors on the left (a plain
    tensor times a wrapper), so the plain function runs the forward operator for them."""
    forward = getattr(_Tensor, "__" + name[3:])

    def original(self, other):
        if isinstance(other, _Tensor):
            return forward(other, self)
        return reflected(self, other)

    return original


def _install_methods() -> None:
    """Override every op method of ``Tensor`` on the wrapper class with one that
    dispatches (generated from ``Tensor`` as core bound it)."""
    for name, value in list(vars(_Tensor).items()):
        if name in _OWN or isinstance(value, (property, staticmethod, classmethod, type)):
            continue
        if callable(value):
            if (
                name.startswith("__r")
                and hasattr(_Tensor, "__" + name[3:])
                and name != "__rshift__"
            ):
                value = _reflected(name, value)
            setattr(TransformTensor, name, _method(name, value))
    for name in _OP_PROPERTIES:
        setattr(TransformTensor, name, _op_property(name))


_install_methods()


# ------------------------------------------------------------------------------ dispatch


def _wrappers_in(value):
    if isinstance(value, TransformTensor):
        yield value
    elif type(value) in (list, tuple):
        for item in value:
            if isinstance(item, TransformTensor):
                yield item


def has_wrapper(args, kwargs) -> bool:
    for value in args:
        if isinstance(value, TransformTensor):
            return True
        if type(value) in (list, tuple) and any(isinstance(v, TransformTensor) for v in value):
            return True
    if kwargs:
        for value in kwargs.values():
            if isinstance(value, TransformTensor):
                return True
            if type(value) in (list, tuple) and any(isinstance(v, TransformTensor) for v in value):
                return True
    return False


def _map_args(args, kwargs, fn):
    def one(value):
        if isinstance(value, TransformTensor):
            return fn(value)
        if type(value) in (list, tuple) and any(isinstance(v, TransformTensor) for v in value):
            return type(value)(fn(v) if isinstance(v, TransformTensor) else v for v in value)
        return value

    return tuple(one(v) for v in args), {k: one(v) for k, v in kwargs.items()}


def _strip_dead(x):
    """A wrapper whose level exited: what it stands for outside the transform."""
    while isinstance(x, TransformTensor) and x._level not in _active:
        x = x._outside()
    return x


def dispatch(name: str, original, args, kwargs):
    """Run op ``name`` (``original`` computes it on unwrapped tensors) on arguments some of
    which are wrappers: the level of the highest wrapper handles it."""
    top = 0
    dead = False
    for value in (*args, *kwargs.values()):
        for w in _wrappers_in(value):
            if w._level in _active:
                top = max(top, w._level)
            else:
                dead = True
    if dead:
        args, kwargs = _map_args(args, kwargs, _strip_dead)
    if top == 0:
        return call(name, original, args, kwargs)
    return _active[top].process(name, original, args, kwargs)


def call(name: str, original, args, kwargs):
    """``original(*args, **kwargs)``, dispatched again if wrappers remain among them."""
    if has_wrapper(args, kwargs):
        return dispatch(name, original, args, kwargs)
    return original(*args, **kwargs)
