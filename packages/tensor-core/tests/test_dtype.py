"""dtypes and PyTorch's type promotion, against tables recorded from real PyTorch."""

import json
import pathlib

import pytest

import torch

GOLDEN = pathlib.Path(__file__).parent / "golden" / "promotion.json"
# the dtypes tools/golden/record.py covered
NAMES = sorted({key.split(",")[0] for key in json.loads(GOLDEN.read_text())["promote_types"]})
SCALARS = {"int": 2, "float": 2.5, "bool": True, "complex": 1j}


def test_promote_types_table(golden):
    table = golden("promotion")["promote_types"]
    for key, expected in table.items():
        a, b = key.split(",")
        assert str(torch.promote_types(getattr(torch, a), getattr(torch, b))) == expected, key


@pytest.mark.parametrize("name", NAMES)
def test_tensor_times_scalars_and_zero_dim(golden, name):
    table = golden("promotion")["mul"]
    dt = getattr(torch, name)
    t = torch.ones(2, dtype=dt)
    z = torch.ones((), dtype=dt)
    for label, value in SCALARS.items():
        assert str(torch._ops._dispatch.result_type(t, value)) == table[f"{name},{label}"]
    for other in NAMES:
        o = torch.ones((), dtype=getattr(torch, other))
        assert str(torch._ops._dispatch.result_type(t, o)) == table[f"{name},zerodim:{other}"]
        assert (
            str(torch._ops._dispatch.result_type(z, o)) == table[f"zerodim:{name},zerodim:{other}"]
        )


def test_dtype_attributes():
    assert torch.float32.is_floating_point and not torch.int64.is_floating_point
    assert torch.complex64.is_complex and torch.float64.itemsize == 8
    assert torch.bfloat16.itemsize == 2 and torch.float is torch.float32
    assert torch.long is torch.int64 and torch.double is torch.float64
    assert repr(torch.int16) == "torch.int16"


def test_default_dtype():
    assert torch.get_default_dtype() is torch.float32
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.tensor([1.5]).dtype is torch.float64
        assert torch.zeros(1).dtype is torch.float64
    finally:
        torch.set_default_dtype(torch.float32)
    with pytest.raises(TypeError, match="floating-point"):
        torch.set_default_dtype(torch.int64)


def test_dtype_pickles_to_the_same_object():
    import pickle

    assert pickle.loads(pickle.dumps(torch.bfloat16)) is torch.bfloat16
