"""Scripting ``nn.LSTM``, ``nn.GRU`` and ``nn.RNN``.

Their Python ``forward`` serves every case of eager mode (packed sequences, projections,
per-sequence lengths) with code outside the script subset (``zip``, lambdas, ``getattr``
with computed names, core's op registry). For a module without projections this file
writes a ``forward`` in the subset for the module's configuration (layers, directions,
``batch_first`` and the parameter names are known when scripting) and the compiler
compiles that instead; other configurations stay Python modules as before. Each layer
and direction is one node calling :func:`lstm_layer` / :func:`gru_layer` /
:func:`rnn_layer` below: core's fused layer op (the one eager mode uses), with the cell
loop where that op does not apply, so results and gradients are eager's. A scripted
forward takes a tensor input (no ``PackedSequence``), as in PyTorch.
"""

from __future__ import annotations

import linecache
from typing import Optional, Tuple  # noqa: UP035 - the annotations of the generated code

import torch
from torch import Tensor, nn
from torch._interface import ops

__all__ = ["scriptable_forward", "lstm_layer", "gru_layer", "rnn_layer"]


def _jit_op(function):
    """Mark ``function`` so the script compiler calls it as one op node."""
    function.__jit_target__ = f"{__name__}.{function.__name__}"
    return function


@_jit_op
def lstm_layer(input, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM layer over (T, B, I): (T + 1, B, H), the hidden state after each step
    then the final cell state (core's ``_lstm_layer`` layout)."""
    packed = ops["_lstm_layer"].function(input, h0, c0, w_ih, w_hh, b_ih, b_hh)
    if packed is not None:
        return packed
    h, c, hiddens = h0, c0, []
    for t in range(input.shape[0]):
        h, c = torch.lstm_cell(input[t], (h, c), w_ih, w_hh, b_ih, b_hh)
        hiddens.append(h)
    return torch.cat([torch.stack(hiddens), c.unsqueeze(0)])


@_jit_op
def gru_layer(input, h0, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU layer over (T, B, I): the hidden states (T, B, H)."""
    hiddens = ops["_gru_layer"].function(input, h0, w_ih, w_hh, b_ih, b_hh)
    if hiddens is not None:
        return hiddens
    return _cell_loop(torch.gru_cell, input, h0, w_ih, w_hh, b_ih, b_hh)


@_jit_op
def rnn_layer(input, h0, w_ih, w_hh, b_ih=None, b_hh=None, nonlinearity: str = "tanh"):
    """One Elman RNN layer over (T, B, I): the hidden states (T, B, H)."""
    hiddens = ops["_rnn_layer"].function(input, h0, w_ih, w_hh, b_ih, b_hh, nonlinearity)
    if hiddens is not None:
        return hiddens
    cell = torch.rnn_tanh_cell if nonlinearity == "tanh" else torch.rnn_relu_cell
    return _cell_loop(cell, input, h0, w_ih, w_hh, b_ih, b_hh)


def _cell_loop(cell, input, h, w_ih, w_hh, b_ih, b_hh):
    hiddens = []
    for t in range(input.shape[0]):
        h = cell(input[t], h, w_ih, w_hh, b_ih, b_hh)
        hiddens.append(h)
    return torch.stack(hiddens)


_SCRIPTABLE = (nn.LSTM, nn.GRU, nn.RNN)


def scriptable_forward(module: nn.Module):
    """A ``forward`` in the script subset for ``module`` (an RNN of ``torch.nn`` using its
    own forward, without projections), or None."""
    if type(module) not in _SCRIPTABLE or type(module).forward is not nn.RNNBase.forward:
        return None
    if getattr(module, "proj_size", 0):
        return None
    source = _forward_source(module)
    filename = f"<torch.jit scripted {type(module).__name__} {abs(hash(source)) % 10**8}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {
        "torch": torch,
        "Tensor": Tensor,
        "Optional": Optional,
        "Tuple": Tuple,  # noqa: UP006 - the annotation the generated code names
        "lstm_layer": lstm_layer,
        "gru_layer": gru_layer,
        "rnn_layer": rnn_layer,
    }
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - source written above
    return namespace["forward"]


def _forward_source(module) -> str:
    lstm = module.mode == "LSTM"
    name = module.mode.split("_")[0]
    directions = 2 if module.bidirectional else 1
    rows = module.num_layers * directions
    state = "Optional[Tuple[Tensor, Tensor]]" if lstm else "Optional[Tensor]"
    lines = [
        f"def forward(self, input, hx: {state} = None):",
        "    if input.dim() != 2 and input.dim() != 3:",
        f'        raise ValueError("{name}: Expected input to be 2D or 3D, got " + '
        'str(input.dim()) + "D tensor instead")',
        "    unbatched = input.dim() == 2",
        "    if unbatched:",
        "        x = input.unsqueeze(1)",
        "    else:",
        f"        x = {'input.transpose(0, 1)' if module.batch_first else 'input'}",
        "    if hx is None:",
        f"        h = torch.zeros({rows}, x.size(1), {module.hidden_size}, dtype=x.dtype, "
        "device=x.device)",
    ]
    if lstm:
        lines += ["        c = torch.zeros_like(h)", "    else:", "        h, c = hx"]
        lines += ["        if unbatched:", "            h = h.unsqueeze(1)"]
        lines += ["            c = c.unsqueeze(1)"]
    else:
        lines += ["    else:", "        h = hx", "        if unbatched:"]
        lines += ["            h = h.unsqueeze(1)"]
    lines.append("    steps = x.size(0)")
    finals_h, finals_c = [], []
    for layer in range(module.num_layers):
        outs = []
        for direction in range(directions):
            row = layer * directions + direction
            suffix = f"_l{layer}" + ("_reverse" if direction else "")
            weights = f"self.weight_ih{suffix}, self.weight_hh{suffix}"
            biases = f"self.bias_ih{suffix}, self.bias_hh{suffix}" if module.bias else "None, None"
            source = "x.flip(0)" if direction else "x"
            if lstm:
                call = f"lstm_layer({source}, h[{row}], c[{row}], {weights}, {biases})"
            elif module.mode == "GRU":
                call = f"gru_layer({source}, h[{row}], {weights}, {biases})"
            else:
                kind = "tanh" if module.mode == "RNN_TANH" else "relu"
                call = f"rnn_layer({source}, h[{row}], {weights}, {biases}, {kind!r})"
            lines.append(f"    p{row} = {call}")
            out = f"p{row}[:steps]"
            lines.append(f"    out{row} = {out}.flip(0)" if direction else f"    out{row} = {out}")
            outs.append(f"out{row}")
            finals_h.append(f"p{row}[steps - 1 : steps]")
            if lstm:
                finals_c.append(f"p{row}[steps:]")
        lines.append(f"    x = torch.cat([{', '.join(outs)}], 2)" if len(outs) > 1 else
                     f"    x = {outs[0]}")  # fmt: skip
        if module.dropout and layer < module.num_layers - 1:
            lines += ["    if self.training:"]
            lines += [f"        x = torch.nn.functional.dropout(x, {module.dropout!r}, True)"]
    join = "torch.cat([{}])".format
    h_n = join(", ".join(finals_h)) if len(finals_h) > 1 else finals_h[0]
    lines.append(f"    h_n = {h_n}")
    if lstm:
        c_n = join(", ".join(finals_c)) if len(finals_c) > 1 else finals_c[0]
        lines.append(f"    c_n = {c_n}")
    lines += ["    if unbatched:", "        x = x.squeeze(1)", "        h_n = h_n.squeeze(1)"]
    if lstm:
        lines.append("        c_n = c_n.squeeze(1)")
    if module.batch_first:
        lines += ["    else:", "        x = x.transpose(0, 1)"]
    lines.append("    return x, (h_n, c_n)" if lstm else "    return x, h_n")
    return "\n".join(lines) + "\n"
