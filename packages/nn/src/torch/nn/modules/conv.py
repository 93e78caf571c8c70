"""Convolution layers: ``Conv1d/2d/3d``, ``ConvTranspose1d/2d/3d`` and their lazy
forms."""

from __future__ import annotations

import math

import torch

from .. import functional as F  # noqa: N812
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module
from .utils import _pair, _reverse_repeat_tuple, _single, _triple

__all__ = [
    "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d",
    "LazyConvTranspose3d",
]  # fmt: skip

_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def _check_conv_args(in_channels, out_channels, groups, padding, stride, padding_mode):
    if groups <= 0:
        raise ValueError("groups must be a positive integer")
    if in_channels % groups != 0:
        raise ValueError("in_channels must be divisible by groups")
    if out_channels % groups != 0:
        raise ValueError("out_channels must be divisible by groups")
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(
                f"Invalid padding string {padding!r}, should be one of {{'same', 'valid'}}"
            )
        if padding == "same" and any(s != 1 for s in stride):
            raise ValueError("padding='same' is not supported for strided convolutions")
    if padding_mode not in _PADDING_MODES:
        raise ValueError(
            "padding_mode must be one of {'zeros', 'replicate', 'circular', 'reflect'}, but "
            f"got padding_mode='{padding_mode}'"
        )


