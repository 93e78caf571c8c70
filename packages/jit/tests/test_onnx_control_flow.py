"""torch.onnx.export of scripted programs whose branches and loops depend on their
inputs: ONNX If/Loop nodes with subgraphs, run by onnxruntime on inputs that take other
branches and trip counts; the node structure compared with PyTorch 2.13's exporter
(golden/onnx_control_flow.json, tools/golden/record_onnx_control_flow.py)."""

from __future__ import annotations

import io
import warnings
from typing import List, Optional  # noqa: UP035 - TorchScript reads typing

import numpy as np
import pytest
from conftest import load_golden

import torch

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

import cases_onnx_control_flow  # noqa: E402

GOLDEN = load_golden("onnx_control_flow.json")
CASES = cases_onnx_control_flow.cases()
# where PyTorch's op sequence is the same as ours once casts and identities are left out
# (elsewhere it folds or rewrites differently: a zeros_like of a static shape, the trip
# count of range(start, stop, step), how `break` becomes the loop condition)
SAME_OPS = {"branch_on_sum", "loop_over_rows", "halve_until_small", "repeat_count",
            "recurrent_module", "nested_loops", "branches_of_other_shapes"}  # fmt: skip
_NOT_COMPARED = {"Constant", "Cast", "Identity", "Not"}
# `break` is a flag read by nested Ifs here, PyTorch folds it into the loop condition;
# PyTorch writes a short-circuit `and` as an If, here both sides are computed (And)
OTHER_NESTING = {"counter_and_break", "doubling_with_counter"}


def _script(program):
    if isinstance(program, type):
        torch.manual_seed(0)
        program = program().eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return torch.jit.script(program)


def _export(program, args, **options) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(program, args, buffer, dynamo=False, **options)
    return buffer.getvalue()


def _structure(graph) -> list:
    out = []
    for node in graph.node:
        subgraphs = {
            a.name: _structure(a.g) for a in node.attribute if a.type == onnx.AttributeProto.GRAPH
        }
        out.append([node.op_type, dict(sorted(subgraphs.items()))] if subgraphs else node.op_type)
    return out


def _without(structure: list, left_out: set) -> list:
    out = []
    for item in structure:
        if isinstance(item, list):
            out.append([item[0], {k: _without(v, left_out) for k, v in item[1].items()}])
        elif item not in left_out:
            out.append(item)
    return out


def _control_only(structure: list) -> list:
    return [[i[0], {k: _control_only(v) for k, v in i[1].items()}]
            for i in structure if isinstance(i, list)]  # fmt: skip


def _assert_same_outputs(data: bytes, program, args, names) -> None:
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    got = session.run(None, {n: a.numpy() for n, a in zip(names, args)})
    with torch.no_grad():
        want = program(*args)
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = torch.as_tensor(w).numpy()
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_control_flow_runs_in_onnxruntime(name):
    program, args, names, axes, others = CASES[name]
    scripted = _script(program)
    data = _export(scripted, args, input_names=names, dynamic_axes=axes)
    for inputs in [args, *others]:  # other branches and trip counts than the example's
        _assert_same_outputs(data, scripted, inputs, names)


@pytest.mark.parametrize("name", sorted(CASES))
def test_node_structure_as_pytorch(name):
    program, args, names, axes, _ = CASES[name]
    proto = onnx.load_from_string(
        _export(_script(program), args, input_names=names, dynamic_axes=axes)
    )
    ours, theirs = _structure(proto.graph), GOLDEN[name]["structure"]
    if name not in OTHER_NESTING:
        assert _control_only(ours) == _control_only(theirs)
    if name in SAME_OPS:
        assert _without(ours, _NOT_COMPARED) == _without(theirs, _NOT_COMPARED)
    assert [i.name for i in proto.graph.input] == GOLDEN[name]["inputs"]


def test_branches_take_the_dtype_of_the_example_branch():
    def pick(x, n):
        if n.sum() > 0:
            out = x.sum() * 2
        else:
            out = x.mean()
        return out

    scripted = _script(pick)
    data = _export(scripted, (torch.randn(3), torch.tensor([1])), input_names=["x", "n"])
    for n in (torch.tensor([1]), torch.tensor([-1])):
        _assert_same_outputs(data, scripted, (torch.randn(3), n), ["x", "n"])


def _same_flag_in_both_branches(x):
    extra: Optional[torch.Tensor] = None  # noqa: UP045 - the script subset
    scale = 2
    if x.sum() > 0:
        y = x * 2
        scale = 2
    else:
        y = x - 1
    if extra is not None:
        y = y + extra
    return y * scale


