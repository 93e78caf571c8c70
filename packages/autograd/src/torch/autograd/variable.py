"""``torch.autograd.variable``: ``Variable``, the wrapper that 0.4 merged into ``Tensor``.

``Variable(t, requires_grad=True)`` still builds a tensor (a detached alias of ``t``, so
the old wrapping habit keeps working), and ``isinstance(x, Variable)`` is True for every
tensor, as in PyTorch, whose ``Variable`` is likewise a class whose metaclass answers the
check. ``type(Variable(t))`` is ``torch.Tensor``.
"""

from __future__ import annotations

import warnings

import torch
from torch._interface import get_grad_engine

from ._engine import Engine as ImperativeEngine

__all__ = ["Variable", "VariableMeta", "ImperativeEngine"]


class VariableMeta(type):
    """Metaclass of :class:`Variable`: every tensor is an instance."""

    _execution_engine: ImperativeEngine

    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, torch.Tensor)


class Variable(metaclass=VariableMeta):
    """The 0.3 wrapper of a tensor; now a constructor of tensors.

    ``Variable(data, requires_grad=False, volatile=False)`` returns a tensor sharing
    ``data``'s memory, cut from its graph (a leaf), requiring grad when asked;
    ``Variable()`` is an empty tensor. ``volatile`` has no effect (it warns; use
    ``torch.no_grad()``).

    Examples::

        >>> from torch.autograd import Variable
        >>> x = Variable(torch.ones(2), requires_grad=True)
        >>> type(x), x.requires_grad, isinstance(torch.zeros(1), Variable)
        (<class 'torch.Tensor'>, True, True)
    """

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if volatile:
            warnings.warn(
                "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                UserWarning,
                stacklevel=2,
            )
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if data is None:
            result = torch.empty(0)
        elif isinstance(data, torch.Tensor):
            result = data.detach()
        else:
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad:
            if not (result.is_floating_point() or result.is_complex()):
                # the constructor's own wording (requires_grad_ says "only ...")
                raise RuntimeError(
                    "Only Tensors of floating point and complex dtype can require gradients"
                )
            result.requires_grad_(True)
        return result


# the engine that runs backward passes, as ``Variable._execution_engine`` in PyTorch
VariableMeta._execution_engine = property(lambda cls: get_grad_engine())
