"""Derivatives of the shape-building family (``cat``, ``repeat``, ``roll``, ...)."""

from __future__ import annotations

import torch

from ._entry import Derivative, holomorphic_entry


def _cat(grad, inputs, saved, index):
    dim, sizes = saved.dim, saved.sizes
    if sizes[index] == 0 and inputs[index].dim() == 1 and grad.dim() > 1:
        return torch.zeros_like(inputs[index])  # a skipped empty tensor
    start = sum(sizes[:index])
    return grad.narrow(dim, start, sizes[index])


def _repeat(grad, inputs, saved):
    repeats = saved.repeats
    x = inputs[0]
    shape = (1,) * (len(repeats) - x.dim()) + tuple(x.shape)
    interleaved = []
    for r, s in zip(repeats, shape):
        interleaved += [r, s]
    summed = grad.reshape(interleaved).sum(tuple(range(0, 2 * len(shape), 2)))
    return summed.reshape(tuple(x.shape))


def _roll(grad, inputs, saved):
    return torch.roll(grad, tuple(-s for s in saved.shifts), saved.dims)


def _tril(grad, inputs, saved):
    return torch.tril(grad, saved.diagonal)


def _triu(grad, inputs, saved):
    return torch.triu(grad, saved.diagonal)


def _diag(grad, inputs, saved):
    diagonal = saved.diagonal
    x = inputs[0]
    if x.dim() == 1:
        return torch.diag(grad, diagonal)
    rows, cols = tuple(x.shape)
    start_row, start_col = max(-diagonal, 0), max(diagonal, 0)
    count = grad.shape[0]
    result = torch.zeros_like(x)
    result[torch.arange(count) + start_row, torch.arange(count) + start_col] = grad
    return result


def _einsum(grad, inputs, saved, index):
    specs, output = saved.specs, saved.output
    mine = specs[index]
    if len(set(mine)) != len(mine):
        raise NotImplementedError(
            "the derivative of einsum with a repeated subscript in one "
            "operand (a diagonal) is not implemented"
        )
    others = [s for i, s in enumerate(specs) if i != index]
    available = set(output).union(*others) if others else set(output)
    kept = "".join(c for c in mine if c in available)
    partial = torch.einsum(
        ",".join(others + [output]) + "->" + kept,
        *[t for i, t in enumerate(inputs) if i != index],
        grad,
    )
    shape = tuple(inputs[index].shape)
    full = [shape[i] if c in available else 1 for i, c in enumerate(mine)]
    return partial.reshape(full).expand(shape)


SHAPE_OPS = {
    # these read only their inputs' shapes (and zeros_like of them)
    "cat": Derivative("CatBackward0", (_cat,), variadic=True, saved_inputs=()),
    "repeat": Derivative("RepeatBackward0", (_repeat,), saved_inputs=()),
    "roll": Derivative("RollBackward0", (_roll,), saved_inputs=()),
    "tril": Derivative("TrilBackward0", (_tril,), saved_inputs=()),
    "triu": Derivative("TriuBackward0", (_triu,), saved_inputs=()),
    "diag": Derivative("DiagBackward0", (_diag,), saved_inputs=()),
    "einsum": holomorphic_entry(Derivative("EinsumBackward0", (_einsum,), variadic=True)),
}
