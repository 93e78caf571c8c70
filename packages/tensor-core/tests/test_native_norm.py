"""The norm family of torch._C (layer norm, softmax, relu rows) against NumPy references
(the ops that use it: packages/autograd/tests/test_native_norm_gradients.py)."""

from __future__ import annotations

import numpy as np
import pytest

from torch import _native

pytestmark = pytest.mark.skipif(not _native.ENABLED, reason="native kernels are off")
kernels = _native.kernels

TOLERANCE = {np.float32: 2e-5, np.float64: 1e-12}
# (rows, cols): one row, odd widths around the 16-lane sums, a threaded size
SHAPES = [(1, 1), (3, 7), (5, 16), (4, 33), (512, 128), (64, 1030)]


def _rng():
    return np.random.default_rng(21)


def _layer_norm_reference(x, weight, bias, eps):
    x64 = x.astype(np.float64)
    mean = x64.mean(1, keepdims=True)
    rstd = 1 / np.sqrt(((x64 - mean) ** 2).mean(1, keepdims=True) + eps)
    out = (x64 - mean) * rstd
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out, mean[:, 0], rstd[:, 0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_forward_and_backward_match_numpy(dtype, shape, affine):
    rng = _rng()
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    weight = rng.standard_normal(shape[1]).astype(dtype) if affine else None
    bias = rng.standard_normal(shape[1]).astype(dtype) if affine else None
    out, mean, rstd = kernels.layer_norm(x, weight, bias, 1e-5)
    ref, ref_mean, ref_rstd = _layer_norm_reference(x, weight, bias, 1e-5)
    tol = TOLERANCE[dtype]
    np.testing.assert_allclose(out, ref, rtol=tol, atol=tol * 10)
    np.testing.assert_allclose(mean, ref_mean, rtol=tol, atol=tol)
    np.testing.assert_allclose(rstd, ref_rstd, rtol=tol)

    grad = rng.standard_normal(shape).astype(dtype)
    x_hat = (x.astype(np.float64) - ref_mean[:, None]) * ref_rstd[:, None]
    g = grad * weight if affine else grad.astype(np.float64)
    ref_dx = ref_rstd[:, None] * (
        g - g.mean(1, keepdims=True) - x_hat * (g * x_hat).mean(1, keepdims=True)
    )
    dx = kernels.layer_norm_input_grad(grad, x, mean, rstd, weight)
    np.testing.assert_allclose(dx, ref_dx, rtol=tol * 10, atol=tol * 10)
    dw, db = kernels.layer_norm_param_grads(grad, x, mean, rstd)
    np.testing.assert_allclose(dw, (grad * x_hat).sum(0), rtol=tol * 10, atol=tol * 100)
    np.testing.assert_allclose(db, grad.astype(np.float64).sum(0), rtol=tol, atol=tol * 100)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
def test_softmax_forward_and_backward_match_numpy(dtype, shape):
    rng = _rng()
    x = (rng.standard_normal(shape) * 4).astype(dtype)
    shifted = x - x.max(1, keepdims=True)
    ref = np.exp(shifted) / np.exp(shifted).sum(1, keepdims=True)
    tol = TOLERANCE[dtype]
    y = kernels.softmax(x)
    np.testing.assert_allclose(y, ref, rtol=tol * 5, atol=tol)
    grad = rng.standard_normal(shape).astype(dtype)
    np.testing.assert_allclose(
        kernels.softmax_backward(grad, y, False),
        y * (grad - (grad * y).sum(1, keepdims=True)),
        rtol=tol * 10,
        atol=tol,
    )
    log_y = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    np.testing.assert_allclose(
        kernels.softmax_backward(grad, log_y, True),
        grad - np.exp(log_y) * grad.sum(1, keepdims=True),
        rtol=tol * 10,
        atol=tol * 10,
    )


def test_softmax_rows_with_nan_or_infinities_are_nan_as_numpys():
    x = np.array([[np.nan, 1.0], [-np.inf, -np.inf], [np.inf, 1.0], [-np.inf, 0.0]], np.float32)
    with np.errstate(all="ignore"):
        shifted = x - x.max(1, keepdims=True)
        ref = np.exp(shifted) / np.exp(shifted).sum(1, keepdims=True)
    np.testing.assert_array_equal(kernels.softmax(x), ref)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("size", [0, 5, 40000, 1 << 17])
def test_relu_matches_numpy(dtype, size):
    x = _rng().standard_normal(size).astype(dtype)
    if size:
        x[: min(size, 3)] = [np.nan, -0.0, np.inf][: min(size, 3)]
    out = kernels.relu(x)
    np.testing.assert_array_equal(out, np.maximum(x, 0))
    assert out.dtype == x.dtype


def test_arguments_are_checked():
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match="weight must have 3 elements"):
        kernels.layer_norm(x, np.zeros(2, np.float32), None, 1e-5)
    with pytest.raises(TypeError, match="float32 or float64"):
        kernels.softmax(x.astype(np.int64))
    with pytest.raises(ValueError, match="C-contiguous"):
        kernels.softmax(np.zeros((3, 2), np.float32).T)
    with pytest.raises(ValueError, match="one shape"):
        kernels.softmax_backward(x, np.zeros((3, 2), np.float32), False)
    with pytest.raises(ValueError, match="one value per row"):
        kernels.layer_norm_param_grads(x, x, np.zeros(3, np.float32), np.zeros(2, np.float32))
