"""``SpatialConvolution``: 2-D convolution written as a matrix product over unfolded
windows (im2col), so that its three gradients are matrix products too."""

from __future__ import annotations

import torch

from ._windows import as_batch, pad, pooled_size, sum_windows, windows
from .module import Module

__all__ = ["SpatialConvolution"]


class SpatialConvolution(Module):
    """2-D convolution (cross-correlation) of ``nInputPlane`` planes into
    ``nOutputPlane`` planes.

    Args:
        nInputPlane (int): input channels.
        nOutputPlane (int): output channels.
        kW, kH (int): kernel width and height.
        dW, dH (int): strides. Default: ``1``.
        padW (int): zeros added left and right. Default: ``0``.
        padH (int, optional): zeros added top and bottom. Default: ``padW``.

    Shape:
        ``weight`` is ``(nOutputPlane, nInputPlane, kH, kW)``; input ``(C, H, W)`` or
        ``(N, C, H, W)``, output ``(nOutputPlane, oH, oW)`` or with ``N`` first, where
        ``oH = (H + 2*padH - kH) // dH + 1``.

    Examples::

        >>> conv = nn.SpatialConvolution(1, 4, 3, 3, 1, 1, 1)
        >>> conv.forward(torch.zeros(2, 1, 8, 8)).shape
        torch.Size([2, 4, 8, 8])
    """

    bias = gradBias = None  # class defaults: absent after noBias() or in a .t7 file

    _buffers_to_clear = ("_columns",)

    def __init__(self, nInputPlane, nOutputPlane, kW, kH, dW=1, dH=1, padW=0, padH=None):
        super().__init__()
        self.nInputPlane, self.nOutputPlane = nInputPlane, nOutputPlane
        self.kW, self.kH, self.dW, self.dH = kW, kH, dW, dH
        self.padW = padW
        self.padH = padW if padH is None else padH
        self.weight = torch.empty(nOutputPlane, nInputPlane, kH, kW)
        self.gradWeight = torch.zeros(nOutputPlane, nInputPlane, kH, kW)
        self.bias = torch.empty(nOutputPlane)
        self.gradBias = torch.zeros(nOutputPlane)
        self._columns = None
        self.reset()

    def noBias(self):
        self.bias = self.gradBias = None
        return self

    def reset(self, stdv=None):
        self._reset_uniform(stdv, self.kW * self.kH * self.nInputPlane, self.weight, self.bias)
        return self

    def _geometry(self, x):
        oH = pooled_size(x.size(2), self.kH, self.dH, self.padH)
        oW = pooled_size(x.size(3), self.kW, self.dW, self.padW)
        return oH, oW

    def _unfold(self, x):
        """(N, C*kH*kW, oH*oW): the input values under each output position."""
        oH, oW = self._geometry(x)
        padded = pad(x, self.padH, self.padW)
        cols = windows(padded, self.kH, self.kW, self.dH, self.dW, oH, oW)
        return cols.reshape(x.size(0), -1, oH * oW), oH, oW

    def updateOutput(self, input):
        x, batched = as_batch(input, "SpatialConvolution", self.nInputPlane)
        cols, oH, oW = self._unfold(x)
        self._columns = cols
        out = torch.matmul(self.weight.reshape(self.nOutputPlane, -1), cols)
        if self.bias is not None:
            out = out + self.bias.view(1, -1, 1)
        out = out.view(x.size(0), self.nOutputPlane, oH, oW)
        self.output = out if batched else out.squeeze(0)
        return self.output

    def updateGradInput(self, input, gradOutput):
        x, batched = as_batch(input, "SpatialConvolution", self.nInputPlane)
        oH, oW = self._geometry(x)
        grad = gradOutput.reshape(x.size(0), self.nOutputPlane, oH * oW)
        grad_cols = torch.matmul(self.weight.reshape(self.nOutputPlane, -1).t(), grad)
        grad_cols = grad_cols.view(x.size(0), self.nInputPlane, self.kH, self.kW, oH, oW)
        padded_shape = (x.size(0), x.size(1), x.size(2) + 2 * self.padH, x.size(3) + 2 * self.padW)
        padded = sum_windows(grad_cols, padded_shape, self.kH, self.kW, self.dH, self.dW)
        grad_input = padded[
            :, :, self.padH : self.padH + x.size(2), self.padW : self.padW + x.size(3)
        ].contiguous()
        self.gradInput = grad_input if batched else grad_input.squeeze(0)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, _ = as_batch(input, "SpatialConvolution", self.nInputPlane)
        cols = self._columns
        if cols is None or cols.size(0) != x.size(0):
            cols = self._unfold(x)[0]
        grad = gradOutput.reshape(x.size(0), self.nOutputPlane, -1)
        per_sample = torch.matmul(grad, cols.transpose(1, 2))
        self.gradWeight.add_(per_sample.sum(0).view_as(self.gradWeight), alpha=scale)
        if self.bias is not None:
            self.gradBias.add_(grad.sum((0, 2)), alpha=scale)

    def __repr__(self):
        text = (
            f"nn.SpatialConvolution({self.nInputPlane} -> {self.nOutputPlane}, {self.kW}x{self.kH}"
        )
        if self.dW != 1 or self.dH != 1 or self.padW or self.padH:
            text += f", {self.dW},{self.dH}"
        if self.padW or self.padH:
            text += f", {self.padW},{self.padH}"
        return text + ")"
