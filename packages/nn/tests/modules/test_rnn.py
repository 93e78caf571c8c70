"""torch.nn.modules.rnn: recurrent layers and cells against real PyTorch, and packed
sequences against padded ones."""

import inspect

import pytest

import torch
from torch import nn
from torch._interface import ops as core_ops
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def test_parameter_names_follow_pytorch():
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    names = [n for n, _ in lstm.named_parameters()]
    assert names[:5] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_hr_l0"]
    assert names[5] == "weight_ih_l0_reverse" and len(names) == 20
    assert tuple(lstm.weight_ih_l1.shape) == (16, 4) and tuple(lstm.weight_hh_l0.shape) == (16, 2)


@pytest.mark.parametrize("cls", [nn.RNN, nn.LSTM, nn.GRU])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_packed_sequences_match_each_sequence_run_alone(cls, bidirectional):
    torch.manual_seed(0)
    rnn = cls(3, 4, num_layers=2, bidirectional=bidirectional)
    x = torch.randn(5, 3, 3)
    lengths = [2, 5, 3]  # unsorted: packing sorts and unpacking restores the order
    packed = pack_padded_sequence(x, lengths, enforce_sorted=False)
    out, final = rnn(packed)
    padded, out_lengths = pad_packed_sequence(out)
    assert out_lengths.tolist() == lengths
    for b, n in enumerate(lengths):
        alone, alone_final = rnn(x[:n, b : b + 1])
        assert bool(((padded[:n, b] - alone[:, 0]).abs() < 1e-5).all())
        assert bool((padded[n:, b] == 0).all())
        h = final[0] if cls is nn.LSTM else final
        h_alone = alone_final[0] if cls is nn.LSTM else alone_final
        assert bool(((h[:, b] - h_alone[:, 0]).abs() < 1e-5).all())


@pytest.mark.parametrize("cls", [nn.RNN, nn.GRU])
def test_proj_size_is_lstm_only(cls):
    # PyTorch: RNN/GRU take RNNBase's arguments as *args, **kwargs and refuse proj_size
    assert str(inspect.signature(cls.__init__)) == "(self, *args, **kwargs)"
    with pytest.raises(ValueError, match="proj_size argument is only supported for LSTM"):
        cls(3, 4, proj_size=0)


def test_rnn_takes_nonlinearity_as_fourth_positional_argument():
    rnn = nn.RNN(3, 4, 2, "relu", False, True, 0.0, True)
    assert (rnn.nonlinearity, rnn.mode, rnn.bias, rnn.batch_first) == (
        "relu",
        "RNN_RELU",
        False,
        True,
    )
    assert rnn.num_layers == 2 and rnn.bidirectional
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        nn.LSTM(3, 4, bogus=1)


def test_errors():
    with pytest.raises(ValueError, match="Unknown nonlinearity 'gelu'"):
        nn.RNN(2, 2, nonlinearity="gelu")
    with pytest.raises(ValueError, match="proj_size has to be smaller than hidden_size"):
        nn.LSTM(2, 2, proj_size=2)
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size"):
        nn.GRU(3, 2)(torch.zeros(4, 1, 2))
    with pytest.raises(RuntimeError, match="Expected hidden size"):
        nn.GRU(3, 2)(torch.zeros(4, 1, 3), torch.zeros(2, 1, 2))


@pytest.mark.parametrize("cls", [nn.RNNCell, nn.LSTMCell, nn.GRUCell])
def test_cells_step_unbatched_input_as_a_batch_of_one(cls):
    torch.manual_seed(0)
    cell, x = cls(3, 4), torch.randn(3)
    alone, batched = cell(x), cell(x.unsqueeze(0))
    alone = alone if isinstance(alone, tuple) else (alone,)
    batched = batched if isinstance(batched, tuple) else (batched,)
    assert [tuple(t.shape) for t in alone] == [(4,)] * len(alone)
    assert all(torch.equal(a, b[0]) for a, b in zip(alone, batched))


