"""The native MT19937 kernel against its NumPy reference."""

import numpy as np
import pytest

from torch import _C, _mt19937_ref

SEEDS = [0, 1, 5489, 2**32 - 1, 2**32 + 12345, 2**63 + 3]


@pytest.mark.parametrize("seed", SEEDS)
def test_raw_stream_matches_reference(seed):
    native, reference = _C.MT19937(seed), _mt19937_ref.MT19937(seed)
    for n in (0, 1, 623, 624, 625, 3000):
        np.testing.assert_array_equal(native.random_raw(n), reference.random_raw(n))


def test_reference_seeding_is_standard_mt19937():
    # NumPy's legacy RandomState seeds exactly like std::mt19937 for 32-bit seeds
    legacy = np.random.RandomState(1234).randint(0, 2**32, size=10, dtype=np.uint64)
    stream = _mt19937_ref.MT19937(1234).random_raw(10)
    np.testing.assert_array_equal(stream, legacy.astype(np.uint32))


def test_default_seed_is_5489():
    assert _C.MT19937().random_raw(1)[0] == 3499211612  # std::mt19937's first output


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("low,high", [(0.0, 1.0), (-3.3, 7.1), (1e-3, 2e-3), (-1e6, 5.0)])
def test_fill_uniform_matches_reference(dtype, low, high):
    n = 5000 if dtype == np.float32 else 600
    native_out, ref_out = np.empty(n, dtype), np.empty(n, dtype)
    _C.MT19937(77).fill_uniform(native_out, low, high)
    _mt19937_ref.MT19937(77).fill_uniform(ref_out, low, high)
    np.testing.assert_array_equal(native_out, ref_out)
    assert (native_out >= dtype(low)).all()


def test_state_round_trip_between_native_and_reference():
    native = _C.MT19937(9)
    native.random_raw(1000)
    key, pos = native.get_state()
    reference = _mt19937_ref.MT19937()
    reference.set_state(key, pos)
    np.testing.assert_array_equal(native.random_raw(700), reference.random_raw(700))
    key2, pos2 = reference.get_state()
    np.testing.assert_array_equal(key2, native.get_state()[0])
    assert pos2 == native.get_state()[1]


@pytest.mark.parametrize("engine", [_C.MT19937, _mt19937_ref.MT19937])
def test_bad_state_is_rejected(engine):
    gen = engine(0)
    with pytest.raises(ValueError, match="624"):
        gen.set_state(np.zeros(10, np.uint32), 0)
    with pytest.raises(ValueError, match="position"):
        gen.set_state(np.zeros(624, np.uint32), 625)
    with pytest.raises(ValueError, match="non-negative"):
        gen.random_raw(-1)


