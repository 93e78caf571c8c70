"""The 0.4-migration expressions of legacy_api_cases.py give what PyTorch 2.13 gave
(golden/legacy_api.json, recorded by tools/golden/record_legacy_api.py)."""

import json
import pathlib
import warnings

import legacy_api_cases as cases
import pytest
from conftest import has_autograd

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "legacy_api.json").read_text())


def test_every_case_is_recorded():
    assert set(GOLDEN) == set(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_pytorch(name):
    if name.endswith("_grad") and not has_autograd():  # the cases that record or backprop
        pytest.skip("needs torch-autograd, which is not installed")
    expected = GOLDEN[name]
    got = cases.outcome(torch, cases.CASES[name])
    if name in cases.TYPE_ONLY:
        assert got.get("error") == expected.get("error"), got
        got.pop("message", None), expected.pop("message", None)
    if name in cases.ANY_WARNINGS:
        got.pop("warnings"), expected.pop("warnings")
    expected.pop("code")
    assert got == expected


def test_set_default_tensor_type_warns_once():
    import torch._default_type as module

    module._warned[0] = False
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            torch.set_default_tensor_type(torch.FloatTensor)
            torch.set_default_tensor_type(torch.FloatTensor)
    finally:
        torch.set_default_dtype(torch.float32)
    assert [str(w.message) for w in caught] == [
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
        "torch.set_default_dtype() and torch.set_default_device() as alternatives."
    ]


@pytest.mark.autograd
@pytest.mark.parametrize("grad_mode", ["no_grad", "inference_mode"])
def test_scalar_conversion_of_a_grad_tensor_warns_only_with_grad_enabled(grad_mode):
    import torch._tensor as module

    x = torch.ones(1, requires_grad=True)
    module._SCALAR_WARNED[0] = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with getattr(torch, grad_mode)():
            assert float(x) == 1.0 and complex(x) == 1.0
        assert not caught
        float(x)
    assert len(caught) == 1 and "Converting a tensor with requires_grad=True" in str(
        caught[0].message
    )


def test_build_facts_that_differ_from_pytorchs_build_say_what_this_one_does():
    # PyTorch's CPU wheel has OpenMP and flushes denormals on request; this project's
    # kernels use their own thread pool and leave the CPU's float flags alone
    assert torch.has_openmp is torch.backends.openmp.is_available() is False
    assert torch.set_flush_denormal(True) is False
