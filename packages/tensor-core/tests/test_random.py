"""Random numbers against real PyTorch's, on the native and the NumPy path."""

import numpy as np
import pytest

import torch
from torch import _C, _mt19937_ref


@pytest.fixture(params=["native", "reference"])
def engine_path(request, monkeypatch):
    """Run a test with generators built on either kernel implementation."""
    module = _C if request.param == "native" else _mt19937_ref
    monkeypatch.setattr(torch._random, "kernels", module)
    fresh = torch.Generator()
    monkeypatch.setattr(torch._random, "default_generator", fresh)
    return request.param


@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 + 7, -5])
def test_rand_matches_pytorch(golden, engine_path, seed):
    expected = golden("random")
    torch.manual_seed(seed)
    assert torch.rand(40).tolist() == expected[f"rand_f32_seed{seed}"]
    assert torch.rand(20, dtype=torch.float64).tolist() == expected[f"rand_f64_seed{seed}_after"]
    assert torch.initial_seed() == expected[f"initial_seed{seed}"]


def test_fresh_generator_matches_pytorch(golden, engine_path):
    expected = golden("random")
    g = torch.Generator()
    assert g.initial_seed() == expected["fresh_generator_initial_seed"]
    assert torch.rand(10, generator=g).tolist() == expected["fresh_generator_rand"]


@pytest.mark.parametrize(
    "dtype,low,high,key",
    [
        (np.float32, -3.3, 7.1, "uniform_f32_range_seed3"),
        (np.float64, -2.5, 0.1, "uniform_f64_range_seed3"),
    ],
)
def test_uniform_range_matches_pytorch(golden, engine_path, dtype, low, high, key):
    expected = golden("random")[key]
    g = torch.Generator().manual_seed(3)
    out = np.empty(len(expected), dtype)
    g._fill_uniform(out, low, high)
    assert out.tolist() == expected


def test_generators_are_independent():
    g1, g2 = torch.Generator().manual_seed(5), torch.Generator().manual_seed(5)
    a = torch.rand(3, generator=g1)
    torch.rand(100)  # the global generator does not disturb g2
    assert torch.rand(3, generator=g2).tolist() == a.tolist()


def test_seed_out_of_range():
    with pytest.raises(RuntimeError, match="Overflow"):
        torch.manual_seed(2**64)


def test_rand_rejects_integer_dtype():
    with pytest.raises(RuntimeError, match="not implemented for"):
        torch.rand(2, dtype=torch.int64)


def test_seed_is_random_and_reported():
    s = torch.seed()
    assert torch.initial_seed() == s


def test_complex_random_fills_the_real_view_as_pytorch():
    # values printed by PyTorch 2.13 for the same seeds: the real view (re, im pairs) is
    # filled as a float tensor, with std / sqrt(2) per part for normal draws
    torch.manual_seed(0)
    assert torch.randn(3, dtype=torch.complex64).tolist() == [
        (1.0896488428115845 - 0.20748557150363922j),
        (-1.5406367778778076 + 0.40194159746170044j),
        (-0.7668731212615967 - 0.9889562726020813j),
    ]
    torch.manual_seed(0)
    assert torch.rand(2, dtype=torch.complex128).tolist() == [
        (0.9700530018065531 + 0.707819864399788j),
        (0.45938294312745087 + 0.9207476841219603j),
    ]
    torch.manual_seed(1)  # 34 doubles: PyTorch's 16-at-a-time normal path
    assert torch.randn(17, dtype=torch.complex128)[-1].item() == (
        0.3438838121856179 + 0.503616908427861j
    )
    assert torch.randn(2, 3, dtype=torch.complex64).stride() == (3, 1)


_FILLS = {
    "geometric": lambda t: t.geometric_(0.3),
    "cauchy": lambda t: t.cauchy_(0.5, 2.0),
    "log_normal": lambda t: t.log_normal_(0.5, 0.75),
}


