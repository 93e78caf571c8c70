"""Base of the Lua Torch criterions: ``forward(input, target)`` returns the loss as a
Python number and ``backward(input, target)`` its gradient with respect to ``input``."""

from __future__ import annotations

import torch

from .module import _HoldsTensors

__all__ = ["Criterion"]


class Criterion(_HoldsTensors):
    """Base of every ``torch.legacy.nn`` criterion.

    ``output`` holds the last loss (a float) and ``gradInput`` the last gradient.

    Examples::

        >>> crit = nn.MSECriterion()
        >>> crit.forward(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 4.0]))
        2.0
        >>> crit.backward(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 4.0]))
        tensor([ 0., -2.])
    """

    def __init__(self):
        self.gradInput = torch.empty(0)
        self.output = 0.0
        self._type = self.gradInput.type()

    def updateOutput(self, input, target):
        raise NotImplementedError(f"{type(self).__name__} does not define updateOutput")

    def updateGradInput(self, input, target):
        raise NotImplementedError(f"{type(self).__name__} does not define updateGradInput")

    def forward(self, input, target):
        """The loss for ``input`` against ``target`` (a Python float)."""
        return self.updateOutput(input, target)

    def backward(self, input, target):
        """The gradient of the loss with respect to ``input``."""
        return self.updateGradInput(input, target)

    def clearState(self):
        self.gradInput = self.gradInput.new_empty(0)
        return self


def _check_same_size(input, target, name):
    if input.numel() != target.numel():
        raise RuntimeError(
            f"{name}: input and target must have the same number of elements, got input of "
            f"size {tuple(input.shape)} and target of size {tuple(target.shape)}"
        )
