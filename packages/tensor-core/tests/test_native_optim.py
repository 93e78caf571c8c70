"""The fused optimizer updates of torch._C (csrc/optim_kernels.h) against NumPy references
written op by op, with PyTorch's fused multiply-adds emulated in float64 (float32 data:
the product is exact there, so one rounding to float64 and one to float32 remain). The
bit-for-bit comparison with real PyTorch lives in torch-optim's tests (fused_steps.json)."""

import numpy as np
import pytest

from torch import _native

kernels = _native.optim_kernels()
pytestmark = pytest.mark.skipif(kernels is None, reason="pure NumPy core (TORCH_NATIVE=0)")

f32 = np.float32


def fma(a, b, c):
    # asarray, not np.float64(...): NumPy 1.x turns a one-element array into a scalar
    wide = [np.asarray(x, np.float64) for x in (a, b, c)]
    return (wide[0] * wide[1] + wide[2]).astype(f32)


def _assert_close_to_terms(got, want, *terms, ulps=2):
    """``got`` within ``ulps`` units in the last place of the largest term that summed to
    it. NOTE: MKL's sqrt (loaded when installed) is within one ulp of NumPy's but differs
    on up to 16% of inputs, depending on the CPU; where ``p + step`` nearly cancels, one
    ulp of the step is many ulps of the result, so a plain ulp count of the result fails
    on some machines for a correct kernel."""
    scale = np.max(np.abs(np.stack([np.broadcast_to(t, got.shape) for t in terms])), axis=0)
    error, bound = np.abs(got - want), ulps * np.spacing(scale)
    assert np.all(error <= bound), f"worst excess: {np.max(error - bound)}"


def _data(n, seed=0):
    rng = np.random.default_rng(seed)
    p, g = rng.standard_normal(n).astype(f32), rng.standard_normal(n).astype(f32)
    m = rng.standard_normal(n).astype(f32) * f32(0.1)
    v = rng.random(n).astype(f32) * f32(0.01)
    return p, g, m, v


def _adam_reference(p, g, m, v, lr, beta1, beta2, eps, wd, step):
    """Adam with L2 weight decay, one step: PyTorch's kernel calls one per line."""
    g = fma(p, f32(wd), g)  # grad.add(param, alpha=wd)
    d = g - m
    m = fma(f32(1 - beta1), d, m)  # lerp_ with a small weight
    v = fma(f32(1 - beta2) * g, g, v * f32(beta2))  # mul_, addcmul_
    denom = np.sqrt(v) / f32((1 - beta2**step) ** 0.5) + f32(eps)
    p = p + f32(-lr / (1 - beta1**step)) * m / denom  # addcdiv_
    return p, m, v


@pytest.mark.parametrize("n,threads", [(1, 1), (1000, 1), (70001, 2)])
def test_adam_matches_its_reference(n, threads):
    p, g, m, v = _data(n)
    p_before = p.copy()
    want = _adam_reference(p, g, m, v, 0.01, 0.9, 0.999, 1e-8, 0.1, 3)
    bc1, bc2 = 1 - 0.9**3, 1 - 0.999**3
    args = ([-0.01 / bc1], [bc2**0.5], 0.1, 0.999, 1 - 0.999, 1e-8, 0.1, 1.0, False, 1)
    kernels.adam_step([p], [g], [m], [v], None, *args, threads=threads)
    for got, expected in zip((p, m, v), want):
        _assert_close_to_terms(got, expected, expected, want[0] - p_before)


def test_threads_do_not_change_the_result():
    results = []
    for threads in (1, 2):
        p, g, m, v = _data(100003, seed=1)
        kernels.adam_step(
            [p], [g], [m], [v], [v.copy()], [-0.1], [0.5], 0.1, 0.999, 0.001, 1e-8, 0.0, 0.9,
            True, 2, threads=threads,
        )  # fmt: skip
        results.append(p)
    assert np.array_equal(results[0], results[1])


def test_sgd_momentum_matches_its_reference():
    p, g, buf, _ = _data(5000)
    want_buf = fma(g, f32(0.8), buf * f32(0.9))  # buf.mul_(0.9).add_(g, alpha=0.8)
    want_p = fma(want_buf, f32(-0.01), p)  # param.add_(buf, alpha=-lr)
    kernels.sgd_step([p], [g], [buf], [False], 0.0, 0.9, 0.8, -0.01, False, False)
    assert np.array_equal(buf, want_buf) and np.array_equal(p, want_p)


def test_sgd_first_step_fills_the_buffer_with_the_gradient():
    p, g, _, _ = _data(100)
    buf = np.full_like(p, np.nan)
    kernels.sgd_step([p], [-g], [buf], [True], 0.0, 0.9, 1.0, -0.1, True, False)
    assert np.array_equal(buf, g)


