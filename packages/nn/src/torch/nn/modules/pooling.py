"""Pooling layers: max, average, adaptive, power-average (LP), fractional max and
max-unpooling."""

from __future__ import annotations

from .. import functional as F  # noqa: N812
from .module import Module
from .utils import _extra_repr_of, _layer, _pair, _single, _triple

__all__ = [
    "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "LPPool1d", "LPPool2d", "LPPool3d",
    "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d", "FractionalMaxPool3d",
]  # fmt: skip


def _set_window(module, kernel_size, stride, padding, ntuple=None) -> None:
    """Store a pooling window's ``kernel_size``, ``stride`` (by default the kernel size:
    windows side by side) and ``padding``; through ``ntuple`` for the layers that keep them
    as tuples."""
    stride = stride if stride is not None else kernel_size
    if ntuple is not None:
        kernel_size, stride, padding = ntuple(kernel_size), ntuple(stride), ntuple(padding)
    module.kernel_size = kernel_size
    module.stride = stride
    module.padding = padding


def _forward_with(*options: str):
    """The ``forward`` of a pooling layer that hands the input and its stored ``options``,
    in this order (its functional's), to its functional ``_functional``."""

    def forward(self, input):
        return self._functional(input, *(getattr(self, name) for name in options))

    return forward


class _MaxPoolNd(Module):
    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        dilation=1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> None:
        super().__init__()
        _set_window(self, kernel_size, stride, padding)
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    forward = _forward_with(
        "kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"
    )
    extra_repr = _extra_repr_of("kernel_size", "stride", "padding", "dilation", "ceil_mode")


class MaxPool1d(_MaxPoolNd):
    """1-d max pooling.

    Args:
        kernel_size: window size. stride: step (default: ``kernel_size``).
        padding: implicit -inf padding on both sides. Default: 0.
        dilation: spacing of window elements. Default: 1.
        return_indices (bool): also return the positions of the maxima. Default: False.
        ceil_mode (bool): round the output size up. Default: False.

    Shape:
        - Input: (N, C, L_in) or (C, L_in). Output: (N, C, L_out) or (C, L_out).

    Examples::

        >>> nn.MaxPool1d(2)(torch.tensor([[1.0, 3.0, 2.0, 0.0]]))
        tensor([[3., 2.]])
    """

    _functional = staticmethod(F.max_pool1d)


MaxPool2d = _layer(
    _MaxPoolNd,
    "MaxPool2d",
    (
        "2-d max pooling; arguments as :class:`MaxPool1d`, ints or pairs.\n"
        "\n"
        "    Shape:\n"
        "        - Input: (N, C, H, W) or (C, H, W). Output: (N, C, H_out, "
        "W_out) or (C, H_out, W_out)."
    ),
    (
        ">>> nn.MaxPool2d(2)(torch.arange(16.0).reshape(1, 4, 4))\n"
        "tensor([[[ 5.,  7.],\n"
        "         [13., 15.]]])"
    ),
    _functional=staticmethod(F.max_pool2d),
)


MaxPool3d = _layer(
    _MaxPoolNd,
    "MaxPool3d",
    (
        "3-d max pooling; arguments as :class:`MaxPool1d`, ints or triples.\n"
        "\n"
        "    Shape:\n"
        "        - Input: (N, C, D, H, W) or (C, D, H, W)."
    ),
    ">>> nn.MaxPool3d(2)(torch.ones(1, 1, 2, 2, 2)).shape\ntorch.Size([1, 1, 1, 1, 1])",
    _functional=staticmethod(F.max_pool3d),
)


class AvgPool1d(Module):
    """1-d average pooling.

    Args:
        kernel_size: window size. stride: step (default: ``kernel_size``).
        padding: zero padding on both sides. Default: 0.
        ceil_mode (bool): round the output size up. Default: False.
        count_include_pad (bool): include the zero padding in the averages. Default: True.

    Shape:
        - Input: (N, C, L_in) or (C, L_in).

    Examples::

        >>> nn.AvgPool1d(2)(torch.tensor([[1.0, 3.0, 2.0, 0.0]]))
        tensor([[2., 1.]])
    """

    _functional = staticmethod(F.avg_pool1d)

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None:
        super().__init__()
        _set_window(self, kernel_size, stride, padding, _single)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    forward = _forward_with("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad")
    extra_repr = _extra_repr_of("kernel_size", "stride", "padding")


