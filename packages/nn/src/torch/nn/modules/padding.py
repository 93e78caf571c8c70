"""Padding layers: constant, zero, reflection, replication and circular padding of
the last 1, 2 or 3 dims."""

from __future__ import annotations

from .. import functional as F  # noqa: N812
from .module import Module
from .utils import _ntuple

__all__ = [
    "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d",
    "ZeroPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
    "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d",
    "CircularPad2d", "CircularPad3d",
]  # fmt: skip


class _PadNd(Module):
    """Pads with ``F.pad(input, self.padding, self.mode)``; ``padding`` holds
    (left, right) for the last dim first."""

    mode = "constant"
    nd = 1

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _ntuple(2 * self.nd)(padding)

    def forward(self, input):
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last 1 dim(s) with a constant ``value``.

    Args:
        padding (int or tuple): the same size on every side, or 2 sizes
            (left, right).
        value (float): the fill value.

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ConstantPad1d(2, 3.5)(torch.zeros(1, 2))
        tensor([[3.5000, 3.5000, 0.0000, 0.0000, 3.5000, 3.5000]])
    """

    nd = 1


class ConstantPad2d(_ConstantPadNd):
    """Pad the last 2 dim(s) with a constant ``value``.

    Args:
        padding (int or tuple): the same size on every side, or 4 sizes
            (left, right, top, bottom).
        value (float): the fill value.

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ConstantPad2d(1, 3.5)
        ConstantPad2d(padding=(1, 1, 1, 1), value=3.5)
    """

    nd = 2


class ConstantPad3d(_ConstantPadNd):
    """Pad the last 3 dim(s) with a constant ``value``.

    Args:
        padding (int or tuple): the same size on every side, or 6 sizes
            (left, right, top, bottom, front, back).
        value (float): the fill value.

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ConstantPad3d(1, 0.0)(torch.ones(1, 1, 1, 1)).shape
        torch.Size([1, 3, 3, 3])
    """

    nd = 3


class ZeroPad1d(_ZeroPadNd):
    """Pad the last 1 dim(s) with zeros.

    Args:
        padding (int or tuple): the same size on every side, or 2 sizes
            (left, right).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ZeroPad1d(1)(torch.ones(1, 2))
        tensor([[0., 1., 1., 0.]])
    """

    nd = 1


class ZeroPad2d(_ZeroPadNd):
    """Pad the last 2 dim(s) with zeros.

    Args:
        padding (int or tuple): the same size on every side, or 4 sizes
            (left, right, top, bottom).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ZeroPad2d((1, 1, 2, 0))
        ZeroPad2d((1, 1, 2, 0))
    """

    nd = 2


class ZeroPad3d(_ZeroPadNd):
    """Pad the last 3 dim(s) with zeros.

    Args:
        padding (int or tuple): the same size on every side, or 6 sizes
            (left, right, top, bottom, front, back).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ZeroPad3d(1)(torch.ones(1, 1, 1, 1)).shape
        torch.Size([1, 3, 3, 3])
    """

    nd = 3


class ReflectionPad1d(_PadNd):
    """Pad the last 1 dim(s) by reflecting the input at its edges.

    Args:
        padding (int or tuple): the same size on every side, or 2 sizes
            (left, right).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ReflectionPad1d(2)(torch.tensor([[0.0, 1.0, 2.0, 3.0]]))
        tensor([[2., 1., 0., 1., 2., 3., 2., 1.]])
    """

    nd = 1
    mode = "reflect"


class ReflectionPad2d(_PadNd):
    """Pad the last 2 dim(s) by reflecting the input at its edges.

    Args:
        padding (int or tuple): the same size on every side, or 4 sizes
            (left, right, top, bottom).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ReflectionPad2d(1)(torch.ones(1, 3, 3)).shape
        torch.Size([1, 5, 5])
    """

    nd = 2
    mode = "reflect"


class ReflectionPad3d(_PadNd):
    """Pad the last 3 dim(s) by reflecting the input at its edges.

    Args:
        padding (int or tuple): the same size on every side, or 6 sizes
            (left, right, top, bottom, front, back).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ReflectionPad3d(1)(torch.ones(1, 2, 2, 2)).shape
        torch.Size([1, 4, 4, 4])
    """

    nd = 3
    mode = "reflect"


class ReplicationPad1d(_PadNd):
    """Pad the last 1 dim(s) by repeating the edge values.

    Args:
        padding (int or tuple): the same size on every side, or 2 sizes
            (left, right).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ReplicationPad1d(1)(torch.tensor([[1.0, 2.0]]))
        tensor([[1., 1., 2., 2.]])
    """

    nd = 1
    mode = "replicate"


class ReplicationPad2d(_PadNd):
    """Pad the last 2 dim(s) by repeating the edge values.

    Args:
        padding (int or tuple): the same size on every side, or 4 sizes
            (left, right, top, bottom).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ReplicationPad2d(1)(torch.ones(1, 2, 2)).shape
        torch.Size([1, 4, 4])
    """

    nd = 2
    mode = "replicate"


class ReplicationPad3d(_PadNd):
    """Pad the last 3 dim(s) by repeating the edge values.

    Args:
        padding (int or tuple): the same size on every side, or 6 sizes
            (left, right, top, bottom, front, back).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.ReplicationPad3d(1)(torch.ones(1, 2, 2, 2)).shape
        torch.Size([1, 4, 4, 4])
    """

    nd = 3
    mode = "replicate"


class CircularPad1d(_PadNd):
    """Pad the last 1 dim(s) by wrapping the input around.

    Args:
        padding (int or tuple): the same size on every side, or 2 sizes
            (left, right).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.CircularPad1d(1)(torch.tensor([[1.0, 2.0]]))
        tensor([[2., 1., 2., 1.]])
    """

    nd = 1
    mode = "circular"


class CircularPad2d(_PadNd):
    """Pad the last 2 dim(s) by wrapping the input around.

    Args:
        padding (int or tuple): the same size on every side, or 4 sizes
            (left, right, top, bottom).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.CircularPad2d(1)(torch.ones(1, 2, 2)).shape
        torch.Size([1, 4, 4])
    """

    nd = 2
    mode = "circular"


class CircularPad3d(_PadNd):
    """Pad the last 3 dim(s) by wrapping the input around.

    Args:
        padding (int or tuple): the same size on every side, or 6 sizes
            (left, right, top, bottom, front, back).

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.CircularPad3d(1)(torch.ones(1, 2, 2, 2)).shape
        torch.Size([1, 4, 4, 4])
    """

    nd = 3
    mode = "circular"
