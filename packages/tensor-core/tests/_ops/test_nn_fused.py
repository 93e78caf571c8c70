"""The fused nn ops (torch._ops.nn_fused) against the composites they replace, and their
native kernels (max pooling, relu backward, the LSTM loops and whole LSTM layer) against
the NumPy references.
The fused losses against torch-nn's composites: packages/nn/tests/functional/
test_fused_losses.py."""

import numpy as np
import pytest

import torch
from torch import _native
from torch._ops import nn_fused, nn_kernels

native_only = pytest.mark.skipif(not _native.ENABLED, reason="needs torch._C")


@pytest.fixture
def reference_path(monkeypatch):
    """Run the NumPy references instead of torch._C for the duration of a test."""

    def use(enabled: bool):
        monkeypatch.setattr(_native, "ENABLED", enabled)

    return use


# ------------------------------------------------------------------- max pooling

POOL_CASES = [
    ((2, 3, 9, 8), (2,), 2),
    ((1, 2, 7, 7), ((3, 2), (2, 1), (1, 0)), 2),
    ((2, 2, 10, 9), (3, 2, 1, 2, True), 2),
    ((3, 4, 6, 6), (2, 2, 0, 1, False), 2),
    ((2, 3, 11), (3, 2, 1), 1),
    ((2, 3, 12), (4, 3, 2, 2, True), 1),
]


@native_only
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("shape,args,nd", POOL_CASES)
def test_native_max_pool_matches_the_reference(shape, args, nd, dtype, reference_path):
    torch.manual_seed(0)
    x = torch.randn(*shape, dtype=dtype)
    x.view(-1)[3] = float("nan")  # a NaN wins its windows, as in PyTorch
    x.view(-1)[7] = x.view(-1)[8]  # ties: the first position wins
    values, indices = nn_kernels.max_pool(x, *args, return_indices=True, nd=nd)
    reference_path(False)
    ref_values, ref_indices = nn_kernels.max_pool(x, *args, return_indices=True, nd=nd)
    np.testing.assert_array_equal(values.numpy(), ref_values.numpy())
    np.testing.assert_array_equal(indices.numpy(), ref_indices.numpy())


@native_only
@pytest.mark.parametrize("shape", [(2, 3, 8, 8), (1, 2, 7, 9)])
def test_native_max_pool_2x2_keeps_the_first_of_ties(shape, reference_path):
    # few distinct values: most windows hold ties (the 2x2 stride-2 kernel's own loop)
    torch.manual_seed(0)
    x = torch.randint(0, 3, shape).to(torch.float32)
    values, indices = nn_kernels.max_pool(x, 2, return_indices=True)
    reference_path(False)
    ref_values, ref_indices = nn_kernels.max_pool(x, 2, return_indices=True)
    np.testing.assert_array_equal(values.numpy(), ref_values.numpy())
    np.testing.assert_array_equal(indices.numpy(), ref_indices.numpy())


@native_only
def test_native_max_pool_backward_matches_the_reference(reference_path):
    torch.manual_seed(0)
    x = torch.randn(2, 3, 8, 8)
    _, indices = nn_kernels.max_pool(x, 3, 1, 1, return_indices=True)  # overlapping windows
    grad = torch.randn(*indices.shape)
    summed = nn_kernels.max_pool_backward(grad, x, indices)
    reference_path(False)
    expected = nn_kernels.max_pool_backward(grad, x, indices)
    np.testing.assert_allclose(summed.numpy(), expected.numpy(), rtol=1e-6)


@native_only
def test_native_max_pool_backward_rejects_bad_indices():
    grad = np.ones((2, 4), dtype=np.float32)
    with pytest.raises(IndexError, match="out of bounds"):
        _native.kernels.max_pool_backward(grad, np.full((2, 4), 9, dtype=np.int64), 2, 9)
    with pytest.raises(ValueError, match="do not match"):
        _native.kernels.max_pool_backward(grad, np.zeros(3, dtype=np.int64), 2, 9)


# -------------------------------------------------------------------------- relu


def test_relu_keeps_nan_and_zeroes_negatives():
    out = torch.relu(torch.tensor([-1.0, 0.0, 2.0, float("nan")]))
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, 2.0, np.nan])
    assert torch.relu(torch.tensor([-3, 4])).tolist() == [0, 4]  # integers: general path


