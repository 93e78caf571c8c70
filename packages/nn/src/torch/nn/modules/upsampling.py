"""PyTorch's module path ``torch.nn.modules.upsampling``: code that imports from it finds the
layers, which live in ``torch.nn.modules.misc`` here."""

from .misc import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]
