"""The native stride-1 convolution kernels (csrc/conv*.cpp) against the NumPy unfold +
BLAS reference in torch._ops.nn_kernels, forward and both gradients."""

import numpy as np
import pytest

import torch
from torch import _C, _native
from torch._ops import nn_kernels

# (input shape, weight shape, padding, dilation, groups)
CASES = [
    ((2, 3, 9), (4, 3, 3), 1, 1, 1),
    ((3, 4, 17), (6, 2, 4), "same", 2, 2),
    ((2, 3, 7, 9), (5, 3, 3, 3), 1, 1, 1),
    ((1, 6, 11, 8), (9, 2, 2, 3), (2, 0), (1, 2), 3),
    ((4, 1, 5, 5), (1, 1, 5, 5), 0, 1, 1),
    ((2, 16, 12, 12), (33, 16, 3, 3), 1, 1, 1),  # output channels not a multiple of a tile
    ((2, 4, 6, 6), (8, 4, 2, 2), "same", 1, 1),  # uneven 'same' padding
    ((2, 6, 4, 5, 6), (10, 3, 2, 3, 2), (1, 0, 1), (1, 1, 2), 2),
    ((1, 2, 3, 3), (3, 2, 3, 3), 3, 1, 1),  # padding wider than the kernel's reach
    # the weight gradient transposes the output gradient in 8x8 (4x4) blocks: whole blocks
    # of channels with outputs left over, and blocks within each of two groups
    ((2, 8, 7, 7), (16, 8, 3, 3), 1, 1, 1),
    ((1, 8, 6, 5), (32, 4, 3, 3), 1, 1, 2),
]


def _tensors(case, dtype, seed=0):
    in_shape, w_shape, padding, dilation, groups = case
    rng = np.random.default_rng(seed)
    x = torch.from_numpy(rng.standard_normal(in_shape).astype(dtype))
    w = torch.from_numpy(rng.standard_normal(w_shape).astype(dtype))
    b = torch.from_numpy(rng.standard_normal(w_shape[0]).astype(dtype))
    return x, w, b, padding, dilation, groups


def _forward_and_grads(x, w, b, padding, dilation, groups):
    out = nn_kernels.convolution(x, w, b, 1, padding, dilation, groups)
    nd = w.dim() - 2
    stride, pads, dilation, _, _ = nn_kernels._conv_geometry(x, w, 1, padding, dilation, groups, nd)
    g = torch.from_numpy(
        np.random.default_rng(9).standard_normal(out.shape).astype(out.numpy().dtype)
    )
    grads = [
        nn_kernels.conv_backward(g, x, w, stride, pads, dilation, groups, which).numpy()
        for which in ("input", "weight", "bias")
    ]
    return [out.numpy()] + grads


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CASES, ids=[str(c[:2]) for c in CASES])
def test_native_convolution_matches_reference(case, dtype, monkeypatch):
    tensors = _tensors(case, dtype)
    native = _forward_and_grads(*tensors)
    monkeypatch.setattr(_native, "ENABLED", False)
    reference = _forward_and_grads(*tensors)
    tolerance = 2e-5 if dtype == np.float32 else 1e-12
    for got, want, what in zip(native, reference, ("output", "input grad", "weight grad", "bias")):
        assert got.shape == want.shape, what
        np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance, err_msg=what)


def test_native_convolution_is_used_and_threads_agree():
    x, w, b, *_ = _tensors(CASES[5], np.float32)
    args = (x.numpy(), w.numpy(), b.numpy(), [1, 1, 1], [0, 1, 1], [0, 1, 1], 1)
    x5 = np.ascontiguousarray(x.numpy())[:, :, None]
    w5 = np.ascontiguousarray(w.numpy())[:, :, None]
    one = _C.conv_forward(x5, w5, *args[2:], 1)
    two = _C.conv_forward(x5, w5, *args[2:], 2)
    np.testing.assert_array_equal(one, two)
    # images are claimed one at a time by however many threads: the same result
    seven = np.ascontiguousarray(np.concatenate([x5, x5[:1] * 2, x5, x5, x5[:1] - 1]))
    results = [_C.conv_forward(seven, w5, *args[2:], threads) for threads in (1, 2, 3, 8)]
    for result in results[1:]:
        np.testing.assert_array_equal(result, results[0])
    np.testing.assert_array_equal(results[0][:2], one)


