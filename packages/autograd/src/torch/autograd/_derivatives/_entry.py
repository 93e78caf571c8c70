"""The shape of a derivative entry and helpers shared by the formula families."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Derivative:
    #: class name of the graph node (``AddBackward0``, as PyTorch names it)
    node_name: str
    #: one formula per op input, in order; for a variadic op (``cat``), one formula
    #: called as ``f(grad, inputs, saved, index)`` for every input
    formulas: tuple[Callable, ...]
    variadic: bool = False
    #: indices of the inputs whose values the formulas read (their versions are checked
    #: at backward time); ``None`` means every tensor input, ``()`` none (shapes only)
    saved_inputs: tuple[int, ...] | None = None
    #: whether the formulas need the op's result, as PyTorch saves it (``exp``, ``tanh``):
    #: writing into the result in place then makes backward raise
    saves_output: bool = False


def sum_to_shape(grad, shape: tuple):
    """Undo broadcasting: sum ``grad`` over the dims that broadcasting added or stretched
    so it has ``shape``."""
    lead = grad.dim() - len(shape)
    if lead < 0:  # the input had extra leading size-1 dims that the op dropped
        return grad.reshape(shape)
    if lead > 0:
        grad = torch.sum(grad, tuple(range(lead)))
    stretched = tuple(i for i, size in enumerate(shape) if size == 1 and grad.shape[i] != 1)
    if stretched:
        grad = torch.sum(grad, stretched, keepdim=True)
    return grad


def shape_of(x) -> tuple:
    return tuple(x.shape) if isinstance(x, torch.Tensor) else ()
