"""torch.autocast over torch.nn.functional and a small model: output dtypes, values and
gradients against goldens recorded from PyTorch 2.13 (tools/golden/record_amp.py)."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

import torch

HERE = pathlib.Path(__file__).parent
sys.path[:0] = [str(HERE), str(HERE.parents[1] / "tensor-core" / "tests")]

import amp_cases  # noqa: E402
import amp_model_case  # noqa: E402

GOLDEN = json.loads((HERE / "golden" / "amp.json").read_text())


@pytest.mark.parametrize("name", sorted(amp_cases.NN_CASES))
def test_output_dtypes_match_pytorch(name):
    expected = GOLDEN["ops"][name]
    for label, input_dtype, autocast_dtype in amp_cases.SETTINGS:
        if expected[label].startswith(("NotImplementedError", "RuntimeError")):
            continue  # PyTorch lacks a kernel for that dtype; we compute
        got = amp_cases.run(amp_cases.NN_CASES[name], torch, input_dtype, autocast_dtype)
        assert got == expected[label], (label, got, expected[label])


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_model_forward_and_backward_match_pytorch(dtype):
    expected = GOLDEN["model"][dtype]
    got = amp_model_case.model_run(torch, dtype)
    for key in ("layer_dtypes", "out_dtype", "loss_dtype", "grad_dtypes"):
        assert got[key] == expected[key], key
    # rounding to 8 (bfloat16) or 11 (float16) significant bits may differ in the last
    # bit where the order of accumulation differs
    tolerance = 2e-2 if dtype == "bfloat16" else 3e-3
    for ours, theirs in zip(got["out"], expected["out"]):
        assert ours == pytest.approx(theirs, abs=tolerance)
    assert got["loss"] == pytest.approx(expected["loss"], abs=tolerance)
    for ours, theirs in zip(got["grads"], expected["grads"]):
        assert ours == pytest.approx(theirs, abs=tolerance)


def test_module_forward_under_autocast_keeps_parameters_float32():
    layer = torch.nn.Linear(3, 2)
    with torch.autocast("cpu"):
        out = layer(torch.ones(4, 3))
    assert out.dtype is torch.bfloat16 and layer.weight.dtype is torch.float32
    out.float().sum().backward()
    assert layer.weight.grad.dtype is torch.float32


def test_custom_function_decorators():
    seen = []

    class Double(torch.autograd.Function):
        @staticmethod
        @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
        def forward(ctx, x):
            seen.append(("fwd", torch.is_autocast_enabled("cpu"), x.dtype))
            return x * 2

        @staticmethod
        @torch.amp.custom_bwd(device_type="cpu")
        def backward(ctx, grad):
            seen.append(("bwd", torch.is_autocast_enabled("cpu")))
            return grad * 2

    x = torch.ones(2, dtype=torch.bfloat16, requires_grad=True)
    with torch.autocast("cpu"):
        y = Double.apply(x)
    y.sum().backward()
    assert y.dtype is torch.float32
    assert seen == [("fwd", False, torch.float32), ("bwd", False)]
    assert x.grad.tolist() == [2.0, 2.0]
