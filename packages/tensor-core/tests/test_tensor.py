"""The first Tensor: creation, metadata, arithmetic, reductions, views and errors."""

import numpy as np
import pytest

import torch


def test_creation_dtype_inference():
    assert torch.tensor([1, 2]).dtype is torch.int64
    assert torch.tensor([1.0, 2]).dtype is torch.float32
    assert torch.tensor([True]).dtype is torch.bool
    assert torch.tensor(np.array([1, 2], np.int32)).dtype is torch.int32
    assert torch.tensor([[1, 2], [3, 4]]).shape == torch.Size([2, 3 - 1])


def test_creation_functions():
    assert torch.zeros(2, 3).tolist() == [[0.0] * 3] * 2
    assert torch.ones((2,), dtype=torch.int32).tolist() == [1, 1]
    assert torch.full((2,), 7).dtype is torch.int64
    assert torch.arange(3).tolist() == [0, 1, 2]
    assert torch.arange(1, 2.5, 0.5).tolist() == [1.0, 1.5, 2.0]
    assert torch.zeros_like(torch.ones(2, dtype=torch.int8)).dtype is torch.int8
    assert torch.empty(0, 3).shape == (0, 3)


@pytest.mark.parametrize(
    "call,error,match",
    [
        (lambda: torch.ones(-1), RuntimeError, "negative dimension"),
        (lambda: torch.zeros(-1), RuntimeError, "must be non-negative"),
        (lambda: torch.zeros(2.5), TypeError, "tuple of ints"),
        (lambda: torch.arange(0, 5, 0), RuntimeError, "step must be nonzero"),
        (lambda: torch.tensor("abc"), TypeError, "invalid data type"),
        # PyTorch without CUDA raises AssertionError here too
        (lambda: torch.zeros(2, device="cuda"), AssertionError, "not compiled with CUDA"),
        (lambda: torch.from_numpy([1, 2]), TypeError, "expected np.ndarray"),
    ],
)
def test_creation_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_from_numpy_shares_memory():
    array = np.arange(4.0)
    t = torch.from_numpy(array)
    array[0] = 10
    assert t[0].item() == 10
    assert t.data_ptr() == array.ctypes.data
    with pytest.raises(ValueError, match="negative"):
        torch.from_numpy(array[::-1])


def test_metadata():
    t = torch.zeros(2, 3, 4)
    assert t.size() == (2, 3, 4) and t.size(-1) == 4 and t.dim() == 3 and t.numel() == 24
    assert t.stride() == (12, 4, 1) and t.storage_offset() == 0 and t.is_contiguous()
    assert t.device == torch.device("cpu") and t.element_size() == 4
    with pytest.raises(IndexError, match="Dimension out of range"):
        t.size(3)


def test_views_share_storage():
    t = torch.arange(6).reshape(2, 3)
    row = t[1]
    assert row.storage_offset() == 3 and row.untyped_storage() is t.untyped_storage()
    tt = t.t()
    assert tt.stride() == (1, 3) and not tt.is_contiguous()
    col = t[:, 1]
    assert col.stride() == (3,) and col.storage_offset() == 1


@pytest.mark.parametrize(
    "op,ref",
    [
        (torch.add, np.add),
        (torch.sub, np.subtract),
        (torch.mul, np.multiply),
    ],
)
def test_binary_ops_against_numpy(op, ref):
    a = np.random.default_rng(0).standard_normal((3, 1, 4)).astype(np.float32)
    b = np.random.default_rng(1).standard_normal((2, 1)).astype(np.float32)
    result = op(torch.from_numpy(a), torch.from_numpy(b))
    np.testing.assert_allclose(result.numpy(), ref(a, b), rtol=1e-6)
    assert result.dtype is torch.float32


def test_division_and_operators():
    a = torch.tensor([1, 2, 3])
    assert (a / 2).tolist() == [0.5, 1.0, 1.5] and (a / 2).dtype is torch.float32
    assert (1 - a).tolist() == [0, -1, -2] and (6 / a).tolist() == [6.0, 3.0, 2.0]
    assert (-a).tolist() == [-1, -2, -3] and (a * 2.5).dtype is torch.float32
    assert torch.add(a, a, alpha=3).tolist() == [4, 8, 12]
    with pytest.raises(RuntimeError, match="alpha must not be a floating"):
        torch.add(a, a, alpha=0.5)
    with pytest.raises(RuntimeError, match="bool tensor is not supported"):
        -torch.tensor([True])


def test_inplace_and_out():
    a = torch.tensor([1.0, 2.0])
    version = a._version
    a += 1
    a.mul_(2)
    assert a.tolist() == [4.0, 6.0] and a._version == version + 2
    out = torch.empty(2)
    torch.add(a, 1, out=out)
    assert out.tolist() == [5.0, 7.0]
    with pytest.raises(RuntimeError, match="can't be cast"):
        torch.tensor([1, 2]).add_(0.5)
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        torch.zeros(2).add_(torch.zeros(3, 2))


