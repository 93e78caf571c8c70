"""torch._op_calls, the one interception mechanism behind torch._interface.calls (autocast,
the profiler, torch.func levels) and torch._interface.tracing (torch-jit's tracer): layers
compose in their order whatever the start order, and every start/stop order leaves every
binding plain."""

from __future__ import annotations

import itertools
import sys

import pytest

import torch
import torch.fft  # noqa: F401 - these namespaces are interceptable too
import torch.linalg  # noqa: F401
import torch.special  # noqa: F401
from torch import _op_calls
from torch._interface import calls, ops, tracing

# the interceptable namespaces include torch.nn.functional
pytest.importorskip("torch.nn.functional", reason="needs torch-nn, which is not installed")

_NAMESPACES = ("torch", "torch.linalg", "torch.special", "torch.fft", "torch.nn.functional")


def _snapshot() -> dict:
    """Every binding the mechanism may replace: (owner name, attribute) -> value."""
    values = {}
    for name in _NAMESPACES:
        for attribute, value in vars(sys.modules[name]).items():
            values[(name, attribute)] = value
    for attribute, value in vars(torch.Tensor).items():
        values[("Tensor", attribute)] = value
    for op in ops.everything():
        values[("ops", op.name)] = op.function
    return values


def _assert_plain(snapshot: dict) -> None:
    now = _snapshot()
    changed = [key for key, value in snapshot.items() if now.get(key) is not value]
    assert not changed, changed[:10]
    assert not calls.active() and tracing.active() is None


class _Recorder:
    """A profiler- or transform-like interceptor that notes the calls it sees."""

    registry_functions = True

    def __init__(self, name: str, order: int, seen: list) -> None:
        self.name, self.order, self.seen = name, order, seen

    def wants(self, op_name: str) -> bool:
        return op_name == "mm"

    def __call__(self, op_name, function, args, kwargs):
        self.seen.append((self.name, args[0].dtype))
        return function(*args, **kwargs)


class _Layers:
    """Four layers to start and stop in any order: a profiler-like and a transform-like
    interceptor, autocast, and a trace-like interception."""

    ORDER = ("profiler", "transform", "autocast", "trace")

    def __init__(self) -> None:
        self.seen: list = []
        self.profiler = _Recorder("profiler", calls.PROFILER_ORDER, self.seen)
        self.transform = _Recorder("transform", calls.TRANSFORM_ORDER, self.seen)
        self.autocast = torch.autocast("cpu", dtype=torch.bfloat16)
        self.interception = None

    def _handler(self, target, function, args, kwargs):
        if target == "torch.mm":
            self.seen.append(("trace", args[0].dtype))
        return function(*args, **kwargs)

    def start(self, name: str) -> None:
        if name == "autocast":
            self.autocast.__enter__()
        elif name == "trace":
            self.interception = tracing.start(self._handler)
        else:
            calls.activate(getattr(self, name))

    def stop(self, name: str) -> None:
        if name == "autocast":
            self.autocast.__exit__(None, None, None)
        elif name == "trace":
            self.interception.stop()
        else:
            calls.deactivate(getattr(self, name))

    def check(self, running: set) -> None:
        """A call of ``torch.mm`` passes the running layers outermost first; those inside
        autocast see the cast arguments."""
        self.seen.clear()
        result = torch.mm(torch.ones(2, 2), torch.ones(2, 2))
        cast = "autocast" in running
        expected = [
            (name, torch.bfloat16 if cast and name == "trace" else torch.float32)
            for name in self.ORDER
            if name in running and name != "autocast"
        ]
        assert self.seen == expected
        assert result.dtype is (torch.bfloat16 if cast else torch.float32)


def _run(layers: _Layers, starts, stops) -> None:
    running = set()
    for name in starts:
        layers.start(name)
        running.add(name)
        layers.check(running)
    for name in stops:
        layers.stop(name)
        running.discard(name)
        layers.check(running)


def test_every_start_and_stop_order_of_three_layers_composes_and_restores():
    snapshot, layers = _snapshot(), _Layers()
    three = ("profiler", "autocast", "trace")  # the calls API, core's autocast, tracing
    for starts in itertools.permutations(three):
        for stops in itertools.permutations(three):
            _run(layers, starts, stops)
            _assert_plain(snapshot)


def test_every_start_order_and_every_stop_order_of_four_layers():
    """Each of the 24 start orders with its nested (reversed) stop order, and each of the
    24 stop orders after one start order (the whole product is 576 runs: too slow)."""
    snapshot, layers = _snapshot(), _Layers()
    orders = list(itertools.permutations(_Layers.ORDER))
    for starts in orders:
        _run(layers, starts, starts[::-1])
        _assert_plain(snapshot)
    for stops in orders:
        _run(layers, _Layers.ORDER, stops)
        _assert_plain(snapshot)


def test_trace_inside_autocast_sees_the_casts():
    snapshot = _snapshot()
    seen = []

    def handler(target, function, args, kwargs):
        seen.append((target, tuple(getattr(a, "dtype", None) for a in args)))
        return function(*args, **kwargs)

    a, b = torch.ones(2, 2), torch.ones(2, 2)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        with tracing.start(handler):
            torch.mm(a, b)
        assert torch.mm is not snapshot[("torch", "mm")]  # autocast's wrapper is back
        assert (a @ b).dtype is torch.bfloat16
    casts = [args for target, args in seen if target == "Tensor.to"]
    assert casts == [(torch.float32, None)] * 2
    assert ("torch.mm", (torch.bfloat16, torch.bfloat16)) in seen
    _assert_plain(snapshot)


def test_autocast_ends_inside_a_trace():
    snapshot = _snapshot()
    region = torch.autocast("cpu", dtype=torch.bfloat16)
    region.__enter__()
    interception = tracing.start(lambda target, function, a, k: function(*a, **k))
    region.__exit__(None, None, None)
    assert torch.mm(torch.ones(1, 1), torch.ones(1, 1)).dtype is torch.float32
    interception.stop()
    _assert_plain(snapshot)


def test_wrappers_are_marked_and_named_like_the_plain_functions():
    plain = torch.mm
    with torch.autocast("cpu"):
        assert torch.mm.__intercepted__ is plain and torch.mm.__wrapped__ is plain
        assert torch.mm.__name__ == plain.__name__ and torch.mm.__doc__ == plain.__doc__
    with tracing.start(lambda target, function, a, k: function(*a, **k), sizes=True):
        shape = vars(torch.Tensor)["shape"]
        assert isinstance(shape, property) and shape.__intercepted__ is not None
        assert torch.ones(2, 3).shape == (2, 3)


def test_deactivating_an_inactive_interceptor_raises():
    recorder = _Recorder("profiler", 0, [])
    with pytest.raises(ValueError, match="not active"):
        calls.deactivate(recorder)
    calls.activate(recorder)
    try:
        with pytest.raises(RuntimeError, match="already active"):
            calls.activate(recorder)
    finally:
        calls.deactivate(recorder)


def test_interceptors_without_order_come_outermost_in_activation_order():
    seen = []
    first, second = _Recorder("first", 0, seen), _Recorder("second", 0, seen)
    del first.order, second.order  # instance attributes: fall back to the default
    calls.activate(second)
    calls.activate(first)
    try:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            torch.mm(torch.ones(1, 1), torch.ones(1, 1))
    finally:
        calls.deactivate(first)
        calls.deactivate(second)
    assert seen == [("second", torch.float32), ("first", torch.float32)]
    assert _op_calls.active() == ()
