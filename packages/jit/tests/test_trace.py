"""torch.jit.trace: graphs and warnings against PyTorch's, and traced models against eager
(outputs and gradients, other batch sizes)."""

from __future__ import annotations

import re
import warnings

import cases_jit
import models_jit
import pytest
from conftest import load_golden

import torch
from torch import nn

GRAPHS = load_golden("graphs.json")
_SKIPPED_KINDS = {"prim::Constant", "prim::ListConstruct"}


def _structure(graph_text: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The input lines of a printed graph and its (node kind, output type) sequence,
    without constants, list constructions, source comments or scopes."""
    text = re.sub(r"( # .*|, scope: .*)$", "", graph_text, flags=re.M)
    header, _, body = text.partition("):\n")
    nodes = []
    for line in body.splitlines():
        match = re.match(r"\s+%[\w.]+ : (.*?) = ([a-z]+::\w+)", line)
        if match and match.group(2) not in _SKIPPED_KINDS:
            nodes.append((match.group(2), match.group(1)))
    return header.splitlines(), nodes


@pytest.mark.parametrize("name", sorted(cases_jit.TRACE_CASES))
def test_graph_and_warnings_match_pytorch(name):
    make, inputs = cases_jit.TRACE_CASES[name]
    torch.manual_seed(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        traced = torch.jit.trace(make(), inputs(), check_trace=False)
    expected = GRAPHS[name]
    assert _structure(str(traced.graph)) == _structure(expected["graph"])
    got = [[w.category.__name__, str(w.message)] for w in caught
           if w.category is torch.jit.TracerWarning]  # fmt: skip
    assert got == expected["warnings"]


def test_graph_is_ssa_and_typed():
    traced = torch.jit.trace(lambda x, y: (x * torch.sigmoid(x) + y).sum(1),
                             (torch.ones(3, 4), torch.ones(3, 4)))  # fmt: skip
    graph = traced.graph
    graph.lint()
    assert [v.name for v in graph.inputs] == ["x", "y"]
    assert str(graph.outputs[0].type) == "Float(3, strides=[1], requires_grad=0, device=cpu)"
    assert "aten::sigmoid" in str(graph)


@pytest.mark.parametrize("name", sorted(models_jit.MODELS))
def test_traced_model_matches_eager_outputs_and_gradients(name):
    model, inputs = models_jit.seeded_model(name)
    traced = torch.jit.trace(model, inputs())
    torch.manual_seed(1)
    args = inputs()
    models_jit.assert_outputs_match(traced, model, args, rtol=1e-5, atol=1e-6)
    # the same parameters receive the same gradients through the graph
    models_jit.assert_same_gradients(traced, model, args, rtol=1e-5, atol=1e-6)


def test_traced_module_runs_other_batch_sizes():
    torch.manual_seed(0)
    model = models_jit.LeNet().eval()
    traced = torch.jit.trace(model, torch.randn(1, 1, 28, 28))
    x = torch.randn(5, 1, 28, 28)
    torch.testing.assert_close(traced(x), model(x))


def test_input_gradients_flow_through_the_graph():
    traced = torch.jit.trace(lambda x: (x * torch.sigmoid(x)).sum(), torch.ones(3))
    x = torch.randn(3, requires_grad=True)
    traced(x).backward()
    expected = torch.sigmoid(x) * (1 + x * (1 - torch.sigmoid(x)))
    torch.testing.assert_close(x.grad, expected.detach())


def test_submodules_have_their_own_traces_and_inlined_graph():
    torch.manual_seed(0)
    model = cases_jit._LinearRelu()
    traced = torch.jit.trace(model, torch.ones(2, 4))
    assert isinstance(traced, torch.jit._trace.TopLevelTracedModule)
    assert isinstance(traced.fc, torch.jit._trace.TracedModule)
    assert "prim::CallMethod" in str(traced.graph)
    assert "aten::linear" in str(traced.fc.graph)
    inlined = str(traced.inlined_graph)
    assert "prim::CallMethod" not in inlined and "aten::linear" in inlined
    assert "def forward(self" in traced.code
    assert traced.fc.weight is model.fc.weight


def test_check_trace_warns_when_trace_does_not_generalise():
    def f(x):
        return x * float(x.sum())

    with pytest.warns(torch.jit.TracerWarning):
        torch.jit.trace(f, torch.ones(2), check_inputs=[(torch.arange(2.0),)])


def test_strict_refuses_list_outputs():
    with pytest.raises(RuntimeError, match="Encountering a list at the output"):
        torch.jit.trace(lambda x: [x + 1], torch.ones(2))
    traced = torch.jit.trace(lambda x: [x + 1], torch.ones(2), strict=False)
    assert isinstance(traced(torch.ones(2)), list)


def test_tuple_inputs_and_keyword_calls():
    def f(pair, scale):
        a, b = pair
        return a * scale + b

    traced = torch.jit.trace(f, ((torch.ones(2), torch.ones(2)), torch.full((2,), 3.0)))
    out = traced((torch.ones(2), torch.zeros(2)), torch.full((2,), 2.0))
    assert out.tolist() == [2.0, 2.0]


def test_tensors_from_outside_become_constants():
    table = torch.tensor([1.0, 2.0])
    traced = torch.jit.trace(lambda x: x + table, torch.zeros(2))
    assert "prim::Constant" in str(traced.graph)
    assert traced(torch.ones(2)).tolist() == [2.0, 3.0]


def test_iterating_a_tensor_warns():
    def f(x):
        return sum(row for row in x)

    with pytest.warns(torch.jit.TracerWarning, match="Iterating over a tensor"):
        traced = torch.jit.trace(f, torch.ones(3, 2), check_trace=False)
    assert traced(torch.ones(3, 2)).tolist() == [3.0, 3.0]


def test_interception_is_removed_after_a_trace():
    add = torch.Tensor.__add__
    torch.jit.trace(lambda x: x + 1, torch.ones(1))
    assert torch.Tensor.__add__ is add
    with pytest.raises(ValueError):
        torch.jit.trace(lambda x: (_ for _ in ()).throw(ValueError("inside")), torch.ones(1))
    assert torch.Tensor.__add__ is add and not torch.jit.is_tracing()


def test_trace_of_a_script_module_is_a_no_op():
    traced = torch.jit.trace(nn.ReLU(), torch.ones(1))
    with pytest.warns(UserWarning, match="already a ScriptModule"):
        assert torch.jit.trace(traced, torch.ones(1)) is traced


def test_sizes_are_recorded_so_traces_follow_the_input():
    def f(x):
        return x.view(x.size(0), -1) * x.shape[1] + x.size(0) * 2

    traced = torch.jit.trace(f, torch.ones(2, 3, 4))
    kinds = [n.kind for n in traced.graph.nodes]
    assert "aten::size" in kinds
    x = torch.randn(5, 3, 4)
    torch.testing.assert_close(traced(x), f(x))


def test_slices_bounded_by_sizes_follow_the_input():
    def f(x):
        n = x.size(0)
        return x[: n - 1] + x[1:n], x[:, x.size(1) // 2 :]

    traced = torch.jit.trace(f, torch.randn(4, 6))
    assert "prim::SliceConstruct" in [n.kind for n in traced.graph.nodes]
    for shape in ((7, 6), (2, 10)):
        x = torch.randn(*shape)
        for got, expected in zip(traced(x), f(x)):
            torch.testing.assert_close(got, expected)


@pytest.mark.parametrize("batch_first", [False, True])
def test_traced_lstm_language_model_follows_the_sequence_length(batch_first):
    torch.manual_seed(0)
    model = models_jit.LSTMLanguageModel().eval()
    model.rnn.batch_first = batch_first
    tokens, h0, c0 = models_jit.MODELS["lstm_lm"][1]()
    traced = torch.jit.trace(model, (tokens.t() if batch_first else tokens, h0, c0))
    for steps in (2, 11):
        tokens = torch.randint(0, 50, (3, steps) if batch_first else (steps, 3))
        for got, expected in zip(traced(tokens, h0, c0), model(tokens, h0, c0)):
            torch.testing.assert_close(got, expected)


def test_traced_int_is_a_plain_int_after_the_trace():
    sizes = []

    def f(x):
        sizes.append(x.size(0))
        return x + 1

    torch.jit.trace(f, torch.ones(3), check_trace=False)
    assert sizes == [3] and sizes[0] + 1 == 4 and type(sizes[0] + 1) is int
