"""Modules that only rearrange their input: ``Identity``, ``Reshape``, ``View``,
``Narrow`` and ``Transpose``."""

from __future__ import annotations

import math

import torch

from .module import Module

__all__ = ["Identity", "Reshape", "View", "Narrow", "Transpose"]


def _sizes(args):
    """Sizes given as ints, or as one ``torch.Size``/list/tuple."""
    if len(args) == 1 and not isinstance(args[0], int):
        return tuple(int(s) for s in args[0])
    return tuple(int(s) for s in args)


class Identity(Module):
    """Output the input (and pass the gradient through) unchanged.

    Examples::

        >>> nn.Identity().forward(torch.ones(2))
        tensor([1., 1.])
    """

    def updateOutput(self, input):
        self.output = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = gradOutput
        return self.gradInput


class _Reshaping(Module):
    """A module whose output is its input's elements in another shape: the gradient is
    ``gradOutput`` in the input's shape."""

    def updateGradInput(self, input, gradOutput):
        self.gradInput = gradOutput.contiguous().view(input.shape)
        return self.gradInput


class Reshape(_Reshaping):
    """Reshape each sample to ``size``; an input with more elements than ``size`` holds
    is a batch (its first dimension kept).

    Args:
        *size (int): the shape of one sample.
        batchMode (bool, optional): ``True`` always keeps the first dimension, ``False``
            never does. Default: decided by the element count.

    Examples::

        >>> nn.Reshape(4).forward(torch.zeros(3, 2, 2)).shape
        torch.Size([3, 4])
    """

    batchMode = None

    def __init__(self, *size, batchMode=None):
        super().__init__()
        if size and isinstance(size[-1], bool):
            size, batchMode = size[:-1], size[-1]
        self.size = torch.Size(_sizes(size))
        self.nelement = math.prod(self.size)
        self.batchMode = batchMode

    def updateOutput(self, input):
        x = input.contiguous()
        batched = self.batchMode is True or (self.batchMode is None and x.numel() != self.nelement)
        if batched:
            self.output = x.view(x.size(0), *self.size)
        else:
            self.output = x.view(self.size)
        return self.output

    def __repr__(self):
        return "nn.Reshape(" + "x".join(str(s) for s in self.size) + ")"


class View(_Reshaping):
    """View the input as ``size`` (one ``-1`` allowed); with ``setNumInputDims(n)`` an
    input with more than ``n`` dimensions is a batch and keeps its first dimension.

    Examples::

        >>> nn.View(-1).forward(torch.zeros(2, 3)).shape
        torch.Size([6])
        >>> nn.View(6).setNumInputDims(2).forward(torch.zeros(4, 2, 3)).shape
        torch.Size([4, 6])
    """

    numInputDims = None  # a class default: a module read from a .t7 file may lack it

    def __init__(self, *size):
        super().__init__()
        self.size = torch.Size(_sizes(size))
        self.numInputDims = None
        known = [s for s in self.size if s != -1]
        self.numElements = math.prod(known)
        if len(known) < len(self.size) - 1:
            raise RuntimeError("View: at most one size may be -1")

    def setNumInputDims(self, numInputDims):
        self.numInputDims = numInputDims
        return self

    def _batch_size(self, input):
        if self.numInputDims is not None and input.dim() > self.numInputDims:
            return input.size(0)
        if -1 not in self.size and input.numel() != self.numElements:
            if input.dim() > 0 and input.size(0) * self.numElements == input.numel():
                return input.size(0)
        return None

    def updateOutput(self, input):
        batch = self._batch_size(input)
        x = input.contiguous()
        self.output = x.view(self.size) if batch is None else x.view(batch, *self.size)
        return self.output

    def __repr__(self):
        return "nn.View(" + ", ".join(str(s) for s in self.size) + ")"


class Narrow(Module):
    """``input.narrow(dimension, offset, length)``, all 0-based; a negative ``offset``
    counts from the end, and a negative ``length`` ends that many elements before the
    end (``-1``: up to the last).

    Examples::

        >>> nn.Narrow(0, 1, 2).forward(torch.arange(5.0))
        tensor([1., 2.])
        >>> nn.Narrow(0, 1, -1).forward(torch.arange(5.0))
        tensor([1., 2., 3., 4.])
    """

    def __init__(self, dimension, offset, length=1):
        super().__init__()
        self.dimension, self.index, self.length = dimension, offset, length

    def _span(self, input):
        size = input.size(self.dimension)
        offset = self.index + size if self.index < 0 else self.index
        length = size - offset + self.length + 1 if self.length < 0 else self.length
        if offset < 0 or length <= 0 or offset + length > size:
            raise RuntimeError(
                f"Narrow: offset {self.index} and length {self.length} do not fit dimension "
                f"{self.dimension} of size {size}"
            )
        return offset, length

    def updateOutput(self, input):
        offset, length = self._span(input)
        self.output = input.narrow(self.dimension, offset, length)
        return self.output

    def updateGradInput(self, input, gradOutput):
        offset, length = self._span(input)
        grad = torch.zeros_like(input)
        grad.narrow(self.dimension, offset, length).copy_(gradOutput)
        self.gradInput = grad
        return self.gradInput


class Transpose(Module):
    """Swap pairs of dimensions, in order: ``Transpose((0, 1), (1, 2))``.

    Examples::

        >>> nn.Transpose((0, 1), (1, 2)).forward(torch.zeros(2, 3, 4)).shape
        torch.Size([3, 4, 2])
    """

    def __init__(self, *permutations):
        super().__init__()
        self.permutations = [tuple(p) for p in permutations]

    def updateOutput(self, input):
        out = input
        for a, b in self.permutations:
            out = out.transpose(a, b)
        self.output = out
        return self.output

    def updateGradInput(self, input, gradOutput):
        grad = gradOutput
        for a, b in reversed(self.permutations):
            grad = grad.transpose(a, b)
        self.gradInput = grad
        return self.gradInput
