"""Reductions along one dimension: ``Sum``, ``Mean`` and ``Max``."""

from __future__ import annotations

import torch

from .module import Module

__all__ = ["Sum", "Mean", "Max"]


def _dimension(module, input):
    """``module.dimension`` (0-based, negative from the end), moved one to the right when
    ``nInputDims`` says the input is a batch."""
    dim = module.dimension
    if dim < 0:
        dim += input.dim()
    elif module.nInputDims > 0 and input.dim() == module.nInputDims + 1:
        dim += 1
    if not 0 <= dim < max(input.dim(), 1):
        raise IndexError(
            f"{type(module).__name__}: dimension {module.dimension} is out of range for an "
            f"input of size {tuple(input.shape)}"
        )
    return dim


class Sum(Module):
    """The sum (or with ``sizeAverage=True`` the mean) over ``dimension``.

    Args:
        dimension (int): 0-based. Default: ``0``.
        nInputDims (int): dimensions of one sample; an input with one more is a batch and
            is reduced over ``dimension + 1``. Default: ``-1`` (no batch rule).
        sizeAverage (bool): divide by the size of ``dimension``. Default: ``False``.
        squeeze (bool): drop the reduced dimension. Default: ``True``.

    Examples::

        >>> nn.Sum(1).forward(torch.ones(2, 3))
        tensor([3., 3.])
    """

    # class defaults: a module read from an older .t7 file may lack them
    nInputDims = -1
    sizeAverage = False
    squeeze = True

    def __init__(self, dimension=0, nInputDims=-1, sizeAverage=False, squeeze=True):
        super().__init__()
        self.dimension, self.nInputDims = dimension, nInputDims
        self.sizeAverage, self.squeeze = sizeAverage, squeeze

    def updateOutput(self, input):
        dim = _dimension(self, input)
        out = input.sum(dim, keepdim=not self.squeeze)
        if self.sizeAverage:
            out = out / input.size(dim)
        self.output = out
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = _dimension(self, input)
        grad = gradOutput.unsqueeze(dim) if self.squeeze else gradOutput
        grad = grad.expand(input.shape).contiguous()
        if self.sizeAverage:
            grad = grad / input.size(dim)
        self.gradInput = grad
        return self.gradInput


class Mean(Sum):
    """The mean over ``dimension`` (:class:`Sum` with ``sizeAverage=True``).

    Examples::

        >>> nn.Mean(0).forward(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor([2., 3.])
    """

    def __init__(self, dimension=0, nInputDims=-1):
        super().__init__(dimension, nInputDims, sizeAverage=True)


class Max(Module):
    """The maximum over ``dimension``; ``indices`` keeps where each maximum was (0-based).

    Examples::

        >>> m = nn.Max(1)
        >>> m.forward(torch.tensor([[1.0, 5.0], [7.0, 2.0]])), m.indices
        (tensor([5., 7.]), tensor([1, 0]))
    """

    _buffers_to_clear = ("indices",)
    indices = None
    nInputDims = -1

    def __init__(self, dimension=0, nInputDims=-1):
        super().__init__()
        self.dimension, self.nInputDims = dimension, nInputDims
        self.indices = None

    def updateOutput(self, input):
        dim = _dimension(self, input)
        self.output, self.indices = input.max(dim)
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = _dimension(self, input)
        grad = torch.zeros_like(input)
        grad.scatter_(dim, self.indices.unsqueeze(dim), gradOutput.unsqueeze(dim))
        self.gradInput = grad
        return self.gradInput
