"""The nn-only functions that used to be core composites (gelu, pad, the losses, unfold,
fold, ...), as op-database rows: each against its NumPy reference (where it has one), and
its gradients (and gradients of gradients) against central finite differences in
float64."""

import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F  # noqa: N812
from torch.testing._opinfo_base import (
    FLOATING,
    OpInfo,
    SampleInput,
    _make,
    check_against_reference,
)


def _unary(dtype):
    return [SampleInput((_make(shape, dtype, 3),)) for shape in [(4,), (2, 3), ()]]


def _targets():
    return torch.tensor([0, 2, 1, 2, 0])


def _log_softmax(x):
    return x - np.log(np.exp(x).sum(1, keepdims=True))


_NUMPY_PAD_MODE = {"constant": "constant", "reflect": "reflect", "replicate": "edge"}
_NUMPY_PAD_MODE["circular"] = "wrap"

NN_OPS = [
    OpInfo(
        "nll_loss",
        lambda x, t: F.nll_loss(x, t),
        lambda x, t: -x[np.arange(len(t)), t].mean(),
        lambda d: [SampleInput((_make((5, 3), d, 1), _targets()))],
    ),
    OpInfo(
        "cross_entropy",
        lambda x, t: F.cross_entropy(x, t, label_smoothing=0.2),
        lambda x, t: np.mean(
            -(0.8 * _log_softmax(x)[np.arange(len(t)), t] + 0.2 / 3 * _log_softmax(x).sum(1))
        ),
        lambda d: [SampleInput((_make((5, 3), d, 1), _targets()))],
    ),
    OpInfo(
        "mse_loss",
        lambda x, y: F.mse_loss(x, y),
        lambda x, y: np.mean((x - y) ** 2),
        lambda d: [SampleInput((_make((3, 4), d, 1), _make((3, 4), d, 2)))],
    ),
    OpInfo(
        "gelu",
        F.gelu,
        lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / np.sqrt(2))),
        _unary,
    ),
    OpInfo("silu", F.silu, lambda x: x / (1 + np.exp(-x)), _unary),
    OpInfo("elu", F.elu, lambda x: np.where(x > 0, x, np.expm1(x)), _unary),
    OpInfo(
        "leaky_relu",
        lambda x: F.leaky_relu(x, 0.2),
        lambda x: np.where(x > 0, x, 0.2 * x),
        _unary,
    ),
    OpInfo("softplus", F.softplus, lambda x: np.log1p(np.exp(x)), _unary),
    OpInfo(
        "pad",
        lambda x, p, m: F.pad(x, p, m),
        lambda x, p, m: np.pad(x, ((0, 0), (p[2], p[3]), (p[0], p[1])), _NUMPY_PAD_MODE[m]),
        lambda d: [
            SampleInput((_make((2, 3, 4), d, 1),), ((1, 2, 2, 1), mode))
            for mode in ("constant", "reflect", "replicate", "circular")
        ],
    ),
    # values are checked against PyTorch in the golden expressions; gradients here
    OpInfo(
        "unfold",
        lambda x: F.unfold(x, 2, 1, 1, 2),
        None,
        lambda d: [SampleInput((_make((1, 2, 4, 5), d, 1),))],
    ),
    OpInfo(
        "fold",
        lambda c: F.fold(c, (4, 5), 2, 1, 1, 2),
        None,
        lambda d: [SampleInput((_make((1, 8, 9), d, 1),))],
    ),
    OpInfo(
        "max_unpool2d",
        lambda x: F.max_unpool2d(x, torch.tensor([[[[1, 6], [8, 15]]]]), 2),
        None,
        lambda d: [SampleInput((_make((1, 1, 2, 2), d, 1),))],
    ),
    OpInfo(
        "lp_pool2d",
        lambda x: F.lp_pool2d(x, 2, 2),
        None,
        lambda d: [SampleInput((_make((1, 2, 4, 4), d, 1, True),))],
    ),
]
assert all(info.dtypes == FLOATING for info in NN_OPS)
CASES = [(info, dtype) for info in NN_OPS for dtype in info.dtypes if info.ref is not None]


@pytest.mark.parametrize("info,dtype", CASES, ids=[f"{i.name}-{d}" for i, d in CASES])
def test_matches_numpy_reference(info, dtype):
    check_against_reference(info, dtype)


@pytest.mark.parametrize("info", NN_OPS, ids=[i.name for i in NN_OPS])
def test_gradients_match_finite_differences(info):
    for sample in info.sample_inputs(torch.float64):
        tensors = [t.detach().clone() for t in sample.tensors]
        inputs = [t.requires_grad_() if t.is_floating_point() else t for t in tensors]

        def f(*floats, sample=sample, inputs=inputs):
            given = iter(floats)
            args = [next(given) if t.is_floating_point() else t for t in inputs]
            return info.op(*args, *sample.args, **sample.kwargs)

        floats = tuple(t for t in inputs if t.is_floating_point())
        assert torch.autograd.gradcheck(f, floats, eps=1e-6, atol=1e-6, rtol=1e-5)
        if info.supports_gradgrad:
            assert torch.autograd.gradgradcheck(f, floats, eps=1e-6, atol=1e-5, rtol=1e-4)
