"""SGD trajectories against real PyTorch's (recorded by tools/golden/record.py)."""

import numpy as np
import pytest

import torch


def _loss(w):
    # written so that it needs no autograd: the gradient is computed by hand
    return 2 * w * torch.tensor([1.0, 3.0, 0.5]) - 1


@pytest.mark.parametrize("name", ["plain", "momentum", "dampening_wd", "nesterov", "maximize"])
def test_sgd_trajectory_matches_pytorch(golden, name):
    case = golden("sgd")[name]
    w = torch.tensor([1.5, -0.5, 2.0])
    opt = torch.optim.SGD([w], **case["options"])
    for expected in case["trajectory"]:
        w.grad = _loss(w)
        opt.step()
        np.testing.assert_allclose(w.numpy(), expected, rtol=1e-6, atol=1e-7)


def test_closure_is_called_and_its_loss_returned():
    w = torch.tensor([1.0])
    opt = torch.optim.SGD([w], lr=0.5)

    def closure():
        w.grad = torch.tensor([2.0])
        return 42.0

    assert opt.step(closure) == 42.0 and w.tolist() == [0.0]


def test_param_groups_and_zero_grad():
    a, b = torch.tensor([1.0]), torch.tensor([1.0])
    opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
    a.grad, b.grad = torch.tensor([1.0]), torch.tensor([1.0])
    opt.step()
    assert a.tolist() == [pytest.approx(0.9)] and b.tolist() == [0.5]
    opt.zero_grad(set_to_none=False)
    assert a.grad.tolist() == [0.0]
    opt.zero_grad()
    assert a.grad is None


def test_bad_params():
    with pytest.raises(ValueError, match="empty parameter list"):
        torch.optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="iterable of Tensors"):
        torch.optim.SGD(torch.zeros(1), lr=0.1)
    w = torch.zeros(1)
    with pytest.raises(ValueError, match="more than one parameter group"):
        torch.optim.SGD([{"params": [w]}, {"params": [w]}], lr=0.1)
