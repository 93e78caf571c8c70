"""``torch.is_anomaly_enabled``, ``torch.is_anomaly_check_nan_enabled`` and
``torch.set_anomaly_enabled``: the expected states are what PyTorch 2.13 printed for the
same sequence of calls."""

import pytest

import torch


@pytest.fixture(autouse=True)
def _anomaly_off():
    yield
    torch.set_anomaly_enabled(False)


def states():
    return torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()


def test_the_switches_follow_pytorchs_sequence():
    seen = [states()]
    torch.set_anomaly_enabled(True)
    seen.append(states())
    torch.set_anomaly_enabled(True, False)
    seen.append(states())
    with pytest.warns(UserWarning), torch.autograd.detect_anomaly():
        seen.append(states())
    seen.append(states())
    assert torch.set_anomaly_enabled(False) is None
    seen.append(states())
    assert seen == [
        (False, True),
        (True, True),
        (True, False),
        (True, True),
        (True, False),
        (False, True),
    ]


def test_they_are_the_autograd_functions():
    from torch.autograd import anomaly_mode

    assert torch.set_anomaly_enabled is anomaly_mode.set_anomaly_enabled
    assert torch.is_anomaly_enabled is anomaly_mode.is_anomaly_enabled


def test_non_bool_is_refused_as_in_pytorch():
    with pytest.raises(TypeError, match=r"argument 'enabled' \(position 1\) must be bool, not str"):
        torch.set_anomaly_enabled("x")
