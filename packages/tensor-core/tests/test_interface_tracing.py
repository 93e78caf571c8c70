"""torch._interface.tracing: the op interception torch-jit's tracer uses."""

from __future__ import annotations

import pytest

import torch
from torch._interface import ops, tracing


def _recording():
    seen = []

    def handler(target, original, args, kwargs):
        seen.append(target)
        return original(*args, **kwargs)

    return seen, handler


def test_bindings_route_through_the_handler_and_are_restored():
    add, method, function = torch.add, torch.Tensor.__add__, ops["add"].function
    seen, handler = _recording()
    interception = tracing.start(handler)
    try:
        x = torch.ones(2)
        assert (x + 1).tolist() == [2.0, 2.0]
        torch.add(x, x)
        x.T  # noqa: B018 - a tensor-valued property
        ops["add"].function(x, x)
    finally:
        interception.stop()
    # nested calls reach the handler too: a tracer decides which to record
    assert {"torch.ones", "Tensor.__add__", "torch.add", "Tensor.T", "ops.add"} <= set(seen)
    assert torch.add is add and torch.Tensor.__add__ is method
    assert ops["add"].function is function
    assert tracing.active() is None


def test_sizes_only_when_asked_and_no_nesting():
    seen, handler = _recording()
    with tracing.start(handler, sizes=True):
        torch.ones(2, 3).size(0)
        torch.ones(2, 3).shape  # noqa: B018
        with pytest.raises(RuntimeError, match="already active"):
            tracing.start(handler)
    assert "Tensor.size" in seen and "Tensor.shape" in seen
    seen.clear()
    with tracing.start(handler):
        torch.ones(2, 3).size(0)
    assert "Tensor.size" not in seen
