"""Modules with weights that act on features: ``Linear``, ``LookupTable``, ``CMul``,
``Add`` and ``Mul``."""

from __future__ import annotations

import torch

from .module import Module

__all__ = ["Linear", "LookupTable", "CMul", "Add", "Mul"]


def _as_batch(input, features):
    """``input`` as a (batch, features) matrix: a single sample becomes one row."""
    return input.reshape(-1, features)


class Linear(Module):
    """``y = x W^T + b`` on a vector or a batch (rows) of vectors.

    Args:
        inputSize (int): features of each input.
        outputSize (int): features of each output.
        bias (bool): whether to learn ``b``. Default: ``True``.

    Shape:
        ``weight`` is ``(outputSize, inputSize)``; input ``(inputSize)`` or
        ``(N, inputSize)``, output ``(outputSize)`` or ``(N, outputSize)``.

    Examples::

        >>> m = nn.Linear(2, 1)
        >>> _ = m.weight.fill_(1.0), m.bias.fill_(0.5)
        >>> m.forward(torch.tensor([[1.0, 2.0]]))
        tensor([[3.5000]])
    """

    bias = gradBias = None  # class defaults: absent after noBias() or in a .t7 file

    def __init__(self, inputSize, outputSize, bias=True):
        super().__init__()
        self.weight = torch.empty(outputSize, inputSize)
        self.gradWeight = torch.zeros(outputSize, inputSize)
        self.bias = torch.empty(outputSize) if bias else None
        self.gradBias = torch.zeros(outputSize) if bias else None
        self.reset()

    def noBias(self):
        self.bias = self.gradBias = None
        return self

    def reset(self, stdv=None):
        self._reset_uniform(stdv, self.weight.size(1), self.weight, self.bias)
        return self

    def _check(self, input):
        if input.dim() not in (1, 2) or input.size(-1) != self.weight.size(1):
            raise RuntimeError(
                f"Linear: expected an input of size ({self.weight.size(1)}) or "
                f"(N, {self.weight.size(1)}), got {tuple(input.shape)}"
            )

    def updateOutput(self, input):
        self._check(input)
        out = torch.matmul(input, self.weight.t())
        if self.bias is not None:
            out = out + self.bias
        self.output = out
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = torch.matmul(gradOutput, self.weight)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        rows = _as_batch(input, self.weight.size(1))
        grads = _as_batch(gradOutput, self.weight.size(0))
        self.gradWeight.add_(torch.matmul(grads.t(), rows), alpha=scale)
        if self.bias is not None:
            self.gradBias.add_(grads.sum(0), alpha=scale)

    def __repr__(self):
        suffix = "" if self.bias is not None else " without bias"
        return f"nn.Linear({self.weight.size(1)} -> {self.weight.size(0)}){suffix}"


class LookupTable(Module):
    """Rows of ``weight`` picked by integer indices (0-based), as an embedding.

    Args:
        nIndex (int): rows of the table.
        nOutput (int): size of each row.
        paddingValue (int): an index whose row gets no gradient; ``-1`` for none.
            Default: ``-1``.
        maxNorm (float, optional): rows looked up are renormalised in place to at most
            this norm. Default: ``None``.
        normType (float): the p of the norm for ``maxNorm``. Default: ``2``.

    Shape:
        input ``(L)`` or ``(N, L)`` of integers, output ``(L, nOutput)`` or
        ``(N, L, nOutput)``.

    Examples::

        >>> table = nn.LookupTable(10, 3)
        >>> table.forward(torch.tensor([[0, 9], [1, 1]])).shape
        torch.Size([2, 2, 3])
    """

    maxNorm = None
    normType = 2
    paddingValue = -1

    def __init__(self, nIndex, nOutput, paddingValue=-1, maxNorm=None, normType=None):
        super().__init__()
        self.weight = torch.empty(nIndex, nOutput)
        self.gradWeight = torch.zeros(nIndex, nOutput)
        self.paddingValue = paddingValue
        self.maxNorm = maxNorm
        self.normType = 2 if normType is None else normType
        self.reset()

    def reset(self, stdv=1):
        self.weight.normal_(0, stdv)
        return self

    def parameters(self):
        return [self.weight], [self.gradWeight]

    def _indices(self, input):
        if input.is_floating_point() or input.is_complex():
            raise RuntimeError(f"LookupTable: expected an integer index tensor, got {input.dtype}")
        flat = input.reshape(-1).long()
        n = self.weight.size(0)
        if flat.numel() and (int(flat.min()) < 0 or int(flat.max()) >= n):
            raise IndexError(f"LookupTable: index out of range for a table of {n} rows")
        return flat

    def _renorm(self, flat):
        rows = torch.unique(flat)
        chosen = self.weight.index_select(0, rows)
        norms = chosen.norm(p=self.normType, dim=1, keepdim=True)
        factor = torch.where(norms > self.maxNorm, self.maxNorm / (norms + 1e-7), 1.0)
        self.weight.index_copy_(0, rows, chosen * factor)

    def updateOutput(self, input):
        flat = self._indices(input)
        if self.maxNorm is not None:
            self._renorm(flat)
        rows = self.weight.index_select(0, flat)
        self.output = rows.view(*input.shape, self.weight.size(1))
        return self.output

    def updateGradInput(self, input, gradOutput):
        # indices have no gradient: Lua Torch returns zeros of the input's shape
        self.gradInput = torch.zeros(input.shape, dtype=self.weight.dtype)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        flat = self._indices(input)
        grads = gradOutput.reshape(-1, self.weight.size(1))
        if self.paddingValue >= 0:
            keep = (flat != self.paddingValue).unsqueeze(1).to(grads.dtype)
            grads = grads * keep
        self.gradWeight.index_add_(0, flat, grads * scale)

    def __repr__(self):
        return f"nn.LookupTable({self.weight.size(0)}, {self.weight.size(1)})"


