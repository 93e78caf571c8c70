"""What PyTorch 2.13 does with its "limited support" dtypes (uint16/32/64 and the float8
types): which ops run and which refuse, promotion, limits, conversions and printing.
Recorded by tools/golden/record_dtypes.py into golden/limited_dtypes.json; the same
functions run here against this project in tests/test_dtype_limited.py.

Every case is an expression over ``torch``, ``a`` and ``b`` (two small tensors of the
dtype under test, ``[1, 2, 3]`` and ``[3, 2, 1]``)."""

from __future__ import annotations

UINTS = ("uint16", "uint32", "uint64")
FLOAT8S = ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu")
LIMITED = UINTS + FLOAT8S
CLASSIC = (
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
)

BINARY = (
    "add sub mul div floor_divide remainder pow eq ne lt le gt ge bitwise_and bitwise_or "
    "bitwise_xor bitwise_left_shift bitwise_right_shift logical_and logical_or logical_xor "
    "maximum minimum fmax fmin atan2 hypot fmod"
).split()
UNARY = (
    "neg abs sign exp log bitwise_not sqrt rsqrt expm1 log1p log2 log10 sin cos tan asin acos "
    "atan sinh cosh tanh asinh acosh atanh sigmoid logit erf erfc erfinv lgamma digamma "
    "reciprocal square floor ceil trunc frac round nan_to_num i0"
).split()

OTHER = {
    "a + 1": "a + 1",
    "a * 2": "a * 2",
    "a * 2.5": "a * 2.5",
    "a / 2": "a / 2",
    "a == 2": "a == 2",
    "a > 1": "a > 1",
    "-a": "-a",
    "~a": "~a",
    "sum": "a.sum()",
    "prod": "a.prod()",
    "mean": "a.mean()",
    "max": "a.max()",
    "min": "a.min()",
    "argmax": "a.argmax()",
    "amax": "a.amax(0)",
    "max_dim": "a.max(0).values",
    "min_dim": "a.min(dim=0).values",
    "max_binary": "torch.max(a, b)",
    "argmin": "a.argmin()",
    "amin": "a.amin()",
    "sum_dim": "a.sum(0)",
    "clamp_min": "a.clamp(min=1)",
    "clamp_max": "a.clamp(max=2)",
    "clamp_tensor": "a.clamp(b)",
    "sort_descending": "a.sort(descending=True).values",
    "cumsum": "a.cumsum(0)",
    "sort": "a.sort().values",
    "argsort": "a.argsort()",
    "flip": "a.flip(0)",
    "clamp": "a.clamp(1, 2)",
    "where": "torch.where(a == b, a, b)",
    "cat": "torch.cat([a, b])",
    "stack": "torch.stack([a, b])",
    "nonzero": "a.nonzero()",
    "index_select": "a.index_select(0, torch.tensor([0, 2]))",
    "getitem_int": "a[1]",
    "getitem_list": "a[[0, 2]]",
    "getitem_mask": "a[torch.tensor([True, False, True])]",
    "masked_fill": "a.masked_fill(torch.tensor([True, False, True]), 0)",
    "clone": "a.clone()",
    "contiguous": "a.view(3, 1).t().contiguous()",
    "reshape": "a.reshape(3, 1)",
    "fill_": "a.clone().fill_(2)",
    "zero_": "a.clone().zero_()",
    "copy_": "a.clone().copy_(b)",
    "zeros": "torch.zeros(2, dtype=a.dtype)",
    "ones": "torch.ones(2, dtype=a.dtype)",
    "full": "torch.full((2,), 2, dtype=a.dtype)",
    "zeros_like": "torch.zeros_like(a)",
    "ones_like": "torch.ones_like(a)",
    "arange": "torch.arange(3, dtype=a.dtype)",
    "isnan": "a.isnan()",
    "isfinite": "a.isfinite()",
    "all": "a.all()",
    "any": "a.any()",
    "unique": "torch.unique(a)",
    "equal": "torch.equal(a, b)",
    "to_float": "a.to(torch.float32)",
    "to_int64": "a.to(torch.int64)",
    "float_to": "torch.tensor([1.0, 2.0, 3.0]).to(a.dtype)",
    "int_to": "torch.tensor([1, 2, 3]).to(a.dtype)",
    "view_uint8": "a.view(torch.uint8)",
    "type_name": "a.type()",
    "tolist": "a.tolist()",
    "item": "a[0].item()",
    "repr": "repr(a)",
    "repr_0dim": "repr(a[0])",
    "repr_zeros": "repr(torch.zeros(2, 3, dtype=a.dtype))",
    "repr_wide": "repr(torch.tensor([0.1, 1.5, 3.0, 500.0]).to(a.dtype))",
    "numpy_dtype": "str(a.numpy().dtype)",
}


