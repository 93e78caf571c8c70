"""torch._interface.tensors: what siblings may read and write of a tensor's fields."""

import pytest

import torch
from torch._interface import tensors


class _Sub(torch.Tensor):
    __slots__ = ()


def test_alias_as_shares_memory_and_fields():
    source = torch.arange(4.0)
    tensors.shared_version_counter(source)  # made lazily: make it before it is shared
    alias = tensors.alias_as(_Sub, source)
    assert type(alias) is _Sub
    assert alias.data_ptr() == source.data_ptr() and alias.dtype is source.dtype
    assert tensors.version_counter(alias) is tensors.version_counter(source)
    alias.add_(1)  # one memory, one version counter
    assert source.tolist() == [1.0, 2.0, 3.0, 4.0] and source._version == alias._version == 1


class _Placeholder:
    __slots__ = ()


class _Blocked(_Placeholder, torch.Tensor):
    __slots__ = ()


def _refuse(t):
    raise ValueError("no data yet")


def test_block_array_reads_refuses_computation_but_not_writes():
    tensors.block_array_reads(_Placeholder, _refuse)
    blocked = tensors.alias_as(_Blocked, torch.empty(0))
    with pytest.raises(ValueError, match="no data yet"):
        blocked + 1
    tensors.replace_data(blocked, torch.ones(2))  # writing the array still works
    blocked.__class__ = _Sub
    assert (blocked + 1).tolist() == [2.0, 2.0]


# ------------------------------------------------ the readers and writers autograd uses


def test_readers_see_the_fields_the_public_api_shows():
    x = torch.zeros(2, 3)
    assert tensors.array(x) is tensors.array(x) and tensors.array(x).shape == (2, 3)
    assert tensors.dtype_of(x) is x.dtype is torch.float32
    assert tensors.requires_grad(x) is False and tensors.grad_fn(x) is None
    assert tensors.view_base(x) is None and tensors.version(x) == 0
    view = x[0]
    assert tensors.view_base(view) is x
    assert tensors.version_counter(view) is tensors.version_counter(x)
    array, dtype, counter = tensors.saved_fields(view)
    assert array is tensors.array(view) and dtype is torch.float32
    assert counter is tensors.version_counter(x)


def test_wrap_and_from_array():
    import numpy as np

    made = tensors.wrap(np.ones(3, dtype=np.float64), torch.float64)
    assert made.dtype is torch.float64 and made.tolist() == [1.0, 1.0, 1.0]
    assert made.grad_fn is None and not made.requires_grad and made._version == 0
    strided = tensors.from_array(np.ones((3, 4), dtype=np.float32)[:, ::2])
    assert strided.dtype is torch.float32 and strided.is_contiguous()
    assert tensors.from_array(np.zeros(2), torch.float64).dtype is torch.float64


def test_version_counter_writers():
    a, b = torch.zeros(2), torch.zeros(2)
    assert tensors.version_counter(a) is None  # made on first use
    counter = tensors.shared_version_counter(a)
    assert counter == [0] and tensors.shared_version_counter(a) is counter
    tensors.set_version_counter(b, counter)
    tensors.bump_version(a)
    assert a._version == b._version == tensors.version(b) == 1


class _Node:
    _num_outputs = 1

    def name(self):
        return "FakeBackward0"


def test_set_history_and_requires_grad():
    x = torch.zeros(3)
    node = _Node()
    assert tensors.set_history(x, node) is None  # not a view: no base
    assert x.grad_fn is node and x.requires_grad and not x.is_leaf
    tensors.set_requires_grad(x, False)
    assert not x.requires_grad


def test_set_history_of_a_view_keeps_its_node_current():
    base = torch.zeros(4)
    view = base[1:]
    base.add_(1)  # the view's node (none yet) is now older than the counter
    assert tensors.view_version(view) != tensors.version(view)
    node = _Node()
    assert tensors.set_history(view, node) is base
    assert tensors.view_version(view) == tensors.version(view)
    assert tensors.grad_fn(view) is node


def test_mark_view_current():
    base = torch.zeros(4)
    view = base[:2]
    base.mul_(2)
    tensors.mark_view_current(view)
    assert tensors.view_version(view) == tensors.version(base) == 1


@pytest.mark.autograd
def test_replace_data_keeps_identity_and_history_fields():
    t = torch.zeros(2, requires_grad=True)
    counter = tensors.shared_version_counter(t)
    tensors.replace_data(t, torch.arange(6, dtype=torch.float64).reshape(2, 3))
    assert t.shape == (2, 3) and t.dtype is torch.float64 and t.requires_grad
    assert tensors.version_counter(t) is counter


def test_grad_mode_state_is_the_switches_state():
    state = tensors.grad_mode()
    assert state is tensors.grad_mode() and state.enabled is torch.is_grad_enabled()
    with torch.no_grad():
        assert state.enabled is False
    previous, state.enabled = state.enabled, False
    try:
        assert not torch.is_grad_enabled()
    finally:
        state.enabled = previous
    assert torch.is_grad_enabled()


def test_set_result_history_refuses_integer_results():
    node = _Node()
    assert tensors.set_result_history(torch.zeros(3, dtype=torch.int64), node) is False
    x = torch.zeros(3)
    assert tensors.set_result_history(x, node) is None
    assert tensors.grad_fn(x) is node and tensors.requires_grad(x)
    base = torch.zeros(4)
    assert tensors.set_result_history(base[1:], node) is base


@pytest.mark.autograd
def test_history_of_an_input():
    assert tensors.history(1.5) is False
    assert tensors.history(torch.zeros(2)) is False  # does not require grad
    leaf = torch.zeros(4, requires_grad=True)
    assert tensors.history(leaf) is None
    node = _Node()
    x = torch.zeros(4)
    tensors.set_history(x, node)
    assert tensors.history(x) is node
    base = torch.zeros(4)
    view = base[1:]
    tensors.set_history(view, node)
    assert tensors.history(view) is node
    base.add_(1)  # written in place since the view's node was made
    assert tensors.history(view) is tensors.STALE_VIEW


def test_saved_result_shares_a_counter():
    x = torch.arange(3.0)
    array, dtype, counter, version = tensors.saved_result(x)
    assert array is tensors.array(x) and dtype is torch.float32 and version == 0
    assert tensors.version_counter(x) is counter  # made now, shared from now on
    tensors.bump_version(x)
    assert counter[0] == 1 == x._version
