"""The fused native updates (torch-core's optimizer kernels, through
torch._interface.optim): bit for bit against real PyTorch (tools/golden/record_optim.py),
against the tensor-op reference updates, foreach against single-tensor, version counters,
and the reference path on a core without kernels."""

import numpy as np
import pytest
from optim_testing import (
    bitwise_alternatives,
    cases_optim,
    implementation,
    needs_autograd,
    problems,
)

import torch
from torch._interface import optim as native_optim

pytestmark = pytest.mark.skipif(not native_optim.available(), reason="no native optimizer kernels")


CASES = [(label, dtype) for label in cases_optim.FUSED for dtype in ("float32", "float64")]


def _digests(label, dtype):
    name, options = cases_optim.FUSED[label]
    return problems.fused_digests(
        torch, name, options, dtype, cases_optim.FUSED_SIZES, cases_optim.FUSED_STEPS
    )


@pytest.mark.parametrize("label,dtype", CASES)
def test_steps_match_pytorch_bit_for_bit(golden, label, dtype):
    expected = golden("fused_steps")[f"{label}/{dtype}"]
    got = _digests(label, dtype)
    for step, (g, e) in enumerate(zip(got, expected)):
        np.testing.assert_allclose(g["head"], e["head"], rtol=1e-6, err_msg=f"step {step + 1}")
        np.testing.assert_allclose(g["sum"], e["sum"], rtol=1e-6, err_msg=f"step {step + 1}")
    if not native_optim.sqrt_is_pytorchs():
        pytest.skip("MKL's sqrt is not loaded: results agree to about one ulp, not bitwise")
    # PyTorch's own digests differ between CPUs (MKL dispatch): one recorded machine's
    digests = [g["sha256"] for g in got]
    key = f"{label}/{dtype}"
    assert digests in bitwise_alternatives("fused_steps", key, [e["sha256"] for e in expected])


