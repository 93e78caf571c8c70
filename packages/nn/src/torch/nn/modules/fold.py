"""PyTorch's module path ``torch.nn.modules.fold``: code that imports from it finds the
layers, which live in ``torch.nn.modules.misc`` here."""

from .misc import Fold, Unfold

__all__ = ["Fold", "Unfold"]
