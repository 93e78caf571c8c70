"""Reshaping and resampling layers: ``PixelShuffle``, ``PixelUnshuffle``,
``ChannelShuffle``, ``Upsample`` (and its deprecated variants), ``Fold``/``Unfold``,
and the distances ``PairwiseDistance``/``CosineSimilarity``."""

from __future__ import annotations

from .. import functional as F  # noqa: N812
from .module import Module
from .utils import _extra_repr_of

__all__ = [
    "PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Upsample", "UpsamplingNearest2d",
    "UpsamplingBilinear2d", "Fold", "Unfold", "PairwiseDistance", "CosineSimilarity",
]  # fmt: skip


class PixelShuffle(Module):
    """(*, C r^2, H, W) -> (*, C, H r, W r).

    Args:
        upscale_factor (int): r.

    Examples::

        >>> nn.PixelShuffle(3)(torch.randn(1, 9, 4, 4)).shape
        torch.Size([1, 1, 12, 12])
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    extra_repr = _extra_repr_of("upscale_factor")


class PixelUnshuffle(Module):
    """(*, C, H r, W r) -> (*, C r^2, H, W).

    Args:
        downscale_factor (int): r.

    Examples::

        >>> nn.PixelUnshuffle(3)(torch.randn(1, 1, 12, 12)).shape
        torch.Size([1, 9, 4, 4])
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    extra_repr = _extra_repr_of("downscale_factor")


class ChannelShuffle(Module):
    """Interleave the channels of ``groups`` groups.

    Examples::

        >>> nn.ChannelShuffle(2)(torch.arange(4.0).reshape(1, 4, 1, 1)).flatten()
        tensor([0., 2., 1., 3.])
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    extra_repr = _extra_repr_of("groups")


class Upsample(Module):
    """Resize the spatial dims (see :func:`torch.nn.functional.interpolate`).

    Args:
        size (int or tuple, optional): the output size.
        scale_factor (float or tuple, optional): the multiplier.
        mode (str): Default: ``'nearest'``.
        align_corners (bool, optional): for the linear modes.

    Examples::

        >>> nn.Upsample(scale_factor=2)(torch.ones(1, 1, 2, 2)).shape
        torch.Size([1, 1, 4, 4])
        >>> nn.Upsample(scale_factor=2, mode="bilinear")
        Upsample(scale_factor=2.0, mode='bilinear')
    """

    def __init__(
        self,
        size=None,
        scale_factor=None,
        mode: str = "nearest",
        align_corners=None,
        recompute_scale_factor=None,
    ) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(
            input, self.size, self.scale_factor, self.mode, self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )  # fmt: skip

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    """Deprecated: ``Upsample(mode='nearest')`` for 2-d inputs.

    Examples::

        >>> nn.UpsamplingNearest2d(scale_factor=2)(torch.ones(1, 1, 1, 1)).shape
        torch.Size([1, 1, 2, 2])
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Deprecated: ``Upsample(mode='bilinear', align_corners=True)`` for 2-d inputs.

    Examples::

        >>> nn.UpsamplingBilinear2d(scale_factor=2)(torch.ones(1, 1, 1, 1)).shape
        torch.Size([1, 1, 2, 2])
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


# the geometry of the sliding blocks of Fold and Unfold, in their arguments' order
_BLOCK_OPTIONS = ("kernel_size", "dilation", "padding", "stride")


def _set_blocks(module, kernel_size, dilation, padding, stride) -> None:
    """Store the sliding blocks' geometry (the options named in ``_BLOCK_OPTIONS``)."""
    module.kernel_size = kernel_size
    module.dilation = dilation
    module.padding = padding
    module.stride = stride


class Fold(Module):
    """Sum sliding blocks (columns) back into an image: the adjoint of :class:`Unfold`.

    Args:
        output_size, kernel_size, dilation (1), padding (0), stride (1).

    Examples::

        >>> nn.Fold((3, 3), 2)(torch.ones(1, 4, 4)).shape
        torch.Size([1, 1, 3, 3])
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size = output_size
        _set_blocks(self, kernel_size, dilation, padding, stride)

    def forward(self, input):
        return F.fold(
            input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride
        )

    extra_repr = _extra_repr_of("output_size", *_BLOCK_OPTIONS)


class Unfold(Module):
    """Extract sliding blocks of an image as columns.

    Args:
        kernel_size, dilation (1), padding (0), stride (1).

    Examples::

        >>> nn.Unfold(2)(torch.ones(1, 1, 3, 3)).shape
        torch.Size([1, 4, 4])
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        _set_blocks(self, kernel_size, dilation, padding, stride)

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    extra_repr = _extra_repr_of(*_BLOCK_OPTIONS)


class PairwiseDistance(Module):
    """``||x1 - x2 + eps||_p`` along the last dim.

    Args:
        p (float): Default: 2. eps (float): Default: 1e-6. keepdim (bool): Default: False.

    Examples::

        >>> nn.PairwiseDistance(eps=0)(torch.tensor([[3.0, 0.0]]), torch.tensor([[0.0, 4.0]]))
        tensor([5.])
    """

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim``.

    Args:
        dim (int): Default: 1. eps (float): Default: 1e-8.

    Examples::

        >>> nn.CosineSimilarity()(torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]]))
        tensor([0.7071])
    """

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