def test_reductions():
    x = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
    assert x.sum().dtype is torch.int64 and x.sum().item() == 10
    assert x.sum((0, 1)).item() == 10 and x.sum(-1, keepdim=True).shape == (2, 1)
    assert torch.tensor([[1.0, 2.0], [3.0, 5.0]]).mean(0).tolist() == [2.0, 3.5]
    with pytest.raises(RuntimeError, match="mean\\(\\): could not infer output dtype"):
        x.mean()
    with pytest.raises(RuntimeError, match="appears multiple times"):
        x.sum((0, 0))


def test_matmul():
    a = torch.arange(6.0).reshape(2, 3)
    b = torch.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal((a @ b).numpy(), a.numpy() @ b.numpy())
    with pytest.raises(RuntimeError, match="cannot be multiplied \\(2x3 and 2x3\\)"):
        a @ a
    with pytest.raises(RuntimeError, match="same dtype"):
        a @ torch.ones(3, dtype=torch.float64)


def test_reshape_expand_errors():
    with pytest.raises(RuntimeError, match="invalid for input of size 6"):
        torch.arange(6).reshape(4, -1)
    with pytest.raises(RuntimeError, match="expanded size"):
        torch.ones(2, 3).expand(2, 4)


def test_scalar_conversions():
    assert float(torch.tensor([2.5])) == 2.5 and int(torch.tensor(3)) == 3
    with pytest.raises(RuntimeError, match="cannot be converted to Scalar"):
        torch.ones(2).item()
    with pytest.raises(RuntimeError, match="ambiguous"):
        bool(torch.ones(2))


def test_python_conversions_of_multi_element_tensors_raise_value_error():
    # PyTorch: float()/int()/complex() raise ValueError, item() RuntimeError
    for convert in (float, int, complex):
        with pytest.raises(ValueError, match="only one element tensors can be converted"):
            convert(torch.ones(2))
    # sparse tensors convert through the same path (PyTorch 2.13: 3.0 and '2.0')
    assert float(torch.tensor([3.0]).to_sparse()) == 3.0
    assert f"{torch.tensor(2.0).to_sparse()}" == "2.0"
    with pytest.raises(ValueError, match="only one element tensors"):
        float(torch.tensor([[0.0, 2.0]]).to_sparse())


def test_format_of_a_0_dim_tensor_formats_its_python_number():
    # recorded with PyTorch 2.13
    assert f"{torch.tensor(0.1)}" == "0.10000000149011612"
    assert f"{torch.tensor(0.1):.3f}" == "0.100"
    assert format(torch.tensor(0.1), "e") == "1.000000e-01"
    assert f"{torch.tensor(3):5}" == "    3"
    assert f"{torch.tensor(True)}" == "True"
    assert f"{torch.tensor(0.1, dtype=torch.float16)}" == "0.0999755859375"
    assert f"{torch.tensor(1 + 2j)}" == "(1+2j)"
    # n-dim tensors keep the repr, and reject a non-empty spec
    assert f"{torch.tensor([0.1, 0.2])}" == "tensor([0.1000, 0.2000])"
    with pytest.raises(TypeError, match="unsupported format string passed to Tensor.__format__"):
        f"{torch.tensor([0.1, 0.2]):.3f}"


def test_float_of_a_tensor_requiring_grad_warns_once():
    import warnings

    import torch._tensor as tensor_module

    try:
        t = torch.tensor(0.5, requires_grad=True)
    except Exception:
        pytest.skip("needs torch-autograd")
    tensor_module._SCALAR_WARNED[0] = False
    message = "Converting a tensor with requires_grad=True to a scalar"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert int(t) == 0 and t.item() == 0.5 and f"{t:.2f}" == "0.50"  # no warning
        assert not caught
        assert float(t) == 0.5
        assert float(t * 2) == 1.0 and complex(t) == 0.5  # once per process, as PyTorch
    assert [str(w.message).split("\n")[0] for w in caught] == [
        message + " may lead to unexpected behavior."
    ]
    tensor_module._SCALAR_WARNED[0] = False
    with pytest.warns(UserWarning, match=message):
        complex(t)


@pytest.mark.parametrize(
    "name",
    [
        "ints",
        "floats",
        "integral_floats",
        "wide",
        "double",
        "int32",
        "bool",
        "scalar",
        "empty",
        "empty2d",
        "matrix",
        "cube",
        "nan_inf",
    ],
)
def test_repr_matches_pytorch(golden, name):
    case = golden("repr")[name]
    assert repr(eval(case["code"])) == case["repr"]
