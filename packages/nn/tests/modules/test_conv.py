"""torch.nn.modules.conv: forward, gradients and repr against real PyTorch."""

from collections import OrderedDict  # noqa: F401  (used by the repr sources)

import torch  # noqa: F401
from torch import nn  # noqa: F401

FAMILY = "conv"
REPR_PREFIXES = ("nn.Conv", "nn.LazyConv")


def test_forward_and_gradients_match_pytorch(module_case, check_module_case):
    check_module_case(module_case)


def test_repr_matches_pytorch(repr_case):
    source, expected = repr_case
    assert repr(eval(source)) == expected
