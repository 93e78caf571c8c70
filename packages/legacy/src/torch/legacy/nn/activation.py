"""Elementwise and softmax activations: ``Threshold``, ``ReLU``, ``Tanh``, ``Sigmoid``,
``SoftMax`` and ``LogSoftMax``."""

from __future__ import annotations

import torch

from .module import Module

__all__ = ["Threshold", "ReLU", "Tanh", "Sigmoid", "SoftMax", "LogSoftMax"]


class Threshold(Module):
    """``y = x`` where ``x > threshold``, else ``value``.

    Args:
        threshold (float): Default: ``1e-6``.
        value (float): Default: ``0``.
        inplace (bool): write the output (and the gradient) over the input's tensors.
            Default: ``False``.

    Examples::

        >>> nn.Threshold(1.0, -1.0).forward(torch.tensor([0.5, 2.0]))
        tensor([-1.,  2.])
    """

    def __init__(self, threshold=1e-6, value=0, inplace=False):
        super().__init__()
        self.threshold, self.val, self.inplace = threshold, value, inplace
        if inplace and value > threshold:
            raise RuntimeError(
                f"in-place Threshold needs value ({value}) <= threshold ({threshold})"
            )

    def updateOutput(self, input):
        keep = input > self.threshold
        if self.inplace:
            self.output = input.masked_fill_(~keep, self.val)
        else:
            self.output = torch.where(keep, input, torch.tensor(self.val, dtype=input.dtype))
        return self.output

    def updateGradInput(self, input, gradOutput):
        # in place the input already holds the output: `value <= threshold` keeps the mask
        dropped = input <= self.threshold
        if self.inplace:
            self.gradInput = gradOutput.masked_fill_(dropped, 0)
        else:
            self.gradInput = gradOutput.masked_fill(dropped, 0)
        return self.gradInput


class ReLU(Threshold):
    """``y = max(x, 0)``.

    Examples::

        >>> nn.ReLU().forward(torch.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """

    def __init__(self, inplace=False):
        super().__init__(0, 0, inplace)


def _output_determines_gradient(function, grad_from_output):
    """``updateOutput`` and ``updateGradInput`` of an elementwise ``function`` whose
    gradient ``grad_from_output(gradOutput, y)`` needs only the output ``y``."""

    def updateOutput(self, input):
        self.output = function(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = grad_from_output(gradOutput, self.output)
        return self.gradInput

    return updateOutput, updateGradInput


class Tanh(Module):
    """``y = tanh(x)``.

    Examples::

        >>> nn.Tanh().forward(torch.zeros(2))
        tensor([0., 0.])
    """

    updateOutput, updateGradInput = _output_determines_gradient(
        torch.tanh, lambda gradOutput, y: gradOutput * (1 - y * y)
    )


class Sigmoid(Module):
    """``y = 1 / (1 + exp(-x))``.

    Examples::

        >>> nn.Sigmoid().forward(torch.zeros(2))
        tensor([0.5000, 0.5000])
    """

    updateOutput, updateGradInput = _output_determines_gradient(
        torch.sigmoid, lambda gradOutput, y: gradOutput * y * (1 - y)
    )


def _softmax_dim(input, name):
    """Lua Torch's rule: the features are dimension 0 of a 1D or 3D (C, H, W) input and
    dimension 1 of a 2D (N, C) or 4D (N, C, H, W) one."""
    if input.dim() not in (1, 2, 3, 4):
        raise RuntimeError(f"{name}: expected a 1D to 4D input, got {input.dim()}D")
    return 0 if input.dim() in (1, 3) else 1


class SoftMax(Module):
    """Softmax over the feature dimension (0 for 1D/3D inputs, 1 for 2D/4D).

    Examples::

        >>> nn.SoftMax().forward(torch.zeros(1, 4))
        tensor([[0.2500, 0.2500, 0.2500, 0.2500]])
    """

    def updateOutput(self, input):
        self.output = torch.softmax(input, _softmax_dim(input, "SoftMax"))
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = _softmax_dim(input, "SoftMax")
        dot = (gradOutput * self.output).sum(dim, keepdim=True)
        self.gradInput = self.output * (gradOutput - dot)
        return self.gradInput


class LogSoftMax(Module):
    """Log of the softmax over the feature dimension (0 for 1D/3D inputs, 1 for 2D/4D).

    Examples::

        >>> nn.LogSoftMax().forward(torch.zeros(2)).exp()
        tensor([0.5000, 0.5000])
    """

    def updateOutput(self, input):
        self.output = torch.log_softmax(input, _softmax_dim(input, "LogSoftMax"))
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = _softmax_dim(input, "LogSoftMax")
        total = gradOutput.sum(dim, keepdim=True)
        self.gradInput = gradOutput - self.output.exp() * total
        return self.gradInput
