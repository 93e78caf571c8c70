"""Containers that chain or combine other modules: ``Sequential``, ``Concat``,
``ConcatTable`` and ``ParallelTable``."""

from __future__ import annotations

import torch

from .module import Module

__all__ = ["Container", "Sequential", "Concat", "ConcatTable", "ParallelTable"]


def _add_nested(total, value):
    """``total + value`` for tensors or (nested) lists of tensors; ``None`` is zero."""
    if total is None:
        return _clone_nested(value)
    if torch.is_tensor(value):
        return total.add_(value)
    return [_add_nested(t, v) for t, v in zip(total, value)]


def _clone_nested(value):
    if torch.is_tensor(value):
        return value.clone()
    return [_clone_nested(v) for v in value]


class Container(Module):
    """A module holding child modules in ``self.modules`` (0-based ``get``)."""

    def __init__(self, *modules):
        super().__init__()
        self.modules = []
        for module in modules:
            self.add(module)

    def add(self, module):
        """Append ``module``; return the container (so calls chain)."""
        if not isinstance(module, Module):
            raise TypeError(
                f"{type(self).__name__}.add expects a legacy nn Module, got {type(module).__name__}"
            )
        self.modules.append(module)
        return self

    def get(self, index):
        return self.modules[index]

    def size(self):
        return len(self.modules)

    def __len__(self):
        return len(self.modules)

    def _each(self, method: str, *args) -> None:
        """Call ``method(*args)`` on every child module."""
        for module in self.modules:
            getattr(module, method)(*args)

    def zeroGradParameters(self):
        self._each("zeroGradParameters")

    def updateParameters(self, learningRate):
        self._each("updateParameters", learningRate)

    def training(self):
        super().training()
        self._each("training")

    def evaluate(self):
        super().evaluate()
        self._each("evaluate")

    def reset(self, stdv=None):
        self._each("reset", stdv)

    def clearState(self):
        super().clearState()
        self._each("clearState")
        return self

    def parameters(self):
        weights, grads = [], []
        for module in self.modules:
            found = module.parameters()
            if found is not None:
                weights += found[0]
                grads += found[1]
        return (weights, grads) if weights else None

    def __repr__(self):
        lines = [f"  ({i}): " + repr(m).replace("\n", "\n  ") for i, m in enumerate(self.modules)]
        return f"nn.{type(self).__name__} {{\n" + "\n".join(lines) + "\n}"


class Sequential(Container):
    """Feed each module's output to the next.

    Examples::

        >>> net = nn.Sequential().add(nn.Linear(4, 3)).add(nn.Tanh())
        >>> net.forward(torch.zeros(2, 4)).shape
        torch.Size([2, 3])
        >>> len(net.parameters()[0])
        2
    """

    def updateOutput(self, input):
        current = input
        for module in self.modules:
            current = module.updateOutput(current)
        self.output = current
        return self.output

    def _inputs(self, input):
        """The input each child saw during the last forward."""
        return [input] + [m.output for m in self.modules[:-1]]

    def updateGradInput(self, input, gradOutput):
        grad = gradOutput
        for module, seen in reversed(list(zip(self.modules, self._inputs(input)))):
            grad = module.updateGradInput(seen, grad)
        self.gradInput = grad
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        grad = gradOutput
        for module, seen in reversed(list(zip(self.modules, self._inputs(input)))):
            module.accGradParameters(seen, grad, scale)
            grad = module.gradInput

    def backward(self, input, gradOutput, scale=1):
        grad = gradOutput
        for module, seen in reversed(list(zip(self.modules, self._inputs(input)))):
            grad = module.backward(seen, grad, scale)
        self.gradInput = grad
        return self.gradInput


class Concat(Container):
    """Apply every module to the same input and concatenate their outputs along
    ``dimension`` (0-based).

    Examples::

        >>> both = nn.Concat(1).add(nn.Linear(3, 2)).add(nn.Linear(3, 4))
        >>> both.forward(torch.zeros(5, 3)).shape
        torch.Size([5, 6])
    """

    def __init__(self, dimension, *modules):
        super().__init__(*modules)
        self.dimension = dimension

    def updateOutput(self, input):
        outputs = [module.updateOutput(input) for module in self.modules]
        self.output = torch.cat(outputs, self.dimension)
        return self.output

    def _slices(self, gradOutput):
        offset = 0
        for module in self.modules:
            width = module.output.size(self.dimension)
            yield module, gradOutput.narrow(self.dimension, offset, width)
            offset += width

    def updateGradInput(self, input, gradOutput):
        total = None
        for module, grad in self._slices(gradOutput):
            total = _add_nested(total, module.updateGradInput(input, grad))
        self.gradInput = total
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        for module, grad in self._slices(gradOutput):
            module.accGradParameters(input, grad, scale)

    def __repr__(self):
        return (
            super()
            .__repr__()
            .replace(f"nn.{type(self).__name__}", f"nn.{type(self).__name__}({self.dimension})", 1)
        )


class ConcatTable(Container):
    """Apply every module to the same input; the output is the list of their outputs.

    Examples::

        >>> split = nn.ConcatTable().add(nn.Identity()).add(nn.Tanh())
        >>> [t.shape for t in split.forward(torch.zeros(2, 3))]
        [torch.Size([2, 3]), torch.Size([2, 3])]
    """

    def updateOutput(self, input):
        self.output = [module.updateOutput(input) for module in self.modules]
        return self.output

    def updateGradInput(self, input, gradOutput):
        total = None
        for module, grad in zip(self.modules, gradOutput):
            total = _add_nested(total, module.updateGradInput(input, grad))
        self.gradInput = total
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        for module, grad in zip(self.modules, gradOutput):
            module.accGradParameters(input, grad, scale)


class ParallelTable(Container):
    """Apply the i-th module to the i-th element of a list input.

    Examples::

        >>> par = nn.ParallelTable().add(nn.Linear(2, 1)).add(nn.Identity())
        >>> [t.shape for t in par.forward([torch.zeros(4, 2), torch.zeros(3)])]
        [torch.Size([4, 1]), torch.Size([3])]
    """

    def updateOutput(self, input):
        self.output = [m.updateOutput(x) for m, x in zip(self.modules, input)]
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = [
            m.updateGradInput(x, g) for m, x, g in zip(self.modules, input, gradOutput)
        ]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        for module, x, grad in zip(self.modules, input, gradOutput):
            module.accGradParameters(x, grad, scale)
