"""Each legacy module against the corresponding torch.nn module (or, where torch.nn has
none, the same computation in tensor ops) with the same weights: outputs, input
gradients and parameter gradients, through autograd on the reference side."""

import pathlib
import sys

import pytest

import torch
from torch.legacy import nn as legacy

tnn = pytest.importorskip("torch.nn", reason="the cross-checks need torch-nn (the test extra)")

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from legacy_checks import check_against_reference  # noqa: E402


def rand(*shape):
    return torch.randn(*shape, dtype=torch.float64)


def copy_params(legacy_module, torch_module):
    with torch.no_grad():
        torch_module.weight.copy_(legacy_module.weight)
        if getattr(torch_module, "bias", None) is not None:
            torch_module.bias.copy_(legacy_module.bias)
    return [(legacy_module.gradWeight, torch_module.weight)] + (
        [(legacy_module.gradBias, torch_module.bias)]
        if getattr(torch_module, "bias", None) is not None
        else []
    )


def test_linear():
    m = legacy.Linear(5, 3).double()
    ref = tnn.Linear(5, 3).double()
    pairs = copy_params(m, ref)
    check_against_reference(m, ref, rand(4, 5), pairs, scale=0.5)


@pytest.mark.parametrize(
    "args, shape",
    [
        ((2, 3, 3, 3), (2, 2, 6, 6)),
        ((2, 4, 3, 2, 2, 1, 1, 0), (3, 2, 7, 5)),
        ((1, 2, 2, 2), (1, 4, 4)),
    ],
)
def test_spatial_convolution(args, shape):
    m = legacy.SpatialConvolution(*args).double()
    ref = tnn.Conv2d(m.nInputPlane, m.nOutputPlane, (m.kH, m.kW), (m.dH, m.dW), (m.padH, m.padW))
    pairs = copy_params(m, ref.double())
    check_against_reference(m, ref, rand(*shape), pairs)


@pytest.mark.parametrize("ceil", [False, True])
@pytest.mark.parametrize("args", [(2, 2), (3, 3, 2, 2, 1, 1), (3, 2, 1, 2, 1, 0)])
def test_spatial_max_pooling(args, ceil):
    m = legacy.SpatialMaxPooling(*args)
    if ceil:
        m.ceil()
    ref = tnn.MaxPool2d((m.kH, m.kW), (m.dH, m.dW), (m.padH, m.padW), ceil_mode=ceil)
    check_against_reference(m, ref, rand(2, 3, 7, 6))


@pytest.mark.parametrize("include_pad", [True, False])
@pytest.mark.parametrize("ceil", [False, True])
@pytest.mark.parametrize("args", [(2, 2, 2, 2), (3, 3, 2, 2, 1, 1)])
def test_spatial_average_pooling(args, ceil, include_pad):
    m = legacy.SpatialAveragePooling(*args)
    m.ceil() if ceil else m.floor()
    m.setCountIncludePad() if include_pad else m.setCountExcludePad()
    ref = tnn.AvgPool2d(
        (m.kH, m.kW), (m.dH, m.dW), (m.padH, m.padW), ceil_mode=ceil, count_include_pad=include_pad
    )
    check_against_reference(m, ref, rand(2, 2, 7, 6))


@pytest.mark.parametrize(
    "legacy_cls, torch_cls, shape",
    [
        (legacy.BatchNormalization, tnn.BatchNorm1d, (6, 3)),
        (legacy.SpatialBatchNormalization, tnn.BatchNorm2d, (4, 3, 2, 3)),
    ],
)
def test_batch_normalization(legacy_cls, torch_cls, shape):
    m = legacy_cls(3, eps=1e-3, momentum=0.2).double()
    ref = torch_cls(3, eps=1e-3, momentum=0.2).double()
    pairs = copy_params(m, ref)
    check_against_reference(m, ref, rand(*shape), pairs)
    torch.testing.assert_close(m.running_mean, ref.running_mean)
    torch.testing.assert_close(m.running_var, ref.running_var)
    m.evaluate()
    ref.eval()
    ref.zero_grad()
    check_against_reference(m, ref, rand(*shape), pairs)


ELEMENTWISE = {
    "ReLU": (lambda: legacy.ReLU(), lambda: tnn.ReLU()),
    "Threshold": (lambda: legacy.Threshold(0.2, -1.5), lambda: tnn.Threshold(0.2, -1.5)),
    "Tanh": (lambda: legacy.Tanh(), lambda: tnn.Tanh()),
    "Sigmoid": (lambda: legacy.Sigmoid(), lambda: tnn.Sigmoid()),
    "Identity": (lambda: legacy.Identity(), lambda: tnn.Identity()),
}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise(name):
    make, make_ref = ELEMENTWISE[name]
    check_against_reference(make(), make_ref(), rand(3, 5))


@pytest.mark.parametrize("shape, dim", [((5,), 0), ((3, 5), 1), ((3, 2, 2), 0), ((2, 3, 2, 2), 1)])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_dimension_rule(shape, dim, log):
    m = legacy.LogSoftMax() if log else legacy.SoftMax()
    ref = tnn.LogSoftmax(dim) if log else tnn.Softmax(dim)
    check_against_reference(m, ref, rand(*shape))


