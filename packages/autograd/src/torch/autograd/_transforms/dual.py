"""Forward-mode AD: a :class:`DualLevel` and its :class:`DualTensor` wrappers (a primal
and the tangent carried with it). An op on dual tensors computes its primal result with
the plain op and its tangent with the op's JVP rule (``jvp_rules``); an op without a
rule raises PyTorch's "Trying to use forward AD with ..." error."""

from __future__ import annotations

import torch

from .levels import Level, TransformTensor, _map_args, call

__all__ = ["DualTensor", "DualLevel", "make_dual_tensor", "unwrap_dual"]

_Tensor = torch.Tensor


class DualTensor(TransformTensor):
    """A primal tensor with its tangent, at one dual level."""

    __slots__ = ("_primal", "_tangent")

    def _inner(self):
        return self._primal

    def _logical_shape(self) -> tuple:
        return tuple(self._primal.shape)

    def _outside(self):
        return self._primal  # after its level exited a dual tensor is its primal

    def __repr__(self) -> str:
        from .levels import _active

        if self._level not in _active:
            return repr(self._primal)
        text = repr(self._primal)
        return f"{text[:-1]}, tangent={self._tangent!r})"

    __str__ = __repr__

    def item(self):
        return self._primal.item()

    def tolist(self):
        return self._primal.tolist()

    def __bool__(self) -> bool:
        return bool(self._primal)

    def __float__(self) -> float:
        return float(self._primal)

    def __int__(self) -> int:
        return int(self._primal)

    def __index__(self) -> int:
        return self._primal.__index__()

    def numpy(self, *args, **kwargs):
        return self._primal.numpy(*args, **kwargs)


def make_dual_tensor(level: DualLevel, primal, tangent):
    wrapper = object.__new__(DualTensor)
    wrapper._level = level.number
    wrapper._primal = primal
    wrapper._tangent = tangent
    return wrapper


def unwrap_dual(level: DualLevel, x):
    """(primal, tangent or None) of ``x`` at ``level``."""
    if isinstance(x, DualTensor) and x._level == level.number:
        return x._primal, x._tangent
    return x, None


def _differentiable(x) -> bool:
    return isinstance(x, _Tensor) and (x.is_floating_point() or x.is_complex())


class DualLevel(Level):
    kind = "dual"

    def primal(self, x):
        return unwrap_dual(self, x)[0]

    def tangent(self, x):
        return unwrap_dual(self, x)[1]

    def wrap(self, primal, tangent):
        if tangent is None or not _differentiable(primal):
            return primal
        return make_dual_tensor(self, primal, tangent)

    def wrap_tree(self, out, tangent):
        if isinstance(out, _Tensor):
            return self.wrap(out, tangent)
        if isinstance(out, (tuple, list)):
            tangents = tangent if tangent is not None else [None] * len(out)
            items = [self.wrap_tree(o, t) for o, t in zip(out, tangents)]
            if type(out) in (tuple, list):
                return type(out)(items)
            return type(out)(*items)  # a named tuple of results
        return out

    def process(self, name, original, args, kwargs):
        from .jvp_rules import jvp_rule

        primal_args, primal_kwargs = _map_args(args, kwargs, self.primal)
        has_tangent = any(
            self.tangent(w) is not None
            for value in (*args, *kwargs.values())
            for w in (value if type(value) in (list, tuple) else (value,))
            if isinstance(w, TransformTensor)
        )
        if not has_tangent:
            return call(name, original, primal_args, primal_kwargs)
        rule = jvp_rule(name)
        return rule(self, name, original, args, kwargs, primal_args, primal_kwargs)