class _ConvNd(Module):
    """State shared by the convolution layers (weight, bias, geometry)."""

    _ntuple = staticmethod(_pair)

    def __init__(
        self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
        output_padding, groups, bias, padding_mode, device=None, dtype=None,
    ) -> None:  # fmt: skip
        super().__init__()
        nt = self._ntuple
        kernel_size, stride, dilation = nt(kernel_size), nt(stride), nt(dilation)
        _check_conv_args(in_channels, out_channels, groups, padding, stride, padding_mode)
        if not isinstance(padding, str):
            padding = nt(padding)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = nt(output_padding)
        self.groups = groups
        self.padding_mode = padding_mode
        self._reversed_padding_repeated_twice = self._padding_for_pad(padding)
        shape = (
            (in_channels, out_channels // groups) if transposed
            else (out_channels, in_channels // groups)
        ) + kernel_size  # fmt: skip
        self.weight = Parameter(torch.empty(shape, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _padding_for_pad(self, padding):
        if isinstance(padding, str):
            result = [0, 0] * len(self.kernel_size)
            if padding == "same":
                for d, k, i in zip(
                    self.dilation, self.kernel_size, range(len(self.kernel_size) - 1, -1, -1)
                ):
                    total = d * (k - 1)
                    left = total // 2
                    result[2 * i] = left
                    result[2 * i + 1] = total - left
            return result
        return _reverse_repeat_tuple(padding, 2)

    def reset_parameters(self) -> None:
        """kaiming-uniform (a=sqrt(5)) weight; bias from U(-1/sqrt(fan_in), ...)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        n = len(self.kernel_size)
        s = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if isinstance(self.padding, str) or self.padding != (0,) * n:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * n:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * n:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        self.__dict__.setdefault("padding_mode", "zeros")


def _conv_class(nd, ntuple, functional, doc_shape):
    name = functional.__name__

    class Conv(_ConvNd):
        _ntuple = staticmethod(ntuple)

        def __init__(
            self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
            dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
            device=None, dtype=None,
        ) -> None:  # fmt: skip
            super().__init__(
                in_channels, out_channels, kernel_size, stride, padding, dilation, False,
                0, groups, bias, padding_mode, device, dtype,
            )  # fmt: skip

        def _conv_forward(self, input, weight, bias):
            functional = getattr(F, name)  # at call time: autocast/the profiler wrap it
            if self.padding_mode != "zeros":
                padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
                return functional(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
            return functional(
                input, weight, bias, self.stride, self.padding, self.dilation, self.groups
            )

        def forward(self, input):
            return self._conv_forward(input, self.weight, self.bias)

    Conv.__name__ = Conv.__qualname__ = f"Conv{nd}d"
    Conv.__doc__ = f"""{nd}-d convolution (cross-correlation) over an input of several
    channels.

    Args:
        in_channels (int): channels of the input.
        out_channels (int): channels of the output.
        kernel_size (int or tuple): size of the kernel.
        stride (int or tuple): step of the kernel. Default: 1.
        padding (int, tuple or str): zero padding on each side, or ``'valid'`` /
            ``'same'``. Default: 0.
        dilation (int or tuple): spacing of kernel elements. Default: 1.
        groups (int): channel groups. Default: 1.
        bias (bool): learn a bias. Default: ``True``.
        padding_mode (str): ``'zeros'``, ``'reflect'``, ``'replicate'`` or
            ``'circular'``. Default: ``'zeros'``.

    Shape:
        - Input: {doc_shape[0]}.
        - Output: {doc_shape[1]}.

    Examples::

        >>> m = nn.Conv{nd}d(4, 8, 3, stride=2)
        >>> m(torch.randn((2, 4) + (9,) * {nd})).shape[:2]
        torch.Size([2, 8])
    """
    return Conv


Conv1d = _conv_class(1, _single, F.conv1d, ("(N, C_in, L_in)", "(N, C_out, L_out)"))
Conv2d = _conv_class(2, _pair, F.conv2d, ("(N, C_in, H, W)", "(N, C_out, H_out, W_out)"))
Conv3d = _conv_class(
    3, _triple, F.conv3d, ("(N, C_in, D, H, W)", "(N, C_out, D_out, H_out, W_out)")
)
Conv1d.__module__ = Conv2d.__module__ = Conv3d.__module__ = __name__


class _ConvTransposeNd(_ConvNd):
    def _output_padding(
        self, input, output_size, stride, padding, kernel_size, num_spatial_dims, dilation=None
    ):
        if output_size is None:
            return self.output_padding
        output_size = list(output_size)
        has_batch = input.dim() == num_spatial_dims + 2
        if len(output_size) == num_spatial_dims + (2 if has_batch else 1):
            output_size = output_size[-num_spatial_dims:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(
                f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must "
                f"have {num_spatial_dims} or {num_spatial_dims + 2} elements (got "
                f"{len(output_size)})"
            )
        dilation = dilation or (1,) * num_spatial_dims
        result = []
        for d in range(num_spatial_dims):
            size = input.shape[d - num_spatial_dims]
            smallest = (
                (size - 1) * stride[d] - 2 * padding[d] + dilation[d] * (kernel_size[d] - 1) + 1
            )
            largest = smallest + stride[d] - 1
            if not smallest <= output_size[d] <= largest:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes range from "
                    f"{smallest} to {largest} (for an input of {list(input.shape[2:])})"
                )
            result.append(output_size[d] - smallest)
        return tuple(result)


def _conv_transpose_class(nd, ntuple, functional):
    name = functional.__name__

    class ConvTranspose(_ConvTransposeNd):
        _ntuple = staticmethod(ntuple)

        def __init__(
            self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
            output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
            padding_mode: str = "zeros", device=None, dtype=None,
        ) -> None:  # fmt: skip
            if padding_mode != "zeros":
                raise ValueError(
                    f'Only "zeros" padding mode is supported for {type(self).__name__}'
                )
            super().__init__(
                in_channels, out_channels, kernel_size, stride, padding, dilation, True,
                output_padding, groups, bias, padding_mode, device, dtype,
            )  # fmt: skip

        def forward(self, input, output_size=None):
            output_padding = self._output_padding(
                input, output_size, self.stride, self.padding, self.kernel_size, nd,
                self.dilation,
            )  # fmt: skip
            functional = getattr(F, name)  # at call time: autocast/the profiler wrap it
            return functional(
                input, self.weight, self.bias, self.stride, self.padding, output_padding,
                self.groups, self.dilation,
            )  # fmt: skip

    ConvTranspose.__name__ = ConvTranspose.__qualname__ = f"ConvTranspose{nd}d"
    ConvTranspose.__module__ = __name__
    ConvTranspose.__doc__ = f"""{nd}-d transposed convolution: the gradient of
    :class:`Conv{nd}d` with respect to its input, as a layer.

    Args:
        in_channels (int), out_channels (int), kernel_size (int or tuple).
        stride (int or tuple): Default: 1.
        padding (int or tuple): removed from each side of the output. Default: 0.
        output_padding (int or tuple): added to one side of the output. Default: 0.
        groups (int): Default: 1. bias (bool): Default: ``True``.
        dilation (int or tuple): Default: 1.

    Shape:
        - Input: (N, C_in, *spatial_in); Output: (N, C_out, *spatial_out) with
          ``out = (in - 1) * stride - 2 * padding + dilation * (kernel - 1) +
          output_padding + 1``.

    Examples::

        >>> m = nn.ConvTranspose{nd}d(4, 2, 3, stride=2)
        >>> m(torch.randn((1, 4) + (5,) * {nd})).shape[2:]
        torch.Size({[11] * nd})
    """
    return ConvTranspose


ConvTranspose1d = _conv_transpose_class(1, _single, F.conv_transpose1d)
ConvTranspose2d = _conv_transpose_class(2, _pair, F.conv_transpose2d)
ConvTranspose3d = _conv_transpose_class(3, _triple, F.conv_transpose3d)


class _LazyConvMixin(LazyModuleMixin):
    def __init__(self, out_channels, *args, **kwargs) -> None:
        super().__init__(0, 0, *args, **kwargs)
        self.weight = UninitializedParameter()
        self.out_channels = out_channels
        if self.bias is not None:
            self.bias = UninitializedParameter()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs) -> None:
        if not self.has_uninitialized_params():
            return
        nd = len(self.kernel_size)
        self.in_channels = input.shape[1] if input.dim() == nd + 2 else input.shape[0]
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if self.transposed:
            shape = (self.in_channels, self.out_channels // self.groups)
        else:
            shape = (self.out_channels, self.in_channels // self.groups)
        with torch.no_grad():
            self.weight.materialize(shape + self.kernel_size)
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


def _lazy(base):
    class Lazy(_LazyConvMixin, base):
        cls_to_become = base

        def __init__(self, out_channels: int, *args, **kwargs) -> None:
            _LazyConvMixin.__init__(self, out_channels, *args, **kwargs)

    Lazy.__name__ = Lazy.__qualname__ = "Lazy" + base.__name__
    Lazy.__module__ = __name__
    Lazy.__doc__ = f"""A :class:`{base.__name__}` whose ``in_channels`` is read from the
    first input; the other arguments are those of :class:`{base.__name__}`."""
    return Lazy


LazyConv1d, LazyConv2d, LazyConv3d = _lazy(Conv1d), _lazy(Conv2d), _lazy(Conv3d)
LazyConvTranspose1d = _lazy(ConvTranspose1d)
LazyConvTranspose2d = _lazy(ConvTranspose2d)
LazyConvTranspose3d = _lazy(ConvTranspose3d)
