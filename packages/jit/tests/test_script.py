"""torch.jit.script: functions and modules compiled from the Python AST, compared with
eager (outputs, gradients, save/load), and errors for code outside the subset."""

# ruff: noqa: UP006, UP045 - typing.List & co. are the annotations under test
from __future__ import annotations

import io
import math
from typing import Dict, List, NamedTuple, Optional, Tuple  # noqa: UP035 - the annotations under test

import cases_jit
import models_jit
import pytest
from conftest import load_golden

import torch
from torch import nn

ERRORS = load_golden("script_errors.json")


def loop_and_branch(x: torch.Tensor, n: int) -> torch.Tensor:
    for _ in range(n):
        x = x * 2
    if x.sum() > 0:
        y = x + 1
    else:
        y = x - 1
    return y


def test_loops_and_branches_follow_the_values():
    scripted = torch.jit.script(loop_and_branch)
    assert isinstance(scripted, torch.jit.ScriptFunction)
    kinds = [n.kind for n in scripted.graph.nodes]
    assert "prim::Loop" in kinds and "prim::If" in kinds
    for x, n in ((torch.ones(2), 3), (-torch.ones(2), 1), (torch.ones(2), 0)):
        torch.testing.assert_close(scripted(x, n), loop_and_branch(x, n))
    assert torch.jit.script(loop_and_branch) is scripted  # compiled once


def containers(x: torch.Tensor, bias: Optional[torch.Tensor] = None, scale: float = 2.0):
    out: List[torch.Tensor] = []
    for v in [x, x * 2]:
        out.append(v * scale)
    if bias is not None:
        out.append(bias)
    sizes: Dict[str, int] = {"n": len(out)}
    pair: Tuple[int, int] = (1, 2)
    total = 0
    i = 0
    while i < sizes["n"]:
        total += pair[i % 2]
        i += 1
    return torch.stack(out).sum(0), total


def test_containers_optional_defaults_and_while():
    scripted = torch.jit.script(containers)
    for args in ((torch.ones(2),), (torch.ones(2), torch.ones(2)), (torch.ones(2), None, 3.0)):
        got, expected = scripted(*args), containers(*args)
        torch.testing.assert_close(got[0], expected[0])
        assert got[1] == expected[1]
    assert scripted(torch.ones(2), scale=1.0)[0].tolist() == [3.0, 3.0]


def early_return(x: torch.Tensor, flag: bool):
    if flag:
        return x + 1
    if x.dim() > 1:
        raise ValueError("expected a vector")
    return torch.jit.annotate(torch.Tensor, x * 3)


def test_early_returns_and_raise():
    scripted = torch.jit.script(early_return)
    assert scripted(torch.ones(2), True).tolist() == [2.0, 2.0]
    assert scripted(torch.ones(2), False).tolist() == [3.0, 3.0]
    with pytest.raises(torch.jit.Error, match="expected a vector"):
        scripted(torch.ones(2, 2), False)


def helper(x: torch.Tensor) -> torch.Tensor:
    return torch.relu(x) * 2


def calls_helper(x: torch.Tensor) -> torch.Tensor:
    if torch.jit.is_scripting():
        return helper(x) + 1
    return helper(x)


def test_calls_compile_the_callee_and_is_scripting_is_true():
    scripted = torch.jit.script(calls_helper)
    assert "prim::CallFunction" in str(scripted.graph)
    assert "aten::relu" in str(scripted.inlined_graph)
    assert scripted(torch.tensor([-1.0, 1.0])).tolist() == [1.0, 3.0]
    assert calls_helper(torch.tensor([-1.0, 1.0])).tolist() == [0.0, 2.0]