class CMul(Module):
    """Multiply the input elementwise by a learned tensor of ``size`` (broadcast over a
    leading batch dimension).

    Examples::

        >>> m = nn.CMul(3)
        >>> _ = m.weight.copy_(torch.tensor([1.0, 2.0, 3.0]))
        >>> m.forward(torch.ones(2, 3))
        tensor([[1., 2., 3.],
                [1., 2., 3.]])
    """

    def __init__(self, *size):
        super().__init__()
        size = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else size
        self.size = torch.Size(size)
        self.weight = torch.empty(self.size)
        self.gradWeight = torch.zeros(self.size)
        self.reset()

    def reset(self, stdv=None):
        self._reset_uniform(stdv, self.weight.numel(), self.weight)
        return self

    def _weight_for(self, input):
        if input.numel() == self.weight.numel():
            return self.weight.reshape(input.shape)
        if input.numel() % self.weight.numel():
            raise RuntimeError(
                f"CMul: input of size {tuple(input.shape)} does not hold whole copies of the "
                f"weight of size {tuple(self.size)}"
            )
        batch = input.size(0)
        return self.weight.reshape(1, -1).expand(batch, -1).reshape(input.shape)

    def updateOutput(self, input):
        self.output = input * self._weight_for(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = gradOutput * self._weight_for(input)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        products = (input * gradOutput).reshape(-1, self.weight.numel()).sum(0)
        self.gradWeight.add_(products.view(self.size), alpha=scale)

    def __repr__(self):
        return f"nn.CMul({tuple(self.size)})"


class Add(Module):
    """Add a learned bias: one per input feature, or one scalar with ``scalar=True``.

    Examples::

        >>> m = nn.Add(2)
        >>> _ = m.bias.fill_(1.0)
        >>> m.forward(torch.zeros(3, 2))
        tensor([[1., 1.],
                [1., 1.],
                [1., 1.]])
    """

    def __init__(self, inputSize, scalar=False):
        super().__init__()
        size = torch.Size(
            [1] if scalar else ([inputSize] if isinstance(inputSize, int) else list(inputSize))
        )
        self.scalar = scalar
        self.bias = torch.empty(size)
        self.gradBias = torch.zeros(size)
        self.reset()

    def reset(self, stdv=None):
        self._reset_uniform(stdv, self.bias.numel(), self.bias)
        return self

    def updateOutput(self, input):
        if self.scalar:
            self.output = input + self.bias[0]
        else:
            n = self.bias.numel()
            self.output = (input.reshape(-1, n) + self.bias.reshape(1, n)).view(input.shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = gradOutput.clone()
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        if self.scalar:
            self.gradBias.add_(gradOutput.sum().reshape(1), alpha=scale)
        else:
            sums = gradOutput.reshape(-1, self.bias.numel()).sum(0)
            self.gradBias.add_(sums.view(self.bias.shape), alpha=scale)

    def __repr__(self):
        return f"nn.Add({self.bias.numel()})"


class Mul(Module):
    """Multiply the input by one learned scalar.

    Examples::

        >>> m = nn.Mul()
        >>> _ = m.weight.fill_(3.0)
        >>> m.forward(torch.ones(2))
        tensor([3., 3.])
    """

    def __init__(self):
        super().__init__()
        self.weight = torch.empty(1)
        self.gradWeight = torch.zeros(1)
        self.reset()

    def reset(self, stdv=None):
        self._uniform_(1.0 if stdv is None else stdv, self.weight)
        return self

    def updateOutput(self, input):
        self.output = input * self.weight[0]
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = gradOutput * self.weight[0]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.gradWeight.add_((input * gradOutput).sum().reshape(1), alpha=scale)
