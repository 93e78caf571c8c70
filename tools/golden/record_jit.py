"""Record PyTorch's torch.jit behaviour for packages/jit/tests (run under real PyTorch):

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_jit.py

Writes packages/jit/tests/golden/eager_api.json (the eager-mode markers and errors) and
graphs.json (printed traces and tracer warnings of the cases in
packages/jit/tests/cases_jit.py, which the tests run too).
"""

# ruff: noqa: UP006, UP045, N806, N812 - typing.List & co. are what torch.jit.isinstance is tested with
from __future__ import annotations

import json
import pathlib
import sys
import typing
import warnings

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "jit" / "tests"
sys.path.insert(0, str(TESTS))

import cases_jit  # noqa: E402


def _error(fn) -> list[str]:
    try:
        fn()
    except Exception as error:  # recorded, whatever it is
        return [type(error).__name__, str(error)]
    return ["", ""]


def eager_api() -> dict:
    J = torch.jit

    def f(x):
        return x

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        J.ignore(drop=True)
    out = {
        "modifiers": {
            "ignore": str(J.ignore(lambda x: x)._torchscript_modifier),
            "unused": str(J.unused(lambda x: x)._torchscript_modifier),
            "export": str(J.export(lambda x: x)._torchscript_modifier),
        },
        "ignore_drop_warning": [caught[0].category.__name__, str(caught[0].message)],
        "ignore_bad_arg": _error(lambda: J.ignore(3)),
        "attribute_repr": repr(J.Attribute(5, int)),
        "final_is_typing_final": J.Final is typing.Final,
        "annotate": J.annotate(typing.List[int], [1]),
        "is_scripting": J.is_scripting(),
        "is_tracing": J.is_tracing(),
        "fork_wait": J.wait(J.fork(lambda a, b: a + b, 1, 2)),
        "tracer_warning_bases": [c.__name__ for c in J.TracerWarning.__mro__],
        "error_bases": [c.__name__ for c in J.Error.__mro__],
        "interface_name": J.interface(cases_jit.Interface).__torch_script_interface__,
        "isinstance": [
            J.isinstance([1], typing.List[int]),
            J.isinstance([1.0], typing.List[int]),
            J.isinstance({"a": 1}, typing.Dict[str, int]),
            J.isinstance((1, "a"), typing.Tuple[int, str]),
            J.isinstance(None, typing.Optional[int]),
        ],
        "is_in_onnx_export": torch.onnx.is_in_onnx_export(),
        "jit_all": sorted(J.__all__),
        "onnx_all": sorted(torch.onnx.__all__),
        "trace_not_module": _error(lambda: J.trace_module(f, {"forward": torch.ones(1)})),
        "trace_bad_dict": _error(lambda: J.trace_module(torch.nn.ReLU(), ())),
        "trace_no_inputs": _error(lambda: J.trace(f)),
        "freeze_not_script": _error(lambda: J.freeze(torch.nn.ReLU())),
        "freeze_training": _error(lambda: J.freeze(J.trace(torch.nn.ReLU(), torch.ones(1)))),
        "optimize_not_script": _error(lambda: J.optimize_for_inference(torch.nn.ReLU())),
    }
    f(0)
    return out


def graphs() -> dict:
    out = {}
    for name, (fn, make_inputs) in cases_jit.TRACE_CASES.items():
        torch.manual_seed(0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            traced = torch.jit.trace(fn(), make_inputs(), check_trace=False)
        out[name] = {
            "graph": str(traced.graph),
            "warnings": [
                [w.category.__name__, str(w.message)]
                for w in caught
                if w.category.__name__ == "TracerWarning"
            ],
        }
    return out


def deprecations() -> list:
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
    return sorted({str(w.message) for w in caught if w.category is DeprecationWarning})


def script_errors() -> dict:
    out = {}
    for name, fn in cases_jit.SCRIPT_ERROR_CASES.items():
        try:
            torch.jit.script(fn)
        except Exception as error:  # recorded, whatever it is
            lines = str(error).strip("\n").splitlines()
            located = next((line.strip() for line in lines if line.strip().startswith("File ")), "")
            out[name] = [type(error).__name__, lines[0], located]
        else:
            out[name] = ["", "", ""]
    return out


def main() -> None:
    golden = TESTS / "golden"
    golden.mkdir(exist_ok=True)
    (golden / "eager_api.json").write_text(json.dumps(eager_api(), indent=1, sort_keys=True) + "\n")
    (golden / "graphs.json").write_text(json.dumps(graphs(), indent=1, sort_keys=True) + "\n")
    (golden / "deprecations.json").write_text(json.dumps(deprecations(), indent=1) + "\n")
    (golden / "script_errors.json").write_text(
        json.dumps(script_errors(), indent=1, sort_keys=True) + "\n"
    )


if __name__ == "__main__":
    main()
