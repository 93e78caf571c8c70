"""Adam: trajectories against real PyTorch's (tools/golden/record_optim.py), resuming
from a state dict, bad options."""

import pytest
from optim_testing import check_resume, check_trajectory, labels

import torch

NAME = "Adam"


@pytest.mark.parametrize("label", labels(NAME))
def test_trajectory_matches_pytorch(label):
    check_trajectory(NAME, label)


@pytest.mark.parametrize("label", labels(NAME))
def test_resume_from_state_dict_equals_never_stopping(label):
    check_resume(NAME, label)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(lr=-1), "Invalid learning rate: -1"),
        (dict(eps=-1e-8), "Invalid epsilon value"),
        (dict(betas=(1.0, 0.999)), "Invalid beta parameter at index 0"),
        (dict(betas=(0.9, -0.1)), "Invalid beta parameter at index 1"),
        (dict(weight_decay=-0.1), "Invalid weight_decay value"),
    ],
)
def test_bad_options_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        torch.optim.Adam([torch.zeros(1)], **kwargs)


@pytest.mark.parametrize("label", labels(NAME))
def test_tensor_op_path_matches_pytorch_too(monkeypatch, label):
    from torch.optim import _kernels

    monkeypatch.setattr(_kernels, "ENABLED", False)
    check_trajectory(NAME, label)


def test_numpy_kernel_and_tensor_op_paths_agree_bitwise_on_a_large_tensor(monkeypatch):
    # the NumPy kernels serve when core has no native optimizer kernels (older releases)
    from torch.optim import _fused, _kernels

    monkeypatch.setitem(_fused._cache, "kernels", None)
    torch.manual_seed(0)
    start, grads = torch.randn(40000), [torch.randn(40000) for _ in range(3)]
    results = []
    for enabled in (True, False):
        monkeypatch.setattr(_kernels, "ENABLED", enabled)
        w = start.clone()
        opt = torch.optim.Adam([w], lr=0.01, amsgrad=True, weight_decay=0.1, betas=(0.4, 0.9))
        for g in grads:
            w.grad = g
            opt.step()
        results.append(w.tolist())
    assert results[0] == results[1]


def test_float64_parameters_keep_float64_state():
    w = torch.zeros(3, dtype=torch.float64)
    w.grad = torch.ones(3, dtype=torch.float64)
    opt = torch.optim.Adam([w])
    opt.step()
    assert opt.state[w]["exp_avg"].dtype == torch.float64
    assert opt.state[w]["step"].dtype == torch.float32 and opt.state[w]["step"].item() == 1.0