@pytest.mark.parametrize("name", list(_FILLS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_distribution_fills_match_pytorch(golden, engine_path, name, dtype):
    """Fills of sizes 1, 5, 16, 17, 100, 1000 in a row after one seed, as recorded."""
    expected = golden("random")[f"{name}_{dtype}_seed21"]
    torch.manual_seed(21)
    got = [
        _FILLS[name](torch.empty(len(e), dtype=getattr(torch, dtype))).tolist() for e in expected
    ]
    if dtype == "float64" and name != "geometric":
        # tan, exp, log1p, sin and cos are NumPy's vectorised ones, not the C library's
        # PyTorch calls: a few float64 values differ in the last bits (cauchy values near
        # zero lose relative precision to cancellation)
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g, e, rtol=1e-13, atol=1e-13)
    else:
        assert got == expected  # the double results round to float32 identically


@pytest.mark.parametrize("name", list(_FILLS))
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_distribution_fills_reduced_precision(golden, engine_path, name, dtype):
    torch.manual_seed(22)
    got = _FILLS[name](torch.empty(100, dtype=getattr(torch, dtype))).tolist()
    assert got == golden("random")[f"{name}_{dtype}_seed22"]


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int32", "int64"])
def test_geometric_integer_dtypes_wrap_as_pytorch(golden, engine_path, dtype):
    torch.manual_seed(23)
    got = torch.empty(100, dtype=getattr(torch, dtype)).geometric_(0.002).tolist()
    assert got == golden("random")[f"geometric_p0.002_{dtype}_seed23"]


def test_log_normal_shares_the_cached_normal(engine_path):
    """An odd-sized log_normal_ leaves a normal behind that the next small randn takes,
    and the state saved between them carries it (as PyTorch's generator state does)."""
    g = torch.Generator().manual_seed(4)
    torch.empty(3).log_normal_(generator=g)
    state = g.get_state()
    first = torch.randn(1, dtype=torch.float64, generator=g).item()
    g.set_state(state)
    assert torch.randn(1, dtype=torch.float64, generator=g).item() == first
    g.set_state(state)
    assert torch.empty(1, dtype=torch.float64).log_normal_(2.0, 1.0, generator=g).item() == (
        pytest.approx(np.exp(first + 2.0), rel=1e-15)
    )


def test_exponential_float64_matches_pytorch_to_the_bit(golden, engine_path):
    """-1/lambda * log1p(-u) with the C library's log1p, as PyTorch computes it."""
    torch.manual_seed(24)
    got = torch.empty(2000, dtype=torch.float64).exponential_(2.5).tolist()
    assert got == golden("random")["exponential_f64_seed24"]


def _noncontiguous_cases():
    import json
    import pathlib

    path = pathlib.Path(__file__).parent / "golden" / "random.json"
    return sorted(json.loads(path.read_text())["noncontiguous"]["results"])


@pytest.mark.parametrize("case", _noncontiguous_cases())
def test_noncontiguous_fills_match_pytorch(golden, case):
    """Fills of transposed, permuted, sliced and strided tensors put PyTorch's numbers in
    the same places (TensorIterator's order) and use the same number of draws."""
    recorded = golden("random")["noncontiguous"]
    fill, layout, dtype = case.split("|")
    expected = recorded["results"][case]
    torch.manual_seed(7)
    t = eval(recorded["layouts"][layout], {"torch": torch, "dt": getattr(torch, dtype)})
    out = eval(recorded["fills"][fill][0], {"torch": torch, "t": t})
    values = torch.view_as_real(out) if out.is_complex() else out
    got = values.float().tolist() if dtype == "bfloat16" else values.tolist()
    # the layout (strides of dims of size 1 aside: they address nothing)
    assert [s for s, n in zip(out.stride(), out.shape) if n > 1] == [
        s for s, n in zip(expected["stride"], out.shape) if n > 1
    ]
    if dtype == "float64" and fill in ("cauchy", "log_normal", "normal", "randn_like"):
        # NumPy's tan/exp vs the C library's, and the float64 normal paths' last bits
        np.testing.assert_allclose(got, expected["values"], rtol=1e-13, atol=1e-13)
    elif fill in ("normal", "randn_like") and out.is_contiguous() and out.numel() >= 16:
        # float32's 16-at-a-time path is within an ulp of PyTorch's
        np.testing.assert_allclose(got, expected["values"], rtol=1e-6, atol=1e-6)
    else:
        assert got == expected["values"]
    assert torch.rand(3).tolist() == expected["after"]


_OVERLAP = "more than one element of the written-to tensor refers to a single memory location"

_UNIFORM_SPAN = (
    "uniform_ expects to-from <= std::numeric_limits<Float>::max(), but found "
    "to=3e+38 and from=-3e+38 which result in to-from to exceed the limit"
)

# (dtype, fill called on a tensor of it, the bound PyTorch names, the C++ type it names)
_OUT_OF_BOUNDS = [
    ("float16", "uniform_(0, 1e6)", "to", "c10::Half"),
    ("uint8", "random_(0, 300)", "to - 1", "unsigned char"),
    ("uint8", "random_(-1, 5)", "from", "unsigned char"),
    ("int8", "random_(300)", "to - 1", "signed char"),
    ("float16", "random_(0, 70000)", "to - 1", "c10::Half"),
]

# (call, the kernel PyTorch names, the dtype it has no kernel for)
_NO_KERNEL = [
    ("i.normal_()", "normal_kernel_cpu", "Long"),
    ("torch.empty(2, dtype=torch.int32).log_normal_()", "log_normal_cpu", "Int"),
    ("c.bernoulli_(torch.full((2,), 0.5))", "bernoulli_tensor_cpu_self_", "ComplexFloat"),
    ("x.bernoulli_(torch.tensor([1, 0]))", "bernoulli_tensor_cpu_p_", "Long"),
]


@pytest.mark.parametrize(
    "call,error,message",
    [
        ("x.exponential_(float('nan'))", RuntimeError, "lambda > 0.0, but found lambda=nan"),
        ("x.exponential_(0)", RuntimeError, "lambda > 0.0, but found lambda=0"),
        ("i.exponential_(float('nan'))", RuntimeError, "but found lambda=nan"),
        *[
            (
                f"torch.zeros(3, dtype=torch.{dt}).exponential_()",
                RuntimeError,
                "Exponential distribution is a continuous probability distribution. dtype "
                f"must be a floating point but you specified {name}",
            )
            for dt, name in [
                ("int32", "Int"),
                ("int64", "Long"),
                ("uint8", "Byte"),
                ("bool", "Bool"),
                ("complex64", "ComplexFloat"),
            ]
        ],
        *[
            (
                f"torch.zeros(2, dtype=torch.{dt}).{fill}",
                RuntimeError,
                f"{bound} is out of bounds for {c_type}",
            )
            for dt, fill, bound, c_type in _OUT_OF_BOUNDS
        ],
        *[
            (call, NotImplementedError, f"\"{kernel}\" not implemented for '{dtype}'")
            for call, kernel, dtype in _NO_KERNEL
        ],
        ("i.uniform_(2, 1)", NotImplementedError, '"check_uniform_bounds" not implemented'),
        ("x.uniform_(2, 1)", RuntimeError, "[from, to) range, but found from=2 > to=1"),
        ("x.uniform_(float('nan'), 1)", RuntimeError, "from is out of bounds for float"),
        ("d.uniform_(0, float('inf'))", RuntimeError, "to is out of bounds for double"),
        ("x.uniform_(-3e38, 3e38)", RuntimeError, _UNIFORM_SPAN),
        ("i.normal_(0, -1)", RuntimeError, "normal expects std >= 0.0, but found std -1"),
        ("x.normal_(0, float('nan'))", RuntimeError, "but found std nan"),
        ("c.normal_(0, -1)", RuntimeError, "but found std -1"),
        ("c.random_()", NotImplementedError, '"random_kernel_cpu" not implemented'),
        ("c.random_(0, 5)", RuntimeError, "check_random_bounds handles only integral"),
        ("torch.zeros(2, dtype=torch.bool).random_(0, 3)", RuntimeError, "for bool"),
        ("x.random_(5, 2)", RuntimeError, "'from' to be less than 'to', but got from=5 >= to=2"),
        ("x.bernoulli_(float('nan'))", RuntimeError, "p to be in [0, 1], but got p=nan"),
        ("x.bernoulli_(1.5)", RuntimeError, "p to be in [0, 1], but got p=1.5"),
        ("c.bernoulli_(0.5)", NotImplementedError, '"bernoulli_scalar_cpu_" not implemented'),
        ("x.bernoulli_(torch.tensor([0.5, 2.0]))", RuntimeError, "Expected p_in >= 0"),
        ("x.bernoulli_(torch.tensor([0.5, float('nan')]))", RuntimeError, "Expected p_in >= 0"),
        ("torch.bernoulli(torch.tensor([1, 0]))", NotImplementedError, "'Long'"),
        ("torch.zeros(3).expand(2, 3).uniform_()", RuntimeError, _OVERLAP),
        ("torch.zeros(3).expand(2, 3).normal_()", RuntimeError, _OVERLAP),
        ("torch.zeros(3).expand(2, 3).exponential_()", RuntimeError, _OVERLAP),
        ("torch.zeros(3).expand(2, 3).bernoulli_(0.5)", RuntimeError, _OVERLAP),
        # the other distribution fills
        ("torch.empty(2).geometric_(0)", RuntimeError, "p to be in (0, 1), but got p=0"),
        ("torch.empty(2).geometric_(1.5)", RuntimeError, "but got p=1.5"),
        ("torch.empty(2, dtype=torch.bool).geometric_(0.5)", NotImplementedError, "'Bool'"),
        ("torch.empty(2).cauchy_(1, 0)", RuntimeError, "expects sigma > 0.0, but found sigma=0"),
        (
            "torch.empty(2, dtype=torch.int64).cauchy_()",
            RuntimeError,
            "dtype must be a floating point but you specified long int",
        ),
        ("torch.empty(2).log_normal_(0, -2)", RuntimeError, "std > 0.0, but found std=-2"),
    ],
)
def test_fill_errors_match_pytorch(call, error, message):
    """PyTorch 2.13's error types and messages (recorded by hand); nothing is drawn."""
    names = {
        "torch": torch,
        "x": torch.zeros(2),
        "d": torch.zeros(2, dtype=torch.float64),
        "i": torch.zeros(2, dtype=torch.int64),
        "c": torch.zeros(2, dtype=torch.complex64),
    }
    torch.manual_seed(0)
    expected = torch.rand(2).tolist()
    torch.manual_seed(0)
    with pytest.raises(error) as info:
        eval(call, names)
    assert message in str(info.value)
    assert names["x"].tolist() == [0.0, 0.0]
    assert torch.rand(2).tolist() == expected


def test_random_beyond_exact_integers_warns():
    with pytest.warns(UserWarning, match=r"to - 1 is out of bounds \[-\(2\^24\), 2\^24\]"):
        torch.zeros(2).random_(0, 2**25)


def test_rrelu_training_draws_from_the_given_generator():
    x = torch.randn(6)
    default_state = torch.get_rng_state()
    g = torch.Generator().manual_seed(3)
    out = torch.rrelu(x, 0.1, 0.3, True, g)
    g.manual_seed(3)
    in_place = torch.rrelu_(x.clone(), 0.1, 0.3, True, g)
    assert torch.equal(out, in_place)
    assert torch.equal(torch.get_rng_state(), default_state)  # the default one is untouched
