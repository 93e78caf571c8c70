"""torch._C.small_matmul (csrc/blas/small_matmul.cpp), the product of small matrices behind
``a @ b`` and ``torch.matmul``, against its NumPy reference ``_native.small_matmul_numpy``:
the same products in every layout, and None for the same operands."""

import numpy as np
import pytest

import torch
from torch import _native

native_only = pytest.mark.skipif(not _native.ENABLED, reason="needs torch._C")
PRODUCTS = [_native.small_matmul_numpy] + (
    [_native.kernels.small_matmul] if _native.ENABLED else []
)


class _Subclass(np.ndarray):
    pass


def _operands(rng, m, k, n, dtype):
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    return {
        "plain": (a, b),
        "transposed": (np.ascontiguousarray(a.T).T, np.ascontiguousarray(b.T).T),
        "strided": (np.repeat(a, 2, axis=1)[:, ::2], b[::-1][::-1]),
        "reversed": (a[::-1], b[:, ::-1]),
    }


@pytest.mark.parametrize("product", PRODUCTS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m,k,n", [(8, 8, 8), (1, 5, 7), (16, 16, 16), (3, 1, 2), (64, 64, 1)])
def test_small_products_match_numpy_in_every_layout(product, m, k, n, dtype):
    rng = np.random.default_rng(0)
    for name, (a, b) in _operands(rng, m, k, n, dtype).items():
        got = product(a, b)
        assert got.dtype == dtype and got.shape == (m, n) and got.flags.c_contiguous, name
        assert got.strides == (n * got.itemsize, got.itemsize)
        tol = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, a @ b, rtol=tol, atol=tol, err_msg=name)


@pytest.mark.parametrize("product", PRODUCTS)
def test_small_products_decline_what_they_do_not_take(product):
    a32 = np.ones((4, 4), np.float32)
    declined = [
        (a32, np.ones((4, 4))),  # mixed dtypes
        (a32.astype(np.int64), a32.astype(np.int64)),
        (a32.astype(np.float16), a32.astype(np.float16)),
        (a32, np.ones((3, 4), np.float32)),  # mismatched: NumPy's call raises
        (np.ones((2, 4, 4), np.float32), a32),
        (np.ones(4, np.float32), a32),
        (np.ones((0, 4), np.float32), a32),  # empty
        (np.ones((4, 0), np.float32), np.ones((0, 4), np.float32)),
        (np.ones((17, 16), np.float32), np.ones((16, 16), np.float32)),  # over 4096
        (a32.view(_Subclass), a32),
        (a32.astype(">f4"), a32.astype(">f4")),  # not the machine's byte order
        ([[1.0]], [[1.0]]),
    ]
    for a, b in declined:
        assert product(a, b) is None


@native_only
def test_small_product_checks_its_arguments():
    with pytest.raises(TypeError, match="exactly 2 arguments"):
        _native.kernels.small_matmul(np.ones((2, 2)))


def test_matmul_and_the_operator_agree_on_small_products():
    a, b = torch.randn(8, 8), torch.randn(8, 8)
    assert torch.equal(a @ b, torch.matmul(a, b))
    np.testing.assert_allclose((a @ b).numpy(), a.numpy() @ b.numpy(), rtol=1e-5, atol=1e-5)
    c = torch.randn(5, 3, dtype=torch.float64)
    assert (c @ c.t()).stride() == (5, 1) and torch.equal(c @ c.t(), torch.matmul(c, c.t()))
