"""torch.utils.hooks.RemovableHandle: ids, removal from every table, weak tables,
context manager, pickling."""

import pickle
from collections import OrderedDict

import torch
from torch.utils.hooks import RemovableHandle, unserializable_hook


def test_reachable_as_attribute_of_torch_utils():
    assert torch.utils.hooks.RemovableHandle is RemovableHandle


def test_ids_increase_and_next_id_follows():
    first, second = RemovableHandle(OrderedDict()), RemovableHandle(OrderedDict())
    assert second.id > first.id
    assert RemovableHandle.next_id == second.id + 1


def test_remove_clears_hook_and_extra_tables_once():
    hooks, flags = OrderedDict(), OrderedDict()
    handle = RemovableHandle(hooks, extra_dict=[flags])
    hooks[handle.id], flags[handle.id] = print, True
    handle.remove()
    handle.remove()  # a second removal does nothing
    assert not hooks and not flags


def test_context_manager_removes_on_exit():
    hooks = {}  # a plain dict cannot be weakly referenced: held strongly instead
    with RemovableHandle(hooks) as handle:
        hooks[handle.id] = print
        assert handle.id in hooks
    assert not hooks


def test_does_not_keep_its_table_alive():
    hooks = OrderedDict()
    handle = RemovableHandle(hooks)
    del hooks
    handle.remove()  # the table is gone: nothing to do, no error


def test_pickles_with_its_table():
    hooks = OrderedDict()
    handle = RemovableHandle(hooks)
    hooks[handle.id] = "hook"
    table, copy = pickle.loads(pickle.dumps((hooks, handle)))
    assert copy.id == handle.id and copy.hooks_dict_ref() is table
    copy.remove()
    assert not table and hooks  # the copy removes from the copied table only


def test_unserializable_hook_marks_the_function():
    @unserializable_hook
    def hook(grad):
        return grad

    assert hook.__torch_unserializable__ is True
