"""torch.nn.modules.batchnorm: PyTorch's module path of the batch-norm layers and their
``_BatchNorm`` base (kornia imports it from there)."""

import torch.nn as nn
from torch.nn.modules import batchnorm, normalization


def test_same_classes_as_normalization():
    assert batchnorm._BatchNorm is normalization._BatchNorm
    assert batchnorm.BatchNorm2d is nn.BatchNorm2d
    assert issubclass(batchnorm.SyncBatchNorm, batchnorm._BatchNorm)
    assert batchnorm.__all__ == [
        "BatchNorm1d", "LazyBatchNorm1d", "BatchNorm2d", "LazyBatchNorm2d",
        "BatchNorm3d", "LazyBatchNorm3d", "SyncBatchNorm",
    ]  # fmt: skip