def test_native_convolution_refuses_bad_operands():
    x = np.zeros((1, 2, 1, 4, 4), np.float32)
    w = np.zeros((3, 2, 1, 3, 3), np.float32)
    with pytest.raises(ValueError, match="5-d"):
        _C.conv_forward(x[0], w, None, [1, 1, 1], [0, 0, 0], [0, 0, 0], 1)
    with pytest.raises(ValueError, match="groups"):
        _C.conv_forward(x, w, None, [1, 1, 1], [0, 0, 0], [0, 0, 0], 2)
    with pytest.raises(ValueError, match="non-negative"):
        _C.conv_forward(x, w, None, [1, 1, 1], [0, -1, 0], [0, 0, 0], 1)
    with pytest.raises(ValueError, match="output size"):
        _C.conv_forward(x, w, None, [1, 3, 1], [0, 0, 0], [0, 0, 0], 1)
    with pytest.raises(ValueError, match="bias"):
        _C.conv_forward(x, w, np.zeros(2, np.float32), [1, 1, 1], [0, 0, 0], [0, 0, 0], 1)
    with pytest.raises(TypeError, match="dtype"):
        _C.conv_forward(x, w.astype(np.float64), None, [1, 1, 1], [0, 0, 0], [0, 0, 0], 1)
    with pytest.raises(TypeError, match="float32 or float64"):
        _C.conv_forward(x.astype(np.int32), w, None, [1, 1, 1], [0, 0, 0], [0, 0, 0], 1)
    with pytest.raises(ValueError, match="wrong shape"):
        _C.conv_weight_grad(x, np.zeros((1, 3, 1, 3, 3), np.float32), w, [1, 1, 1],
                            [0, 0, 0], [0, 0, 0], 1)  # fmt: skip


def test_native_convolution_results_have_their_own_shape_and_memory():
    # a reshaped view would have a base: autograd copies such a gradient into .grad
    x = np.ones((2, 3, 1, 1, 9), np.float32)
    w = np.ones((4, 3, 1, 1, 3), np.float32)
    args = ([1, 1, 1], [0, 0, 1], [0, 0, 1], 1, 1)
    for spatial_dims, tail in ((1, (9,)), (2, (1, 9)), (3, (1, 1, 9))):
        out = _C.conv_forward(x, w, None, *args, spatial_dims)
        assert out.shape == (2, 4, *tail) and out.base is None
        grad = _C.conv_weight_grad(x, np.ones((2, 4, 1, 1, 9), np.float32), w, *args, spatial_dims)
        assert grad.shape == (4, 3, *tail[:-1], 3) and grad.base is None
    for bad in (0, 4):
        with pytest.raises(ValueError, match="spatial_dims must be"):
            _C.conv_forward(x, w, None, *args, bad)
    with pytest.raises(ValueError, match="a size other than 1"):
        _C.conv_weight_grad(
            np.ones((1, 1, 1, 4, 4), np.float32),
            np.ones((1, 1, 1, 2, 2), np.float32),
            np.ones((1, 1, 1, 3, 3), np.float32),
            [1, 1, 1],
            [0, 0, 0],
            [0, 0, 0],
            1,
            1,
            1,
        )


def test_native_weight_grad_reads_no_position_between_output_rows():
    # without padding, input column 7 of a 9-wide row is read by no valid output for the
    # kernel's first column: an infinity there must not reach that column's gradient
    x = np.ones((1, 1, 1, 4, 9), np.float32)
    x[0, 0, 0, 1, 7] = np.inf
    w = np.ones((1, 1, 1, 3, 3), np.float32)
    grad = _C.conv_weight_grad(x, np.ones((1, 1, 1, 2, 7), np.float32), w, [1, 1, 1],
                               [0, 0, 0], [0, 0, 0], 1)  # fmt: skip
    np.testing.assert_array_equal(grad[0, 0, 0, :, 0], [14, 14, 14])
    assert np.isinf(grad[0, 0, 0, :2, 2]).all()
