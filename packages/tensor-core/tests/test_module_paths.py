"""PyTorch's module paths ``torch.types``, ``torch.storage`` and ``torch.functional``
import, and hold what they hold in PyTorch 2.13 (the same objects as ``torch.*``)."""

import importlib

import torch


def test_functional_holds_the_torch_functions():
    functional = importlib.import_module("torch.functional")
    for name in functional.__all__:
        assert getattr(functional, name) is getattr(torch, name), name
    assert torch.functional is functional


def test_storage_holds_the_storage_classes():
    storage = importlib.import_module("torch.storage")
    assert storage.TypedStorage is torch.TypedStorage
    assert storage.UntypedStorage is torch.UntypedStorage


def test_types_aliases_annotate_and_check():
    from torch.types import Device, FileLike, Number, Storage, _size  # noqa: F401

    assert torch.types.py_sym_types == (torch.SymInt, torch.SymFloat, torch.SymBool)
    assert isinstance(2.5, torch.types._Number)
    assert torch.types._int is int and torch.types._dtype is torch.dtype
    assert sorted(torch.types.__all__) == ["Device", "FileLike", "Number", "Storage"]

    def first(shape: _size, device: Device = None) -> Number:
        return shape[0]

    assert first(torch.Size([3, 4])) == 3


def test_storage_and_has_mkl_as_in_pytorch():
    assert torch.Storage is torch.FloatStorage
    assert torch.has_mkl is torch.backends.mkl.is_available()