class _AvgPoolNd(Module):
    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override=None,
    ) -> None:
        super().__init__()
        _set_window(self, kernel_size, stride, padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    forward = _forward_with(
        "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"
    )
    extra_repr = _extra_repr_of("kernel_size", "stride", "padding")


AvgPool2d = _layer(
    _AvgPoolNd,
    "AvgPool2d",
    (
        "2-d average pooling; arguments as :class:`AvgPool1d`, plus\n"
        "    ``divisor_override`` (divide by this instead of the window size)."
    ),
    (
        ">>> nn.AvgPool2d(2)(torch.arange(16.0).reshape(1, 4, 4))\n"
        "tensor([[[ 2.5000,  4.5000],\n"
        "         [10.5000, 12.5000]]])"
    ),
    _functional=staticmethod(F.avg_pool2d),
)


AvgPool3d = _layer(
    _AvgPoolNd,
    "AvgPool3d",
    "3-d average pooling; arguments as :class:`AvgPool2d`.",
    ">>> nn.AvgPool3d(2)(torch.ones(1, 1, 2, 2, 2))\ntensor([[[[[1.]]]]])",
    _functional=staticmethod(F.avg_pool3d),
)


class _AdaptiveMaxPoolNd(Module):
    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    forward = _forward_with("output_size", "return_indices")
    extra_repr = _extra_repr_of("output_size")


AdaptiveMaxPool1d = _layer(
    _AdaptiveMaxPoolNd,
    "AdaptiveMaxPool1d",
    "1-d max pooling to a fixed ``output_size`` whatever the input size.",
    ">>> nn.AdaptiveMaxPool1d(2)(torch.tensor([[1.0, 3.0, 2.0, 0.0, 5.0]]))\ntensor([[3., 5.]])",
    _functional=staticmethod(F.adaptive_max_pool1d),
)


AdaptiveMaxPool2d = _layer(
    _AdaptiveMaxPoolNd,
    "AdaptiveMaxPool2d",
    (
        "2-d adaptive max pooling (``output_size`` an int, a pair, or None entries to\n"
        "    keep a dim)."
    ),
    ">>> nn.AdaptiveMaxPool2d((1, 2))(torch.ones(1, 3, 5, 7)).shape\ntorch.Size([1, 3, 1, 2])",
    _functional=staticmethod(F.adaptive_max_pool2d),
)


AdaptiveMaxPool3d = _layer(
    _AdaptiveMaxPoolNd,
    "AdaptiveMaxPool3d",
    "3-d adaptive max pooling.",
    ">>> nn.AdaptiveMaxPool3d(1)(torch.ones(1, 2, 3, 3, 3)).shape\ntorch.Size([1, 2, 1, 1, 1])",
    _functional=staticmethod(F.adaptive_max_pool3d),
)


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    forward = _forward_with("output_size")
    extra_repr = _extra_repr_of("output_size")


AdaptiveAvgPool1d = _layer(
    _AdaptiveAvgPoolNd,
    "AdaptiveAvgPool1d",
    "1-d average pooling to a fixed ``output_size``.",
    ">>> nn.AdaptiveAvgPool1d(1)(torch.tensor([[1.0, 3.0]]))\ntensor([[2.]])",
    _functional=staticmethod(F.adaptive_avg_pool1d),
)


AdaptiveAvgPool2d = _layer(
    _AdaptiveAvgPoolNd,
    "AdaptiveAvgPool2d",
    "2-d adaptive average pooling.",
    ">>> nn.AdaptiveAvgPool2d((5, 7))(torch.randn(1, 64, 8, 9)).shape\ntorch.Size([1, 64, 5, 7])",
    _functional=staticmethod(F.adaptive_avg_pool2d),
)


AdaptiveAvgPool3d = _layer(
    _AdaptiveAvgPoolNd,
    "AdaptiveAvgPool3d",
    "3-d adaptive average pooling.",
    ">>> nn.AdaptiveAvgPool3d(1)(torch.ones(1, 2, 3, 3, 3)).shape\ntorch.Size([1, 2, 1, 1, 1])",
    _functional=staticmethod(F.adaptive_avg_pool3d),
)


class _LPPoolNd(Module):
    def __init__(self, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return self._functional(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )

    extra_repr = _extra_repr_of("norm_type", "kernel_size", "stride", "ceil_mode")


LPPool1d = _layer(
    _LPPoolNd,
    "LPPool1d",
    "1-d power-average pooling: ``(sum over the window of x^p)^(1/p)``.",
    ">>> nn.LPPool1d(2, 2)(torch.tensor([[3.0, 4.0]]))\ntensor([[5.]])",
    _functional=staticmethod(F.lp_pool1d),
)


LPPool2d = _layer(
    _LPPoolNd,
    "LPPool2d",
    "2-d power-average pooling.",
    ">>> nn.LPPool2d(1, 2)(torch.ones(1, 1, 2, 2))\ntensor([[[[4.]]]])",
    _functional=staticmethod(F.lp_pool2d),
)


LPPool3d = _layer(
    _LPPoolNd,
    "LPPool3d",
    "3-d power-average pooling.",
    ">>> nn.LPPool3d(1, 2)(torch.ones(1, 1, 2, 2, 2))\ntensor([[[[[8.]]]]])",
    _functional=staticmethod(F.lp_pool3d),
)


class _MaxUnpoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        _set_window(self, kernel_size, stride, padding, self._ntuple)

    def forward(self, input, indices, output_size=None):
        return self._functional(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )

    extra_repr = _extra_repr_of("kernel_size", "stride", "padding")


MaxUnpool1d = _layer(
    _MaxUnpoolNd,
    "MaxUnpool1d",
    (
        "Partial inverse of :class:`MaxPool1d`: values go back to the positions of their\n"
        "    maxima, zeros elsewhere."
    ),
    (
        ">>> out, idx = nn.MaxPool1d(2, return_indices=True)(torch.tensor([[1.0, 3.0]]))\n"
        ">>> nn.MaxUnpool1d(2)(out, idx)\n"
        "tensor([[0., 3.]])"
    ),
    _ntuple=staticmethod(_single),
    _functional=staticmethod(F.max_unpool1d),
)


def _max_unpool_layer(nd: int, ntuple, functional) -> type:
    """``MaxUnpool{nd}d`` for 2 and 3 dims (declared like MaxUnpool1d, with a shorter
    docstring)."""
    ones = ", ".join(["1", "1"] + ["2"] * nd)
    return _layer(
        _MaxUnpoolNd,
        f"MaxUnpool{nd}d",
        f"Partial inverse of :class:`MaxPool{nd}d`.",
        (
            f">>> out, idx = nn.MaxPool{nd}d(2, return_indices=True)(torch.ones({ones}))\n"
            f">>> nn.MaxUnpool{nd}d(2)(out, idx).shape\n"
            f"torch.Size([{ones}])"
        ),
        _ntuple=staticmethod(ntuple),
        _functional=staticmethod(functional),
    )


MaxUnpool2d = _max_unpool_layer(2, _pair, F.max_unpool2d)
MaxUnpool3d = _max_unpool_layer(3, _triple, F.max_unpool3d)


class _FractionalMaxPoolNd(Module):
    _nd = 2

    def __init__(
        self,
        kernel_size,
        output_size=None,
        output_ratio=None,
        return_indices: bool = False,
        _random_samples=None,
    ) -> None:
        super().__init__()
        name, ntuple = type(self).__name__, (_pair if self._nd == 2 else _triple)
        self.kernel_size = ntuple(kernel_size)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = ntuple(output_size) if output_size is not None else None
        self.output_ratio = ntuple(output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(
                f"{name} requires specifying either an output size, or a pooling ratio"
            )
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        pool = F.fractional_max_pool2d if self._nd == 2 else F.fractional_max_pool3d
        return pool(
            input,
            self.kernel_size,
            self.output_size,
            self.output_ratio,
            self.return_indices,
            _random_samples=self._random_samples,
        )


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """2-d fractional max pooling (see ``torch.nn.functional.fractional_max_pool2d``):
    windows of ``kernel_size`` at pseudo-random starts, to an ``output_size`` or an
    ``output_ratio`` (in (0, 1)) of the input's size.

    Args:
        kernel_size (int or tuple): the window size.
        output_size (int or tuple, optional): the output's height and width.
        output_ratio (float or tuple, optional): the output size as a fraction of the
            input's (one of the two, not both).
        return_indices (bool): also return the flat index of each maximum. Default: False.

    Shape:
        - Input: (N, C, H, W) or (C, H, W); Output: (N, C, Ho, Wo) or (C, Ho, Wo).

    Examples::

        >>> nn.FractionalMaxPool2d(3, output_ratio=0.5)(torch.randn(1, 2, 8, 6)).shape
        torch.Size([1, 2, 4, 3])
    """

    _nd = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """3-d fractional max pooling (see ``FractionalMaxPool2d``).

    Shape:
        - Input: (N, C, T, H, W) or (C, T, H, W); Output: (N, C, To, Ho, Wo) or
          (C, To, Ho, Wo).

    Examples::

        >>> nn.FractionalMaxPool3d(2, output_size=(2, 3, 3))(torch.randn(1, 1, 5, 6, 7)).shape
        torch.Size([1, 1, 2, 3, 3])
    """

    _nd = 3
