"""torch.onnx.export: exported models run in onnxruntime with our outputs; the exporter's
arguments, errors and custom symbolics; comparisons with PyTorch 2.13's exporter
(golden/onnx.json, tools/golden/record_onnx.py)."""

from __future__ import annotations

import io
import subprocess
import sys
import warnings
from typing import Optional

import numpy as np
import pytest
from conftest import load_golden

import torch

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

import cases_onnx  # noqa: E402
from models_jit import MODELS  # noqa: E402

GOLDEN = load_golden("onnx.json")
LATEST = onnx.defs.onnx_opset_version()
OPSETS = [13, 17, LATEST]
pytestmark = pytest.mark.filterwarnings("ignore::torch.jit.TracerWarning")


# ------------------------------------------------------------------------- helpers


def _randomize_batch_norm(model: torch.nn.Module) -> torch.nn.Module:
    """Running statistics and affine parameters away from their defaults, so that
    folding batch norm into convolution is checked for real."""
    generator = torch.Generator().manual_seed(1)
    for module in model.modules():
        if isinstance(module, (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d)):
            n = module.num_features
            with torch.no_grad():
                module.running_mean.copy_(torch.randn(n, generator=generator) * 0.1)
                module.running_var.copy_(torch.rand(n, generator=generator) + 0.5)
                module.weight.copy_(torch.rand(n, generator=generator) + 0.5)
                module.bias.copy_(torch.randn(n, generator=generator) * 0.1)
    return model


def _export(model, args, **options) -> bytes:
    buffer = io.BytesIO()
    options.setdefault("dynamo", False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, args, buffer, **options)
    return buffer.getvalue()


def _flatten(value) -> list:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _flatten(v)]
    return []


def _run(data: bytes, args, names=None) -> list:
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    names = names or [i.name for i in session.get_inputs()]
    return session.run(None, {n: a.numpy() for n, a in zip(names, args)})


def _assert_matches(data: bytes, model, args, names=None) -> None:
    """onnxruntime's outputs equal ours (1e-5 relative; 1e-6 absolute near zero)."""
    outputs = _run(data, args, names)
    with torch.no_grad():
        expected = _flatten(model(*args))
    assert len(outputs) == len(expected)
    for got, want in zip(outputs, expected):
        want = want.numpy()
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------- the five models


@pytest.mark.parametrize("opset", OPSETS)
@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_runs_in_onnxruntime(name, opset):
    torch.manual_seed(0)
    make, inputs = MODELS[name]
    model = _randomize_batch_norm(make().eval())
    args = inputs()
    data = _export(model, args, opset_version=opset)
    proto = onnx.load_from_string(data)
    onnx.checker.check_model(proto, full_check=True)
    assert proto.opset_import[0].version == opset
    _assert_matches(data, model, args)