def all_cases() -> dict:
    """Case name -> expression, over every op family above."""
    cases = {f"torch.{name}(a, b)": f"torch.{name}(a, b)" for name in BINARY}
    cases.update({f"torch.{name}(a)": f"torch.{name}(a)" for name in UNARY})
    cases.update(OTHER)
    return cases


def make_operands(torch, name):
    dtype = getattr(torch, name)
    if name in UINTS:
        return torch.tensor([1, 2, 3]).to(dtype), torch.tensor([3, 2, 1]).to(dtype)
    return torch.tensor([1.0, 2.0, 4.0]).to(dtype), torch.tensor([4.0, 2.0, 1.0]).to(dtype)


def describe(value) -> str:
    """A value as text that both libraries print alike."""
    if hasattr(value, "dtype") and hasattr(value, "tolist") and not isinstance(value, str):
        return f"{value.dtype}:{value.tolist()}"
    return repr(value) if not isinstance(value, str) else value


def outcome(torch, code: str, name: str) -> str:
    a, b = make_operands(torch, name)
    try:
        return describe(eval(code, {"torch": torch, "a": a, "b": b}))
    except Exception as error:  # noqa: BLE001 - the error is what is recorded
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"


def promotions(torch) -> dict:
    """``promote_types(x, y)`` for every limited dtype against every dtype."""
    table = {}
    for x in LIMITED:
        for y in LIMITED + CLASSIC:
            for first, second in ((x, y), (y, x)):
                try:
                    result = str(torch.promote_types(getattr(torch, first), getattr(torch, second)))
                except RuntimeError as error:
                    result = f"RuntimeError: {error}"
                table[f"{first},{second}"] = result
    return table


def limits(torch) -> dict:
    """``finfo``/``iinfo`` fields and reprs of every dtype that has them."""
    table = {}
    for name in UINTS + ("uint8", "int8", "int16", "int32", "int64"):
        info = torch.iinfo(getattr(torch, name))
        table[name] = {"bits": info.bits, "min": info.min, "max": info.max, "repr": repr(info)}
    for name in FLOAT8S + ("float16", "bfloat16", "float32", "float64"):
        info = torch.finfo(getattr(torch, name))
        fields = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution")
        table[name] = {field: getattr(info, field) for field in fields}
        table[name]["repr"] = repr(info)
    return table


CONVERSION_VALUES = [
    0.0, -0.0, 1e-9, 0.001, 0.3, 0.75, 3.0, 6.0, 440.0, 460.0, 464.0, 470.0, 480.0, 500.0,
    -500.0, 1000.0, 57344.0, 60000.0, 61440.0, 70000.0, 1e30,
]  # fmt: skip


def conversions(torch) -> dict:
    """float32/float64 values converted to each float8 type and back to float64 (non-finite
    values written as strings)."""
    special = [float("inf"), float("-inf"), float("nan")]
    table = {}
    for name in FLOAT8S:
        for source in ("float32", "float64", "float16"):
            x = torch.tensor(CONVERSION_VALUES + special, dtype=getattr(torch, source))
            back = x.to(getattr(torch, name)).to(torch.float64).tolist()
            table[f"{source}->{name}"] = [
                v if v == v and abs(v) != float("inf") else str(v) for v in back
            ]
    return table