class WithIgnored(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(3, 3)

    @torch.jit.ignore
    def python_side(self, x):
        return x * 10

    @torch.jit.unused
    def never(self, x):
        return x.numpy()

    @torch.jit.export
    def extra(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x) - 1

    def forward(self, x, use_never: bool = False):
        if use_never:
            return self.never(x)
        return self.python_side(self.fc(x))


def test_module_methods_ignore_unused_and_export():
    torch.manual_seed(0)
    model = WithIgnored()
    scripted = torch.jit.script(model)
    x = torch.randn(2, 3)
    torch.testing.assert_close(scripted(x), model(x))
    torch.testing.assert_close(scripted.extra(x), model.extra(x))
    with pytest.raises(torch.jit.Error, match="annotated to be ignored"):
        scripted(x, True)
    with pytest.raises(RuntimeError, match="Could not export Python function call"):
        torch.jit.save(scripted, io.BytesIO())


@pytest.mark.parametrize("name", sorted(models_jit.MODELS))
def test_scripted_models_match_eager_and_round_trip(name):
    model, inputs = models_jit.seeded_model(name)
    scripted = torch.jit.script(model)
    torch.manual_seed(1)
    args = inputs()
    models_jit.assert_outputs_match(scripted, model, args, rtol=1e-5, atol=1e-6)
    models_jit.assert_same_gradients(scripted, model, args, rtol=1e-5, atol=1e-6)
    buffer = io.BytesIO()
    torch.jit.save(scripted, buffer)
    buffer.seek(0)
    loaded = torch.jit.load(buffer)
    models_jit.assert_outputs_match(loaded, scripted, args)


def jumps(x: torch.Tensor, n: int):
    for i in range(n):
        if i == 1:
            continue
        if i > 4:
            break
        x = x + i
    steps = 0
    while steps < 50:
        steps += 1
        if steps % 2 == 0:
            continue
        with torch.no_grad():
            if steps > 7:
                break
        x = x * 1.5
    for v in [3, 1, 2]:
        for w in range(4):
            if w >= v:
                break
            x = x - w
        if v == 1:
            continue
        x = x + v
    return x, steps


class EarlyStop(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(3, 3) for _ in range(4)])

    def forward(self, x):
        for layer in self.layers:  # unrolled: the copies after a break are skipped
            if x.sum() > 100:
                break
            x = layer(x) * 10
        return x


def test_break_and_continue_in_loops():
    scripted = torch.jit.script(jumps)
    for n in (0, 2, 9):
        for e, g in zip(jumps(torch.ones(2), n), scripted(torch.ones(2), n)):
            torch.testing.assert_close(g, e)
    torch.manual_seed(0)
    model = EarlyStop().eval()
    early = torch.jit.script(model)
    for scale in (0.01, 50.0):
        x = torch.full((3,), scale)
        torch.testing.assert_close(early(x), model(x))
    buffer = io.BytesIO()
    torch.jit.save(early, buffer)
    buffer.seek(0)
    torch.testing.assert_close(torch.jit.load(buffer)(torch.ones(3)), model(torch.ones(3)))


RECURRENT = {
    "lstm": lambda: nn.LSTM(4, 5, 2),
    "lstm_batch_first_bidirectional": lambda: nn.LSTM(4, 5, 2, batch_first=True,
                                                      bidirectional=True),
    "gru_bidirectional": lambda: nn.GRU(4, 5, bidirectional=True),
    "rnn_relu_no_bias": lambda: nn.RNN(4, 5, 2, nonlinearity="relu", bias=False),
}  # fmt: skip


def _flat(value) -> list:
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _flat(v)]
    return [value]


@pytest.mark.parametrize("name", sorted(RECURRENT))
def test_recurrent_modules_compile_to_graphs(name):
    torch.manual_seed(0)
    model = RECURRENT[name]().eval()
    scripted = torch.jit.script(model)
    assert isinstance(scripted, torch.jit.ScriptModule)  # not kept as a Python module
    kinds = [n.kind for n in scripted.inlined_graph.all_nodes()]
    assert any(k.endswith("_layer") for k in kinds)
    for shape in ((3, 2, 4), (7, 1, 4), (5, 4)):
        x = torch.randn(*shape)
        for e, g in zip(_flat(model(x)), _flat(scripted(x))):
            torch.testing.assert_close(g, e)
    hidden = model(torch.randn(3, 2, 4))[1]
    for e, g in zip(_flat(model(torch.ones(3, 2, 4), hidden)),
                    _flat(scripted(torch.ones(3, 2, 4), hidden))):  # fmt: skip
        torch.testing.assert_close(g, e)
    with pytest.raises(torch.jit.Error, match="Expected input to be 2D or 3D"):
        scripted(torch.ones(1, 2, 3, 4))


