"""The norm family of torch._C (layer norm, softmax, relu, batch norm) against NumPy references
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


# (batch, channels, plane): BatchNorm1d's (N, C) as plane 1, odd planes, a threaded size
BATCH_SHAPES = [(2, 1, 1), (8, 4, 1), (3, 5, 7), (2, 3, 33), (16, 64, 1024)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", BATCH_SHAPES)
def test_batch_norm_kernels_match_numpy(dtype, shape):
    rng = _rng()
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(dtype)
    x64 = x.astype(np.float64)
    mean, var = kernels.batch_norm_stats(x)
    np.testing.assert_allclose(mean, x64.mean((0, 2)), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(var, x64.var((0, 2)), rtol=1e-12, atol=1e-12)

    channels = shape[1]
    scale = rng.standard_normal(channels).astype(dtype)
    shift = rng.standard_normal(channels).astype(dtype)
    tol = TOLERANCE[dtype]
    np.testing.assert_allclose(
        kernels.batch_norm_apply(x, scale, shift),
        x * scale[:, None] + shift[:, None],
        rtol=tol,
        atol=tol,
    )

    grad = rng.standard_normal(shape).astype(dtype)
    invstd = (1 / np.sqrt(var + 1e-5)).astype(dtype)
    weight = rng.standard_normal(channels).astype(dtype)
    grad_x, sum_g, sum_gx = kernels.batch_norm_backward(
        grad, x, mean.astype(dtype), invstd, weight, True
    )
    centred = x64 - mean.astype(dtype)[:, None]
    ref_sum_g = grad.astype(np.float64).sum((0, 2))
    ref_sum_gx = (grad * centred).sum((0, 2))
    np.testing.assert_allclose(sum_g, ref_sum_g, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(sum_gx, ref_sum_gx, rtol=1e-9, atol=1e-9)
    count = shape[0] * shape[2]
    s = invstd.astype(np.float64)[:, None]
    ref_dx = (grad - ref_sum_g[:, None] / count - centred * s * s * ref_sum_gx[:, None] / count) * (
        s * weight[:, None]
    )
    np.testing.assert_allclose(grad_x, ref_dx, rtol=tol * 10, atol=tol * 10)
    no_input_grad = kernels.batch_norm_backward(grad, x, mean.astype(dtype), invstd, None, False)
    assert no_input_grad[0] is None


def test_batch_norm_backward_reuses_its_sums_only_for_the_same_operands(monkeypatch):
    # the engine asks for the input, weight and bias gradients in turn: one pass over
    # the batch serves all three, and a changed gradient is seen
    import torch
    from torch._ops import nn_fused

    rng = _rng()
    x = torch.from_numpy(rng.standard_normal((4, 3, 5)).astype(np.float32))
    grad = torch.from_numpy(rng.standard_normal((4, 3, 5)).astype(np.float32))
    weight = torch.from_numpy(rng.standard_normal(3).astype(np.float32))
    mean, var = kernels.batch_norm_stats(x.numpy())
    mean, invstd = mean.astype(np.float32), (1 / np.sqrt(var + 1e-5)).astype(np.float32)
    passes = []
    counted = kernels.batch_norm_backward

    def counting(*args):
        passes.append(args[-1])
        return counted(*args)

    monkeypatch.setattr(kernels, "batch_norm_backward", counting)

    def gradients():
        return [
            nn_fused.batch_norm_backward(grad, x, weight, mean, invstd, which).numpy()
            for which in ("input", "weight", "bias")
        ]

    first = gradients()
    assert passes == [True]
    again = gradients()
    assert passes == [True, True]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    nn_fused.batch_norm_backward(grad, x, weight, mean, invstd, "input")
    grad.mul_(2)
    doubled = nn_fused.batch_norm_backward(grad, x, weight, mean, invstd, "bias").numpy()
    assert passes == [True, True, True, False]
    np.testing.assert_allclose(doubled, 2 * first[2], rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("size", [0, 1, 63, 64, 65, 2047, 2048, 2049, 100_003, 1 << 22])
def test_threaded_sum_matches_numpy(dtype, size):
    x = _rng().standard_normal(size).astype(dtype) + 0.25
    reference = np.add.reduce(x.astype(np.float64))
    # float32 blocks of 2048 are summed in float32, then in double
    tolerance = (1e-6 if dtype == np.float32 else 1e-12) * max(1.0, float(np.abs(x).sum()))
    for threads in (1, 2, 3):
        assert abs(kernels.sum_all(x, threads) - reference) <= tolerance
