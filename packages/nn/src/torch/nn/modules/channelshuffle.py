"""PyTorch's module path ``torch.nn.modules.channelshuffle``: code that imports from it finds the
layers, which live in ``torch.nn.modules.misc`` here."""

from .misc import ChannelShuffle

__all__ = ["ChannelShuffle"]
