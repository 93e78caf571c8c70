"""Modules whose input or output is a list of tensors (Lua's tables): ``JoinTable``,
``SelectTable``, ``CAddTable`` and ``CMulTable``."""

from __future__ import annotations

import torch

from .module import Module

__all__ = ["JoinTable", "SelectTable", "CAddTable", "CMulTable"]


def _batch_dim(dimension, nInputDims, input):
    """Lua's batch rule: with ``nInputDims`` given, an input with one more dimension is a
    batch, and ``dimension`` moves one to the right."""
    if nInputDims is not None and input.dim() == nInputDims + 1 and dimension >= 0:
        return dimension + 1
    return dimension


def _zeros_like_nested(value):
    if torch.is_tensor(value):
        return torch.zeros_like(value)
    return [_zeros_like_nested(v) for v in value]


class JoinTable(Module):
    """Concatenate a list of tensors along ``dimension`` (0-based).

    Args:
        dimension (int): the dimension to join along.
        nInputDims (int, optional): the dimensions of one sample; an input with one more
            is a batch and is joined along ``dimension + 1``. Default: ``None``.

    Examples::

        >>> nn.JoinTable(0).forward([torch.ones(2), torch.zeros(1)])
        tensor([1., 1., 0.])
    """

    nInputDims = None
    _repr_attribute = "dimension"

    def __init__(self, dimension, nInputDims=None):
        super().__init__()
        self.dimension = dimension
        self.nInputDims = nInputDims

    def updateOutput(self, input):
        dim = _batch_dim(self.dimension, self.nInputDims, input[0])
        self.output = torch.cat(list(input), dim)
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = _batch_dim(self.dimension, self.nInputDims, input[0])
        grads, offset = [], 0
        for x in input:
            grads.append(gradOutput.narrow(dim, offset, x.size(dim)).clone())
            offset += x.size(dim)
        self.gradInput = grads
        return self.gradInput


class SelectTable(Module):
    """Output the element ``index`` (0-based; negative counts from the end) of a list.

    Examples::

        >>> nn.SelectTable(-1).forward([torch.zeros(1), torch.ones(2)])
        tensor([1., 1.])
    """

    _repr_attribute = "index"

    def __init__(self, index):
        super().__init__()
        self.index = index

    def _checked(self, input):
        if not -len(input) <= self.index < len(input):
            raise IndexError(
                f"SelectTable: index {self.index} is out of range for a list of "
                f"{len(input)} elements"
            )
        return self.index % len(input)

    def updateOutput(self, input):
        self.output = input[self._checked(input)]
        return self.output

    def updateGradInput(self, input, gradOutput):
        chosen = self._checked(input)
        grads = [_zeros_like_nested(x) for x in input]
        grads[chosen] = gradOutput
        self.gradInput = grads
        return self.gradInput


class CAddTable(Module):
    """The elementwise sum of a list of tensors of one shape.

    Examples::

        >>> nn.CAddTable().forward([torch.ones(2), torch.ones(2)])
        tensor([2., 2.])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def updateOutput(self, input):
        total = input[0] if self.inplace else input[0].clone()
        for x in input[1:]:
            total.add_(x)
        self.output = total
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = [gradOutput.clone().view_as(x) for x in input]
        return self.gradInput


class CMulTable(Module):
    """The elementwise product of a list of tensors of one shape.

    Examples::

        >>> nn.CMulTable().forward([torch.tensor([2.0, 3.0]), torch.tensor([4.0, 5.0])])
        tensor([ 8., 15.])
    """

    def updateOutput(self, input):
        product = input[0].clone()
        for x in input[1:]:
            product.mul_(x)
        self.output = product
        return self.output

    def updateGradInput(self, input, gradOutput):
        grads = []
        for i in range(len(input)):
            grad = gradOutput.clone()
            for j, x in enumerate(input):
                if j != i:
                    grad.mul_(x)
            grads.append(grad)
        self.gradInput = grads
        return self.gradInput
