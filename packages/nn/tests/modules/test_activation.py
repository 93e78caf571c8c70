"""torch.nn.modules.activation: forward, gradients and repr against real PyTorch."""

from collections import OrderedDict  # noqa: F401  (used by the repr sources)

import torch  # noqa: F401
from torch import nn  # noqa: F401

FAMILY = "activation"
REPR_PREFIXES = (
    "nn.ReLU(",
    "nn.ReLU6(",
    "nn.LeakyReLU(",
    "nn.ELU(",
    "nn.CELU(",
    "nn.SELU(",
    "nn.GELU(",
    "nn.SiLU(",
    "nn.Mish(",
    "nn.Sigmoid(",
    "nn.Tanh(",
    "nn.Softplus(",
    "nn.Softsign(",
    "nn.Hardtanh(",
    "nn.Hardsigmoid(",
    "nn.Hardswish(",
    "nn.Threshold(",
    "nn.Tanhshrink(",
    "nn.Softshrink(",
    "nn.Hardshrink(",
    "nn.LogSigmoid(",
    "nn.Softmax(",
    "nn.LogSoftmax(",
    "nn.Softmin(",
    "nn.Softmax2d(",
    "nn.GLU(",
    "nn.PReLU(",
    "nn.RReLU(",
)


def test_forward_and_gradients_match_pytorch(module_case, check_module_case):
    check_module_case(module_case)


def test_repr_matches_pytorch(repr_case):
    source, expected = repr_case
    assert repr(eval(source)) == expected
