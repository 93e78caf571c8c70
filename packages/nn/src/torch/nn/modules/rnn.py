"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` (stacked, bidirectional, batch-first,
inter-layer dropout, LSTM projections, packed sequences) and their single-step cells.

Each step is one of core's cells (``rnn_tanh_cell``, ``lstm_cell``, ...); a layer is a
loop over time steps, and sequences of different lengths are handled by freezing each
sequence's state once its length is reached (and by reversing each sequence within its
own length for the backward direction).
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import NamedTuple

import torch

from .. import init
from ..functional._common import core, fused_op
from ..parameter import Parameter
from ..utils.rnn import PackedSequence, invert_permutation, pack_padded_sequence
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


class _Mode(NamedTuple):
    """What an RNN mode fixes: how many gate blocks its weights stack, and core's kernel
    for one step (which the cells use too)."""

    gates: int
    cell: str


_MODES = {
    "LSTM": _Mode(4, "lstm_cell"),
    "GRU": _Mode(3, "gru_cell"),
    "RNN_TANH": _Mode(1, "rnn_tanh_cell"),
    "RNN_RELU": _Mode(1, "rnn_relu_cell"),
}
_LSTM_LAYER = fused_op("_lstm_layer")
# core's LSTM layer with three outputs (output, final h, final c) as PyTorch's fused one
_LSTM_SEQUENCE = fused_op("_lstm_sequence")
_GRU_LAYER = fused_op("_gru_layer")
_RNN_LAYER = fused_op("_rnn_layer")


def _check_sizes(hidden_size, num_layers, dropout, proj_size, mode) -> None:
    if (
        not isinstance(dropout, numbers.Number)
        or not 0 <= dropout <= 1
        or isinstance(dropout, bool)
    ):
        raise ValueError(
            "dropout should be a number in range [0, 1] representing the probability of an "
            "element being zeroed"
        )
    if dropout > 0 and num_layers == 1:
        warnings.warn(
            "dropout option adds dropout after all but last recurrent layer, so non-zero "
            f"dropout expects num_layers greater than 1, but got dropout={dropout} and "
            f"num_layers={num_layers}",
            stacklevel=3,
        )
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")
    if proj_size and mode != "LSTM":
        raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")


def _reset_uniform(module) -> None:
    """PyTorch's initialisation of the recurrent layers and cells: every parameter from
    U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in parameter order."""
    bound = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for weight in module.parameters():
        init.uniform_(weight, -bound, bound)


def _reject_proj_size(kwargs: dict) -> None:
    # RNN and GRU take RNNBase's arguments through **kwargs, but projections are LSTM-only
    if "proj_size" in kwargs:
        raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")


