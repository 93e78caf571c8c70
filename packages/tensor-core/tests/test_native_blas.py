"""Matrix products through an external CBLAS library (csrc/blas.cpp; MKL from the optional
`mkl` wheel) against NumPy's own matmul. Skipped where no such library is installed."""

import numpy as np
import pytest

import torch
from torch import _C, _native

pytestmark = pytest.mark.skipif(
    _native.blas_library_path() is None, reason="no external BLAS (pip install mkl)"
)


def _layouts(rng, m, k, n, dtype):
    """Operand pairs in every layout CBLAS takes: plain, transposed, row-padded views."""
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    a_t = np.ascontiguousarray(a.T).T  # unit row stride
    b_t = np.ascontiguousarray(b.T).T
    a_pad = rng.standard_normal((m, k + 3)).astype(dtype)[:, :k]  # leading dim > k
    return {"plain": (a, b), "a_t": (a_t, b), "b_t": (a, b_t), "both_t": (a_t, b_t),
            "padded": (a_pad, b)}  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "m,k,n", [(1, 40, 900), (40, 1, 900), (130, 70, 90), (300, 257, 129), (70, 33, 1001)]
)
@pytest.mark.parametrize("threads", [1, 2, 3])  # bands of rows or of columns, ragged last
def test_gemm_matches_numpy_in_every_layout(m, k, n, dtype, threads):
    assert _native._blas_ready()
    rng = np.random.default_rng(m + k + n)
    tolerance = 1e-4 if dtype == np.float32 else 1e-12
    for name, (a, b) in _layouts(rng, m, k, n, dtype).items():
        out = np.full((m, n), np.nan, dtype)
        assert _C.blas_gemm(a, b, out, threads), name
        np.testing.assert_allclose(out, a @ b, rtol=tolerance, atol=tolerance * k, err_msg=name)


def test_batched_gemm_and_refused_layouts_write_nothing():
    assert _native._blas_ready()
    rng = np.random.default_rng(0)
    for m, n in [(50, 70), (300, 70), (70, 300)]:  # one band; bands of rows; of columns
        a, b = rng.standard_normal((4, m, 60)), rng.standard_normal((4, 60, n))
        out = np.empty((4, m, n))
        assert _C.blas_gemm(a, b, out, 2)
        np.testing.assert_allclose(out, a @ b, rtol=1e-12, atol=1e-12 * 60)  # k = 60
    # columns two elements apart fit neither CBLAS layout: refused, output untouched
    # (kernel=1 asks for the library; the packed product of test_packed_gemm takes them)
    strided = rng.standard_normal((50, 120))[:, ::2]
    out = np.zeros((50, 70))
    assert not _C.blas_gemm(strided, rng.standard_normal((60, 70)), out, kernel=1)
    assert not out.any()


def test_gemm_rejects_bad_operands():
    a = np.ones((4, 5), np.float32)
    with pytest.raises(ValueError, match="shapes"):
        _C.blas_gemm(a, np.ones((6, 2), np.float32), np.empty((4, 2), np.float32))
    with pytest.raises(TypeError, match="one dtype"):
        _C.blas_gemm(a, np.ones((5, 2)), np.empty((4, 2), np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        _C.blas_gemm(a, np.ones((5, 2), np.float32), np.empty((2, 4), np.float32).T)


def test_torch_matmul_uses_it_and_keeps_numpy_for_what_it_cannot_take():
    torch.manual_seed(0)
    a, b = torch.randn(3, 64, 48, dtype=torch.float64), torch.randn(3, 48, 80, dtype=torch.float64)
    assert _native.blas_matmul(a.numpy(), b.numpy()) is not None
    np.testing.assert_allclose((a @ b).numpy(), a.numpy() @ b.numpy(), rtol=1e-12)
    # broadcast batch, integer dtype, tiny product: NumPy's path
    assert _native.blas_matmul(np.ones((2, 64, 64)), np.ones((1, 64, 64))) is None
    assert _native.blas_matmul(np.ones((64, 64), np.int64), np.ones((64, 64), np.int64)) is None
    assert _native.blas_matmul(np.ones((8, 8)), np.ones((8, 8))) is None
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(64x48"):
        torch.randn(64, 48) @ torch.randn(47, 80)