def test_scripted_control_flow_survives_where_a_trace_does_not():
    class Gate(nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                return x * 2
            return x - 100

    scripted = torch.jit.script(Gate())
    assert scripted(torch.ones(2)).tolist() == [2.0, 2.0]
    assert scripted(-torch.ones(2)).tolist() == [-101.0, -101.0]


def test_compilation_unit_from_source():
    unit = torch.jit.CompilationUnit(
        """
def twice(x):
    return x * 2

def plus_twice(x, y: int):
    return twice(x) + y
"""
    )
    assert unit.plus_twice(torch.ones(2), 3).tolist() == [5.0, 5.0]
    assert [f.name for f in unit.get_functions()] == ["twice", "plus_twice"]


def _from_file_name(located: str) -> str:
    """``File "/any/folder/cases_jit.py", line 93`` -> ``cases_jit.py", line 93``."""
    return located.rsplit("/", 1)[-1]


@pytest.mark.parametrize("name", sorted(cases_jit.SCRIPT_ERROR_CASES))
def test_errors_outside_the_subset_match_pytorch(name):
    with pytest.raises(Exception) as error:
        torch.jit.script(cases_jit.SCRIPT_ERROR_CASES[name])
    lines = str(error.value).strip("\n").splitlines()
    located = next((line.strip() for line in lines if line.strip().startswith("File ")), "")
    kind, first, where = ERRORS[name]
    # the file's folder is where the goldens were recorded: compare from its name on
    assert [type(error.value).__name__, lines[0]] == [kind, first]
    assert _from_file_name(located) == _from_file_name(where)
    assert "<--- HERE" in str(error.value)


def test_frontend_error_classes():
    from torch.jit import frontend

    assert issubclass(frontend.UnsupportedNodeError, frontend.NotSupportedError)
    assert issubclass(frontend.NotSupportedError, frontend.FrontendError)


@torch.jit.script_if_tracing
def _clip_if_positive(x):
    if x.sum() > 0:
        return x.clamp(max=1.0)
    return x


def test_script_if_tracing_keeps_control_flow_in_a_trace():
    traced = torch.jit.trace(lambda x: _clip_if_positive(x) * 2, torch.ones(2))
    assert "prim::CallFunction" in str(traced.graph)
    assert traced(torch.full((2,), 3.0)).tolist() == [2.0, 2.0]
    assert traced(torch.full((2,), -3.0)).tolist() == [-6.0, -6.0]
    buffer = io.BytesIO()
    torch.jit.save(traced, buffer)
    buffer.seek(0)
    assert torch.jit.load(buffer)(torch.full((2,), -3.0)).tolist() == [-6.0, -6.0]


def test_scripted_submodule_inside_a_trace():
    class Outer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.gate = torch.jit.script(cases_jit._LinearRelu())

        def forward(self, x):
            return self.gate(x) + 1

    torch.manual_seed(0)
    model = Outer()
    traced = torch.jit.trace(model, torch.randn(2, 4))
    assert traced.gate is model.gate
    x = torch.randn(3, 4)
    torch.testing.assert_close(traced(x), model(x))


class OldStyle(torch.jit.ScriptModule):
    """PyTorch 1.0's way: a ScriptModule subclass with script methods."""

    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.arange(6.0).reshape(2, 3))

    @torch.jit.script_method
    def forward(self, x):
        return self.weight.mv(x)