class RNNBase(Module):
    """The state and the time loop shared by :class:`RNN`, :class:`LSTM` and
    :class:`GRU`; not used directly."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        _check_sizes(hidden_size, num_layers, dropout, proj_size, mode)
        if mode not in _MODES:
            raise ValueError(f"Unrecognized RNN mode: {mode}")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        self._flat_weights_names = []
        directions = 2 if bidirectional else 1
        gate_size = _MODES[mode].gates * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else real_hidden * directions
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                shapes = [
                    ("weight_ih", (gate_size, layer_input)),
                    ("weight_hh", (gate_size, real_hidden)),
                ]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                for name, shape in shapes:
                    setattr(self, name + suffix, Parameter(torch.empty(shape, dtype=dtype)))
                    self._flat_weights_names.append(name + suffix)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list:
        """The parameters per layer and direction, in PyTorch's order."""
        per = len(self._flat_weights_names) // (self.num_layers * (2 if self.bidirectional else 1))
        weights = self._flat_weights
        return [weights[i : i + per] for i in range(0, len(weights), per)]

    def flatten_parameters(self) -> None:
        """Kept for compatibility; the weights need no flattening here."""

    def reset_parameters(self) -> None:
        """Every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        _reset_uniform(self)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    # ---------------------------------------------------------------- the time loop

    def _layer_weights(self, layer: int, direction: int):
        suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
        names = ["weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr"]
        return [getattr(self, n + suffix, None) for n in names]

    def _step(self, x, state, weights):
        w_ih, w_hh, b_ih, b_hh, w_hr = weights
        cell = core(_MODES[self.mode].cell)
        if self.mode == "LSTM":
            h, c = cell(x, state, w_ih, w_hh, b_ih, b_hh)
            if w_hr is not None:
                h = h @ w_hr.t()
            return (h, c)
        return cell(x, state, w_ih, w_hh, b_ih, b_hh)

    @staticmethod
    def _freeze(new, old, running):
        """``new`` where the sequence is still running (``running`` is (B, 1))."""
        if running is None:
            return new
        if isinstance(new, tuple):
            return tuple(torch.where(running, n, o) for n, o in zip(new, old))
        return torch.where(running, new, old)

    def _run_direction(self, x, state, weights, lengths, reverse: bool):
        """One layer in one direction over (T, B, *) input; returns (outputs, final)."""
        steps = x.shape[0]
        if reverse:
            x = _reverse_within(x, lengths)
        fused_out = self._fused_layer(x, state, weights, lengths)
        if fused_out is not None:
            out, state = fused_out
            return (_reverse_within(out, lengths) if reverse else out), state
        state = self._zero_state_if_none(state, x)
        outputs = []
        for t in range(steps):
            running = None if lengths is None else (lengths > t).unsqueeze(1)
            new = self._step(x[t], state, weights)
            state = self._freeze(new, state, running)
            h = state[0] if isinstance(state, tuple) else state
            outputs.append(h if running is None else torch.where(running, h, 0.0))
        out = torch.stack(outputs) if outputs else x.new_zeros((0,) + tuple(x.shape[1:]))
        if reverse:
            out = _reverse_within(out, lengths)
        return out, state

    def _fused_layer(self, x, state, weights, lengths):
        """(outputs, final state) of a layer by core's fused op (one graph node, a native
        time loop), or None where it does not apply (LSTM projections, packed
        sequences)."""
        if lengths is not None:
            return None
        w_ih, w_hh, b_ih, b_hh, w_hr = weights
        if self.mode == "GRU":
            hiddens = _GRU_LAYER.function(x, state, w_ih, w_hh, b_ih, b_hh)
            return None if hiddens is None else (hiddens, hiddens[-1:])
        if self.mode in ("RNN_TANH", "RNN_RELU"):
            nonlinearity = "tanh" if self.mode == "RNN_TANH" else "relu"
            hiddens = _RNN_LAYER.function(x, state, w_ih, w_hh, b_ih, b_hh, nonlinearity)
            return None if hiddens is None else (hiddens, hiddens[-1:])
        if self.mode != "LSTM" or w_hr is not None:
            return None
        found = _LSTM_SEQUENCE.function(x, state[0], state[1], w_ih, w_hh, b_ih, b_hh)
        if found is not None:
            output, h, c = found
            return output, (h, c)
        state = self._zero_state_if_none(state, x)
        packed = _LSTM_LAYER.function(x, state[0], state[1], w_ih, w_hh, b_ih, b_hh)
        if packed is None:
            return None
        steps = x.shape[0]
        # rows 0..T-1: the hidden state after each step; row T: the final cell state. The
        # final states stay (1, B, H) slices, ready to be the rows of h_n and c_n.
        return packed[:steps], (packed[steps - 1 : steps], packed[steps:])

    def _zero_state_if_none(self, state, x):
        """An LSTM state left None by :meth:`_initial_state` as zeros (B, H) (the fused
        layer makes its own)."""
        if not isinstance(state, tuple) or state[0] is not None:
            return state
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        like = {"dtype": x.dtype, "device": x.device}
        batch = x.shape[1]
        return (
            torch.zeros(batch, real_hidden, **like),
            torch.zeros(batch, self.hidden_size, **like),
        )

    def _initial_state(self, input, hx, batch: int):
        directions = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        rows = self.num_layers * directions
        if hx is None and self.mode == "LSTM":
            return (None, None)  # zeros: made by the layers that need them
        if hx is None:
            like = {"dtype": input.dtype, "device": input.device}
            h = torch.zeros(rows, batch, real_hidden, **like)
            if self.mode == "LSTM":
                return (h, torch.zeros(rows, batch, self.hidden_size, **like))
            return h
        return hx

    def _check_hidden(self, hx, batch: int) -> None:
        if isinstance(hx, tuple) and hx[0] is None:
            return  # zeros of the right size
        directions = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        expected = [(self.num_layers * directions, batch, real_hidden)]
        tensors = [hx]
        if self.mode == "LSTM":
            tensors = list(hx)
            expected.append((self.num_layers * directions, batch, self.hidden_size))
        for tensor, shape in zip(tensors, expected):
            if tuple(tensor.shape) != shape:
                name = "Expected hidden size" if tensor is tensors[0] else "Expected hidden[1] size"
                raise RuntimeError(f"{name} {shape}, got {list(tensor.shape)}")

    def forward(self, input, hx=None):
        packed = isinstance(input, PackedSequence)
        sorted_indices = unsorted_indices = None
        if packed:
            input, lengths, sorted_indices, unsorted_indices = _unpack(input)
            batch_first = False
            if hx is not None:
                hx = _permute_hidden(hx, sorted_indices)
        else:
            lengths = None
            batch_first = self.batch_first
            if input.dim() not in (2, 3):
                raise ValueError(
                    f"{self.mode.split('_')[0]}: Expected input to be 2D or 3D, got "
                    f"{input.dim()}D tensor instead"
                )
        unbatched = not packed and input.dim() == 2
        if unbatched:
            input = input.unsqueeze(1)
            if hx is not None:
                hx = _map_hidden(hx, lambda t: t.unsqueeze(1))
        elif batch_first:
            input = input.transpose(0, 1)
        if input.shape[-1] != self.input_size:
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                f"got {input.shape[-1]}"
            )
        batch = input.shape[1]
        hx = self._initial_state(input, hx, batch)
        self._check_hidden(hx, batch)
        output, final = self._run_layers(input, hx, lengths)
        if packed:
            output = _repack(output, lengths, sorted_indices)
            final = _permute_hidden(final, unsorted_indices)
            return output, final
        if unbatched:
            output = output.squeeze(1)
            final = _map_hidden(final, lambda t: t.squeeze(1))
        elif batch_first:
            output = output.transpose(0, 1)
        return output, final

    def _run_layers(self, x, hx, lengths):
        directions = 2 if self.bidirectional else 1
        finals_h, finals_c = [], []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(directions):
                row = layer * directions + direction
                if self.mode != "LSTM":
                    state = hx[row]
                else:
                    state = (None, None) if hx[0] is None else (hx[0][row], hx[1][row])
                weights = self._layer_weights(layer, direction)
                out, state = self._run_direction(x, state, weights, lengths, direction == 1)
                outs.append(out)
                if self.mode == "LSTM":
                    finals_h.append(state[0])
                    finals_c.append(state[1])
                else:
                    finals_h.append(state)
            x = outs[0] if directions == 1 else torch.cat(outs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = core("dropout")(x, self.dropout, True)
        final_h = _rows(finals_h)
        if self.mode == "LSTM":
            return x, (final_h, _rows(finals_c))
        return x, final_h


def _as_row(state):
    """A final state as a (1, B, H) row of h_n (the fused layer's already is one)."""
    return state if state.dim() == 3 else state.unsqueeze(0)


def _rows(states):
    """h_n (or c_n) from the final state of every layer and direction: (B, H) states are
    stacked (a copy, as in PyTorch), the (1, B, H) rows of the fused layers joined."""
    if all(state.dim() == 2 for state in states):
        return torch.stack(states)
    rows = [_as_row(state) for state in states]
    return rows[0] if len(rows) == 1 else torch.cat(rows)


def _map_hidden(hx, fn):
    return tuple(fn(t) for t in hx) if isinstance(hx, tuple) else fn(hx)


def _permute_hidden(hx, permutation):
    if permutation is None:
        return hx
    return _map_hidden(hx, lambda t: t.index_select(1, permutation))


def _reverse_within(x, lengths):
    """Reverse the time dim (0) of each sequence within its own length."""
    steps = x.shape[0]
    if lengths is None:
        return x.flip(0)
    t = torch.arange(steps).unsqueeze(1)
    source = torch.where(t < lengths.unsqueeze(0), lengths.unsqueeze(0) - 1 - t, t)
    index = source.reshape(steps, -1, *([1] * (x.dim() - 2))).expand(x.shape)
    return x.gather(0, index)


def _unpack(packed):
    from ..utils.rnn import pad_packed_sequence

    sorted_indices = packed.sorted_indices
    unsorted_indices = packed.unsorted_indices
    plain = PackedSequence(packed.data, packed.batch_sizes)
    padded, lengths = pad_packed_sequence(plain)
    return padded, lengths, sorted_indices, unsorted_indices


def _repack(output, lengths, sorted_indices):
    result = pack_padded_sequence(output, lengths)
    return PackedSequence(
        result.data, result.batch_sizes, sorted_indices, invert_permutation(sorted_indices)
    )


class RNN(RNNBase):
    """Elman RNN: ``h_t = act(x_t W_ih^T + b_ih + h_(t-1) W_hh^T + b_hh)``.

    Args:
        input_size (int): features of the input.
        hidden_size (int): features of the hidden state.
        num_layers (int): stacked layers. Default: 1.
        nonlinearity (str): ``'tanh'`` or ``'relu'``. Default: ``'tanh'``.
        bias (bool): Default: ``True``.
        batch_first (bool): input and output are (N, L, *). Default: ``False``.
        dropout (float): dropout on the outputs of all but the last layer. Default: 0.
        bidirectional (bool): Default: ``False``.

    Shape:
        - Input: (L, N, H_in), (N, L, H_in) with ``batch_first``, (L, H_in), or a
          :class:`~torch.nn.utils.rnn.PackedSequence`; h_0: (D * num_layers, N, H_out).
        - Output: (L, N, D * H_out) and h_n (D * num_layers, N, H_out).

    Examples::

        >>> rnn = nn.RNN(10, 20, 2)
        >>> output, hn = rnn(torch.randn(5, 3, 10), torch.randn(2, 3, 20))
        >>> output.shape, hn.shape
        (torch.Size([5, 3, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, *args, **kwargs):
        _reject_proj_size(kwargs)
        # nonlinearity is the 4th positional argument of RNN but not of RNNBase
        if len(args) > 3:
            nonlinearity, args = args[3], args[:3] + args[4:]
        else:
            nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        self.nonlinearity = nonlinearity
        super().__init__(mode, *args, **kwargs)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """Long short-term memory, optionally with projected hidden states
    (``proj_size``).

    Args:
        input_size (int): features of the input.
        hidden_size (int): features of the cell state.
        num_layers (int): stacked layers. Default: 1.
        bias (bool): Default: ``True``.
        batch_first (bool): input and output are (N, L, *). Default: ``False``.
        dropout (float): dropout on the outputs of all but the last layer. Default: 0.
        bidirectional (bool): Default: ``False``.
        proj_size (int): if > 0, ``h_t = W_hr (o_t * tanh(c_t))`` has this size.
            Default: 0.

    Shape:
        - Input: as for :class:`RNN`; (h_0, c_0) with shapes (D * num_layers, N, H_out)
          and (D * num_layers, N, H_cell).
        - Output: (L, N, D * H_out) and (h_n, c_n).

    Examples::

        >>> lstm = nn.LSTM(10, 20, 2)
        >>> output, (hn, cn) = lstm(torch.randn(5, 3, 10))
        >>> output.shape, hn.shape, cn.shape
        (torch.Size([5, 3, 20]), torch.Size([2, 3, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    """Gated recurrent unit.

    Args:
        input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional:
            as for :class:`RNN`.

    Examples::

        >>> gru = nn.GRU(10, 20, 2, batch_first=True)
        >>> output, hn = gru(torch.randn(3, 5, 10))
        >>> output.shape, hn.shape
        (torch.Size([3, 5, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, *args, **kwargs):
        _reject_proj_size(kwargs)
        super().__init__("GRU", *args, **kwargs)


# --------------------------------------------------------------------------- cells


class RNNCellBase(Module):
    """Weights shared by the cells: ``weight_ih`` (G*H, in), ``weight_hh`` (G*H, H),
    ``bias_ih``, ``bias_hh`` (G*H), initialised from U(-1/sqrt(H), 1/sqrt(H))."""

    # each cell names core's kernel for one step (``_cell``) and how many tensors its
    # state holds (``_states``: h, or h and c)
    _states = 1

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool,
        num_chunks: int,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        gate = num_chunks * hidden_size
        self.weight_ih = Parameter(torch.empty((gate, input_size), dtype=dtype))
        self.weight_hh = Parameter(torch.empty((gate, hidden_size), dtype=dtype))
        if bias:
            self.bias_ih = Parameter(torch.empty(gate, dtype=dtype))
            self.bias_hh = Parameter(torch.empty(gate, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        _reset_uniform(self)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = getattr(self, "nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s

    def _batched(self, input, hx, states: int):
        if input.dim() not in (1, 2):
            raise ValueError(
                f"{type(self).__name__}: Expected input to be 1D or 2D, got {input.dim()}D instead"
            )
        unbatched = input.dim() == 1
        if unbatched:
            input = input.unsqueeze(0)
        batch = input.shape[0]
        if hx is None:
            zeros = torch.zeros(batch, self.hidden_size, dtype=input.dtype, device=input.device)
            hx = zeros if states == 1 else (zeros, zeros)
        elif unbatched:
            hx = _map_hidden(hx, lambda t: t.unsqueeze(0))
        if states == 2:
            hx = tuple(hx)
        return input, hx, unbatched

    def _cell_args(self):
        return (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)

    def forward(self, input, hx=None):
        input, hx, unbatched = self._batched(input, hx, self._states)
        out = core(self._cell)(input, hx, *self._cell_args())
        return _map_hidden(out, lambda t: t.squeeze(0)) if unbatched else out


class RNNCell(RNNCellBase):
    """One step of :class:`RNN`.

    Args:
        input_size (int), hidden_size (int), bias (bool, default ``True``),
        nonlinearity (str): ``'tanh'`` or ``'relu'``. Default: ``'tanh'``.

    Examples::

        >>> cell = nn.RNNCell(10, 20)
        >>> cell(torch.randn(3, 10)).shape
        torch.Size([3, 20])
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device=None,
        dtype=None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    @property
    def _cell(self) -> str:
        # read by forward after the input's checks, so a bad input is reported first
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return _MODES["RNN_" + self.nonlinearity.upper()].cell


class LSTMCell(RNNCellBase):
    """One step of :class:`LSTM`; returns ``(h_1, c_1)``.

    Examples::

        >>> h, c = nn.LSTMCell(10, 20)(torch.randn(3, 10))
        >>> h.shape, c.shape
        (torch.Size([3, 20]), torch.Size([3, 20]))
    """

    _cell = _MODES["LSTM"].cell
    _states = 2

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)


class GRUCell(RNNCellBase):
    """One step of :class:`GRU`.

    Examples::

        >>> nn.GRUCell(10, 20)(torch.randn(3, 10)).shape
        torch.Size([3, 20])
    """

    _cell = _MODES["GRU"].cell

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)
