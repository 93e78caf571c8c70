"""gradcheck and gradgradcheck over core's fused nn ops (torch._ops.nn_fused): their
formulas compute every gradient from saved arrays in one pass, and fall back to recorded
composites under create_graph."""

import pytest

import torch

# the fused ops arrived in torch-core 0.3 (the contracts session also runs these tests
# against the lowest torch-core this package admits)
nn_fused = pytest.importorskip("torch._ops.nn_fused")


def _leaf(*shape, scale=1.0):
    return (torch.randn(*shape, dtype=torch.float64) * scale).requires_grad_()


def _away_from_zero(*shape):
    # relu has no derivative at 0: magnitudes in [0.1, 1.1) with alternating signs
    signs = torch.tensor([1.0, -1.0], dtype=torch.float64).repeat(shape[-1])[: shape[-1]]
    return ((torch.rand(*shape, dtype=torch.float64) + 0.1) * signs).requires_grad_()


def _linear_no_bias(x, w):
    return nn_fused.linear(x, w)


def _mse(reduction):
    return lambda x, y: nn_fused.mse_loss(x, y, reduction)


def _cross_entropy(target, reduction):
    return lambda x: nn_fused.cross_entropy(x, torch.tensor(target), -100, reduction)


def _nll(target, reduction):
    return lambda x: nn_fused.nll_loss(x, torch.tensor(target), -100, reduction)


def _gru_no_bias(x, h, w_ih, w_hh):
    return nn_fused.gru_layer(x, h, w_ih, w_hh)


def _rnn(nonlinearity):
    return lambda *args: nn_fused.rnn_layer(*args, nonlinearity=nonlinearity)


def _lstm_no_bias(x, h, c, w_ih, w_hh):
    return nn_fused.lstm_layer(x, h, c, w_ih, w_hh)


CASES = {
    "linear": lambda: (nn_fused.linear, (_leaf(4, 3), _leaf(5, 3), _leaf(5))),
    "linear_3d_no_bias": lambda: (_linear_no_bias, (_leaf(2, 4, 3), _leaf(5, 3))),
    "linear_1d": lambda: (nn_fused.linear, (_leaf(3), _leaf(5, 3), _leaf(5))),
    "relu": lambda: (nn_fused.relu, (_away_from_zero(4, 5),)),
    "mse_mean": lambda: (_mse("mean"), (_leaf(3, 4), _leaf(3, 4))),
    "mse_none": lambda: (_mse("none"), (_leaf(3, 4), _leaf(3, 4))),
    "cross_entropy_mean": lambda: (_cross_entropy([0, 2, -100, 1], "mean"), (_leaf(4, 3),)),
    "cross_entropy_none": lambda: (_cross_entropy([0, 2, 1, 1], "none"), (_leaf(4, 3),)),
    "nll_mean": lambda: (_nll([0, 2, -100, 1], "mean"), (_leaf(4, 3),)),
    "nll_none": lambda: (_nll([0, 2, 1, 1], "none"), (_leaf(4, 3),)),
    "gru_layer": lambda: (
        nn_fused.gru_layer,
        (_leaf(4, 2, 3), _leaf(2, 5), _leaf(15, 3, scale=0.5), _leaf(15, 5, scale=0.5),
         _leaf(15), _leaf(15)),
    ),
    "gru_layer_no_bias": lambda: (
        _gru_no_bias, (_leaf(3, 2, 3), _leaf(2, 4), _leaf(12, 3), _leaf(12, 4))
    ),
    "rnn_tanh_layer": lambda: (
        _rnn("tanh"), (_leaf(4, 2, 3), _leaf(2, 5), _leaf(5, 3), _leaf(5, 5), _leaf(5), _leaf(5))
    ),
    "rnn_relu_layer_no_bias": lambda: (
        _rnn("relu"), (_leaf(4, 2, 3), _leaf(2, 5), _leaf(5, 3), _leaf(5, 5))
    ),
    "lstm_layer": lambda: (
        nn_fused.lstm_layer,
        (_leaf(4, 2, 3), _leaf(2, 5), _leaf(2, 5), _leaf(20, 3, scale=0.5),
         _leaf(20, 5, scale=0.5), _leaf(20), _leaf(20)),
    ),
    "lstm_layer_no_bias": lambda: (
        _lstm_no_bias, (_leaf(3, 2, 3), _leaf(2, 4), _leaf(2, 4), _leaf(16, 3), _leaf(16, 4))
    ),
}  # fmt: skip

