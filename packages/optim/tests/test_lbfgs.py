"""LBFGS: trajectories against real PyTorch's (tools/golden/record_optim.py), resuming
from a state dict, bad options."""

import pytest
from conftest import check_resume, check_trajectory, labels

import torch

NAME = "LBFGS"


@pytest.mark.parametrize("label", [label for label in labels(NAME) if label.endswith("_f64")])
def test_float64_trajectory_matches_pytorch(label):
    # agreement to ~1e-13 for the first 15 steps; closer to the minimum the steps divide
    # by vanishing curvatures and amplify last-bit differences of the sums
    check_trajectory(NAME, label, rtol=1e-7, atol=1e-10, steps=15)


# "history" (fixed unit steps near the Rosenbrock valley) amplifies the sums' rounding
# into percent-level drift within 10 steps; its float64 twin is checked tightly above
@pytest.mark.parametrize(
    "label", [label for label in labels(NAME) if not label.endswith("_f64") and label != "history"]
)
def test_float32_trajectory_matches_pytorch(label):
    # core's float32 sums round differently from PyTorch's (e.g. 46.445004 vs 46.445007
    # for |g|_1 of the first gradient) and L-BFGS amplifies that: looser tolerance here,
    # float64 above checks the algorithm tightly
    check_trajectory(NAME, label, rtol=5e-3, atol=1e-4, steps=10)


@pytest.mark.parametrize("label", labels(NAME))
def test_resume_from_state_dict_equals_never_stopping(label):
    check_resume(NAME, label)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(lr=-1), "Invalid learning rate"),
    ],
)
def test_bad_options_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        torch.optim.LBFGS([torch.zeros(1)], **kwargs)
