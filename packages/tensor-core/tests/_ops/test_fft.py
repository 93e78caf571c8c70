"""torch.fft (torch/_ops/fft.py): against real PyTorch (expressions in
tools/golden/cases_fft.py, recorded by record_fft.py: values, dtypes, shapes, gradients
and errors), round trips, out= and the module's wiring. The op database
(torch/testing/_opinfo_fft.py) checks every function against numpy.fft, and autograd's
op-database tests gradcheck them."""

import json
import pathlib

import numpy as np
import pytest
from fft_describe import close, outcome

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parents[1] / "golden" / "fft.json").read_text())
_GRADIENT_WORDS = ("requires_grad", "backward(")

CASES = [
    pytest.param(
        group,
        code,
        id=f"{group}:{code}",
        marks=[pytest.mark.autograd] if any(w in code for w in _GRADIENT_WORDS) else [],
    )
    for group, cases in GOLDEN["groups"].items()
    for code in cases
]


@pytest.mark.parametrize("group,code", CASES)
def test_matches_pytorch(group, code):
    expected = GOLDEN["groups"][group][code]
    actual = outcome(torch, code, GOLDEN["setup"])
    assert close(actual, expected), (actual, expected)


# ------------------------------------------------------------------ module wiring


def test_torch_fft_is_a_lazy_submodule_and_importable():
    import importlib

    module = importlib.import_module("torch.fft")
    assert torch.fft is module
    assert "fft" in dir(torch)
    for name in module.__all__:
        assert callable(getattr(module, name)), name


def test_every_public_function_is_registered_as_a_composite():
    from torch._interface import ops

    for name in torch.fft.__all__:
        op = ops[f"fft_{name}"]
        assert op.extra["binding"] == f"torch.fft.{name}"
        assert not op.differentiable  # gradients come from the primitives
    for name in ("_fft_c2c", "_fft_r2c", "_fft_c2r"):
        assert ops[name].differentiable and ops[name].family == "fft"


# ------------------------------------------------------------------------ values


@pytest.mark.parametrize("n", [5, 6])
@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_inverse_pairs_round_trip(n, norm):
    x = torch.tensor(np.random.default_rng(n).standard_normal((3, n)))
    z = torch.complex(x, x.flip(0))
    pairs = [
        (torch.fft.ifft(torch.fft.fft(z, norm=norm), norm=norm), z),
        (torch.fft.irfft(torch.fft.rfft(x, norm=norm), n, norm=norm), x),
        (torch.fft.ihfft(torch.fft.hfft(torch.fft.ihfft(x), n, norm=norm), norm=norm), None),
        (torch.fft.ifftn(torch.fft.fftn(z, norm=norm), norm=norm), z),
        (torch.fft.irfftn(torch.fft.rfftn(x, norm=norm), x.shape, norm=norm), x),
        (torch.fft.ifftshift(torch.fft.fftshift(x)), x),
    ]
    for got, want in pairs:
        if want is not None:
            np.testing.assert_allclose(got.numpy(), want.numpy(), atol=1e-12)


def test_result_dtypes_follow_the_input_precision():
    x = torch.arange(8.0)
    assert torch.fft.fft(x).dtype == torch.complex64
    assert torch.fft.rfft(x.double()).dtype == torch.complex128
    assert torch.fft.irfft(torch.fft.rfft(x)).dtype == torch.float32
    assert torch.fft.hfft(x.double()).dtype == torch.float64
    assert torch.fft.fft(torch.arange(8)).dtype == torch.complex64
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.fft.fft(torch.arange(8)).dtype == torch.complex128
    finally:
        torch.set_default_dtype(torch.float32)


def test_float32_kernels_agree_with_double_precision():
    # NumPy >= 2 transforms float32 in single precision, NumPy 1.x in double: either way
    # the result is complex64 and within float32 rounding of the double result
    x = torch.tensor(np.random.default_rng(0).standard_normal(64))
    single, double = torch.fft.fft(x.float()), torch.fft.fft(x)
    assert single.dtype == torch.complex64
    np.testing.assert_allclose(single.numpy(), double.numpy(), atol=1e-4)


def test_non_contiguous_and_batched_input():
    m = torch.arange(24.0).reshape(2, 3, 4)
    t = m.transpose(0, 2)
    np.testing.assert_allclose(
        torch.fft.fft(t, dim=1).numpy(), np.fft.fft(t.numpy(), axis=1), rtol=1e-5, atol=1e-4
    )
    np.testing.assert_allclose(
        torch.fft.rfft2(t).numpy(), np.fft.rfft2(t.numpy()), rtol=1e-5, atol=1e-4
    )


# ---------------------------------------------------------------------------- out=


def test_out_is_resized_and_returned():
    out = torch.empty(0, dtype=torch.complex64)
    result = torch.fft.rfft(torch.arange(6.0), out=out)
    assert result is out and out.shape == (4,)
    with pytest.warns(UserWarning, match="resized"):
        torch.fft.fft(torch.arange(3.0), out=out)
    assert out.shape == (3,)


@pytest.mark.autograd
def test_out_refuses_gradients():
    x = torch.arange(4.0, requires_grad=True)
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        torch.fft.irfft(x, out=torch.empty(0))
    with torch.no_grad():
        torch.fft.irfft(x, out=torch.empty(0))
