"""torch._interface.optim: the native optimizer kernels behind one parameter struct
each (what torch-optim calls), and the clear refusal on a core without them."""

import numpy as np
import pytest

import torch
from torch._interface import optim

needs_native = pytest.mark.skipif(not optim.available(), reason="pure core: no native kernels")

STRUCTS = [
    optim.AdamStep,
    optim.SGDStep,
    optim.RMSpropStep,
    optim.AdagradStep,
    optim.AdamaxStep,
    optim.AdadeltaStep,
    optim.ASGDStep,
    optim.NAdamStep,
    optim.RAdamStep,
]


@pytest.mark.parametrize("struct", STRUCTS)
def test_each_struct_is_immutable_and_names_an_existing_kernel(struct):
    assert struct._fields[:2] == ("params", "grads")
    assert struct.kernel.endswith("_step")
    step = struct(*([None] * len(struct._fields)))
    with pytest.raises(AttributeError):
        step.params = []


@needs_native
@pytest.mark.parametrize("struct", STRUCTS)
def test_the_kernel_exists_in_torch_c(struct):
    from torch import _native

    assert callable(getattr(_native.optim_kernels(), struct.kernel))


@needs_native
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sgd_step_updates_the_arrays_in_place(dtype):
    p, g = np.ones(5, dtype), np.full(5, 2.0, dtype)
    buf = np.empty(5, dtype)
    optim.run(optim.SGDStep([p], [g], [buf], [True], 0.0, 0.9, 1.0, -0.1, False, False))
    np.testing.assert_array_equal(buf, np.full(5, 2.0, dtype))  # a new buffer takes the grad
    np.testing.assert_allclose(p, np.full(5, 0.8, dtype))


@needs_native
def test_adam_step_with_defaults_for_threads_and_exact_sqrt():
    p, g = np.ones(3, np.float32), np.ones(3, np.float32)
    m, v = np.zeros(3, np.float32), np.zeros(3, np.float32)
    step = optim.AdamStep(
        [p], [g], [m], [v], None, [-0.1 / (1 - 0.9)], [(1 - 0.999) ** 0.5],
        0.1, 0.999, 0.001, 1e-8, 0.0, 1.0, False, 0,
    )  # fmt: skip
    assert step.threads == 0 and step.exact_sqrt is False
    optim.run(step)
    np.testing.assert_allclose(p, np.full(3, 0.9, np.float32), rtol=1e-6)


@needs_native
def test_run_counts_the_writes_on_version_counters():
    t = torch.zeros(4)
    p = t.numpy()
    optim.run(optim.SGDStep([p], [np.ones(4, np.float32)], None, [], 0, 0, 1, -1.0, False, False),
              [(t, 2)])  # fmt: skip
    assert t._version == 2 and t.tolist() == [-1.0] * 4
    optim.mark_written(t)
    assert t._version == 3


@needs_native
def test_bad_arrays_raise_instead_of_crashing():
    p, g = np.ones(4, np.float32), np.ones(3, np.float32)
    with pytest.raises((ValueError, TypeError, RuntimeError)):
        optim.run(optim.SGDStep([p], [g], None, [], 0, 0, 1, -1.0, False, False))


@needs_native
def test_sqrt_in_place():
    a = np.array([4.0, 9.0], np.float64)
    optim.sqrt_(a)
    assert a.tolist() == [2.0, 3.0]
    assert isinstance(optim.sqrt_is_pytorchs(), bool)


def test_without_native_kernels_run_and_sqrt_raise_a_clear_error(monkeypatch):
    monkeypatch.setitem(optim._state, "native", None)
    monkeypatch.setattr(optim, "_kernels", {})
    assert optim.available() is False and optim.sqrt_is_pytorchs() is False
    step = optim.SGDStep([], [], None, [], 0, 0, 1, -1.0, False, False)
    with pytest.raises(RuntimeError, match="native optimizer kernels are not available"):
        optim.run(step)
    with pytest.raises(RuntimeError, match="TORCH_NATIVE=0"):
        optim.sqrt_(np.ones(2))