@pytest.mark.autograd
@pytest.mark.parametrize("native", [True, False])
def test_relu_of_a_zero_dim_tensor_and_its_gradient_stay_zero_dim(native, reference_path):
    reference_path(native and _native.ENABLED)
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.relu(x)
    assert type(y._np) is np.ndarray and y.shape == ()
    y.backward()
    assert x.grad.shape == () and x.grad.item() == 1.0


@pytest.mark.parametrize("native", [True, False])
def test_relu_backward_passes_gradients_where_the_result_is_positive(native, reference_path):
    reference_path(native and _native.ENABLED)
    result = torch.tensor([[0.0, 2.0], [3.0, 0.0]])
    grad = torch.tensor([[float("nan"), 5.0], [6.0, float("inf")]])
    out = nn_fused.relu_backward(grad, result)
    np.testing.assert_array_equal(out.numpy(), [[0.0, 5.0], [6.0, 0.0]])


# ------------------------------------------------------------------------ linear


@pytest.mark.parametrize("shape", [(5, 3), (2, 4, 3), (3,)])
def test_linear_matches_matmul_plus_bias(shape):
    torch.manual_seed(0)
    x, w, b = torch.randn(*shape), torch.randn(4, 3), torch.randn(4)
    np.testing.assert_allclose(
        nn_fused.linear(x, w, b).numpy(), (x @ w.t() + b).numpy(), rtol=1e-6, atol=1e-6
    )
    np.testing.assert_allclose(nn_fused.linear(x, w).numpy(), (x @ w.t()).numpy(), rtol=1e-6)


def test_linear_declines_what_it_does_not_take():
    x = torch.randn(2, 3)
    assert nn_fused.linear(x, torch.randn(4, 3, dtype=torch.float64)) is None  # dtypes
    assert nn_fused.linear(x, torch.randn(4, 2)) is None  # sizes (the general path raises)
    assert nn_fused.linear(x.to(torch.int64), torch.ones(4, 3, dtype=torch.int64)) is None
    assert nn_fused.linear(x, torch.randn(3)) is None  # a vector weight


# ------------------------------------------------------------------------ losses


def test_nll_loss_rejects_out_of_range_targets():
    with pytest.raises(IndexError, match="Target -1 is out of bounds."):
        nn_fused.nll_loss(torch.randn(2, 3), torch.tensor([0, -1]), -100, "mean")


def test_cross_entropy_rejects_out_of_range_targets():
    with pytest.raises(IndexError, match="Target 5 is out of bounds."):
        nn_fused.cross_entropy(torch.randn(2, 3), torch.tensor([0, 5]), -100, "mean")


def test_cross_entropy_declines_probability_targets():
    assert nn_fused.cross_entropy(torch.randn(2, 3), torch.rand(2, 3), -100, "mean") is None


# -------------------------------------------------------------------- LSTM layer


def _lstm_inputs(dtype, bias=True, steps=5, batch=3, features=4, hidden=6):
    torch.manual_seed(0)
    gates = 4 * hidden
    return [
        torch.randn(steps, batch, features, dtype=dtype),
        torch.randn(batch, hidden, dtype=dtype),
        torch.randn(batch, hidden, dtype=dtype),
        torch.randn(gates, features, dtype=dtype) * 0.5,
        torch.randn(gates, hidden, dtype=dtype) * 0.5,
        torch.randn(gates, dtype=dtype) if bias else None,
        torch.randn(gates, dtype=dtype) if bias else None,
    ]


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype,tol", [(torch.float64, 1e-12), (torch.float32, 2e-6)])
def test_lstm_layer_matches_the_step_composite(dtype, tol, bias, reference_path):
    args = _lstm_inputs(dtype, bias)
    expected = nn_fused.lstm_layer_composite(*args).numpy()
    for native in (True, False):
        reference_path(native and _native.ENABLED)
        got = nn_fused.lstm_layer(*args).numpy()
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype,tol", [(torch.float64, 1e-12), (torch.float32, 3e-6)])
def test_gru_layer_matches_the_step_composite(dtype, tol, bias, reference_path):
    x, h0, _, w_ih, w_hh, b_ih, b_hh = _lstm_inputs(dtype, bias, hidden=8)
    args = [
        x,
        h0[:, :8],
        w_ih[:24],
        w_hh[:24, :8],
        *(b if b is None else b[:24] for b in (b_ih, b_hh)),
    ]
    expected = nn_fused.gru_layer_composite(*args).numpy()
    for native in (True, False):
        reference_path(native and _native.ENABLED)
        got = nn_fused.gru_layer(*args).numpy()
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("nonlinearity", ["tanh", "relu"])
@pytest.mark.parametrize("dtype,tol", [(torch.float64, 1e-12), (torch.float32, 3e-6)])
def test_rnn_layer_matches_the_step_composite(dtype, tol, nonlinearity, reference_path):
    x, h0, _, w_ih, w_hh, b_ih, b_hh = _lstm_inputs(dtype, hidden=8)
    args = [x, h0[:, :8], w_ih[:8], w_hh[:8, :8], b_ih[:8], b_hh[:8]]
    expected = nn_fused.rnn_layer_composite(*args, nonlinearity=nonlinearity).numpy()
    for native in (True, False):
        reference_path(native and _native.ENABLED)
        got = nn_fused.rnn_layer(*args, nonlinearity=nonlinearity).numpy()
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


