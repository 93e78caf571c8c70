"""torch.nn.modules.linear: forward, gradients and repr against real PyTorch."""

from collections import OrderedDict  # noqa: F401  (used by the repr sources)

import torch  # noqa: F401
from torch import nn  # noqa: F401

FAMILY = "linear"
REPR_PREFIXES = ("nn.Linear(", "nn.Bilinear(", "nn.Identity(", "nn.LazyLinear(")


def test_forward_and_gradients_match_pytorch(module_case, check_module_case):
    check_module_case(module_case)


def test_repr_matches_pytorch(repr_case):
    source, expected = repr_case
    assert repr(eval(source)) == expected
