"""Tracing beside the other users of core's op-call interception (autocast, the profiler,
torch.func transforms): a trace under autocast records the casts as PyTorch 2.13's does,
and every nesting leaves every op binding plain afterwards."""

from __future__ import annotations

import contextlib
import sys
import warnings

import torch
import torch.fft  # noqa: F401 - the namespaces whose bindings are intercepted
import torch.linalg  # noqa: F401
import torch.nn.functional  # noqa: F401
import torch.special  # noqa: F401
from torch._interface import calls, ops, tracing
from torch.func import vmap

_NAMESPACES = ("torch", "torch.linalg", "torch.special", "torch.fft", "torch.nn.functional")


def _snapshot() -> dict:
    values = {(name, k): v for name in _NAMESPACES for k, v in vars(sys.modules[name]).items()}
    values.update((("Tensor", k), v) for k, v in vars(torch.Tensor).items())
    values.update((("ops", op.name), op.function) for op in ops.everything())
    return values


def _assert_plain(snapshot: dict) -> None:
    now = _snapshot()
    assert [key for key, value in snapshot.items() if now.get(key) is not value] == []
    assert not calls.active() and tracing.active() is None


def _product(a, b):
    return torch.mm(a, b) + a


def _op_lines(graph) -> list:
    return [
        line.split("= ")[1].split("(")[0] for line in str(graph).splitlines() if "aten::" in line
    ]


# what PyTorch 2.13 records for _product under bfloat16 autocast: two aten::to casts to
# bfloat16 (15), then mm on the cast tensors, then add (float32: a is float32)
_AUTOCAST_PRODUCT_OPS = ["aten::to", "aten::to", "aten::mm", "aten::add"]


@contextlib.contextmanager
def _quiet_bfloat16_autocast():
    """CPU autocast to bfloat16, without the tracer's warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autocast("cpu", dtype=torch.bfloat16):
            yield


def test_trace_under_autocast_records_the_casts():
    snapshot = _snapshot()
    a, b = torch.randn(4, 4), torch.randn(4, 4)
    with _quiet_bfloat16_autocast():
        traced = torch.jit.trace(_product, (a, b))
        assert (a @ b).dtype is torch.bfloat16  # autocast's wrappers are back
    assert _op_lines(traced.graph) == _AUTOCAST_PRODUCT_OPS
    assert "BFloat16" in str(traced.graph)
    out = traced(a, b)  # the casts replay without autocast
    assert out.dtype is torch.float32
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert torch.allclose(out, _product(a, b))
    _assert_plain(snapshot)


def test_autocast_inside_a_profile_inside_vmap_restores_the_bindings():
    snapshot = _snapshot()
    weight = torch.randn(4, 3)
    names = []

    def row(x):
        with torch.profiler.profile() as prof:
            with torch.autocast("cpu", dtype=torch.bfloat16):
                y = torch.mm(x.unsqueeze(0), weight)
        names.extend(event.name for event in prof.events())
        return y

    batch = torch.randn(5, 4)
    out = vmap(row)(batch)
    assert out.shape == (5, 1, 3) and out.dtype is torch.bfloat16
    expected = batch.to(torch.bfloat16).float() @ weight.to(torch.bfloat16).float()
    assert torch.allclose(out.float().squeeze(1), expected, rtol=1e-2, atol=1e-2)
    # the profile sees the call as made and autocast's casts inside it
    assert names.index("aten::to") > min(names.index("aten::mm"), names.index("aten::matmul"))
    _assert_plain(snapshot)


def test_trace_inside_a_profile_under_autocast():
    snapshot = _snapshot()
    a, b = torch.randn(3, 3), torch.randn(3, 3)
    with _quiet_bfloat16_autocast(), torch.profiler.profile() as prof:
        traced = torch.jit.trace(_product, (a, b))
    assert _op_lines(traced.graph) == _AUTOCAST_PRODUCT_OPS
    assert "aten::mm" in [event.name for event in prof.events()]
    _assert_plain(snapshot)
