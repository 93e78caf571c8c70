"""Anomaly detection: forward traces and NaN checks."""

import warnings

import pytest
from make_function import make_function

import torch
from torch.autograd import anomaly_mode


def _divide(x):
    return (x / x).sum()  # the line the trace must show


def test_nan_reports_the_forward_trace():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            y = _divide(x)
            with pytest.raises(RuntimeError, match="'DivBackward0' returned nan values"):
                y.backward()
    messages = [str(w.message) for w in caught]
    assert any("Anomaly Detection has been enabled" in m for m in messages)
    trace = next(m for m in messages if m.startswith("Error detected in DivBackward0"))
    assert "_divide" in trace and "return (x / x).sum()" in trace
    assert "/torch/" not in trace  # framework frames are left out


def test_failing_backward_reports_the_trace_and_reraises():
    def backward(ctx, grad):
        raise ValueError("boom")

    broken = make_function("Broken", lambda ctx, x: x * 1, backward)
    x = torch.ones(1, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.set_detect_anomaly(True):
            y = broken.apply(x)
            with pytest.raises(ValueError, match="boom"):
                y.backward()
    assert any("Error detected in BrokenBackward" in str(w.message) for w in caught)


def test_check_nan_off_lets_nan_through():
    x = torch.tensor([0.0], requires_grad=True)
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        (x / x).sum().backward()
    assert x.grad.isnan().all()


def test_set_detect_anomaly_as_a_function_and_decorator():
    torch.autograd.set_detect_anomaly(True)
    try:
        assert anomaly_mode.is_anomaly_enabled()
    finally:
        torch.autograd.set_detect_anomaly(False)
    assert not anomaly_mode.is_anomaly_enabled()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")

        @torch.autograd.detect_anomaly()
        def inside():
            return anomaly_mode.is_anomaly_enabled()

        assert inside() and not anomaly_mode.is_anomaly_enabled()


def test_no_trace_when_recorded_outside_anomaly_mode():
    x = torch.tensor([0.0], requires_grad=True)
    y = (x / x).sum()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.set_detect_anomaly(True):
            with pytest.raises(RuntimeError):
                y.backward()
    assert any("No forward pass information available" in str(w.message) for w in caught)