def test_rmsprop_and_adagrad_match_their_references():
    p, g, _, v = _data(3000)
    want_v = fma(f32(0.01) * g, g, v * f32(0.99))
    want_p = p + f32(-0.01) * g / (np.sqrt(want_v) + f32(1e-8))
    p_before = p.copy()
    kernels.rmsprop_step([p], [g], [v], None, None, 0.99, 0.01, 1e-8, 0.0, 0.0, -0.01, False, False)
    _assert_close_to_terms(p, want_p, p_before, want_p - p_before)
    p, g, _, s = _data(3000, seed=2)
    want_s = fma(g, g, s)
    want_p = p + f32(-0.05) * g / (np.sqrt(want_s) + f32(1e-10))
    p_before = p.copy()
    kernels.adagrad_step([p], [g], [s], [-0.05], 0.0, 1e-10, False)
    assert np.array_equal(s, want_s)
    _assert_close_to_terms(p, want_p, p_before, want_p - p_before)


def _adam(params, grads, ms, vs, **overrides):
    args = dict(
        max_exp_avg_sqs=None, neg_step_sizes=[-0.1] * len(params), bc2_sqrts=[1.0] * len(params),
        lerp_weight=0.1, beta2=0.9, one_minus_beta2=0.1, eps=1e-8, weight_decay=0.0,
        decay_factor=1.0, maximize=False, decay=0,
    )  # fmt: skip
    args.update(overrides)
    kernels.adam_step(params, grads, ms, vs, **args)


def test_bad_arrays_raise_before_anything_is_written():
    p, g, m, v = _data(10)
    before = p.copy()
    with pytest.raises(ValueError, match="does not match the parameter's 10"):
        _adam([p, p.copy()], [g, g[:5].copy()], [m, m.copy()], [v, v.copy()],
              neg_step_sizes=[-0.1, -0.1], bc2_sqrts=[1.0, 1.0])  # fmt: skip
    with pytest.raises(TypeError, match="parameters' dtype"):
        _adam([p], [g.astype(np.float64)], [m], [v])
    with pytest.raises(ValueError, match="C-contiguous"):
        _adam([p], [g], [np.zeros(20, f32)[::2]], [v])
    read_only = v.copy()
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        _adam([p], [g], [m], [read_only])
    with pytest.raises(ValueError, match="one entry per parameter"):
        _adam([p], [g, g], [m], [v])
    with pytest.raises(ValueError, match="decay must be 0, 1 or 2"):
        _adam([p], [g], [m], [v], decay=3)
    with pytest.raises(TypeError, match="float32 or float64"):
        _adam([p.astype(np.float16)], [g], [m], [v])
    assert np.array_equal(p, before)


def test_sqrt_library_is_reported():
    assert _native.optim_sqrt_is_pytorchs() in (True, False)
    if _native._mkl_library_path() is not None:
        assert _native.optim_sqrt_is_pytorchs()


def test_sqrt_in_place_as_the_kernels_take_it():
    a = np.random.default_rng(3).random(2000).astype(f32)
    want = np.sqrt(a)
    kernels.optim_sqrt_(a)
    np.testing.assert_array_max_ulp(a, want, maxulp=1)
    with pytest.raises(TypeError, match="float32 or float64"):
        kernels.optim_sqrt_(np.ones(3, np.int64))
    with pytest.raises(ValueError, match="C-contiguous"):
        kernels.optim_sqrt_(np.ones(6)[::2])


def test_adamax_and_adadelta_match_their_references():
    p, g, m, u = _data(3000, seed=4)
    want_m = fma(f32(0.1), g - m, m)  # lerp_ with weight 0.1
    want_u = np.maximum(u * f32(0.999), np.abs(g) + f32(1e-8))
    want_p = p + f32(-0.02) * want_m / want_u
    kernels.adamax_step([p], [g], [m], [u], [-0.02], 0.1, 0.999, 1e-8, 0.0, False)
    assert np.array_equal(m, want_m) and np.array_equal(u, want_u)
    assert np.array_equal(p, want_p)
    p, g, sq, acc = _data(3000, seed=5)
    sq, acc = np.abs(sq), np.abs(acc)
    want_sq = fma(f32(0.1) * g, g, sq * f32(0.9))
    delta = np.sqrt(acc + f32(1e-6)) / np.sqrt(want_sq + f32(1e-6)) * g
    want_acc = fma(f32(0.1) * delta, delta, acc * f32(0.9))
    want_p = fma(delta, f32(-1.0), p)
    kernels.adadelta_step([p], [g], [sq], [acc], 0.9, 0.1, 1e-6, 0.0, -1.0, False)
    assert np.array_equal(sq, want_sq)
    # MKL's roots may differ from NumPy's by an ulp, which the quotient and square carry on
    np.testing.assert_allclose(acc, want_acc, rtol=1e-6)
    np.testing.assert_allclose(p, want_p, rtol=1e-6, atol=1e-7)
