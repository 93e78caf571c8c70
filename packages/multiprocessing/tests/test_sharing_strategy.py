"""get/set_sharing_strategy and get_all_sharing_strategies, against real PyTorch."""

import pytest
from mp_helpers import GOLDEN

import torch
import torch.multiprocessing as mp


def test_strategies_as_pytorch():
    assert sorted(mp.get_all_sharing_strategies()) == GOLDEN["strategies"]
    assert isinstance(mp.get_all_sharing_strategies(), set)
    assert mp.get_sharing_strategy() == GOLDEN["default_strategy"]


def test_setting_a_strategy(strategy):
    assert mp.get_sharing_strategy() == strategy
    assert torch.ones(2).share_memory_().is_shared()


def test_bad_strategy():
    with pytest.raises(AssertionError) as info:
        mp.set_sharing_strategy("bogus")
    assert type(info.value).__name__ == GOLDEN["bad_strategy"]["type"]
    assert "invalid sharing strategy 'bogus', expected one of" in str(info.value)
    assert mp.get_sharing_strategy() == "file_descriptor"


def test_sharing_flags_as_pytorch():
    expected = GOLDEN["sharing"]
    a = torch.zeros(4)
    view = a[1:]
    assert [a.is_shared(), view.is_shared(), a.untyped_storage().is_shared()] == expected["before"]
    pointer = a.data_ptr()
    assert (a.share_memory_() is a) == expected["returned_self"]
    assert [a.is_shared(), view.is_shared(), a.untyped_storage().is_shared()] == expected["after"]
    a.fill_(3)
    assert (a.data_ptr() != pointer) == expected["data_ptr_moved"]
    assert view.tolist() == expected["view_sees_writes"]
    assert view.data_ptr() - a.data_ptr() == expected["view_offset_kept"]
    assert (a.share_memory_().data_ptr() == a.data_ptr()) == expected["again_is_noop"]
    assert torch.UntypedStorage._new_shared(8).is_shared() == expected["new_shared"]
    assert torch.empty(0).share_memory_().is_shared() == expected["empty_shared"]
