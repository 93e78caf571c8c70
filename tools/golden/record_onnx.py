"""Record PyTorch's torch.onnx behaviour for packages/jit/tests/test_onnx.py (run under
real PyTorch with the ``onnx`` package importable; the reference interpreter has none,
so install it into a folder of its own and put that on the path):

    uv pip install --python ~/.cache/ptdiff/ref/bin/python --target /tmp/onnxref \\
        --no-deps onnx protobuf ml_dtypes
    PYTHONPATH=/tmp/onnxref ~/.cache/ptdiff/ref/bin/python tools/golden/record_onnx.py

Writes packages/jit/tests/golden/onnx.json: for the models of
packages/jit/tests/cases_onnx.py's GOLDEN_MODELS exported with ``dynamo=False``, the op
types (Constant nodes left out), initializer names, opset and output shapes; the
messages of the errors the tests compare; export's parameter names.
"""

from __future__ import annotations

import inspect
import io
import json
import pathlib
import sys
import warnings

import onnx

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "jit" / "tests"
sys.path.insert(0, str(TESTS))

import cases_onnx  # noqa: E402

warnings.simplefilter("ignore")


def _error(fn) -> list[str]:
    try:
        fn()
    except Exception as error:  # recorded, whatever it is
        return [type(error).__name__, str(error).split("\n")[0]]
    return ["", ""]


def _export(model, args, **options) -> onnx.ModelProto:
    buffer = io.BytesIO()
    torch.onnx.export(model, args, buffer, dynamo=False, **options)
    return onnx.load_from_string(buffer.getvalue())


def _summary(proto: onnx.ModelProto) -> dict:
    def shape(value):
        dims = value.type.tensor_type.shape.dim
        return [d.dim_param or d.dim_value for d in dims]

    return {
        "op_types": [n.op_type for n in proto.graph.node if n.op_type != "Constant"],
        "initializers": sorted(i.name for i in proto.graph.initializer),
        "opset": proto.opset_import[0].version,
        "producer_name": proto.producer_name,
        "input_shapes": [shape(v) for v in proto.graph.input],
        "output_shapes": [shape(v) for v in proto.graph.output],
    }


def models() -> dict:
    out = {}
    for name, (make, inputs, options) in cases_onnx.GOLDEN_MODELS.items():
        torch.manual_seed(0)
        out[name] = _summary(_export(make().eval(), inputs(), **options))
    return out


def errors() -> dict:
    lin = torch.nn.Linear(3, 2)
    x = torch.randn(2, 3)
    kron = cases_onnx.Fn(lambda a: torch.kron(a, a))
    return {
        "unsupported_kron_17": _error(lambda: _export(kron, (x,), opset_version=17)),
        "unsupported_kron_13": _error(lambda: _export(kron, (x,), opset_version=13)),
        "bad_symbolic_name": _error(
            lambda: torch.onnx.register_custom_op_symbolic("relu", lambda g, x: x, 13)
        ),
        "unknown_dynamic_axes_key": _warning(
            lambda: _export(lin, (x,), input_names=["x"], dynamic_axes={"nope": [0]})
        ),
    }


def _warning(fn) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught if "dynamic axes" in str(w.message)]


def main() -> None:
    golden = {
        "models": models(),
        "errors": errors(),
        "export_parameters": list(inspect.signature(torch.onnx.export).parameters),
        "training_modes": list(torch.onnx.TrainingMode.__members__),
        "operator_export_types": list(torch.onnx.OperatorExportTypes.__members__),
        "error_bases": [c.__name__ for c in torch.onnx.errors.UnsupportedOperatorError.__mro__],
    }
    path = TESTS / "golden" / "onnx.json"
    path.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
