"""The Lua Torch module protocol: parameters, flattening, updates, modes, types, state,
containers and the errors for bad input."""

import pytest

import torch
from torch.legacy import nn


def small_net():
    torch.manual_seed(0)
    return (
        nn.Sequential()
        .add(nn.Linear(4, 3))
        .add(nn.Tanh())
        .add(nn.Linear(3, 2))
        .add(nn.LogSoftMax())
    )


def test_parameters_lists_weights_and_gradient_buffers():
    net = small_net()
    weights, grads = net.parameters()
    assert [tuple(w.shape) for w in weights] == [(3, 4), (3,), (2, 3), (2,)]
    assert all(g.shape == w.shape for w, g in zip(weights, grads))
    assert nn.Tanh().parameters() is None


def test_flatten_parameters_makes_views_of_one_vector():
    net = small_net()
    before = [w.clone() for w in net.parameters()[0]]
    flat, flat_grad = net.flattenParameters()
    assert flat.shape == (12 + 3 + 6 + 2,) and flat_grad.shape == flat.shape
    torch.testing.assert_close(flat, torch.cat([w.reshape(-1) for w in before]))
    flat.fill_(0.5)
    assert bool((net.get(0).weight == 0.5).all()) and bool((net.get(2).bias == 0.5).all())
    flat.copy_(torch.randn(flat.shape))
    net.zeroGradParameters()
    x = torch.randn(5, 4)
    net.forward(x)
    net.backward(x, torch.randn(5, 2))
    torch.testing.assert_close(flat_grad, torch.cat([g.reshape(-1) for g in net.parameters()[1]]))
    assert float(flat_grad.abs().sum()) > 0


def test_update_parameters_and_zero_grad():
    lin = nn.Linear(2, 2)
    weight = lin.weight.clone()
    x = torch.ones(1, 2)
    lin.forward(x)
    lin.backward(x, torch.ones(1, 2))
    lin.updateParameters(0.1)
    torch.testing.assert_close(lin.weight, weight - 0.1)
    lin.zeroGradParameters()
    assert float(lin.gradWeight.abs().sum()) == 0 and float(lin.gradBias.abs().sum()) == 0


def test_gradients_accumulate_with_scale():
    lin = nn.Linear(2, 1)
    x = torch.ones(3, 2)
    lin.forward(x)
    lin.backward(x, torch.ones(3, 1))
    lin.backward(x, torch.ones(3, 1), 0.5)
    torch.testing.assert_close(lin.gradBias, torch.tensor([4.5]))


def test_training_and_evaluate_reach_every_child():
    net = nn.Sequential().add(nn.Dropout(0.5)).add(nn.Sequential().add(nn.Dropout(0.5)))
    net.evaluate()
    assert [m.train for m in net.listModules()] == [False] * 4
    x = torch.ones(8)
    assert net.forward(x) is x
    net.training()
    assert all(m.train for m in net.listModules())


def test_type_converts_every_tensor():
    net = small_net()
    assert net.type() == "torch.FloatTensor"
    net.double()
    assert net.type() == "torch.DoubleTensor"
    assert all(w.dtype == torch.float64 for w in net.parameters()[0] + net.parameters()[1])
    assert net.forward(torch.randn(2, 4, dtype=torch.float64)).dtype == torch.float64
    net.type("torch.FloatTensor")
    assert net.get(0).weight.dtype == torch.float32


def test_clear_state_drops_buffers():
    conv = nn.SpatialConvolution(1, 2, 3, 3)
    conv.forward(torch.randn(1, 5, 5))
    conv.clearState()
    assert conv.output.numel() == 0 and conv._columns is None


def test_find_modules_and_repr():
    net = small_net()
    assert len(net.findModules("nn.Linear")) == 2
    text = repr(net)
    assert "nn.Linear(4 -> 3)" in text and text.startswith("nn.Sequential {")


def test_backward_update_is_one_sgd_step():
    lin = nn.Linear(2, 1)
    weight = lin.weight.clone()
    x = torch.ones(1, 2)
    lin.forward(x)
    lin.backwardUpdate(x, torch.ones(1, 1), 0.5)
    torch.testing.assert_close(lin.weight, weight - 0.5)


def test_bad_input_errors():
    with pytest.raises(RuntimeError, match=r"Linear: expected an input of size \(4\)"):
        nn.Linear(4, 2).forward(torch.zeros(3, 5))
    with pytest.raises(RuntimeError, match="expected 2 input planes"):
        nn.SpatialConvolution(2, 3, 3, 3).forward(torch.zeros(1, 3, 5, 5))
    with pytest.raises(RuntimeError, match="expected a 3D"):
        nn.SpatialMaxPooling(2, 2).forward(torch.zeros(4, 4))
    with pytest.raises(RuntimeError, match="kernel size 5 is larger"):
        nn.SpatialConvolution(1, 1, 5, 5).forward(torch.zeros(1, 3, 3))
    with pytest.raises(IndexError, match="index out of range"):
        nn.LookupTable(3, 2).forward(torch.tensor([0, 3]))
    with pytest.raises(IndexError, match="SelectTable: index 2"):
        nn.SelectTable(2).forward([torch.zeros(1), torch.zeros(1)])
    with pytest.raises(RuntimeError, match="Narrow: offset 3 and length 2"):
        nn.Narrow(0, 3, 2).forward(torch.zeros(4))
    with pytest.raises(ValueError, match="dropout probability"):
        nn.Dropout(1.5)
    with pytest.raises(RuntimeError, match="BatchNormalization: expected a 2D input"):
        nn.BatchNormalization(3).forward(torch.zeros(2, 4))
    with pytest.raises(TypeError, match="expects a legacy nn Module"):
        nn.Sequential().add(torch.zeros(1))