def test_dropout_in_evaluation_is_identity():
    m = legacy.Dropout(0.3)
    m.evaluate()
    check_against_reference(m, tnn.Dropout(0.3).eval(), rand(4, 4))


def test_lookup_table_against_embedding():
    m = legacy.LookupTable(7, 3, paddingValue=1).double()
    ref = tnn.Embedding(7, 3, padding_idx=1).double()
    with torch.no_grad():
        ref.weight.copy_(m.weight)
    indices = torch.tensor([[0, 1, 6], [6, 6, 2]])
    out = m.forward(indices)
    grad = rand(2, 3, 3)
    m.backward(indices, grad)
    ref_out = ref(indices)
    ref_out.backward(grad)
    torch.testing.assert_close(out, ref_out.detach())
    torch.testing.assert_close(m.gradWeight, ref.weight.grad)


TENSOR_OP_MODULES = {
    "Reshape": (lambda: legacy.Reshape(3, 2), (4, 6), lambda x: x.reshape(4, 3, 2)),
    "View": (lambda: legacy.View(2, -1), (2, 6), lambda x: x.view(2, -1)),
    "Narrow": (lambda: legacy.Narrow(1, 1, -1), (3, 5), lambda x: x.narrow(1, 1, 4)),
    "Transpose": (lambda: legacy.Transpose((0, 2)), (2, 3, 4), lambda x: x.transpose(0, 2)),
    "Sum": (lambda: legacy.Sum(1), (3, 4), lambda x: x.sum(1)),
    "Mean": (lambda: legacy.Mean(0, nInputDims=1), (3, 4), lambda x: x.mean(1)),
    "Max": (lambda: legacy.Max(1), (3, 4), lambda x: x.max(1).values),
    "CAddTable": (
        lambda: legacy.CAddTable(),
        [(2, 3), (2, 3)],
        lambda xs: xs[0] + xs[1],
    ),
    "CMulTable": (lambda: legacy.CMulTable(), [(2, 3), (2, 3)], lambda xs: xs[0] * xs[1]),
    "JoinTable": (lambda: legacy.JoinTable(1), [(2, 3), (2, 1)], lambda xs: torch.cat(xs, 1)),
    "SelectTable": (lambda: legacy.SelectTable(0), [(2, 3), (4,)], lambda xs: xs[0]),
}


def _inputs(shape):
    return [rand(*s) for s in shape] if isinstance(shape, list) else rand(*shape)


@pytest.mark.parametrize("name", sorted(TENSOR_OP_MODULES))
def test_against_tensor_ops(name):
    make, shape, reference = TENSOR_OP_MODULES[name]
    check_against_reference(make(), reference, _inputs(shape))


def test_weighted_modules_against_tensor_ops():
    cmul = legacy.CMul(4).double()
    w = cmul.weight.clone().requires_grad_()
    check_against_reference(cmul, lambda x: x * w, rand(3, 4), [(cmul.gradWeight, w)])
    add = legacy.Add(4).double()
    b = add.bias.clone().requires_grad_()
    check_against_reference(add, lambda x: x + b, rand(3, 4), [(add.gradBias, b)])
    mul = legacy.Mul().double()
    s = mul.weight.clone().requires_grad_()
    check_against_reference(mul, lambda x: x * s, rand(3, 4), [(mul.gradWeight, s)])


def test_containers_against_nn_sequential():
    net = (
        legacy.Sequential()
        .add(legacy.SpatialConvolution(1, 2, 3, 3, 1, 1, 1))
        .add(legacy.ReLU())
        .add(legacy.SpatialMaxPooling(2, 2))
        .add(legacy.View(2 * 3 * 3).setNumInputDims(3))
        .add(legacy.Concat(1).add(legacy.Linear(18, 4)).add(legacy.Linear(18, 2)))
        .add(legacy.LogSoftMax())
    ).double()
    conv = tnn.Conv2d(1, 2, 3, 1, 1).double()
    first, second = tnn.Linear(18, 4).double(), tnn.Linear(18, 2).double()
    pairs = copy_params(net.get(0), conv)
    pairs += copy_params(net.get(4).get(0), first) + copy_params(net.get(4).get(1), second)

    def reference(x):
        h = tnn.functional.max_pool2d(torch.relu(conv(x)), 2).flatten(1)
        return torch.log_softmax(torch.cat([first(h), second(h)], 1), 1)

    check_against_reference(net, reference, rand(3, 1, 6, 6), pairs)


def test_concat_and_parallel_tables():
    a, b = legacy.Linear(3, 2).double(), legacy.Linear(4, 2).double()
    ra, rb = tnn.Linear(3, 2).double(), tnn.Linear(4, 2).double()
    pairs = copy_params(a, ra) + copy_params(b, rb)
    par = legacy.ParallelTable().add(a).add(b)
    check_against_reference(par, lambda xs: [ra(xs[0]), rb(xs[1])], [rand(2, 3), rand(2, 4)], pairs)
    c = legacy.Linear(3, 2).double()
    rc = tnn.Linear(3, 2).double()
    pairs = copy_params(c, rc)
    table = legacy.ConcatTable().add(c).add(legacy.Tanh())
    check_against_reference(table, lambda x: [rc(x), torch.tanh(x)], rand(2, 3), pairs)