@pytest.mark.parametrize("label", list(cases_optim.FUSED))
def test_native_and_tensor_op_paths_agree_to_rounding(label):
    # PyTorch's kernels fuse some multiply-adds and core's tensor ops do not: the paths
    # differ in the last bits only
    native = _digests(label, "float32")
    with implementation("reference"):
        reference = _digests(label, "float32")
    for n, r in zip(native, reference):
        np.testing.assert_allclose(n["head"], r["head"], rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(n["sum"], r["sum"], rtol=1e-6)


@pytest.mark.parametrize("label", [label for label in cases_optim.FUSED if "foreach" in label])
def test_foreach_equals_single_tensor_bitwise(label):
    name, options = cases_optim.FUSED[label]
    results = []
    for foreach in (True, False):
        opts = dict(options, foreach=foreach)
        results.append(
            problems.fused_digests(torch, name, opts, "float32", cases_optim.FUSED_SIZES, 3)
        )
    assert results[0] == results[1]


@pytest.mark.parametrize("name", ["NAdam", "RAdam", "ASGD"])
def test_foreach_equals_single_tensor_bitwise_also_where_pytorchs_differ(name):
    options = dict(lr=0.01, weight_decay=0.1, _steps=7)
    results = []
    for foreach in (True, False):
        opts = dict(options, foreach=foreach)
        results.append(problems.fused_digests(torch, name, opts, "float32", (31, 1000), 7))
    assert results[0] == results[1]


def test_foreach_with_mixed_dtypes_and_layouts():
    # one native call per dtype; a non-contiguous parameter takes the tensor-op path
    torch.manual_seed(0)
    ps = [torch.randn(5, 4), torch.randn(7, dtype=torch.float64), torch.randn(4, 6).t()]
    twins = [p.clone() for p in ps]
    grads = [torch.randn(*p.shape, dtype=p.dtype) for p in ps]
    for params, foreach in ((ps, True), (twins, False)):
        opt = torch.optim.Adam(params, lr=0.1, foreach=foreach)
        for _ in range(3):
            for p, g in zip(params, grads):
                p.grad = g
            opt.step()
    for p, q in zip(ps, twins):
        assert torch.equal(p, q)


# PyTorch 2.13's counts after two steps (in-place ops on the parameter and on the state)
VERSIONS = [
    ("Adam", dict(amsgrad=True), 2, {"exp_avg": 2, "exp_avg_sq": 4, "max_exp_avg_sq": 2}),
    ("AdamW", dict(weight_decay=0.1), 4, {"exp_avg": 2, "exp_avg_sq": 4}),
    ("SGD", dict(lr=0.1, momentum=0.9), 2, {"momentum_buffer": 2}),
    (
        "RMSprop",
        dict(centered=True, momentum=0.5),
        2,
        {"square_avg": 4, "momentum_buffer": 4, "grad_avg": 2},
    ),
    ("Adagrad", dict(), 2, {"sum": 2}),
    ("Adamax", dict(), 2, {"exp_avg": 2, "exp_inf": 4}),
    ("Adadelta", dict(), 2, {"square_avg": 4, "acc_delta": 4}),
    ("NAdam", dict(), 4, {"exp_avg": 2, "exp_avg_sq": 4, "mu_product": 2}),
    ("NAdam", dict(weight_decay=0.1, decoupled_weight_decay=True), 6, {"exp_avg_sq": 4}),
    ("RAdam", dict(), 2, {"exp_avg": 2, "exp_avg_sq": 4}),
    ("ASGD", dict(t0=0), 4, {"ax": 2}),
    ("RAdam", dict(weight_decay=0.1, decoupled_weight_decay=True), 4, {"exp_avg": 2}),
]


@needs_autograd
@pytest.mark.parametrize("name,options,param_version,state_versions", VERSIONS)
def test_version_counters_count_the_in_place_writes(name, options, param_version, state_versions):
    w = torch.zeros(3, requires_grad=True)
    w.grad = torch.ones(3)
    opt = getattr(torch.optim, name)([w], **options)
    opt.step()
    opt.step()
    assert w._version == param_version
    assert {k: opt.state[w][k]._version for k in state_versions} == state_versions


@needs_autograd
def test_parameters_requiring_grad_take_the_native_path(monkeypatch):
    calls = []
    real = native_optim.run

    def spy(step, written=()):
        calls.append(type(step).kernel)
        real(step, written)

    monkeypatch.setattr(native_optim, "run", spy)
    w = torch.zeros(4, requires_grad=True)
    w.grad = torch.ones(4)
    torch.optim.Adam([w]).step()
    assert calls == ["adam_step"]


@pytest.mark.parametrize("label", ["Adam/default", "SGD/momentum_dampening_wd"])
def test_without_native_kernels_the_reference_serves(golden, monkeypatch, label):
    # a core without the kernels (pure build): every optimizer takes its tensor-op update
    monkeypatch.setattr(native_optim, "available", lambda: False)
    expected = golden("fused_steps")[f"{label}/float32"]
    for g, e in zip(_digests(label, "float32"), expected):
        np.testing.assert_allclose(g["head"], e["head"], rtol=1e-6, atol=1e-7)


@needs_autograd
@pytest.mark.parametrize("name", ["Adam", "AdamW", "SGD", "Adagrad"])
def test_fused_refuses_foreach_and_differentiable(name):
    w = [torch.zeros(2, requires_grad=True)]
    with pytest.raises(RuntimeError, match="`fused` and `foreach` cannot be `True` together."):
        getattr(torch.optim, name)(w, lr=0.1, fused=True, foreach=True)
    with pytest.raises(RuntimeError, match="`fused` does not support `differentiable`"):
        getattr(torch.optim, name)(w, lr=0.1, fused=True, foreach=True, differentiable=True)
    getattr(torch.optim, name)(w, lr=0.1, fused=False, foreach=True)


def test_a_parameter_listed_twice_is_updated_once_per_listing_on_both_paths():
    results = []
    for mode in ("native", "reference"):
        w = torch.linspace(-1.0, 1.0, 5)
        with pytest.warns(UserWarning, match="duplicate parameters"):
            opt = torch.optim.Adam([w, w], lr=0.1)
        with implementation(mode):
            for _ in range(2):
                w.grad = w * 0.5
                opt.step()
        assert opt.state[w]["step"].item() == 4.0
        results.append(w.tolist())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6)
