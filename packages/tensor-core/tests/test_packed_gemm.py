"""The cache-blocked product of csrc/blas/packed_gemm.inc, which blas_gemm runs instead of
the external BLAS on the AVX-512 tier (gemm.cpp's use_packed_gemm): the same results as
the library to float rounding in every layout, odd sizes and both dtypes, on one thread
and on two; the choice per tier and per shape."""

import os
import subprocess
import sys

import numpy as np
import pytest

from torch import _C, _native

AUTO, BLAS, PACKED = 0, 1, 2
ON_AVX512 = _native.ENABLED and _native.kernels.cpu_isa() == "avx512"

pytestmark = pytest.mark.skipif(
    _native.blas_library_path() is None, reason="no external BLAS (pip install mkl)"
)
needs_avx512 = pytest.mark.skipif(not ON_AVX512, reason="the packed product is AVX-512 only")


def _operands(rng, m, k, n, dtype):
    """Operand pairs in plain, transposed, row-padded and column-strided layouts (the last
    fits no CBLAS layout)."""
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    a_t = np.ascontiguousarray(a.T).T
    b_t = np.ascontiguousarray(b.T).T
    a_pad = rng.standard_normal((m, k + 5)).astype(dtype)[:, 2 : k + 2]
    b_step = rng.standard_normal((k, 2 * n)).astype(dtype)[:, ::2]
    return {"plain": (a, b), "a_t": (a_t, b), "b_t": (a, b_t), "both_t": (a_t, b_t),
            "padded": (a_pad, b), "b_step": (a, b_step)}  # fmt: skip


def _tolerance(dtype, k):
    eps = 2e-6 if dtype == np.float32 else 1e-14
    return {"rtol": eps * 8, "atol": eps * 8 * np.sqrt(k)}


@needs_avx512
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "m,k,n", [(1, 1, 1), (13, 7, 5), (12, 256, 32), (37, 300, 91), (200, 513, 45), (3, 9, 700)]
)
@pytest.mark.parametrize("threads", [1, 2])
def test_packed_matches_the_library_in_every_layout(m, k, n, dtype, threads):
    assert _native._blas_ready()
    rng = np.random.default_rng(m * 7 + k * 3 + n)
    for name, (a, b) in _operands(rng, m, k, n, dtype).items():
        exact = a.astype(np.float64) @ b.astype(np.float64)
        packed = np.full((m, n), np.nan, dtype)
        assert _C.blas_gemm(a, b, packed, threads, PACKED), name
        np.testing.assert_allclose(packed, exact, **_tolerance(dtype, k), err_msg=name)
        library = np.full((m, n), np.nan, dtype)
        if _C.blas_gemm(a, b, library, threads, BLAS):  # b_step fits no CBLAS layout
            np.testing.assert_allclose(packed, library, **_tolerance(dtype, k), err_msg=name)


@needs_avx512
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_packed_batches_and_blocks(dtype):
    """Several matrices; and a product larger than one block in every dimension (the
    inner dimension's later blocks add to the first's)."""
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((3, 70, 130)).astype(dtype), rng.standard_normal((3, 130, 90))
    b = b.astype(dtype).transpose(0, 2, 1).copy().transpose(0, 2, 1)
    out = np.empty((3, 70, 90), dtype)
    assert _C.blas_gemm(a, b, out, 2, PACKED)
    np.testing.assert_allclose(out, a.astype(np.float64) @ b, **_tolerance(dtype, 130))
    m, k, n = 300, 700, 2200  # blocks of 144 rows, 256 (float64: 128) inner, 2048 columns
    a, b = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)
    for threads in (1, 2):
        out = np.empty((m, n), dtype)
        assert _C.blas_gemm(a, b, out, threads, PACKED)
        np.testing.assert_allclose(out, a.astype(np.float64) @ b, **_tolerance(dtype, k))


@needs_avx512
def test_auto_keeps_the_library_for_thin_results():
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((2, 4096)), rng.standard_normal((4096, 2))
    auto, library = np.empty((2, 2)), np.empty((2, 2))
    assert _C.blas_gemm(a, b, auto, 1, AUTO) and _C.blas_gemm(a, b, library, 1, BLAS)
    assert np.array_equal(auto, library)  # the same call: the same bits
    a, b = rng.standard_normal((64, 64)), rng.standard_normal((64, 64))
    auto, packed = np.empty((64, 64)), np.empty((64, 64))
    assert _C.blas_gemm(a, b, auto, 1, AUTO) and _C.blas_gemm(a, b, packed, 1, PACKED)
    assert np.array_equal(auto, packed)


def test_kernel_argument_is_checked():
    a = np.ones((4, 5), np.float32)
    with pytest.raises(ValueError, match="kernel must be"):
        _C.blas_gemm(a, np.ones((5, 2), np.float32), np.empty((4, 2), np.float32), 1, 3)


# On the lower tiers the automatic choice is the library (the same bits as kernel=1), and
# asking for the packed product is an error.
LOWER_TIER = """
import numpy as np
from torch import _C, _native
assert _native._blas_ready()
rng = np.random.default_rng(0)
for dtype in (np.float32, np.float64):
    a = rng.standard_normal((130, 70)).astype(dtype)
    b = rng.standard_normal((70, 90)).astype(dtype)
    auto, library = np.empty((130, 90), dtype), np.empty((130, 90), dtype)
    assert _C.blas_gemm(a, b, auto, 2, 0) and _C.blas_gemm(a, b, library, 2, 1)
    assert np.array_equal(auto, library)
try:
    _C.blas_gemm(a, b, auto, 1, 2)
except ValueError as error:
    assert "AVX-512" in str(error)
else:
    raise AssertionError("the packed product ran below AVX-512")
print(_C.cpu_isa())
"""


@pytest.mark.skipif(not _native.ENABLED, reason="no native kernels")
@pytest.mark.parametrize("tier", ["avx2", "baseline"])
def test_lower_tiers_use_the_library(tier):
    env = dict(os.environ, TORCH_CPU_ISA=tier)
    out = subprocess.run(
        [sys.executable, "-c", LOWER_TIER], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] in (tier, "baseline")
