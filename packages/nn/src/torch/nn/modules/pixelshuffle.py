"""PyTorch's module path ``torch.nn.modules.pixelshuffle``: code that imports from it finds the
layers, which live in ``torch.nn.modules.misc`` here."""

from .misc import PixelShuffle, PixelUnshuffle

__all__ = ["PixelShuffle", "PixelUnshuffle"]
