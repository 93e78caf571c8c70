"""uint16/32/64 and the float8 dtypes against PyTorch 2.13's behaviour, recorded by
tools/golden/record_dtypes.py (see tests/limited_dtype_cases.py)."""

import base64
import io

import limited_dtype_cases as cases
import numpy as np
import pytest

import torch

_CASES = cases.all_cases()


@pytest.fixture(scope="module")
def recorded(golden):
    return golden("limited_dtypes")


def _same(got: str, expected: str) -> bool:
    """Equal outcomes; float32 results within 1e-6 (digamma and the like differ by ulps)."""
    prefix = "torch.float32:"
    if got == expected or not (got.startswith(prefix) and expected.startswith(prefix)):
        return got == expected
    ours, theirs = (np.array(eval(text[len(prefix) :])) for text in (got, expected))
    return np.allclose(ours, theirs, rtol=1e-6, atol=0, equal_nan=True)


@pytest.mark.parametrize("name", cases.LIMITED)
def test_ops_run_or_refuse_as_pytorch(recorded, name):
    expected = recorded["ops"][name]
    outcomes = {case: cases.outcome(torch, code, name) for case, code in _CASES.items()}
    mismatches = {
        case: (got, expected[case])
        for case, got in outcomes.items()
        if not _same(got, expected[case])
    }
    assert not mismatches


def test_promotion_table(recorded):
    assert cases.promotions(torch) == recorded["promote_types"]


def test_limits(recorded):
    assert cases.limits(torch) == recorded["limits"]


def test_float8_conversions(recorded):
    assert cases.conversions(torch) == recorded["conversions"]


@pytest.mark.parametrize("name", cases.LIMITED)
def test_loads_pytorch_checkpoint(recorded, name):
    loaded = torch.load(io.BytesIO(base64.b64decode(recorded["saved"][name])))
    a, _ = cases.make_operands(torch, name)
    assert loaded["t"].dtype is a.dtype and loaded["t"].tolist() == a.tolist()
    assert loaded["view"].untyped_storage().data_ptr() == loaded["t"].untyped_storage().data_ptr()


@pytest.mark.parametrize("name", cases.LIMITED)
def test_save_round_trip_is_untyped_storage_v3(name):
    a, _ = cases.make_operands(torch, name)
    buffer = io.BytesIO()
    torch.save(a, buffer)
    with __import__("zipfile").ZipFile(io.BytesIO(buffer.getvalue())) as archive:
        pickled = archive.read(next(n for n in archive.namelist() if n.endswith("data.pkl")))
    assert b"_rebuild_tensor_v3" in pickled and b"UntypedStorage" in pickled
    buffer.seek(0)
    back = torch.load(buffer)
    assert back.dtype is a.dtype and back.tolist() == a.tolist()


def test_from_numpy_keeps_complex64_and_unsigned_types():
    assert torch.from_numpy(np.zeros(2, np.complex64)).dtype is torch.complex64
    assert torch.tensor(np.zeros(2, np.complex64)).dtype is torch.complex64
    for bits in (16, 32, 64):
        array = np.arange(3, dtype=f"uint{bits}")
        t = torch.from_numpy(array)
        assert t.dtype is getattr(torch, f"uint{bits}")
        assert np.shares_memory(t.numpy(), array)
    with pytest.raises(TypeError, match="numpy.object_. The only supported types are: .*uint64"):
        torch.from_numpy(np.zeros(2, object))


def test_dtype_attributes_of_the_new_types():
    assert not torch.uint16.is_signed and torch.uint64.itemsize == 8
    assert torch.float8_e4m3fn.is_floating_point and torch.float8_e4m3fn.is_signed
    assert not torch.float8_e8m0fnu.is_signed and torch.float8_e5m2.itemsize == 1
    assert not hasattr(torch, "UInt16Tensor") and not hasattr(torch, "UInt16Storage")


def test_inplace_refusals_match_out_of_place():
    a = torch.tensor([1, 2], dtype=torch.uint32)
    with pytest.raises(NotImplementedError, match="\"add_stub\" not implemented for 'UInt32'"):
        a.add_(a)
    a.mul_(a)
    assert a.tolist() == [1, 4]
    f = torch.ones(2, dtype=torch.float8_e5m2)
    with pytest.raises(NotImplementedError, match="\"neg_cpu\" not implemented for 'Float8_e5m2'"):
        f.neg_()
