"""PyTorch's module path ``torch.nn.modules.distance``: code that imports from it finds the
layers, which live in ``torch.nn.modules.misc`` here."""

from .misc import CosineSimilarity, PairwiseDistance

__all__ = ["PairwiseDistance", "CosineSimilarity"]