def test_values_both_branches_know_stay_python():
    scripted = _script(_same_flag_in_both_branches)
    proto = onnx.load_from_string(_export(scripted, (torch.randn(3),)))
    (if_node,) = [n for n in proto.graph.node if n.op_type == "If"]
    assert len(if_node.output) == 1  # y only: scale is 2 either way
    data = proto.SerializeToString()
    for x in (torch.randn(3).abs(), -torch.randn(3).abs()):
        _assert_same_outputs(data, scripted, (x,), ["x"])


def test_a_raising_branch_is_taken_not_to_happen():
    def checked(x):
        if x.dim() != 2:
            raise ValueError("expected a matrix")
        if x.sum() > 0:
            x = x + 1
        return x

    scripted = _script(checked)
    proto = onnx.load_from_string(_export(scripted, (torch.randn(2, 2),)))
    assert [n.op_type for n in proto.graph.node if n.op_type != "Constant"][-1] == "If"


def test_programs_without_control_flow_on_inputs_export_as_before():
    def fixed(x, flag: bool = True):
        if flag:
            x = x * 2
        for i in range(3):
            x = x + i
        return x

    scripted = _script(fixed)
    data = _export(scripted, (torch.randn(2, 3),))
    ops = [n.op_type for n in onnx.load_from_string(data).graph.node]
    assert "If" not in ops and "Loop" not in ops
    _assert_same_outputs(data, scripted, (torch.randn(2, 3),), ["x"])


def _collect(x):
    outs: List[torch.Tensor] = []  # noqa: UP006
    for i in range(x.size(0)):
        outs.append(x[i] * 2)
    return torch.stack(outs)


def _pair(x, y):
    if x.sum() > 0:
        p = (x, y)
    else:
        p = (y, x)
    return p[0] - p[1]


def _shifted_trip_count(x):
    for _ in range(x.size(0) << 1):
        x = x + 1
    return x


def _unknown_op_in_loop(x):
    for _ in range(x.size(0)):
        x = torch.kron(x, x)
    return x


@pytest.mark.parametrize(
    "program, error, words",
    [
        (_collect, torch.onnx.errors.SymbolicValueError, "'{0}.append({1})'"),
        (_pair, torch.onnx.errors.SymbolicValueError, "output 0 of prim::If"),
        (_shifted_trip_count, torch.onnx.errors.SymbolicValueError, "'{0} << {1}'"),
        (_unknown_op_in_loop, torch.onnx.errors.UnsupportedOperatorError, "'aten::kron'"),
    ],
)
def test_unsupported_constructs_are_named(program, error, words):
    args = (torch.randn(3, 2), torch.randn(3, 2))[: len(_script(program).graph.inputs)]
    with pytest.raises(error, match=words.replace("{", r"\{").replace("(", r"\(")
                       .replace(")", r"\)").replace("<", "<")):  # fmt: skip
        _export(_script(program), args)


@pytest.mark.parametrize(
    "options",
    [{"opset_version": 13}, {"opset_version": 17}, {"do_constant_folding": False}],
    ids=["opset13", "opset17", "no-folding"],
)
@pytest.mark.parametrize("name", ["recurrent_module", "halve_until_small"])
def test_opsets_and_parameters_as_initializers(name, options):
    program, args, names, axes, others = CASES[name]
    scripted = _script(program)
    data = _export(scripted, args, input_names=names, dynamic_axes=axes, **options)
    for inputs in [args, *others]:
        _assert_same_outputs(data, scripted, inputs, names)


class _LayersInControlFlow(torch.nn.Module):
    """Library layers inside input-dependent loops and branches (their scripted
    forwards are inlined into the subgraphs)."""

    def __init__(self) -> None:
        super().__init__()
        self.layer = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
        self.conv = torch.nn.Conv1d(8, 8, 3, padding=1)
        self.norm = torch.nn.LayerNorm(8)
        self.lstm = torch.nn.LSTM(8, 8, batch_first=True)

    def forward(self, x):
        for _ in range(x.size(0)):
            x = self.norm(self.layer(x))
        # (not x.sum(): after the layer norm every row sums to 0, so its sign is rounding)
        if x[..., 0].sum() > 0:
            x = self.conv(x.transpose(1, 2)).transpose(1, 2)
        y, _ = self.lstm(x)
        return y


def test_library_layers_inside_loops_and_branches():
    scripted = _script(_LayersInControlFlow)
    x = torch.randn(2, 5, 8)
    data = _export(scripted, (x,), input_names=["x"], dynamic_axes={"x": [0, 1]})
    ops = [n.op_type for n in onnx.load_from_string(data).graph.node]
    assert {"Loop", "If", "LSTM"} <= set(ops)
    for shape in ((2, 5, 8), (3, 4, 8), (1, 6, 8)):
        _assert_same_outputs(data, scripted, (torch.randn(*shape),), ["x"])
