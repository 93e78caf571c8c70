"""torch.nn.modules.normalization: forward, gradients and repr against real PyTorch."""

from torch import nn


def test_convert_sync_batchnorm_keeps_parameters():
    net = nn.Sequential(nn.Conv2d(1, 2, 1), nn.BatchNorm2d(2))
    weight = net[1].weight
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(net)
    assert isinstance(converted[1], nn.SyncBatchNorm) and converted[1].weight is weight
