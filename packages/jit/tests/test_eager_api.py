"""The eager-mode API of torch.jit against PyTorch 2.13's recorded behaviour."""

# ruff: noqa: UP006, UP045, N806, N812 - typing.List & co. are what torch.jit.isinstance is tested with
from __future__ import annotations

import typing
import warnings

import cases_jit
import pytest
from conftest import load_golden

import torch
import torch.jit as J

GOLDEN = load_golden("eager_api.json")


def test_modifiers_tag_and_return_the_function():
    def f(x):
        return x

    assert J.ignore(f) is f
    assert str(f._torchscript_modifier) == GOLDEN["modifiers"]["ignore"]
    assert str(J.unused(lambda x: x)._torchscript_modifier) == GOLDEN["modifiers"]["unused"]
    assert str(J.export(lambda x: x)._torchscript_modifier) == GOLDEN["modifiers"]["export"]


def test_ignore_drop_warns_and_bad_argument_raises():
    with pytest.warns(FutureWarning) as caught:
        decorator = J.ignore(drop=True)
    assert [caught[0].category.__name__, str(caught[0].message)] == GOLDEN["ignore_drop_warning"]
    assert str(decorator(lambda: 1)._torchscript_modifier) == GOLDEN["modifiers"]["unused"]
    with pytest.raises(RuntimeError) as error:
        J.ignore(3)
    assert [type(error.value).__name__, str(error.value)] == GOLDEN["ignore_bad_arg"]


def test_unused_runs_eagerly_and_tags_properties():
    @J.unused
    def boom(x):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        boom(1)

    class P:
        @J.unused
        @property
        def p(self):
            return 3

    assert P().p == 3


def test_annotations_and_attribute():
    assert repr(J.Attribute(5, int)) == GOLDEN["attribute_repr"]
    assert (J.Final is typing.Final) == GOLDEN["final_is_typing_final"]
    assert J.annotate(typing.List[int], [1]) == GOLDEN["annotate"]


def test_state_flags():
    assert J.is_scripting() == GOLDEN["is_scripting"]
    assert J.is_tracing() == GOLDEN["is_tracing"]
    assert torch.onnx.is_in_onnx_export() == GOLDEN["is_in_onnx_export"]


def test_is_tracing_inside_a_trace():
    seen = []

    def f(x):
        seen.append(J.is_tracing())
        return x + 1

    J.trace(f, torch.ones(2), check_trace=False)
    assert seen == [True]
    assert not J.is_tracing()


def test_fork_wait_and_future():
    assert J.wait(J.fork(lambda a, b: a + b, 1, 2)) == GOLDEN["fork_wait"]
    failing = J.fork(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        J.wait(failing)
    chained = J.fork(lambda: 2).then(lambda fut: fut.wait() * 10)
    assert chained.wait() == 20


def test_exception_classes():
    assert [c.__name__ for c in J.TracerWarning.__mro__] == GOLDEN["tracer_warning_bases"]
    assert [c.__name__ for c in J.Error.__mro__] == GOLDEN["error_bases"]


def test_interface_and_isinstance():
    assert J.interface(cases_jit.Interface).__torch_script_interface__ == GOLDEN["interface_name"]
    got = [
        J.isinstance([1], typing.List[int]),
        J.isinstance([1.0], typing.List[int]),
        J.isinstance({"a": 1}, typing.Dict[str, int]),
        J.isinstance((1, "a"), typing.Tuple[int, str]),
        J.isinstance(None, typing.Optional[int]),
    ]
    assert got == GOLDEN["isinstance"]


def test_public_names():
    assert sorted(J.__all__) == GOLDEN["jit_all"]
    assert sorted(torch.onnx.__all__) == GOLDEN["onnx_all"]
    for name in ("_overload", "_overload_method", "_script_if_tracing", "ScriptModule",
                 "TracerWarning", "script_method", "is_tracing"):  # fmt: skip
        assert hasattr(J, name), name


def test_script_if_tracing_runs_eagerly():
    @J.script_if_tracing
    def twice(x):
        return x * 2

    assert twice(3) == 6
    assert twice.__name__ == "twice"
    assert getattr(twice, "__original_fn")(4) == 8


def test_overload_declarations_leave_the_implementation():
    @J._overload
    def f(x: int) -> int: ...

    def f(x):  # noqa: F811 - the implementation of the overloads
        return x

    assert f(3) == 3


@pytest.mark.parametrize(
    "key, call",
    [
        ("trace_not_module", lambda: J.trace_module(lambda x: x, {"forward": torch.ones(1)})),
        ("trace_bad_dict", lambda: J.trace_module(torch.nn.ReLU(), ())),
        ("trace_no_inputs", lambda: J.trace(lambda x: x)),
    ],
)
def test_bad_arguments(key, call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as error:
            call()
    assert [type(error.value).__name__, str(error.value)] == GOLDEN[key]


def test_deprecation_warnings_match_pytorch():
    import io

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        def f(x):
            return x

        torch.jit.script(f)
        traced = torch.jit.trace(torch.nn.ReLU(), torch.ones(1)).eval()
        torch.jit.trace(f, torch.ones(1))
        torch.jit.freeze(traced)
        buffer = io.BytesIO()
        torch.jit.save(traced, buffer)
        buffer.seek(0)
        torch.jit.load(buffer)
    got = sorted({str(w.message) for w in caught if w.category is DeprecationWarning})
    assert got == load_golden("deprecations.json")