DYNAMIC = {
    "lenet": (["x"], {"x": {0: "batch"}}, lambda b: (torch.randn(b, 1, 28, 28),)),
    "digits_cnn": (["x"], {"x": [0]}, lambda b: (torch.randn(b, 1, 8, 8),)),
    "resnet_block": (
        ["x"],
        {"x": {0: "batch", 2: "height"}},
        lambda b: (torch.randn(b, 8, 4 + b, 6),),
    ),
    "transformer": (
        ["src"],
        {"src": {0: "batch", 1: "seq"}},
        lambda b: (torch.randn(b, 2 + b, 16),),
    ),
    "lstm_lm": (
        ["tokens", "h0", "c0"],
        {"tokens": {0: "seq", 1: "batch"}, "h0": {1: "batch"}, "c0": {1: "batch"}},
        # the sequence length changes too: the LSTM's slices follow the recorded sizes
        lambda b: (
            torch.randint(0, 50, (3 + b, b)),
            torch.randn(2, b, 16),
            torch.randn(2, b, 16),
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_dynamic_axes_two_batch_sizes(name):
    torch.manual_seed(0)
    names, axes, inputs = DYNAMIC[name]
    model = _randomize_batch_norm(MODELS[name][0]().eval())
    data = _export(model, inputs(2), input_names=names, dynamic_axes=axes)
    proto = onnx.load_from_string(data)
    first = proto.graph.input[0].type.tensor_type.shape.dim
    for axis, label in axes[names[0]].items() if isinstance(axes[names[0]], dict) else []:
        assert first[axis].dim_param == label
    for batch in (1, 5):
        _assert_matches(data, model, inputs(batch), names)


# ------------------------------------------------------------------ op coverage


@pytest.mark.parametrize("opset", [13, LATEST])
@pytest.mark.parametrize("name", sorted(cases_onnx.OP_CASES))
def test_op_case(name, opset):
    torch.manual_seed(0)
    make, inputs = cases_onnx.OP_CASES[name]
    model = _randomize_batch_norm(make().eval())
    args = inputs()
    _assert_matches(_export(model, args, opset_version=opset), model, args)


def test_layer_norm_is_one_op_from_opset_17():
    model, args = torch.nn.LayerNorm(4), (torch.randn(2, 4),)
    types = {}
    for opset in (16, 17):
        proto = onnx.load_from_string(_export(model, args, opset_version=opset))
        types[opset] = [n.op_type for n in proto.graph.node]
    assert "LayerNormalization" in types[17] and "LayerNormalization" not in types[16]


def test_lstm_and_gru_are_onnx_recurrent_ops():
    for module, op_type in ((torch.nn.LSTM(4, 5), "LSTM"), (torch.nn.GRU(4, 5), "GRU")):
        proto = onnx.load_from_string(_export(module, (torch.randn(3, 2, 4),)))
        assert op_type in [n.op_type for n in proto.graph.node]


def test_constant_folding_off_and_parameters_as_inputs():
    torch.manual_seed(0)
    model = cases_onnx.OP_CASES["linear_3d"][0]().eval()
    args = (torch.randn(2, 5, 4),)
    unfolded = _export(model, args, do_constant_folding=False)
    assert "Transpose" in [n.op_type for n in onnx.load_from_string(unfolded).graph.node]
    _assert_matches(unfolded, model, args)
    as_inputs = onnx.load_from_string(_export(model, args, export_params=False))
    assert not as_inputs.graph.initializer
    assert [i.name for i in as_inputs.graph.input][1:] == ["weight", "bias"]
    kept = onnx.load_from_string(_export(model, args, keep_initializers_as_inputs=True))
    assert {t.name for t in kept.graph.initializer} <= {i.name for i in kept.graph.input}


# ----------------------------------------------------- goldens of PyTorch 2.13


def _summary(proto) -> dict:
    def shape(value):
        return [d.dim_param or d.dim_value for d in value.type.tensor_type.shape.dim]

    return {
        "op_types": [n.op_type for n in proto.graph.node if n.op_type not in ("Constant",
                                                                                  "Identity")],
        "initializers": sorted(i.name for i in proto.graph.initializer
                               if not i.name.startswith("onnx::") and ".bn_folded" not in i.name),
        "opset": proto.opset_import[0].version,
        "producer_name": proto.producer_name,
        "input_shapes": [shape(v) for v in proto.graph.input],
        "output_shapes": [shape(v) for v in proto.graph.output],
    }  # fmt: skip


@pytest.mark.parametrize("name", sorted(cases_onnx.GOLDEN_MODELS))
def test_export_matches_pytorch(name):
    make, inputs, options = cases_onnx.GOLDEN_MODELS[name]
    torch.manual_seed(0)
    ours = _summary(onnx.load_from_string(_export(make().eval(), inputs(), **options)))
    golden = dict(GOLDEN["models"][name])
    golden["op_types"] = [t for t in golden["op_types"] if t != "Identity"]
    golden["initializers"] = [i for i in golden["initializers"] if not i.startswith("onnx::")]
    assert ours == golden


def _error(fn) -> list[str]:
    try:
        fn()
    except Exception as error:
        return [type(error).__name__, str(error).split("\n")[0]]
    return ["", ""]


def test_unsupported_operator_error_matches_pytorch():
    kron = cases_onnx.Fn(lambda a: torch.kron(a, a))
    x = torch.randn(2, 3)
    for opset in (13, 17):
        got = _error(lambda opset=opset: _export(kron, (x,), opset_version=opset))
        assert got == GOLDEN["errors"][f"unsupported_kron_{opset}"]
    assert GOLDEN["error_bases"] == [
        c.__name__ for c in torch.onnx.errors.UnsupportedOperatorError.__mro__
    ]


def test_bad_symbolic_name_and_dynamic_axes_key_match_pytorch():
    got = _error(lambda: torch.onnx.register_custom_op_symbolic("relu", lambda g, x: x, 13))
    assert got == GOLDEN["errors"]["bad_symbolic_name"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _export(torch.nn.Linear(3, 2), (torch.randn(2, 3),), input_names=["x"],
                dynamic_axes={"nope": [0]})  # fmt: skip
    messages = [str(w.message) for w in caught if "dynamic axes" in str(w.message)]
    assert messages == GOLDEN["errors"]["unknown_dynamic_axes_key"][:1]


def test_export_signature_and_enums_match_pytorch():
    import inspect

    assert list(inspect.signature(torch.onnx.export).parameters) == GOLDEN["export_parameters"]
    assert list(torch.onnx.TrainingMode.__members__) == GOLDEN["training_modes"]
    assert list(torch.onnx.OperatorExportTypes.__members__) == GOLDEN["operator_export_types"]


# ----------------------------------------------------------- the exporter's API


def test_is_in_onnx_export_during_export():
    seen = []

    class Probe(torch.nn.Module):
        def forward(self, x):
            seen.append(torch.onnx.is_in_onnx_export())
            return x + 1

    _export(Probe(), (torch.randn(2),))
    assert seen == [True] and not torch.onnx.is_in_onnx_export()


def test_custom_op_symbolic_registration():
    kron = cases_onnx.Fn(lambda a: torch.kron(a, a))
    x = torch.randn(2, 3)

    def kron_symbolic(g, a, b):
        return g.op("custom::Kron", a, b, scale_f=1.0)

    torch.onnx.register_custom_op_symbolic("aten::kron", kron_symbolic, 15)
    try:
        message = _error(lambda: _export(kron, (x,), opset_version=14))[1]
        assert message.endswith(
            "Support for this operator was added in version 15, try exporting with this version."
        )
        proto = onnx.load_from_string(
            _export(kron, (x,), opset_version=17, custom_opsets={"custom": 2})
        )
        node = next(n for n in proto.graph.node if n.op_type == "Kron")
        assert node.domain == "custom" and node.attribute[0].f == 1.0
        assert ("custom", 2) in [(o.domain, o.version) for o in proto.opset_import]
    finally:
        torch.onnx.unregister_custom_op_symbolic("aten::kron", 15)
    assert _error(lambda: _export(kron, (x,)))[0] == "UnsupportedOperatorError"


def test_custom_symbolic_overrides_a_builtin():
    def relu_as_clip(g, x):
        return g.op("Clip", x, g.op("Constant", value_t=torch.tensor(0.0)))

    model, args = torch.nn.ReLU(), (torch.randn(5),)
    torch.onnx.register_custom_op_symbolic("aten::relu", relu_as_clip, 13)
    try:
        data = _export(model, args)
        assert "Clip" in [n.op_type for n in onnx.load_from_string(data).graph.node]
        _assert_matches(data, model, args)
    finally:
        torch.onnx.unregister_custom_op_symbolic("aten::relu", 13)
    assert "Relu" in [n.op_type for n in onnx.load_from_string(_export(model, args)).graph.node]


def test_destinations_and_return_values(tmp_path):
    model, args = torch.nn.Linear(3, 2), (torch.randn(1, 3),)
    path = tmp_path / "model.onnx"
    with pytest.warns(DeprecationWarning, match="legacy TorchScript-based ONNX export"):
        assert torch.onnx.export(model, args, path, dynamo=False) is None
    onnx.checker.check_model(onnx.load(str(path)))
    program = torch.onnx.export(model, args, str(tmp_path / "b.onnx"))  # dynamo=True default
    assert isinstance(program, torch.onnx.ONNXProgram)
    (out,) = program(*args)
    torch.testing.assert_close(out, model(*args).detach(), rtol=1e-5, atol=1e-6)
    program.save(tmp_path / "c.onnx")
    assert (tmp_path / "c.onnx").read_bytes() == path.read_bytes()


def test_training_mode_is_restored_and_output_names():
    model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Dropout(0.5)).train()
    proto = onnx.load_from_string(_export(model, (torch.randn(2, 3),), output_names=["out"]))
    assert model.training
    assert "Dropout" not in [n.op_type for n in proto.graph.node]  # EVAL by default
    assert [o.name for o in proto.graph.output] == ["out"]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_bad_arguments():
    model, args = torch.nn.Linear(3, 2), (torch.randn(1, 3),)
    with pytest.raises(ValueError, match="opset version: 12"):
        _export(model, args, opset_version=12)
    with pytest.raises(ValueError, match=f"opset version: {LATEST + 1}"):
        _export(model, args, opset_version=LATEST + 1)
    with pytest.raises(NotImplementedError, match="operator_export_type"):
        _export(model, args, operator_export_type=torch.onnx.OperatorExportTypes.ONNX_ATEN)
    with pytest.raises(NotImplementedError, match="export_modules_as_functions"):
        _export(model, args, export_modules_as_functions=True)
    with pytest.raises(TypeError, match="path or a file-like"):
        torch.onnx.export(model, args, 3, dynamo=False)


def test_import_without_onnx_and_clear_error_at_export():
    code = (
        "import sys\n"
        "sys.modules['onnx'] = None\n"
        "sys.modules['onnxruntime'] = None\n"
        "import torch, torch.onnx\n"
        "try:\n"
        "    torch.onnx.export(torch.nn.Linear(2, 2), (torch.ones(1, 2),), 'x.onnx')\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=True)  # fmt: skip
    assert 'pip install "torch-jit[onnx]"' in result.stdout


# ------------------------------------------------- what can be exported, and how


class _Scaled(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(3, 2)

    def forward(self, x, scale: float = 1.0, bias: Optional[torch.Tensor] = None):  # noqa: UP045
        y = torch.relu(self.fc(x.view(x.size(0), -1))) * scale
        return y if bias is None else y + bias


def _script_add_sum(a):
    return a * 2 + a.sum()


def test_functions_traced_and_scripted_programs():
    x = torch.randn(2, 3)
    _assert_matches(_export(lambda a: torch.tanh(a) * 2, (x,)), lambda a: torch.tanh(a) * 2, (x,))
    model = _Scaled().eval()
    traced = torch.jit.trace(model, (x,))
    _assert_matches(_export(traced, (x,)), model, (x,))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        scripted = torch.jit.script(model)
        function = torch.jit.script(_script_add_sum)
    data = _export(scripted, (x,), input_names=["x"], dynamic_axes={"x": [0]})
    proto = onnx.load_from_string(data)
    assert sorted(i.name for i in proto.graph.initializer) == ["fc.bias", "fc.weight"]
    _assert_matches(data, model, (torch.randn(5, 3),), ["x"])  # x.size(0) followed
    data = _export(function, (x,))
    assert [i.name for i in onnx.load_from_string(data).graph.input] == ["a"]
    _assert_matches(data, _script_add_sum, (x,))


def test_keyword_arguments_and_dynamic_shapes():
    model, x, bias = _Scaled().eval(), torch.randn(2, 3), torch.randn(2)
    data = _export(model, (x, {"bias": bias}))
    assert [i.name for i in onnx.load_from_string(data).graph.input] == ["x", "bias"]
    _assert_matches(data, lambda a, b: model(a, bias=b), (x, bias))
    data = _export(model, (x,), input_names=["x"], dynamic_shapes={"x": {0: "batch"}})
    dim = onnx.load_from_string(data).graph.input[0].type.tensor_type.shape.dim[0]
    assert dim.dim_param == "batch"


def test_training_mode_keeps_dropout():
    model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Dropout(0.5))
    data = _export(model, (torch.randn(2, 3),), training=torch.onnx.TrainingMode.TRAINING)
    assert "Dropout" in [n.op_type for n in onnx.load_from_string(data).graph.node]
    assert model.training
