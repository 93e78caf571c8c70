"""torch.nn.modules.normalization: forward, gradients and repr against real PyTorch."""

from collections import OrderedDict  # noqa: F401  (used by the repr sources)

import torch  # noqa: F401
from torch import nn  # noqa: F401

FAMILY = "normalization"
REPR_PREFIXES = (
    "nn.BatchNorm",
    "nn.InstanceNorm",
    "nn.LayerNorm",
    "nn.GroupNorm",
    "nn.RMSNorm",
    "nn.LocalResponseNorm",
    "nn.CrossMapLRN2d",
    "nn.SyncBatchNorm",
    "nn.LazyBatchNorm",
    "nn.LazyInstanceNorm",
)


def test_forward_and_gradients_match_pytorch(module_case, check_module_case):
    check_module_case(module_case)


def test_repr_matches_pytorch(repr_case):
    source, expected = repr_case
    assert repr(eval(source)) == expected


def test_convert_sync_batchnorm_keeps_parameters():
    net = nn.Sequential(nn.Conv2d(1, 2, 1), nn.BatchNorm2d(2))
    weight = net[1].weight
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(net)
    assert isinstance(converted[1], nn.SyncBatchNorm) and converted[1].weight is weight
