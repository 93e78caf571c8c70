"""Batch normalization over the batch (and spatial) dimensions:
``BatchNormalization`` and ``SpatialBatchNormalization``."""

from __future__ import annotations

import torch

from .module import Module

__all__ = ["BatchNormalization", "SpatialBatchNormalization"]


class BatchNormalization(Module):
    """Normalize each feature over the batch, then scale and shift it.

    In training mode the batch's mean and (biased) variance normalize the input, and
    ``running_mean``/``running_var`` move towards them by ``momentum`` (the running
    variance uses the unbiased estimate); in evaluation mode the running values are used.

    Args:
        nOutput (int): features (channels) C.
        eps (float): added to the variance. Default: ``1e-5``.
        momentum (float): weight of the new batch in the running values. Default: ``0.1``.
        affine (bool): learn ``weight`` and ``bias`` per feature. Default: ``True``.

    Shape:
        input ``(N, C)``.

    Examples::

        >>> bn = nn.BatchNormalization(2)
        >>> out = bn.forward(torch.tensor([[1.0, 2.0], [3.0, 6.0]]))
        >>> out.mean(0).abs().max() < 1e-6
        tensor(True)
    """

    _expected_dims = 2
    _buffers_to_clear = ("_normalized",)

    def __init__(self, nOutput, eps=1e-5, momentum=0.1, affine=True):
        super().__init__()
        if nOutput <= 0:
            raise ValueError(f"{type(self).__name__}: nOutput must be positive, got {nOutput}")
        self.nOutput, self.eps, self.momentum, self.affine = nOutput, eps, momentum, affine
        self.running_mean = torch.zeros(nOutput)
        self.running_var = torch.ones(nOutput)
        self.save_mean = None
        self.save_std = None  # the inverse standard deviation of the last training batch
        self._normalized = None
        if affine:
            self.weight = torch.empty(nOutput)
            self.bias = torch.empty(nOutput)
            self.gradWeight = torch.zeros(nOutput)
            self.gradBias = torch.zeros(nOutput)
        else:
            self.weight = self.bias = self.gradWeight = self.gradBias = None
        self.reset()

    def reset(self, stdv=None):
        if self.weight is not None:
            self.weight.uniform_()
            self.bias.zero_()
        self.running_mean.zero_()
        self.running_var.fill_(1)
        return self

    def _check(self, input):
        if input.dim() != self._expected_dims or input.size(1) != self.nOutput:
            raise RuntimeError(
                f"{type(self).__name__}: expected a {self._expected_dims}D input with "
                f"{self.nOutput} features in dimension 1, got {tuple(input.shape)}"
            )

    def _per_feature(self, values):
        """A (C,) tensor shaped to broadcast against the input."""
        return values.view(1, -1, *([1] * (self._expected_dims - 2)))

    def _reduced(self):
        return (0,) + tuple(range(2, self._expected_dims))

    def updateOutput(self, input):
        self._check(input)
        dims = self._reduced()
        if self.train:
            mean = input.mean(dims)
            var = input.var(dims, unbiased=False)
            count = input.numel() // self.nOutput
            unbiased = var * count / max(count - 1, 1)
            self.running_mean.mul_(1 - self.momentum).add_(mean, alpha=self.momentum)
            self.running_var.mul_(1 - self.momentum).add_(unbiased, alpha=self.momentum)
        else:
            mean, var = self.running_mean, self.running_var
        invstd = (var + self.eps).rsqrt()
        self.save_mean, self.save_std = mean, invstd
        self._normalized = (input - self._per_feature(mean)) * self._per_feature(invstd)
        out = self._normalized
        if self.weight is not None:
            out = out * self._per_feature(self.weight) + self._per_feature(self.bias)
        self.output = out
        return self.output

    def updateGradInput(self, input, gradOutput):
        scale = self.save_std if self.weight is None else self.save_std * self.weight
        grad = gradOutput * self._per_feature(scale)
        if self.train:
            # the batch statistics depend on the input too: remove the gradient's mean and
            # its projection on the normalized input
            dims = self._reduced()
            xhat = self._normalized
            grad = (
                grad
                - self._per_feature(grad.mean(dims))
                - xhat * self._per_feature((grad * xhat).mean(dims))
            )
        self.gradInput = grad
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        if self.weight is None:
            return
        dims = self._reduced()
        self.gradWeight.add_((gradOutput * self._normalized).sum(dims), alpha=scale)
        self.gradBias.add_(gradOutput.sum(dims), alpha=scale)

    def __repr__(self):
        return f"nn.{type(self).__name__} ({self.nOutput})"


class SpatialBatchNormalization(BatchNormalization):
    """:class:`BatchNormalization` of each channel of ``(N, C, H, W)`` images, over the
    batch and both spatial dimensions.

    Examples::

        >>> nn.SpatialBatchNormalization(3).forward(torch.randn(4, 3, 5, 5)).shape
        torch.Size([4, 3, 5, 5])
    """

    _expected_dims = 4
