"""torch._interface.tensors' readers and set_result_history as torch._C functions: the
same results as their Python definitions (which TORCH_NATIVE=0 uses), for plain tensors,
subclasses, views, subclasses that replace a field by a property, and other objects."""

import pytest

import torch
from torch import _native
from torch._interface import tensors as fields

pytestmark = pytest.mark.skipif(not _native.ENABLED, reason="TORCH_NATIVE=0: Python readers")


class Sub(torch.Tensor):
    pass


def _tensors():
    leaf = torch.rand(3, requires_grad=True)
    result = leaf * 2
    view = result[1:]
    view.add_(1)  # a version counter
    return [torch.rand(2, 2), leaf, result, view, fields.alias_as(Sub, torch.rand(2))]


@pytest.mark.autograd
@pytest.mark.parametrize("name", sorted(fields._READ_FIELDS))
def test_native_readers_agree_with_the_fields(name):
    native = getattr(fields, name)
    assert type(native).__name__ == "builtin_function_or_method"
    field = fields._READ_FIELDS[name]
    for t in _tensors():
        assert native(t) is getattr(t, field)


@pytest.mark.autograd
def test_history_matches_its_definition_including_stale_views():
    leaf = torch.rand(4, requires_grad=True)
    result = leaf * 1
    view = result[1:]
    assert fields.history(torch.rand(2)) is False
    assert fields.history(3) is False and fields.history(None) is False
    assert fields.history(leaf) is None
    assert fields.history(result) is result._grad_fn and fields.history(view) is view._grad_fn
    result.mul_(2)  # the view's node is now older than its base's last write
    assert fields.history(view) is fields.STALE_VIEW


class _Placeholder:
    __slots__ = ()


class _Blocked(_Placeholder, torch.Tensor):
    __slots__ = ()


def test_a_field_replaced_by_a_property_is_read_through_it():
    reads = []

    def on_read(t):
        reads.append(t)
        raise RuntimeError("blocked")

    fields.block_array_reads(_Placeholder, on_read)
    t = fields.alias_as(_Blocked, torch.rand(2))
    with pytest.raises(RuntimeError, match="blocked"):
        fields.array(t)
    assert reads == [t]


def test_set_result_history():
    node = object()
    result = torch.rand(3) * 2
    assert fields.set_result_history(result, node) is None
    assert result._grad_fn is node and result._requires_grad is True
    base = torch.rand(4)
    view = base[1:]
    base._version_ = view._version_ = [5]
    assert fields.set_result_history(view, node) is base
    assert view._view_version == 5
    integers = torch.arange(3)
    assert fields.set_result_history(integers, node) is False
    assert integers._grad_fn is None
    with pytest.raises(TypeError, match="expected a Tensor"):
        fields.set_result_history(3, node)
    with pytest.raises(TypeError):
        fields.set_result_history(result)


def test_readers_of_other_objects_raise_attribute_error():
    with pytest.raises(AttributeError):
        fields.array(3)


def test_factories_refuse_what_is_not_an_object_slot():
    with pytest.raises(TypeError, match="is not a slot"):
        _native.kernels.slot_reader(torch.Tensor, "shape")
