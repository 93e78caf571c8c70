"""What every optimizer is checked for, one parametrized test each: trajectories against
real PyTorch's (tools/golden/record_optim.py) through both implementations, resuming from
a state dict, refusals of bad options. Each optimizer's own behaviours are in its
test_<name>.py."""

import numpy as np
import pytest
from optim_testing import cases_optim, check_resume, check_trajectory, implementation

import torch
from torch._interface import optim as native_optim

# LBFGS's trajectories need per-case tolerances (test_lbfgs.py)
TRAJECTORIES = [
    (name, label)
    for name, cases in cases_optim.OPTIMIZERS.items()
    if name != "LBFGS"
    for label in cases
]
RESUMES = [(name, label) for name, cases in cases_optim.OPTIMIZERS.items() for label in cases]


# maximizing the bowl grows ASGD's values geometrically: relative rounding accumulates
RTOL = {"ASGD": 3e-5}


@pytest.mark.parametrize("mode", ["native", "reference"])
@pytest.mark.parametrize("name,label", TRAJECTORIES)
def test_trajectory_matches_pytorch(name, label, mode):
    with implementation(mode):
        check_trajectory(name, label, rtol=RTOL.get(name, 1e-5))


@pytest.mark.parametrize("name,label", RESUMES)
def test_resume_from_state_dict_equals_never_stopping(name, label):
    check_resume(name, label)


# every optimizer refuses a negative learning rate and names it
_NEGATIVE_LR = [
    (name, dict(lr=-1), "Invalid learning rate: -1")
    for name in (
        "Adadelta Adagrad Adam Adamax AdamW ASGD LBFGS NAdam RAdam RMSprop Rprop SGD SparseAdam"
    ).split()
]
# the options each optimizer checks besides the learning rate
_OWN_CHECKS = {
    "Adadelta": [(dict(rho=1.5), "Invalid rho value: 1.5")],
    "Adagrad": [
        (dict(lr_decay=-1), "Invalid lr_decay value"),
        (dict(initial_accumulator_value=-1), "Invalid initial_accumulator_value value"),
    ],
    "Adam": [
        (dict(eps=-1e-8), "Invalid epsilon value"),
        (dict(betas=(1.0, 0.999)), "Invalid beta parameter at index 0"),
        (dict(betas=(0.9, -0.1)), "Invalid beta parameter at index 1"),
        (dict(weight_decay=-0.1), "Invalid weight_decay value"),
    ],
    "Adamax": [
        (dict(eps=-1), "Invalid epsilon value"),
        (dict(betas=(0.9, 1.5)), "Invalid beta parameter at index 1"),
    ],
    "AdamW": [
        (dict(lr=-0.5), "Invalid learning rate: -0.5"),
        (dict(weight_decay=-1), "Invalid weight_decay value"),
    ],
    "ASGD": [(dict(weight_decay=-1), "Invalid weight_decay value")],
    "NAdam": [(dict(momentum_decay=-1), "Invalid momentum_decay value")],
    "RAdam": [(dict(weight_decay=-1), "Invalid weight_decay value")],
    "RMSprop": [
        (dict(alpha=-0.1), "Invalid alpha value"),
        (dict(momentum=-1), "Invalid momentum value"),
    ],
    "Rprop": [(dict(etas=(1.5, 1.2)), "Invalid eta values: 1.5, 1.2")],
    "SGD": [
        (dict(lr=0.1, momentum=-0.5), "Invalid momentum value"),
        (dict(lr=0.1, weight_decay=-1), "Invalid weight_decay value"),
        (dict(lr=0.1, nesterov=True), "Nesterov momentum requires"),
    ],
    "SparseAdam": [(dict(betas=(1.0, 0.9)), "Invalid beta parameter at index 0")],
}
BAD_OPTIONS = _NEGATIVE_LR + [
    (name, kwargs, match) for name, checks in _OWN_CHECKS.items() for kwargs, match in checks
]


@pytest.mark.parametrize("name,kwargs,match", BAD_OPTIONS)
def test_bad_options_raise_value_error(name, kwargs, match):
    with pytest.raises(ValueError, match=match):
        getattr(torch.optim, name)([torch.zeros(1)], **kwargs)


def test_float64_parameters_keep_float64_state():
    w = torch.zeros(3, dtype=torch.float64)
    w.grad = torch.ones(3, dtype=torch.float64)
    opt = torch.optim.Adam([w])
    opt.step()
    assert opt.state[w]["exp_avg"].dtype == torch.float64
    assert opt.state[w]["step"].dtype == torch.float32 and opt.state[w]["step"].item() == 1.0


# PyTorch 2.13's parameter bytes after three steps over [w, w] (a parameter listed twice,
# which it warns about): each listing is updated in turn, both finding SGD's momentum
# buffer new at the first step
LISTED_TWICE = {
    "SGD": ("c21cbdbec21c3dbe00000000c21c3d3ec21cbd3e", dict(momentum=0.9)),
    "RMSprop": ("584dd23c0840b43c000000000840b4bc584dd2bc", {}),
    "NAdam": ("538e0ebfc2b2d9bd00000000c2b2d93d538e0e3f", {}),
}


@pytest.mark.parametrize("mode", ["native", "reference"])
@pytest.mark.parametrize("name", list(LISTED_TWICE))
def test_a_parameter_listed_twice_is_updated_per_listing_as_pytorch(name, mode):
    expected, options = LISTED_TWICE[name]
    w = torch.linspace(-1.0, 1.0, 5)
    with pytest.warns(UserWarning, match="duplicate parameters"):
        opt = getattr(torch.optim, name)([w, w], lr=0.1, **options)
    with implementation(mode):
        for _ in range(3):
            w.grad = w * 0.5
            opt.step()
    if mode == "native" and native_optim.available():
        assert w.numpy().tobytes().hex() == expected
    else:  # the reference rounds a few operations otherwise
        expected = np.frombuffer(bytes.fromhex(expected), "f4")
        np.testing.assert_allclose(w.numpy(), expected, rtol=1e-6)
