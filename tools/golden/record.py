"""Record golden outputs of real PyTorch for the tests (run under real PyTorch only).

    python tools/golden/record.py          # from a venv with torch==2.13.0

Each package's tests read ``tests/golden/<name>.json`` and never need PyTorch.
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "packages" / "tensor-core" / "tests"), str(ROOT / "tools" / "golden")]

import cases_core  # noqa: E402
import golden_describe  # noqa: E402


def _dump(package: str, name: str, data) -> None:
    path = ROOT / "packages" / package / "tests" / "golden" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT))


def core_random() -> dict:
    cases = {}
    for seed in (0, 1, 42, 2**32 + 7, -5):
        torch.manual_seed(seed)
        cases[f"rand_f32_seed{seed}"] = torch.rand(40).tolist()
        cases[f"rand_f64_seed{seed}_after"] = torch.rand(20, dtype=torch.float64).tolist()
        cases[f"initial_seed{seed}"] = torch.initial_seed()
    g = torch.Generator()
    cases["fresh_generator_initial_seed"] = g.initial_seed()
    cases["fresh_generator_rand"] = torch.rand(10, generator=g).tolist()
    torch.manual_seed(3)
    cases["uniform_f32_range_seed3"] = torch.empty(2000).uniform_(-3.3, 7.1).tolist()
    torch.manual_seed(3)
    cases["uniform_f64_range_seed3"] = (
        torch.empty(500, dtype=torch.float64).uniform_(-2.5, 0.1).tolist()
    )
    # geometric_, cauchy_, log_normal_: one seed, then fills of several sizes in a row (the
    # sizes around 16 where normal_ changes path; odd sizes leave a cached normal behind)
    fills = {
        "geometric": lambda t: t.geometric_(0.3),
        "cauchy": lambda t: t.cauchy_(0.5, 2.0),
        "log_normal": lambda t: t.log_normal_(0.5, 0.75),
    }
    for name, fill in fills.items():
        for dtype in ("float32", "float64"):
            torch.manual_seed(21)
            cases[f"{name}_{dtype}_seed21"] = [
                fill(torch.empty(n, dtype=getattr(torch, dtype))).tolist()
                for n in (1, 5, 16, 17, 100, 1000)
            ]
        for dtype in ("float16", "bfloat16"):
            torch.manual_seed(22)
            cases[f"{name}_{dtype}_seed22"] = fill(
                torch.empty(100, dtype=getattr(torch, dtype))
            ).tolist()
    for dtype in ("uint8", "int8", "int32", "int64"):
        torch.manual_seed(23)
        t = torch.empty(100, dtype=getattr(torch, dtype))
        cases[f"geometric_p0.002_{dtype}_seed23"] = t.geometric_(0.002).tolist()
    # float64 exponential_: PyTorch's -1/lambda * log1p(-u) with the C library's log1p
    torch.manual_seed(24)
    cases["exponential_f64_seed24"] = (
        torch.empty(2000, dtype=torch.float64).exponential_(2.5).tolist()
    )
    cases["noncontiguous"] = core_random_noncontiguous()
    return cases


# In-place fills of non-contiguous tensors (TensorIterator visits the smallest stride
# fastest; normal_ takes its one-at-a-time path off contiguous tensors). ``dt`` and ``t``
# name the dtype and the tensor in these expressions; tests eval the same strings.
RANDOM_LAYOUTS = {
    "transposed": "torch.empty(4, 3, dtype=dt).t()",
    "permuted": "torch.empty(2, 3, 4, dtype=dt).permute(2, 0, 1)",
    "column": "torch.empty(3, 4, dtype=dt)[:, 1]",
    "rows_step2": "torch.empty(6, 4, dtype=dt)[::2]",
    "gaps_transposed": "torch.empty(5, 8, dtype=dt)[:, ::2].t()",
    "transposed_20": "torch.empty(5, 4, dtype=dt).t()",
    "step2_20": "torch.empty(40, dtype=dt)[::2]",
    "block": "torch.empty(5, 6, dtype=dt)[1:4, 2:5]",
    "channels_last": "torch.empty(1, 5, 2, 4, dtype=dt).permute(0, 3, 1, 2)",
    "odd_strides": "torch.empty(10, dtype=dt).as_strided((2, 3), (3, 2))",
    "size1_dims": "torch.empty(3, 1, 4, dtype=dt).permute(1, 2, 0)",
}
RANDOM_FILLS = {
    "uniform": ("t.uniform_(-2, 3)", ("float32", "float64", "complex64", "float16")),
    "normal": ("t.normal_(1, 2)", ("float32", "float64", "complex64", "bfloat16")),
    "random": ("t.random_(0, 1000)", ("float32", "int32", "int64")),
    "random_full": ("t.random_()", ("int64", "uint8", "bool")),
    "exponential": ("t.exponential_(1.5)", ("float32", "float64")),
    "geometric": ("t.geometric_(0.3)", ("float32", "int64")),
    "cauchy": ("t.cauchy_()", ("float32", "float64")),
    "log_normal": ("t.log_normal_()", ("float32", "float64")),
    "bernoulli": ("t.bernoulli_(0.5)", ("float32", "int64")),
    "bernoulli_p32": ("t.bernoulli_(torch.full(t.shape, 0.3))", ("float32", "float64")),
    "bernoulli_p64": (
        "t.bernoulli_(torch.full(t.shape, 0.3, dtype=torch.float64))",
        ("float32", "int64"),
    ),
    "bernoulli_p_row": ("t.bernoulli_(torch.rand(t.shape[-1]))", ("float32",)),
    "rand_like": ("torch.rand_like(t)", ("float32",)),
    "randn_like": ("torch.randn_like(t)", ("float32", "float64")),
    "randint_like": ("torch.randint_like(t, 100)", ("int64",)),
    "bernoulli_fn": ("torch.bernoulli(t.fill_(0.5))", ("float32", "float64")),
}


def core_random_noncontiguous() -> dict:
    results = {}
    for fill, (code, dtypes) in RANDOM_FILLS.items():
        for layout, make in RANDOM_LAYOUTS.items():
            for dtype in dtypes:
                torch.manual_seed(7)
                t = eval(make, {"torch": torch, "dt": getattr(torch, dtype)})
                out = eval(code, {"torch": torch, "t": t})
                values = torch.view_as_real(out) if out.is_complex() else out
                results[f"{fill}|{layout}|{dtype}"] = {
                    "values": values.float().tolist() if dtype == "bfloat16" else values.tolist(),
                    "stride": list(out.stride()),
                    "after": torch.rand(3).tolist(),
                }
    return {"layouts": RANDOM_LAYOUTS, "fills": RANDOM_FILLS, "results": results}


def core_promotion() -> dict:
    dtypes = [
        "bool",
        "uint8",
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "bfloat16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ]
    table = {}
    for a in dtypes:
        for b in dtypes:
            table[f"{a},{b}"] = str(torch.promote_types(getattr(torch, a), getattr(torch, b)))
    scalars = {}
    for a in dtypes:
        t = torch.ones(2, dtype=getattr(torch, a))
        z = torch.ones((), dtype=getattr(torch, a))
        for label, value in (("int", 2), ("float", 2.5), ("bool", True), ("complex", 1j)):
            scalars[f"{a},{label}"] = str((t * value).dtype)
        for b in dtypes:
            scalars[f"{a},zerodim:{b}"] = str((t * torch.ones((), dtype=getattr(torch, b))).dtype)
            scalars[f"zerodim:{a},zerodim:{b}"] = str(
                (z * torch.ones((), dtype=getattr(torch, b))).dtype
            )
    return {"promote_types": table, "mul": scalars}


# Expressions whose repr is compared; the tests evaluate the same strings.
REPR_SAMPLES = {
    "ints": "torch.tensor([[1, 2], [3, 40]])",
    "floats": "torch.tensor([0.5, 1.25, -3.0])",
    "integral_floats": "torch.tensor([1.0, 2.0, -3.0])",
    "wide": "torch.tensor([1e-5, 1.0, 1e4])",
    "double": "torch.tensor([1.5, 2.0], dtype=torch.float64)",
    "int32": "torch.tensor([1, 2], dtype=torch.int32)",
    "bool": "torch.tensor([True, False])",
    "scalar": "torch.tensor(3.5)",
    "empty": "torch.zeros(0)",
    "empty2d": "torch.zeros(2, 0)",
    "matrix": "torch.arange(6.0).reshape(2, 3) / 3",
    "cube": "torch.arange(8).reshape(2, 2, 2)",
    "requires_grad": "torch.tensor([1.0, 2.0], requires_grad=True)",
    "nan_inf": "torch.tensor([float('nan'), float('inf'), 1.5])",
}


def core_repr() -> dict:
    return {k: {"code": code, "repr": repr(eval(code))} for k, code in REPR_SAMPLES.items()}


def autograd_cases() -> dict:
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    b = torch.tensor(0.25, requires_grad=True)
    y = ((x @ w) * x.sum(1) / (b + 1) - x.mean()).sum()
    y.backward()
    return {
        "loss": y.item(),
        "x_grad": x.grad.tolist(),
        "w_grad": w.grad.tolist(),
        "b_grad": b.grad.item(),
    }


def optim_sgd() -> dict:
    cases = {}
    options = {
        "plain": dict(lr=0.1),
        "momentum": dict(lr=0.05, momentum=0.9),
        "dampening_wd": dict(lr=0.05, momentum=0.9, dampening=0.3, weight_decay=0.01),
        "nesterov": dict(lr=0.05, momentum=0.8, nesterov=True),
        "maximize": dict(lr=0.02, momentum=0.5, maximize=True),
    }
    for name, kwargs in options.items():
        w = torch.tensor([1.5, -0.5, 2.0], requires_grad=True)
        opt = torch.optim.SGD([w], **kwargs)
        trajectory = []
        for _ in range(20):
            opt.zero_grad()
            loss = ((w * w) * torch.tensor([1.0, 3.0, 0.5]) - w).sum()
            loss.backward()
            opt.step()
            trajectory.append(w.tolist())
        cases[name] = {"options": kwargs, "trajectory": trajectory}
    return cases


SUM_SIZES = [*range(1, 70), 100, 127, 128, 129, 255, 256, 511, 512, 513, 1000, 2047, 2048]
SUM_SIZES += [4095, 4096, 8191, 8192, 8193, 10000, 16385, 32768]


def core_sums() -> dict:
    """PyTorch's full sums of float vectors, for the cascade-sum reference (torch._sum_ref)."""
    return {
        dtype: {
            n: torch.from_numpy(golden_describe.sum_inputs(n, dtype)).sum().item()
            for n in SUM_SIZES
        }
        for dtype in ("float32", "float64")
    }


def core_expressions() -> dict:
    return {
        "setup": cases_core.SETUP,
        "groups": {
            group: {code: golden_describe.outcome(torch, code, cases_core.SETUP) for code in codes}
            for group, codes in cases_core.GROUPS.items()
        },
    }


if __name__ == "__main__":
    _dump("tensor-core", "random", core_random())
    _dump("tensor-core", "promotion", core_promotion())
    _dump("tensor-core", "repr", core_repr())
    _dump("tensor-core", "expressions", core_expressions())
    _dump("tensor-core", "sums", core_sums())
    _dump("autograd", "engine", autograd_cases())
    _dump("optim", "sgd", optim_sgd())
