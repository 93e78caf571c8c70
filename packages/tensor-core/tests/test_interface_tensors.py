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