def test_script_module_subclass_with_script_methods():
    model = OldStyle()
    assert model(torch.ones(3)).tolist() == [3.0, 12.0]
    assert "aten::mv" in str(model.graph)
    assert [n for n, _ in model.named_parameters()] == ["weight"]


def _round_int(x: int) -> float:
    return round(x)


def _round_float(x: float) -> float:
    return round(x) + 1


def _round_tensor(t: torch.Tensor) -> torch.Tensor:
    return round(t)


def _round_digits(x: float) -> float:
    return round(x, 2)


def test_round_is_torchscripts_one_argument_round():
    # as PyTorch 2.13: numbers round half to even into floats, tensors through torch.round
    assert repr(torch.jit.script(_round_int)(3)) == "3.0"
    assert repr(torch.jit.script(_round_float)(2.5)) == "3.0"
    assert torch.equal(
        torch.jit.script(_round_tensor)(torch.tensor([1.5, 2.5])), torch.tensor([2.0, 2.0])
    )
    with pytest.raises(RuntimeError, match="Arguments for call are not valid"):
        torch.jit.script(_round_digits)


def test_deprecation_warnings_are_attributed_inside_torch():
    # PyTorch's come from torch.jit itself, so Python's default filters hide them from
    # scripts; a warning attributed to the caller's line would show
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.jit.script(_round_int)
    (warning,) = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert "torch/jit" in warning.filename.replace("\\", "/")


def _math_mix(a: float, b: int) -> float:
    y = math.sqrt(a) + math.exp(-a) + math.atan2(a, 1.0) + math.log1p(a) + math.fmod(a, 0.7)
    if math.isnan(y) or math.isinf(y):
        return 0.0
    return y + math.floor(a) * b + math.ceil(a) + math.gcd(b, 6) + math.pi


def test_math_module_functions_compile_with_torchscripts_result_types():
    scripted = torch.jit.script(_math_mix)
    for a, b in ((2.5, 3), (0.25, 4)):
        assert scripted(a, b) == _math_mix(a, b)
    floor = torch.jit.script(_floor_of)
    assert floor(2.7) == 2 and floor.graph.outputs[0].type == torch.jit._ir.INT


def _floor_of(x: float) -> int:
    return math.floor(x)


class _Pair(NamedTuple):
    a: torch.Tensor
    b: int


def _make_pair(x: torch.Tensor) -> _Pair:
    return _Pair(x * 2, x.dim())


def _use_pair(p: _Pair) -> torch.Tensor:
    return p.a * p.b + p[0]


def test_named_tuples_are_built_and_read_by_field():
    made = torch.jit.script(_make_pair)(torch.ones(2))
    assert type(made) is _Pair and made.b == 1 and made.a.tolist() == [2.0, 2.0]
    assert torch.jit.script(_use_pair)(_Pair(torch.ones(2), 3)).tolist() == [4.0, 4.0]


def _checked(x: torch.Tensor) -> torch.Tensor:
    assert x.dim() == 1, "need 1-d"
    return x


def test_a_failed_assert_raises_torchscripts_error():
    # as TorchScript: torch.jit.Error (not AssertionError), the failing line, then the kind
    with pytest.raises(torch.jit.Error, match=r"(?s)in _checked.*AssertionError: need 1-d"):
        torch.jit.script(_checked)(torch.ones(2, 2))


class _Keyed(nn.Module):
    def __init__(self):
        super().__init__()
        self.acts = nn.ModuleDict({"relu": nn.ReLU(), "neg": nn.Identity()})
        self.layers = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2)])

    def forward(self, x, totals: Dict[str, float]):
        x = self.acts["relu"](self.layers[-1](self.layers[0](x)))
        for key, value in totals.items():
            x = x + value * len(key)
        return x


def test_module_dict_and_list_items_by_constant_key_and_dict_items_loops():
    module = _Keyed()
    x = torch.randn(3, 2)
    totals = {"a": 1.0, "bb": 0.5}
    torch.testing.assert_close(torch.jit.script(module)(x, totals), module(x, totals))