# the three-output LSTM layer arrived after torch-core 0.6
if hasattr(nn_fused, "lstm_sequence"):
    CASES["lstm_sequence"] = lambda: (
        nn_fused.lstm_sequence,
        (_leaf(4, 2, 3), _leaf(2, 5), _leaf(2, 5), _leaf(20, 3, scale=0.5),
         _leaf(20, 5, scale=0.5), _leaf(20), _leaf(20)),
    )  # fmt: skip
    CASES["lstm_sequence_zero_state"] = lambda: (
        lambda x, w_ih, w_hh: nn_fused.lstm_sequence(x, None, None, w_ih, w_hh),
        (_leaf(3, 2, 3), _leaf(16, 3), _leaf(16, 4)),
    )
needs_sequence = pytest.mark.skipif(
    not hasattr(nn_fused, "lstm_sequence"), reason="torch-core without _lstm_sequence"
)


@pytest.mark.parametrize("name", sorted(CASES))
def test_fused_gradients_match_finite_differences(name):
    torch.manual_seed(0)
    function, inputs = CASES[name]()
    assert torch.autograd.gradcheck(function, inputs)


@pytest.mark.parametrize("name", sorted(CASES))
def test_fused_second_order_gradients(name):
    torch.manual_seed(0)
    function, inputs = CASES[name]()
    assert torch.autograd.gradgradcheck(function, inputs)


def test_lstm_layer_gradients_are_handed_out_once_per_backward():
    # every input's formula reads one backward pass; biases get tensors of their own
    torch.manual_seed(0)
    _, inputs = CASES["lstm_layer"]()
    for _ in range(2):
        out = nn_fused.lstm_layer(*inputs)
        out.sum().backward()
    b_ih, b_hh = inputs[5], inputs[6]
    assert b_ih.grad is not b_hh.grad
    first = [x.grad.clone() for x in inputs]
    for x in inputs:
        x.grad = None
    out = nn_fused.lstm_layer(*inputs)
    out.sum().backward(retain_graph=True)
    for x, expected in zip(inputs, first):
        torch.testing.assert_close(x.grad * 2, expected)
    out.sum().backward()  # a second pass through the same graph
    for x, expected in zip(inputs, first):
        torch.testing.assert_close(x.grad, expected)


@needs_sequence
def test_lstm_sequence_gradients_match_the_composite_and_ignore_writes_into_outputs():
    # one node for the layer (PyTorch's name); its outputs are copies, so writing into
    # them in place changes no gradient (the node reads its own saved state)
    torch.manual_seed(0)
    _, inputs = CASES["lstm_sequence"]()
    outputs = nn_fused.lstm_sequence(*inputs)
    assert {o.grad_fn.name() for o in outputs} == {"MkldnnRnnLayerBackward0"}
    weights = [torch.rand_like(o) for o in outputs]
    loss = sum((o * w).sum() for o, w in zip(outputs, weights))
    for o in outputs:
        o.detach().mul_(0)
    fused = torch.autograd.grad(loss, inputs)
    composite = nn_fused.lstm_sequence_composite(*inputs)
    expected = torch.autograd.grad(sum((o * w).sum() for o, w in zip(composite, weights)), inputs)
    for got, want in zip(fused, expected):
        torch.testing.assert_close(got, want)
    only_c = torch.autograd.grad(nn_fused.lstm_sequence(*inputs)[2].sum(), inputs[3])[0]
    want_c = torch.autograd.grad(nn_fused.lstm_sequence_composite(*inputs)[2].sum(), inputs[3])
    torch.testing.assert_close(only_c, want_c[0])


def test_writing_into_an_output_of_a_multi_output_node_raises_at_backward():
    # as in PyTorch: the write is recorded, backward refuses the modified saved output
    x = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
    u, s, v = torch.linalg.svd(x)
    u.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        (u.sum() + s.sum()).backward()
