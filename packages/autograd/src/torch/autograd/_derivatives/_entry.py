"""The shape of a derivative entry and helpers shared by the formula families."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch._interface import tensors as _tensors


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
    #: keep only the shapes of the inputs that ``saved_inputs`` leaves out, so the node
    #: does not keep them alive (set where that frees activations: PyTorch keeps nothing
    #: of them); off for the hottest ops, whose inputs live on elsewhere anyway
    drops_inputs: bool = False
    #: for each formula, the inputs whose values it reads (only the formulas of inputs that
    #: need a gradient count: ``x * 2`` does not depend on the value of ``x``); ``None``
    #: means ``saved_inputs`` applies whatever needs a gradient
    reads: tuple[tuple[int, ...], ...] | None = None
    #: how many tensors the op returns (``linalg.svd``: U, S, Vh); with more than one, each
    #: formula is ``f(grads, inputs, saved, outputs)``: one gradient per output (``None``
    #: for an output that got none) and the saved outputs (connected to the node under
    #: ``create_graph``, so double backward flows through them)
    outputs: int = 1
    #: with several outputs: whether the formulas read them (then they are saved and
    #: writing into one in place makes backward raise); off for an op whose own saved
    #: state serves its backward (core's fused LSTM layer: its outputs are copies of it)
    reads_outputs: bool = True


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


_Tensor = torch.Tensor
_array = _tensors.array


def input_meta(x):
    """What a node keeps of an input whose value its formulas never read: its shape (a
    ``torch.Size``), so that the input's memory can be freed after the forward pass, as in
    PyTorch. Other arguments are kept as they are."""
    if type(x) is _Tensor:
        return _array(x).shape  # a plain tuple: cheaper than a torch.Size, read the same way
    return x.shape if isinstance(x, _Tensor) else x


def shape_of(x) -> tuple:
    """The shape of a formula's input: a tensor, the shape kept in its place, or a scalar."""
    if isinstance(x, tuple):
        return tuple(x)
    return tuple(x.shape) if isinstance(x, _Tensor) else ()


def conj(x):
    """The complex conjugate of a complex tensor or Python complex; other values as they are.
    Gradients of complex ops carry the conjugate of the local derivative (PyTorch's
    convention: the gradient of a real loss L is dL/d(re z) + i dL/d(im z))."""
    if isinstance(x, _Tensor):
        return x.conj() if x.is_complex() else x
    if isinstance(x, complex):  # a Python complex scalar operand (``z * 1j``)
        return x.conjugate()
    return x


def fit_dtype(grad, x):
    """``grad`` for input ``x``: its real part when ``x`` is a real tensor and ``grad``
    complex (a real input mixed into a complex op); in ``x``'s floating dtype when the op
    promoted it (a bfloat16 input of a float32 product gets a bfloat16 gradient, as the
    engine of PyTorch casts it)."""
    if isinstance(x, _Tensor) and grad.dtype != x.dtype:
        if grad.is_complex() and not x.is_complex():
            grad = grad.real
        if x.is_floating_point() and grad.dtype != x.dtype:
            return grad.to(x.dtype)
    return grad


def holomorphic(formula, index=None):
    """``formula`` (linear in ``grad``, written as ``grad * f'(z)`` for real inputs) with
    PyTorch's complex convention: for a complex gradient it returns
    ``conj(formula(conj(grad)))`` = ``grad * conj(f'(z))``, so every holomorphic op
    gets the conjugate of its derivative. ``index`` is the position of the formula's
    input (``None``: the variadic index argument); a real input gets the real part."""

    def wrapped(grad, inputs, saved, *rest):
        if not (isinstance(grad, _Tensor) and grad.is_complex()):
            return formula(grad, inputs, saved, *rest)
        result = conj(formula(conj(grad), inputs, saved, *rest))
        position = rest[0] if index is None else index
        return fit_dtype(result, inputs[position])

    wrapped.__name__ = getattr(formula, "__name__", "formula")
    wrapped.__qualname__ = wrapped.__name__
    return wrapped


def holomorphic_entry(entry: Derivative) -> Derivative:
    """``entry`` with every formula made :func:`holomorphic`."""
    import dataclasses

    if entry.variadic:
        formulas = tuple(holomorphic(f) for f in entry.formulas)
    else:
        formulas = tuple(holomorphic(f, i) for i, f in enumerate(entry.formulas))
    return dataclasses.replace(entry, formulas=formulas)


def not_implemented(op_name: str) -> Callable:
    """A formula for an op that PyTorch records but does not differentiate (its node is
    ``NotImplemented``): calling it raises the RuntimeError PyTorch's backward raises."""

    def formula(grad, inputs, saved):
        raise RuntimeError(f"derivative for aten::{op_name} is not implemented")

    return formula