def test_lstm_layer_declines_projections_and_mixed_dtypes():
    args = _lstm_inputs(torch.float32)
    assert nn_fused.lstm_layer(*args[:4], args[4][:, :5], *args[5:]) is None
    assert nn_fused.lstm_layer(args[0].double(), *args[1:]) is None


@native_only
def test_lstm_native_step_kernels_match_the_references():
    rng = np.random.default_rng(0)
    batch, hidden = 3, 5
    # pre-activations spanning the tanh series' switch point and saturation
    z = rng.normal(scale=3.0, size=(batch, 4 * hidden))
    z[0, :4] = [1e-9, -0.05, 0.07, 40.0]
    c_prev = rng.normal(size=(batch, hidden))
    dh, dc0 = rng.normal(size=(batch, hidden)), rng.normal(size=(batch, hidden))
    outs = {}
    for name, step in (
        ("native", _native.kernels.lstm_cell_forward),
        ("reference", nn_fused._lstm_step_reference),
    ):
        gates, c, h, tanh_c = z.copy(), *(np.empty((batch, hidden)) for _ in range(3))
        step(gates, c_prev, c, h, tanh_c)
        dz, dc = np.empty_like(z), dc0.copy()
        backward = (
            _native.kernels.lstm_cell_backward
            if name == "native"
            else nn_fused._lstm_step_backward_reference
        )
        backward(gates, c_prev, tanh_c, dh, dc, dz)
        outs[name] = (gates, c, h, tanh_c, dz, dc)
    for got, expected in zip(outs["native"], outs["reference"]):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


@native_only
def test_lstm_native_loops_reject_mismatched_arrays():
    projected = np.zeros((2, 3, 8), dtype=np.float32)
    states = np.zeros((3, 3, 2), dtype=np.float32)
    gates = np.zeros((2, 3, 8), dtype=np.float32)
    with pytest.raises(ValueError, match="w_hh_t must be"):
        _native.kernels.lstm_layer_forward(
            projected, np.zeros((8, 2), np.float32), None, states, states, gates, states[:2]
        )
    with pytest.raises(TypeError, match="one float dtype"):
        _native.kernels.lstm_layer_forward(
            projected, np.zeros((2, 8)), None, states, states, gates, states[:2].copy()
        )


# Shapes that reach every tile of the native products: batches below, at and above the
# tile's rows, widths with and without a tail narrower than one vector.
SEQUENCE_SHAPES = [(5, 3, 4, 6), (3, 8, 32, 16), (4, 9, 5, 20), (2, 1, 1, 1), (3, 13, 7, 33)]


def _sequence_arrays(dtype, steps, batch, features, hidden, bias=True, state=True):
    rng = np.random.default_rng(1)
    gates = 4 * hidden
    return [
        rng.normal(size=(steps, batch, features)).astype(dtype),
        rng.normal(size=(batch, hidden)).astype(dtype) if state else None,
        rng.normal(size=(batch, hidden)).astype(dtype) if state else None,
        (rng.normal(size=(gates, features)) * 0.5).astype(dtype),
        (rng.normal(size=(gates, hidden)) * 0.5).astype(dtype),
        rng.normal(size=gates).astype(dtype) if bias else None,
        rng.normal(size=gates).astype(dtype) if bias else None,
    ]


