"""``torch.nn.modules.batchnorm``: PyTorch's module path of the batch-norm layers and of
their bases ``_NormBase`` / ``_BatchNorm`` (libraries subclass or test against them, e.g.
kornia). They are defined in :mod:`torch.nn.modules.normalization` here."""

from .normalization import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyBatchNorm3d,
    SyncBatchNorm,
    _BatchNorm,
    _NormBase,
)

__all__ = [
    "BatchNorm1d",
    "LazyBatchNorm1d",
    "BatchNorm2d",
    "LazyBatchNorm2d",
    "BatchNorm3d",
    "LazyBatchNorm3d",
    "SyncBatchNorm",
]

_ = (_BatchNorm, _NormBase)  # re-exported for subclassing, as in PyTorch
