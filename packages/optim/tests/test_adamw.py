"""AdamW: trajectories against real PyTorch's (tools/golden/record_optim.py), resuming
from a state dict, bad options."""

import pytest
from optim_testing import check_resume, check_trajectory, labels

import torch

NAME = "AdamW"


@pytest.mark.parametrize("label", labels(NAME))
def test_trajectory_matches_pytorch(label):
    check_trajectory(NAME, label)


@pytest.mark.parametrize("label", labels(NAME))
def test_resume_from_state_dict_equals_never_stopping(label):
    check_resume(NAME, label)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(lr=-0.5), "Invalid learning rate: -0.5"),
        (dict(weight_decay=-1), "Invalid weight_decay value"),
    ],
)
def test_bad_options_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        torch.optim.AdamW([torch.zeros(1)], **kwargs)