@native_only
@pytest.mark.parametrize("bias,state", [(True, True), (False, False)])
@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-12), (np.float32, 3e-5)])
@pytest.mark.parametrize("shape", SEQUENCE_SHAPES)
def test_lstm_native_sequence_matches_the_reference(shape, dtype, tol, bias, state):
    arrays = _sequence_arrays(dtype, *shape, bias=bias, state=state)
    got = _native.kernels.lstm_sequence_forward(*arrays, packed=True)
    expected = nn_fused._lstm_forward_reference(*arrays, packed=True)
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)
    steps, batch, _, hidden = shape
    rng = np.random.default_rng(2)
    grads = [rng.normal(size=s).astype(dtype) for s in ((steps, batch, hidden), (batch, hidden))]
    x, _, _, w_ih, w_hh, _, _ = arrays
    saved = expected[:4]
    for grad_hs, grad_hy, grad_cy in [(grads[0], grads[1], grads[1]), (grads[0], None, None),
                                      (None, grads[1], None)]:  # fmt: skip
        for wanted in ([True] * 6, [False, False, False, True, True, True]):
            args = (grad_hs, grad_hy, grad_cy, x, w_ih, w_hh, *saved, wanted)
            got = _native.kernels.lstm_sequence_backward(*args)
            expected_grads = nn_fused._lstm_backward_reference(*args)
            for a, b, flag in zip(got, expected_grads, wanted):
                assert (a is None) == (not flag)
                if flag:
                    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@native_only
def test_lstm_native_sequence_rejects_bad_arguments():
    x, h0, c0, w_ih, w_hh, b_ih, b_hh = _sequence_arrays(np.float32, 3, 2, 4, 5)
    forward = _native.kernels.lstm_sequence_forward
    with pytest.raises(ValueError, match="w_ih must be"):
        forward(x, h0, c0, w_ih[:, :3].copy(), w_hh, b_ih, b_hh, packed=False)
    with pytest.raises(ValueError, match="x must be"):
        forward(x[0], h0, c0, w_ih, w_hh, b_ih, b_hh, packed=False)
    with pytest.raises(ValueError, match="expected 10 elements"):
        forward(x, h0[:1], c0, w_ih, w_hh, b_ih, b_hh, packed=False)
    with pytest.raises(ValueError, match="expected 20 elements"):
        forward(x, h0, c0, w_ih, w_hh, b_ih[:4], b_hh, packed=False)
    with pytest.raises(TypeError, match="one float dtype"):
        forward(x, h0, c0, w_ih.astype(np.float64), w_hh, b_ih, b_hh, packed=False)
    with pytest.raises(TypeError, match="float32 or float64"):
        forward(x.astype(np.int64), h0, c0, w_ih, w_hh, b_ih, b_hh, packed=False)
    with pytest.raises(ValueError, match="C-contiguous"):
        forward(x.transpose(1, 0, 2), h0, c0, w_ih, w_hh, b_ih, b_hh, packed=False)
    saved = forward(x, h0, c0, w_ih, w_hh, b_ih, b_hh, packed=False)[:4]
    backward = _native.kernels.lstm_sequence_backward
    grad = np.ones((3, 2, 5), np.float32)
    with pytest.raises(ValueError, match="6 flags"):
        backward(grad, None, None, x, w_ih, w_hh, *saved, [True])
    with pytest.raises(ValueError, match="expected 30 elements"):
        backward(grad[:2], None, None, x, w_ih, w_hh, *saved, [True] * 6)
    with pytest.raises(ValueError, match="expected 40 elements"):
        backward(grad, None, None, x, w_ih, w_hh, saved[0][:2], *saved[1:], [True] * 6)


# ------------------------------------------------------------- gradients (autograd)


@pytest.mark.autograd
def test_fused_ops_record_one_node_each():
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(5, 3, requires_grad=True)
    assert type(nn_fused.linear(x, w)).__name__ == "Tensor"
    assert nn_fused.linear(x, w).grad_fn.name() == "AddmmBackward0"
    assert torch.relu(x).grad_fn.name() == "ReluBackward0"
    target = torch.tensor([0, 1, 2, 1])
    assert nn_fused.cross_entropy(x, target, -100, "mean").grad_fn.name() == "NllLossBackward0"
    assert nn_fused.mse_loss(x, x.detach(), "sum").grad_fn.name() == "MseLossBackward0"