def test_native_rejects_bad_output_buffers():
    gen = _C.MT19937(0)
    with pytest.raises(TypeError, match="float32 or float64"):
        gen.fill_uniform(np.empty(4, np.int32), 0.0, 1.0)
    with pytest.raises(ValueError, match="C-contiguous"):
        gen.fill_uniform(np.empty((4, 4), np.float32)[:, ::2], 0.0, 1.0)
    readonly = np.empty(4, np.float64)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gen.fill_uniform(readonly, 0.0, 1.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "op,ref", [("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("div", np.true_divide)]
)
def test_threaded_binary_matches_numpy(dtype, op, ref):
    rng = np.random.default_rng(0)
    a, b = rng.uniform(-2, 2, 100_003).astype(dtype), rng.uniform(0.5, 2, 100_003).astype(dtype)
    for threads in (1, 2, 3):
        np.testing.assert_array_equal(_C.binary(op, a, b, threads), ref(a, b))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op,ref", [("add", np.add), ("sub", np.subtract), ("div", np.true_divide)])
def test_threaded_binary_into_an_operand_or_a_given_array(dtype, op, ref):
    rng = np.random.default_rng(3)
    a, b = rng.uniform(-2, 2, 100_003).astype(dtype), rng.uniform(0.5, 2, 100_003).astype(dtype)
    expected = ref(a, b)
    for threads in (1, 2):
        out = np.empty_like(a)
        assert _C.binary(op, a, b, threads, out) is out
        np.testing.assert_array_equal(out, expected)
        for operand in ("a", "b"):  # in place: the result overwrites an operand
            x, y = a.copy(), b.copy()
            into = x if operand == "a" else y
            _C.binary(op, x, y, threads, into)
            np.testing.assert_array_equal(into, expected)


def test_threaded_binary_refuses_bad_outputs():
    a = np.zeros(10, np.float32)
    with pytest.raises(ValueError, match="operands' shape"):
        _C.binary("add", a, a, 0, np.zeros(9, np.float32))
    with pytest.raises(TypeError, match="wrong dtype"):
        _C.binary("add", a, a, 0, np.zeros(10, np.float64))
    with pytest.raises(ValueError, match="C-contiguous"):
        _C.binary("add", a, a, 0, np.zeros(20, np.float32)[::2])
    readonly = np.zeros(10, np.float32)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        _C.binary("add", a, a, 0, readonly)
    with pytest.raises(TypeError, match="must be a NumPy array"):
        _C.binary("add", a, a, 0, [0.0] * 10)
    shifted = np.zeros(11, np.float32)  # out one element past an operand: refused
    with pytest.raises(ValueError, match="overlaps"):
        _C.binary("add", shifted[1:], a, 0, shifted[:-1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_threaded_fill(dtype):
    for n, threads in ((100_003, 2), (5, 1), (0, 2)):
        out = np.zeros(n, dtype)
        _C.fill(out, -1.25, threads)
        assert (out == -1.25).all()
    out = np.zeros((300, 300), dtype)
    _C.fill(out, np.array(np.nan, dtype))  # a 0-dim array is a value too
    assert np.isnan(out).all()


def test_threaded_fill_refuses_bad_outputs():
    with pytest.raises(TypeError, match="float32 or float64"):
        _C.fill(np.zeros(3, np.int64), 1.0)
    with pytest.raises(ValueError, match="C-contiguous"):
        _C.fill(np.zeros(6, np.float32)[::2], 1.0)
    readonly = np.zeros(3)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        _C.fill(readonly, 1.0)
    with pytest.raises(TypeError, match="must be a NumPy array"):
        _C.fill([0.0], 1.0)


def _last_level_cache_bytes() -> int:
    """What torch._C reads (elementwise.cpp's cache_bytes): Linux's size of cpu0's L3."""
    try:
        text = open("/sys/devices/system/cpu/cpu0/cache/index3/size").read().strip()
    except OSError:
        return 32 << 20
    scale = {"K": 1 << 10, "M": 1 << 20}.get(text[-1:], 1)
    return int(text.rstrip("KM")) * scale


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_results_larger_than_the_cache_are_streamed_exactly(dtype):
    # operands and result together beyond the L3: the result is written with non-temporal
    # stores (a vector loop after a scalar head that reaches 32-byte alignment)
    n = _last_level_cache_bytes() // (3 * np.dtype(dtype).itemsize) + 1001
    if n * np.dtype(dtype).itemsize > 128 << 20:
        pytest.skip("the cache is too large for a quick test")
    rng = np.random.default_rng(2)
    a, b = rng.uniform(-2, 2, n + 1).astype(dtype), rng.uniform(0.5, 2, n).astype(dtype)
    for op, ref in (("add", np.add), ("div", np.true_divide)):
        for x in (a[:-1], a[1:]):  # aligned and unaligned operand loads
            np.testing.assert_array_equal(_C.binary(op, np.ascontiguousarray(x), b, 2), ref(x, b))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_threaded_sum_is_accurate_and_reproducible(dtype):
    a = np.random.default_rng(1).uniform(0, 1, 1_000_003).astype(dtype)
    exact = float(np.sum(a.astype(np.float64)))
    total = _C.sum_all(a, 2)
    # float32 partial sums over blocks of 2048: far inside float32's own precision
    assert abs(total - exact) <= (1e-7 if dtype == np.float32 else 1e-12) * exact
    assert _C.sum_all(a, 2) == total


def test_threaded_kernels_refuse_bad_operands():
    with pytest.raises(ValueError, match="same shape"):
        _C.binary("add", np.zeros(3, np.float32), np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="float32 or float64"):
        _C.binary("add", np.zeros(3, np.int32), np.zeros(3, np.int32))
    with pytest.raises(ValueError, match="unknown op"):
        _C.binary("pow", np.zeros(3, np.float32), np.zeros(3, np.float32))
    with pytest.raises(TypeError, match="float32 or float64"):
        _C.sum_all(np.zeros(3, np.int64))


def _ulp_error(result, exact, dtype):
    """|result - exact| in units of the last place of ``dtype`` at ``exact``."""
    finite = np.isfinite(exact) & (np.abs(exact) >= np.finfo(dtype).tiny)
    spacing = np.spacing(exact[finite].astype(dtype)).astype(np.float64)
    return np.abs(result[finite].astype(np.float64) - exact[finite]) / np.abs(spacing)


# op: (the function, evaluated in a wider float type; the largest error in ulp)
_VECTORISED = {
    "exp": (np.exp, 1.0),
    # 1 / (1 + exp(-a)) with the vectorised exp: its ulp and the two roundings
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), 4.0),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", sorted(_VECTORISED))
def test_vectorised_unary_kernels_are_within_their_ulp_bound(op, dtype):
    # The reference is the function in float64 (float32 inputs), or of the float64 inputs
    # rounded from a long-double evaluation where the platform has one.
    function, max_ulp = _VECTORISED[op]
    rng = np.random.default_rng(2)
    limit = 88.0 if dtype == np.float32 else 709.0
    a = np.concatenate([rng.uniform(-limit, limit, 200_000), rng.normal(0, 1, 100_000)])
    a = a.astype(dtype)
    wide = np.longdouble if np.finfo(np.longdouble).eps < np.finfo(np.float64).eps else np.float64
    exact = function(a.astype(wide)).astype(np.float64)
    for threads in (1, 2, 3):
        assert _ulp_error(_C.unary(op, a, threads), exact, dtype).max() <= max_ulp


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vectorised_exp_edge_values_match_numpy(dtype):
    a = np.array(
        [np.inf, -np.inf, np.nan, 0.0, -0.0, 88.72, 88.73, 89.0, 1e4, -87.0, -100.0, -103.9,
         -104.0, -1e4, 709.7, 709.8, -708.0, -740.0, -745.1, -746.0],
        dtype=dtype,
    )  # fmt: skip
    with np.errstate(all="ignore"):
        expected = np.exp(a)
    result = _C.unary("exp", a)
    exact_cases = ~np.isfinite(expected) | (expected == 0) | (expected == 1)
    np.testing.assert_array_equal(result[exact_cases], expected[exact_cases])
    tiny = np.finfo(dtype).tiny
    normal = ~exact_cases & (expected >= tiny)
    np.testing.assert_array_max_ulp(result[normal], expected[normal], maxulp=1)
    # gradual underflow: within one subnormal step of NumPy's value
    subnormal = ~exact_cases & (expected < tiny)
    steps = np.abs(result[subnormal] - expected[subnormal]) / np.finfo(dtype).smallest_subnormal
    assert subnormal.any() and (steps <= 1).all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vectorised_sigmoid_edge_values(dtype):
    a = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e4, -1e4, 750.0, -750.0], dtype=dtype)
    result = _C.unary("sigmoid", a)
    np.testing.assert_array_equal(result, np.array([1, 0, np.nan, 0.5, 0.5, 1, 0, 1, 0], dtype))


def test_unary_kernel_refuses_bad_operands():
    with pytest.raises(TypeError, match="float32 or float64"):
        _C.unary("exp", np.zeros(3, np.int32))
    with pytest.raises(ValueError, match="unknown op"):
        _C.unary("log", np.zeros(3, np.float32))


@pytest.mark.skipif(
    __import__("os").environ.get("TORCH_SANITIZED") == "1",
    reason="AddressSanitizer's allocator replaces glibc's: mallopt has no effect",
)
def test_freed_buffers_are_kept_for_reuse():
    import platform

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("the allocator setting exists for glibc only")
    assert _C.keep_freed_buffers(256 << 20, 512 << 20) is True
    with pytest.raises(ValueError, match="thresholds"):
        _C.keep_freed_buffers(-1, 0)


def test_thread_pool_survives_fork_and_concurrent_callers():
    import os
    import threading

    a = np.random.default_rng(3).uniform(0, 1, 1 << 18).astype(np.float32)
    expected = _C.binary("add", a, a, 2)
    pid = os.fork()
    if pid == 0:  # the child has no pool threads: it must start its own, not hang
        ok = np.array_equal(_C.binary("add", a, a, 2), expected)
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    results = []

    def worker():
        for _ in range(50):
            results.append(np.array_equal(_C.binary("add", a, a, 2), expected))

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 150 and all(results)


def test_array_address_is_the_interface_data_pointer():
    base = np.zeros((4, 5), np.float32)
    for array in (base, base[1:, 2:], base.T, base[:0]):
        assert _C.array_address(array) == array.__array_interface__["data"][0]
    with pytest.raises(TypeError, match="expected a NumPy array"):
        _C.array_address([0.0])
