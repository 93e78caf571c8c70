"""Every module's updateGradInput and accGradParameters against finite differences of
its updateOutput, in float64 (Lua Torch's nn.Jacobian test)."""

import pathlib
import sys

import pytest

import torch
from torch.legacy import nn

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from legacy_checks import check_jacobian  # noqa: E402


def rand(*shape):
    return torch.randn(*shape, dtype=torch.float64)


def distinct(*shape):
    """Values with no ties (max pooling and Max are not differentiable at ties)."""
    n = 1
    for s in shape:
        n *= s
    return (torch.randperm(n).to(torch.float64) / n + 0.01 * rand(n)).view(*shape)


CASES = {
    "Linear": (lambda: nn.Linear(4, 3), lambda: rand(2, 4)),
    "Linear-1d": (lambda: nn.Linear(4, 3), lambda: rand(4)),
    "Linear-nobias": (lambda: nn.Linear(3, 2).noBias(), lambda: rand(2, 3)),
    "SpatialConvolution": (
        lambda: nn.SpatialConvolution(2, 3, 3, 2, 1, 1),
        lambda: rand(2, 2, 4, 5),
    ),
    "SpatialConvolution-stride-pad": (
        lambda: nn.SpatialConvolution(2, 2, 3, 3, 2, 1, 1, 0),
        lambda: rand(1, 2, 5, 5),
    ),
    "SpatialConvolution-3d": (lambda: nn.SpatialConvolution(1, 2, 2, 2), lambda: rand(1, 3, 3)),
    "SpatialMaxPooling": (lambda: nn.SpatialMaxPooling(2, 2), lambda: distinct(2, 2, 4, 4)),
    "SpatialMaxPooling-pad-ceil": (
        lambda: nn.SpatialMaxPooling(3, 3, 2, 2, 1, 1).ceil(),
        lambda: distinct(1, 2, 6, 6),
    ),
    "SpatialAveragePooling": (
        lambda: nn.SpatialAveragePooling(2, 2, 1, 1),
        lambda: rand(2, 2, 4, 4),
    ),
    "SpatialAveragePooling-pad-ceil": (
        lambda: nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1).ceil(),
        lambda: rand(1, 2, 6, 6),
    ),
    "SpatialAveragePooling-exclude-pad": (
        lambda: nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1).setCountExcludePad(),
        lambda: rand(1, 1, 5, 5),
    ),
    "BatchNormalization": (lambda: nn.BatchNormalization(3), lambda: rand(4, 3)),
    "BatchNormalization-noaffine": (
        lambda: nn.BatchNormalization(3, affine=False),
        lambda: rand(4, 3),
    ),
    "SpatialBatchNormalization": (
        lambda: nn.SpatialBatchNormalization(2),
        lambda: rand(3, 2, 2, 2),
    ),
    "ReLU": (lambda: nn.ReLU(), lambda: rand(3, 4)),
    "Threshold": (lambda: nn.Threshold(0.3, -2.0), lambda: rand(3, 4)),
    "Tanh": (lambda: nn.Tanh(), lambda: rand(3, 4)),
    "Sigmoid": (lambda: nn.Sigmoid(), lambda: rand(3, 4)),
    "SoftMax-2d": (lambda: nn.SoftMax(), lambda: rand(3, 4)),
    "SoftMax-4d": (lambda: nn.SoftMax(), lambda: rand(2, 3, 2, 2)),
    "LogSoftMax-1d": (lambda: nn.LogSoftMax(), lambda: rand(5)),
    "LogSoftMax-2d": (lambda: nn.LogSoftMax(), lambda: rand(3, 4)),
    "Identity": (lambda: nn.Identity(), lambda: rand(3, 2)),
    "Reshape": (lambda: nn.Reshape(2, 3), lambda: rand(4, 6)),
    "View": (lambda: nn.View(-1).setNumInputDims(2), lambda: rand(2, 3, 2)),
    "Narrow": (lambda: nn.Narrow(1, 1, 2), lambda: rand(3, 4)),
    "Narrow-negative": (lambda: nn.Narrow(1, -3, -2), lambda: rand(3, 4)),
    "Transpose": (lambda: nn.Transpose((0, 1), (1, 2)), lambda: rand(2, 3, 4)),
    "Sum": (lambda: nn.Sum(1), lambda: rand(3, 4)),
    "Sum-average-keep": (lambda: nn.Sum(0, sizeAverage=True, squeeze=False), lambda: rand(3, 4)),
    "Sum-batch": (lambda: nn.Sum(0, nInputDims=1), lambda: rand(3, 4)),
    "Mean": (lambda: nn.Mean(1), lambda: rand(3, 4)),
    "Max": (lambda: nn.Max(1), lambda: distinct(3, 4)),
    "CMul": (lambda: nn.CMul(4), lambda: rand(3, 4)),
    "CMul-2d": (lambda: nn.CMul(2, 3), lambda: rand(4, 2, 3)),
    "Add": (lambda: nn.Add(4), lambda: rand(3, 4)),
    "Add-scalar": (lambda: nn.Add(4, scalar=True), lambda: rand(3, 4)),
    "Mul": (lambda: nn.Mul(), lambda: rand(3, 4)),
    "Sequential": (
        lambda: nn.Sequential().add(nn.Linear(4, 5)).add(nn.Tanh()).add(nn.Linear(5, 2)),
        lambda: rand(3, 4),
    ),
    "Concat": (lambda: nn.Concat(1).add(nn.Linear(3, 2)).add(nn.Linear(3, 4)), lambda: rand(2, 3)),
    "ConcatTable": (
        lambda: nn.ConcatTable().add(nn.Linear(3, 2)).add(nn.Tanh()),
        lambda: rand(2, 3),
    ),
    "ParallelTable": (
        lambda: nn.ParallelTable().add(nn.Linear(3, 2)).add(nn.Sigmoid()),
        lambda: [rand(2, 3), rand(4)],
    ),
    "JoinTable": (lambda: nn.JoinTable(0, nInputDims=1), lambda: [rand(2, 3), rand(2, 2)]),
    "SelectTable": (lambda: nn.SelectTable(-1), lambda: [rand(2), rand(3)]),
    "CAddTable": (lambda: nn.CAddTable(), lambda: [rand(2, 3), rand(2, 3), rand(2, 3)]),
    "CMulTable": (lambda: nn.CMulTable(), lambda: [rand(2, 3), rand(2, 3), rand(2, 3)]),
    "Residual": (
        lambda: (
            nn.Sequential()
            .add(nn.ConcatTable().add(nn.Linear(3, 3)).add(nn.Identity()))
            .add(nn.CAddTable())
        ),
        lambda: rand(2, 3),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_match_finite_differences(name):
    torch.manual_seed(0)
    make_module, make_input = CASES[name]
    check_jacobian(make_module(), make_input())


def test_lookup_table_weight_gradient():
    torch.manual_seed(0)
    indices = torch.tensor([[0, 2, 4], [4, 1, 2]])
    check_jacobian(nn.LookupTable(5, 3), indices)
    table = nn.LookupTable(5, 3, paddingValue=2).double()
    table.zeroGradParameters()
    table.forward(indices)
    table.backward(indices, torch.ones(2, 3, 3, dtype=torch.float64))
    assert table.gradWeight[2].abs().sum() == 0  # the padding row gets no gradient
    assert table.gradWeight[4].tolist() == [2.0, 2.0, 2.0]


def test_dropout_gradient_uses_the_mask():
    torch.manual_seed(0)
    drop = nn.Dropout(0.4).double()
    x = rand(50)
    out = drop.forward(x)
    grad = drop.backward(x, torch.ones(50, dtype=torch.float64))
    kept = out != 0
    torch.testing.assert_close(out[kept], x[kept] / 0.6)
    torch.testing.assert_close(grad, kept.to(torch.float64) / 0.6)
