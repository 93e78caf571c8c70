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


_SIDES = {1: "left, right", 2: "left, right, top, bottom"}
_SIDES[3] = _SIDES[2] + ", front, back"


def _padding_class(name: str, base: type, how: str, example: str, mode: str | None = None):
    """The public class ``name``: ``base`` for the dims its last character counts, with
    its docstring (the Args of its padding, one doctest ``example``: call, then result)."""
    nd = int(name[-2])
    value = "        value (float): the fill value.\n" if base is _ConstantPadNd else ""
    call, result = example.split("\n")
    doc = (
        f"Pad the last {nd} dim(s) {how}.\n\n    Args:\n"
        f"        padding (int or tuple): the same size on every side, or {2 * nd} sizes\n"
        f"            ({_SIDES[nd]}).\n{value}\n    Examples::\n\n"
        "        >>> import torch\n        >>> from torch import nn\n"
        f"        >>> {call}\n        {result}\n    "
    )
    namespace = {"__doc__": doc, "__module__": __name__, "__qualname__": name, "nd": nd}
    if mode is not None:
        namespace["mode"] = mode
    return type(base)(name, (base,), namespace)


_CONSTANT = "with a constant ``value``"
ConstantPad1d = _padding_class(
    "ConstantPad1d",
    _ConstantPadNd,
    _CONSTANT,
    "nn.ConstantPad1d(2, 3.5)(torch.zeros(1, 2))\n"
    "tensor([[3.5000, 3.5000, 0.0000, 0.0000, 3.5000, 3.5000]])",
)
ConstantPad2d = _padding_class(
    "ConstantPad2d",
    _ConstantPadNd,
    _CONSTANT,
    "nn.ConstantPad2d(1, 3.5)\nConstantPad2d(padding=(1, 1, 1, 1), value=3.5)",
)
ConstantPad3d = _padding_class(
    "ConstantPad3d",
    _ConstantPadNd,
    _CONSTANT,
    "nn.ConstantPad3d(1, 0.0)(torch.ones(1, 1, 1, 1)).shape\ntorch.Size([1, 3, 3, 3])",
)
ZeroPad1d = _padding_class(
    "ZeroPad1d",
    _ZeroPadNd,
    "with zeros",
    "nn.ZeroPad1d(1)(torch.ones(1, 2))\ntensor([[0., 1., 1., 0.]])",
)
ZeroPad2d = _padding_class(
    "ZeroPad2d", _ZeroPadNd, "with zeros", "nn.ZeroPad2d((1, 1, 2, 0))\nZeroPad2d((1, 1, 2, 0))"
)
ZeroPad3d = _padding_class(
    "ZeroPad3d",
    _ZeroPadNd,
    "with zeros",
    "nn.ZeroPad3d(1)(torch.ones(1, 1, 1, 1)).shape\ntorch.Size([1, 3, 3, 3])",
)

_REFLECT = "by reflecting the input at its edges"
ReflectionPad1d = _padding_class(
    "ReflectionPad1d",
    _PadNd,
    _REFLECT,
    "nn.ReflectionPad1d(2)(torch.tensor([[0.0, 1.0, 2.0, 3.0]]))\n"
    "tensor([[2., 1., 0., 1., 2., 3., 2., 1.]])",
    "reflect",
)
ReflectionPad2d = _padding_class(
    "ReflectionPad2d",
    _PadNd,
    _REFLECT,
    "nn.ReflectionPad2d(1)(torch.ones(1, 3, 3)).shape\ntorch.Size([1, 5, 5])",
    "reflect",
)
ReflectionPad3d = _padding_class(
    "ReflectionPad3d",
    _PadNd,
    _REFLECT,
    "nn.ReflectionPad3d(1)(torch.ones(1, 2, 2, 2)).shape\ntorch.Size([1, 4, 4, 4])",
    "reflect",
)

_REPLICATE = "by repeating the edge values"
ReplicationPad1d = _padding_class(
    "ReplicationPad1d",
    _PadNd,
    _REPLICATE,
    "nn.ReplicationPad1d(1)(torch.tensor([[1.0, 2.0]]))\ntensor([[1., 1., 2., 2.]])",
    "replicate",
)
ReplicationPad2d = _padding_class(
    "ReplicationPad2d",
    _PadNd,
    _REPLICATE,
    "nn.ReplicationPad2d(1)(torch.ones(1, 2, 2)).shape\ntorch.Size([1, 4, 4])",
    "replicate",
)
ReplicationPad3d = _padding_class(
    "ReplicationPad3d",
    _PadNd,
    _REPLICATE,
    "nn.ReplicationPad3d(1)(torch.ones(1, 2, 2, 2)).shape\ntorch.Size([1, 4, 4, 4])",
    "replicate",
)

_CIRCULAR = "by wrapping the input around"
CircularPad1d = _padding_class(
    "CircularPad1d",
    _PadNd,
    _CIRCULAR,
    "nn.CircularPad1d(1)(torch.tensor([[1.0, 2.0]]))\ntensor([[2., 1., 2., 1.]])",
    "circular",
)
CircularPad2d = _padding_class(
    "CircularPad2d",
    _PadNd,
    _CIRCULAR,
    "nn.CircularPad2d(1)(torch.ones(1, 2, 2)).shape\ntorch.Size([1, 4, 4])",
    "circular",
)
CircularPad3d = _padding_class(
    "CircularPad3d",
    _PadNd,
    _CIRCULAR,
    "nn.CircularPad3d(1)(torch.ones(1, 2, 2, 2)).shape\ntorch.Size([1, 4, 4, 4])",
    "circular",
)
