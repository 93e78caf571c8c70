"""Recurrent layers as ONNX's LSTM, GRU and RNN ops.

nn.LSTM/GRU/RNN trace as one core op per layer and direction (``_lstm_sequence``,
``_gru_layer`` ...) on
sequence-first input; a reverse direction is traced as flips around a forward layer. Each
becomes one single-direction ONNX op. The gate blocks of the weights are reordered:
PyTorch stacks LSTM gates as (input, forget, cell, output), ONNX as (input, output,
forget, cell); GRU (reset, update, new) against ONNX's (update, reset, hidden), with
``linear_before_reset=1`` as PyTorch computes the new gate.
"""

from __future__ import annotations

import torch

from .._graph import GraphContext
from .._registry import symbolic
from ._helpers import sizes_of

_LSTM_ORDER = (0, 3, 1, 2)  # PyTorch i, f, g, o -> ONNX i, o, f, c
_GRU_ORDER = (1, 0, 2)  # PyTorch r, z, n -> ONNX z, r, h


def _reorder(g: GraphContext, weight, order: tuple[int, ...]):
    """The gate blocks of ``weight`` (stacked along dim 0) in ``order``, with a leading
    direction axis of 1."""
    if isinstance(weight, torch.Tensor):  # known: reorder at export time
        blocks = weight.detach().chunk(len(order), 0)
        return g.initializer(torch.cat([blocks[i] for i in order]).unsqueeze(0).contiguous())
    rows = sizes_of(weight)[0] // len(order)
    blocks = g.op("Split", weight, g.int64s([rows] * len(order)), axis_i=0, outputs=len(order))
    return g.unsqueeze(g.op("Concat", *[blocks[i] for i in order], axis_i=0), [0])


def _bias(g: GraphContext, b_ih, b_hh, order: tuple[int, ...]):
    """ONNX's ``B`` (1, 2 * gates * hidden): input then hidden biases, reordered."""
    if b_ih is None and b_hh is None:
        return None
    if isinstance(b_ih, torch.Tensor) and isinstance(b_hh, torch.Tensor):
        parts = [b.detach().chunk(len(order)) for b in (b_ih, b_hh)]
        joined = torch.cat([p[i] for p in parts for i in order]).unsqueeze(0).contiguous()
        return g.initializer(joined)
    w = _reorder(g, b_ih, order)
    r = _reorder(g, b_hh, order)
    return g.op("Concat", w, r, axis_i=1)


def _gate_inputs(g: GraphContext, order: tuple[int, ...], w_ih, w_hh, b_ih, b_hh) -> tuple:
    """The inputs of ONNX's recurrent ops after X: W, R and B with their gate blocks in
    ``order``, and no sequence_lens (every sequence is full)."""
    return _reorder(g, w_ih, order), _reorder(g, w_hh, order), _bias(g, b_ih, b_hh, order), None


def _hidden_size(w_hh) -> int:
    return sizes_of(w_hh)[1]


@symbolic("_lstm_layer", "lstm_layer")  # core's op; the scripted nn.LSTM's node
def lstm_layer(g, input, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None):
    y, _y_h, y_c = g.op(
        "LSTM",
        input,
        *_gate_inputs(g, _LSTM_ORDER, w_ih, w_hh, b_ih, b_hh),
        g.unsqueeze(h0, [0]),
        g.unsqueeze(g.cast(c0, h0.dtype if hasattr(h0, "dtype") else None), [0]),
        hidden_size_i=_hidden_size(w_hh),
        outputs=3,
    )
    # core's layer returns the hidden states then the final cell state, stacked
    return g.op("Concat", g.squeeze(y, [1]), y_c, axis_i=0)


@symbolic("_lstm_sequence")  # core's three-output layer, which nn.LSTM calls
def lstm_sequence(g, input, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None):
    # every h_t, then the final h and c as (1, B, H) rows: ONNX's Y (squeezed of its
    # direction axis), Y_h and Y_c; None initial states are zeros, as ONNX's defaults
    gates = _gate_inputs(g, _LSTM_ORDER, w_ih, w_hh, b_ih, b_hh)
    states = [None if s is None else g.unsqueeze(s, [0]) for s in (h0, c0)]
    y, y_h, y_c = g.op("LSTM", input, *gates, *states, hidden_size_i=_hidden_size(w_hh), outputs=3)
    return g.squeeze(y, [1]), y_h, y_c


@symbolic("_gru_layer", "gru_layer")  # core's op; the scripted nn.GRU's node
def gru_layer(g, input, h0, w_ih, w_hh, b_ih=None, b_hh=None):
    gates = _gate_inputs(g, _GRU_ORDER, w_ih, w_hh, b_ih, b_hh)
    y, _y_h = g.op(
        "GRU",
        input,
        *gates,
        g.unsqueeze(h0, [0]),
        hidden_size_i=_hidden_size(w_hh),
        linear_before_reset_i=1,
        outputs=2,
    )
    return g.squeeze(y, [1])


@symbolic("_rnn_layer", "rnn_layer")  # core's op; the scripted nn.RNN's node
def rnn_layer(g, input, h0, w_ih, w_hh, b_ih=None, b_hh=None, nonlinearity="tanh"):
    gates = _gate_inputs(g, (0,), w_ih, w_hh, b_ih, b_hh)
    y, _y_h = g.op(
        "RNN",
        input,
        *gates,
        g.unsqueeze(h0, [0]),
        hidden_size_i=_hidden_size(w_hh),
        activations_s=["Relu" if nonlinearity == "relu" else "Tanh"],
        outputs=2,
    )
    return g.squeeze(y, [1])
