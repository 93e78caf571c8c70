"""The extension API that sibling packages rely on (torch._interface)."""

import pytest

import torch
from torch import _interface


def test_core_api_version_shape():
    major, minor = _interface.CORE_API
    assert isinstance(major, int) and isinstance(minor, int)
    _interface.require_core_api(major, minor, "me")
    with pytest.raises(ImportError, match="torch-core's extension API"):
        _interface.require_core_api(major + 1, 0, "future-package")
    with pytest.raises(ImportError, match="future-package"):
        _interface.require_core_api(major, minor + 1, "future-package")


def test_every_registered_op_is_bound():
    for op in _interface.ops:
        assert op.kernel("cpu") is not None and op.function is not None, op.name
        if op.name.startswith("_"):
            continue  # private ops serve derivative formulas only
        public = hasattr(torch.Tensor, op.name) or hasattr(torch, op.name)
        assert public or "binding" in op.extra, op.name


def test_registry_refuses_duplicates_and_reports_missing_kernels():
    registry = _interface.OpRegistry()
    op = registry.register(_interface.OpDef("f", "f(Tensor x) -> Tensor", {"cpu": abs}, "test"))
    assert "f" in registry and registry["f"] is op and len(registry) == 1
    with pytest.raises(KeyError, match="already registered"):
        registry.register(_interface.OpDef("f", "f()", {}, "test"))
    with pytest.raises(NotImplementedError, match="no kernel for device type 'cuda'"):
        op.kernel("cuda")


class _RecordingEngine(_interface.GradEngine):
    """A third-party engine: subclassing the ABC is the whole contract."""

    def __init__(self):
        self.recorded = []

    def record(self, op, inputs, output, saved):
        self.recorded.append(op.name)

    def backward(self, tensors, grad_tensors, retain_graph, create_graph, inputs):
        self.recorded.append("backward")


def test_a_third_party_engine_receives_records():
    engine = _RecordingEngine()
    previous = _interface.set_grad_engine(engine)
    try:
        x = torch.ones(2)
        x._requires_grad = True  # bypass requires_grad_ so no real engine is needed
        (x * 2).sum().backward()
        with torch.no_grad():
            x + 1
    finally:
        _interface.set_grad_engine(previous)
    # the recording engine does not mark outputs, so only the first op is recorded
    assert engine.recorded == ["mul", "backward"]


def test_engine_abc_cannot_be_instantiated_half_done():
    class Half(_interface.GradEngine):
        def record(self, op, inputs, output, saved):
            pass

    with pytest.raises(TypeError):
        Half()


def test_noop_engine_explains_missing_autograd():
    engine = _interface.NoOpGradEngine()
    assert engine.record(None, (), None, ()) is None
    with pytest.raises(ModuleNotFoundError, match="pip install torch-autograd"):
        engine.backward((), (), None, False, None)
    previous = _interface.set_grad_engine(engine)
    try:
        with pytest.raises(ModuleNotFoundError, match="torch-autograd"):
            torch.zeros(1, requires_grad=True)
    finally:
        _interface.set_grad_engine(previous)


def test_hook_tables():
    table = _interface._HookTable("test")
    table.register("rebuild", print)
    assert "rebuild" in table and table.get("rebuild") is print and table.get("x") is None
    assert "array-kernel" in repr(_interface.array_kernels)
