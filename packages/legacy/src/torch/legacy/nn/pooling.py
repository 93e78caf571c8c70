"""2-D pooling: ``SpatialMaxPooling`` and ``SpatialAveragePooling``."""

from __future__ import annotations

import torch

from ._windows import as_batch, pad, pooled_size, sum_windows, windows
from .module import Module

__all__ = ["SpatialMaxPooling", "SpatialAveragePooling"]


def _setter(attribute: str, value, doc: str):
    """A method setting ``attribute`` to ``value`` that returns the module, for Lua Torch's
    chained calls (``nn.SpatialMaxPooling(2, 2):ceil()``)."""

    def set_and_chain(self):
        setattr(self, attribute, value)
        return self

    set_and_chain.__doc__ = doc
    return set_and_chain


class _Pooling(Module):
    _buffers_to_clear = ("indices",)
    # class defaults: a module read from a .t7 file may lack them
    ceil_mode = False
    count_include_pad = True
    indices = None

    def __init__(self, kW, kH, dW, dH, padW, padH):
        super().__init__()
        self.kW, self.kH, self.dW, self.dH = kW, kH, dW, dH
        self.padW, self.padH = padW, padH
        self.ceil_mode = False

    ceil = _setter("ceil_mode", True, "Round the output size up (a last partial window counts).")
    floor = _setter("ceil_mode", False, "Round the output size down (the default).")

    def _geometry(self, x):
        """Output size and the extra bottom/right padding that ceil mode needs."""
        h, w = x.size(2), x.size(3)
        oH = pooled_size(h, self.kH, self.dH, self.padH, self.ceil_mode)
        oW = pooled_size(w, self.kW, self.dW, self.padW, self.ceil_mode)
        extraH = max(0, (oH - 1) * self.dH + self.kH - (h + 2 * self.padH))
        extraW = max(0, (oW - 1) * self.dW + self.kW - (w + 2 * self.padW))
        return oH, oW, extraH, extraW

    def _crop(self, padded, x, batched):
        grad = padded[:, :, self.padH : self.padH + x.size(2), self.padW : self.padW + x.size(3)]
        grad = grad.contiguous()
        return grad if batched else grad.squeeze(0)

    # the two poolings differ only in how a window is reduced (``_pool``) and how each
    # output's gradient is spread over its window (``_spread``)

    def updateOutput(self, input):
        x, batched = as_batch(input, self._lua_name)
        out = self._pool(x, *self._geometry(x))
        self.output = out if batched else out.squeeze(0)
        return self.output

    def updateGradInput(self, input, gradOutput):
        x, batched = as_batch(input, self._lua_name)
        oH, oW, extraH, extraW = self._geometry(x)
        grad = gradOutput.reshape(x.size(0), x.size(1), oH, oW)
        per_position = self._spread(x, grad, oH, oW, extraH, extraW)
        shape = (
            x.size(0),
            x.size(1),
            x.size(2) + 2 * self.padH + extraH,
            x.size(3) + 2 * self.padW + extraW,
        )
        padded = sum_windows(per_position, shape, self.kH, self.kW, self.dH, self.dW)
        self.gradInput = self._crop(padded, x, batched)
        return self.gradInput

    def __repr__(self):
        text = f"nn.{self._lua_name}({self.kW}x{self.kH}, {self.dW},{self.dH}"
        if self.padW or self.padH:
            text += f", {self.padW},{self.padH}"
        return text + ")"


class SpatialMaxPooling(_Pooling):
    """The maximum over each ``kH x kW`` window, moved by ``dW``/``dH``.

    Args:
        kW, kH (int): window width and height.
        dW, dH (int, optional): strides. Default: the window size.
        padW, padH (int): implicit padding (never the maximum). Default: ``0``.

    ``ceil()`` switches to rounding the output size up. ``indices`` keeps, for each
    output, the 0-based position of its maximum inside the window.

    Examples::

        >>> pool = nn.SpatialMaxPooling(2, 2)
        >>> pool.forward(torch.arange(16.0).view(1, 4, 4))
        tensor([[[ 5.,  7.],
                 [13., 15.]]])
    """

    _lua_name = "SpatialMaxPooling"

    def __init__(self, kW, kH, dW=None, dH=None, padW=0, padH=0):
        super().__init__(kW, kH, kW if dW is None else dW, kH if dH is None else dH, padW, padH)
        self.indices = None

    def _pool(self, x, oH, oW, extraH, extraW):
        padded = pad(x, self.padH, self.padW, extraH, extraW, float("-inf"))
        view = windows(padded, self.kH, self.kW, self.dH, self.dW, oH, oW)
        flat = view.permute(0, 1, 4, 5, 2, 3).reshape(x.size(0), x.size(1), oH, oW, -1)
        values, self.indices = flat.max(-1)
        return values

    def _spread(self, x, grad, oH, oW, extraH, extraW):
        # the gradient of each window goes to the position of its maximum only
        positions = torch.arange(self.kH * self.kW).view(1, 1, -1, 1, 1)
        chosen = (self.indices.unsqueeze(2) == positions).to(grad.dtype)
        return (chosen * grad.unsqueeze(2)).view(x.size(0), x.size(1), self.kH, self.kW, oH, oW)


class SpatialAveragePooling(_Pooling):
    """The mean over each ``kH x kW`` window.

    Args:
        kW, kH (int): window width and height.
        dW, dH (int): strides. Default: ``1``.
        padW, padH (int): zero padding. Default: ``0``.

    By default the padding counts in the divisor (``setCountExcludePad()`` changes
    that); ``ceil()`` rounds the output size up.

    Examples::

        >>> nn.SpatialAveragePooling(2, 2, 2, 2).forward(torch.arange(16.0).view(1, 4, 4))
        tensor([[[ 2.5000,  4.5000],
                 [10.5000, 12.5000]]])
    """

    _lua_name = "SpatialAveragePooling"

    def __init__(self, kW, kH, dW=1, dH=1, padW=0, padH=0):
        super().__init__(kW, kH, dW, dH, padW, padH)
        self.count_include_pad = True

    setCountIncludePad = _setter("count_include_pad", True, "Count the padding in the divisor.")
    setCountExcludePad = _setter("count_include_pad", False, "Count the input only.")

    def _divisors(self, x, oH, oW, extraH, extraW):
        """How many counted elements each window covers: the padded area or the input
        only, never the extra ceil-mode margin."""
        h, w = x.size(2), x.size(3)
        if self.count_include_pad:
            area = x.new_ones(1, 1, h + 2 * self.padH, w + 2 * self.padW)
            counted = pad(area, 0, 0, extraH, extraW)
        else:
            counted = pad(x.new_ones(1, 1, h, w), self.padH, self.padW, extraH, extraW)
        view = windows(counted, self.kH, self.kW, self.dH, self.dW, oH, oW)
        return view.sum((2, 3))

    def _pool(self, x, oH, oW, extraH, extraW):
        padded = pad(x, self.padH, self.padW, extraH, extraW)
        sums = windows(padded, self.kH, self.kW, self.dH, self.dW, oH, oW).sum((2, 3))
        return sums / self._divisors(x, oH, oW, extraH, extraW)

    def _spread(self, x, grad, oH, oW, extraH, extraW):
        grad = grad / self._divisors(x, oH, oW, extraH, extraW)
        return grad.view(x.size(0), x.size(1), 1, 1, oH, oW).expand(
            -1, -1, self.kH, self.kW, -1, -1
        )
