"""``Dropout``: zero random inputs while training."""

from __future__ import annotations

import torch

from .module import Module

__all__ = ["Dropout"]


class Dropout(Module):
    """While training, zero each element with probability ``p`` and scale the others by
    ``1 / (1 - p)``; in evaluation mode pass the input through. With ``v1=True`` (Lua
    Torch's first version) the kept elements are not scaled in training and the output
    is multiplied by ``1 - p`` in evaluation instead.

    ``noise`` keeps the last mask (scaled), which the gradient reuses.

    Examples::

        >>> drop = nn.Dropout(0.5)
        >>> drop.evaluate()
        >>> drop.forward(torch.ones(3))
        tensor([1., 1., 1.])
    """

    noise = None

    _buffers_to_clear = ("noise",)
    _repr_attribute = "p"

    def __init__(self, p=0.5, inplace=False, v1=False):
        super().__init__()
        if not 0 <= p < 1:
            raise ValueError(f"dropout probability has to be in [0, 1), but got {p}")
        self.p, self.inplace, self.v2 = p, inplace, not v1
        self.noise = None

    def setp(self, p):
        self.p = p
        return self

    def updateOutput(self, input):
        if self.train and self.p > 0:
            noise = torch.empty_like(input).bernoulli_(1 - self.p)
            if self.v2:
                noise.div_(1 - self.p)
            self.noise = noise
            self.output = input.mul_(noise) if self.inplace else input * noise
        elif not self.train and not self.v2 and self.p > 0:
            self.output = input.mul_(1 - self.p) if self.inplace else input * (1 - self.p)
        else:
            self.output = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        if self.train and self.p > 0:
            self.gradInput = (
                gradOutput.mul_(self.noise) if self.inplace else (gradOutput * self.noise)
            )
        elif not self.train and not self.v2 and self.p > 0:
            self.gradInput = gradOutput * (1 - self.p)
        else:
            self.gradInput = gradOutput
        return self.gradInput