def test_cell_state_forms_and_errors():
    cell, h = nn.LSTMCell(3, 4), torch.zeros(2, 4)
    out = cell(torch.randn(2, 3), [h, h])  # a list state is taken as (h, c)
    assert isinstance(out, tuple) and len(out) == 2
    rnn_cell = nn.RNNCell(3, 4)
    rnn_cell.nonlinearity = "gelu"
    # PyTorch checks the input's dims before the nonlinearity
    with pytest.raises(ValueError, match="RNNCell: Expected input to be 1D or 2D, got 3D"):
        rnn_cell(torch.zeros(1, 2, 3))
    with pytest.raises(RuntimeError, match="Unknown nonlinearity: gelu"):
        rnn_cell(torch.zeros(2, 3))


def test_lstm_trains_on_a_sequence_task():
    torch.manual_seed(0)
    lstm, head = nn.LSTM(1, 8, batch_first=True), nn.Linear(8, 1)
    params = list(lstm.parameters()) + list(head.parameters())
    optimizer = pytest.importorskip("torch.optim").SGD(params, lr=0.1, momentum=0.9)
    x = torch.rand(16, 6, 1)
    y = x.sum(1)  # the running sum of the sequence
    for step in range(80):
        optimizer.zero_grad()
        out, _ = lstm(x)
        loss = nn.functional.mse_loss(head(out[:, -1]), y)
        loss.backward()
        optimizer.step()
        if step == 0:
            first = loss.item()
    assert loss.item() < first / 10


def _graph_names(tensor) -> set:
    """The node names of the graph behind ``tensor``."""
    names, stack, seen = set(), [tensor.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.add(node.name())
        stack.extend(fn for fn, _ in getattr(node, "next_functions", ()))
    return names


@pytest.mark.skipif(
    "_lstm_layer" not in core_ops,
    reason="this torch-core predates the fused recurrent layers (the composite runs)",
)
def test_recurrent_layers_run_as_one_fused_node_each():
    # the fast path (one recorded op per layer and direction), checked so that a change
    # that falls back to the per-step composite shows up here and not only in the bench
    torch.manual_seed(0)
    x = torch.randn(5, 3, 4)
    lstm = torch.nn.LSTM(4, 6, num_layers=2, bidirectional=True)
    gru = torch.nn.GRU(4, 6)
    lstm_names = _graph_names(lstm(x)[0])
    assert "MkldnnRnnLayerBackward0" in lstm_names and "SigmoidBackward0" not in lstm_names
    assert "GruLayerBackward0" in _graph_names(gru(x)[0])
    rnn = torch.nn.RNN(4, 6, nonlinearity="relu", batch_first=True)
    assert "RnnLayerBackward0" in _graph_names(rnn(x)[0])
    # projections and packed input keep the step-by-step composite
    projected = torch.nn.LSTM(4, 6, proj_size=3)
    assert "MkldnnRnnLayerBackward0" not in _graph_names(projected(x)[0])


@pytest.mark.skipif(
    "_lstm_sequence" not in core_ops, reason="this torch-core has no three-output LSTM layer"
)
def test_lstm_fused_layer_matches_the_step_composite_and_owns_its_outputs():
    # the fused layer (zero initial state made natively, final states as rows of h_n and
    # c_n) against the same module with a projection-free step-by-step run
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(4, 6, num_layers=2, dropout=0.0)
    x = torch.randn(5, 3, 4, requires_grad=True)
    out, (h, c) = lstm(x)
    assert h.shape == c.shape == (2, 3, 6) and torch.equal(h[-1], out[-1])
    grads = torch.autograd.grad((out.sum() + h.sum() * 2 + c.sum() * 3), [x, *lstm.parameters()])
    zeros = torch.zeros(2, 3, 6)
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, [5, 5, 5])  # the composite's path
    out_c, (h_c, c_c) = lstm(packed, (zeros, zeros))
    out_c = torch.nn.utils.rnn.pad_packed_sequence(out_c)[0]
    torch.testing.assert_close(out, out_c)
    torch.testing.assert_close((h, c), (h_c, c_c))
    expected = torch.autograd.grad(
        (out_c.sum() + h_c.sum() * 2 + c_c.sum() * 3), [x, *lstm.parameters()]
    )
    for got, want in zip(grads, expected):
        torch.testing.assert_close(got, want)
    # outputs are the caller's: writing into them changes no gradient (as in PyTorch
    # for h_n and c_n)
    out, (h, c) = lstm(x)
    h.add_(1)
    c.sub_(5)
    again = torch.autograd.grad((out.sum() + h.sum() * 2 + c.sum() * 3), [x])[0]
    torch.testing.assert_close(again, grads[0])
