"""torch.nn.modules.loss: forward, gradients and repr against real PyTorch."""

from collections import OrderedDict  # noqa: F401  (used by the repr sources)

import torch  # noqa: F401
from torch import nn  # noqa: F401

FAMILY = "loss"
REPR_PREFIXES = (
    "nn.L1Loss(",
    "nn.MSELoss(",
    "nn.CrossEntropyLoss(",
    "nn.NLLLoss(",
    "nn.BCELoss(",
    "nn.BCEWithLogitsLoss(",
    "nn.KLDivLoss(",
    "nn.HuberLoss(",
    "nn.SmoothL1Loss(",
    "nn.SoftMarginLoss(",
    "nn.MultiLabelSoftMarginLoss(",
    "nn.MultiMarginLoss(",
    "nn.MarginRankingLoss(",
    "nn.HingeEmbeddingLoss(",
    "nn.CosineEmbeddingLoss(",
    "nn.TripletMarginLoss(",
    "nn.PoissonNLLLoss(",
    "nn.GaussianNLLLoss(",
    "nn.CTCLoss(",
    "nn.MultiLabelMarginLoss(",
    "nn.TripletMarginWithDistanceLoss(",
    "nn.NLLLoss2d(",
)


def test_forward_and_gradients_match_pytorch(module_case, check_module_case):
    check_module_case(module_case)


def test_repr_matches_pytorch(repr_case):
    source, expected = repr_case
    assert repr(eval(source)) == expected
