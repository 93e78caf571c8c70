"""Differential check of an array API namespace against array-api-strict (the standard's
reference implementation, 2024.12 revision): every function of the standard is called
on the same generated inputs in both, and a function passes when every example gives
the same dtype, shape and values (or both raise).

    python tools/array_api_conformance.py torch numpy   # one line per subject
    python tools/array_api_conformance.py torch -v      # and each failing function

Subjects: ``torch`` (``torch.Tensor.__array_namespace__()``) and ``numpy`` (NumPy's own
namespace, for comparison). Needs ``array-api-strict`` (the nox session ``array-api``
installs it). Used, with few examples, by packages/tensor-core/tests/test_array_api.py.
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings

import numpy as np

INT = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
REAL = ("float32", "float64")
CPLX = ("complex64", "complex128")
REAL_NUMERIC = INT + REAL
NUMERIC = REAL_NUMERIC + CPLX
ALL = ("bool",) + NUMERIC
FLOAT = REAL + CPLX


def subject_namespace(name: str):
    if name == "numpy":
        return np
    if name == "torch":
        import torch

        return torch.zeros(1).__array_namespace__()
    raise SystemExit(f"unknown subject {name!r}")


# ------------------------------------------------------------------ input data


def values(rng, dtype: str, shape) -> np.ndarray:
    """Random values of ``dtype`` with the awkward ones mixed in (0, -0, inf, nan)."""
    return np.asarray(_values(rng, dtype, shape))


def _values(rng, dtype: str, shape):
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype in INT:
        info = np.iinfo(dtype)
        low, high = (max(info.min, -50), min(info.max, 50))
        return rng.integers(low, high + 1, shape).astype(dtype)
    real = rng.normal(0, 3, shape)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5])
    mask = rng.random(shape) < 0.15
    real = np.where(mask, rng.choice(special, shape), real)
    if dtype in CPLX:
        imag = rng.normal(0, 3, shape)
        return (real + 1j * imag).astype(dtype)
    return real.astype(dtype)


def shape_of(rng, ndim_max=3):
    """A small shape: 0 to ``ndim_max`` dims, a zero-size dim now and then."""
    low = 0 if rng.random() < 0.1 else 1
    return tuple(int(n) for n in rng.integers(low, 4, rng.integers(0, ndim_max + 1)))


#: dtype pairs of different kinds of integer that the standard promotes
MIXED_PAIRS = (
    ("int8", "uint8"),
    ("int16", "uint8"),
    ("int32", "uint16"),
    ("int64", "uint32"),
    ("uint8", "uint64"),
    ("int8", "int64"),
    ("float32", "float64"),
    ("float32", "complex128"),
    ("complex64", "float64"),
)


def mixed(rng):
    first, second = MIXED_PAIRS[rng.integers(len(MIXED_PAIRS))]
    shape = shape_of(rng)
    return (values(rng, first, shape), values(rng, second, shape))


# ------------------------------------------------------------------ cases


class Case:
    """``call(xp, *arrays)`` with NumPy inputs made per example by ``make(rng)``."""

    def __init__(self, make, call):
        self.make, self.call = make, call


def unary(dtypes):
    def make(rng):
        dtype = dtypes[rng.integers(len(dtypes))]
        return (values(rng, dtype, shape_of(rng)),)

    return make


def binary(dtypes, scalar=False):
    def make(rng):
        dtype = dtypes[rng.integers(len(dtypes))]
        shape = shape_of(rng)
        other = shape[rng.integers(len(shape) + 1) :] if shape else ()
        return (values(rng, dtype, shape), values(rng, dtype, other))

    return make


def fn(name, *args, **kwargs):
    return lambda xp, *arrays: _resolve(xp, name)(*arrays, *args, **kwargs)


def _resolve(xp, name):
    obj = xp
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def fixed(*builders):
    """A case whose inputs are a fixed random draw of given dtypes and shapes."""

    def make(rng):
        return tuple(values(rng, dtype, shape) for dtype, shape in builders)

    return make


def no_input(rng):
    return ()


def positive_matrices(dtypes, n=3):
    def make(rng):
        dtype = dtypes[rng.integers(len(dtypes))]
        a = rng.normal(size=(2, n, n))
        return ((a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype),)

    return make


def matrices(dtypes, shape=(2, 3, 3)):
    def make(rng):
        dtype = dtypes[rng.integers(len(dtypes))]
        return (rng.normal(size=shape).astype(dtype),)

    return make


def cases() -> dict:
    c = {}
    for name in "abs negative positive square sign isfinite isinf isnan".split():
        c[name] = Case(unary(NUMERIC), fn(name))
    for name in "ceil floor trunc".split():
        c[name] = Case(unary(REAL_NUMERIC), fn(name))
    c["round"] = Case(unary(NUMERIC), fn("round"))
    c["signbit"] = Case(unary(REAL), fn("signbit"))
    for name in (
        "acos acosh asin asinh atan atanh cos cosh exp expm1 log log1p log2 log10 sin sinh "
        "sqrt tan tanh reciprocal"
    ).split():
        c[name] = Case(unary(FLOAT), fn(name))
    for name in "conj real imag".split():
        c[name] = Case(unary(CPLX), fn(name))
    c["bitwise_invert"] = Case(unary(("bool",) + INT), fn("bitwise_invert"))
    c["logical_not"] = Case(unary(("bool",)), fn("logical_not"))
    for name in "add subtract multiply".split():
        c[name] = Case(binary(NUMERIC), fn(name))
    c["divide"] = Case(binary(FLOAT), fn("divide"))
    for name in "maximum minimum".split():
        c[name] = Case(binary(REAL_NUMERIC), fn(name))
    for name in "atan2 copysign hypot logaddexp nextafter".split():
        c[name] = Case(binary(REAL), fn(name))
    for name in "equal not_equal".split():
        c[name] = Case(binary(ALL), fn(name))
    for name in "less less_equal greater greater_equal".split():
        c[name] = Case(binary(REAL_NUMERIC), fn(name))
    for name in "bitwise_and bitwise_or bitwise_xor".split():
        c[name] = Case(binary(("bool",) + INT), fn(name))
    for name in "logical_and logical_or logical_xor".split():
        c[name] = Case(binary(("bool",)), fn(name))
    c["bitwise_left_shift"] = Case(fixed(("int32", (4,)), ("int32", (4,))), _shift("left"))
    c["bitwise_right_shift"] = Case(fixed(("int64", (4,)), ("int64", (4,))), _shift("right"))
    c["floor_divide"] = Case(binary(REAL), fn("floor_divide"))
    c["remainder"] = Case(binary(REAL), fn("remainder"))
    c["pow"] = Case(binary(FLOAT), fn("pow"))
    c["clip"] = Case(unary(REAL_NUMERIC), lambda xp, x: xp.clip(x, min=-2, max=3))
    # creation
    c["arange"] = Case(no_input, lambda xp: xp.arange(2, 11, 3))
    c["asarray"] = Case(no_input, lambda xp: xp.asarray([[1.5, 2.0], [3.0, -1.0]]))
    c["asarray_ints"] = Case(no_input, lambda xp: xp.asarray([[1, 2], [3, -1]]))
    c["asarray_copy"] = Case(unary(NUMERIC), lambda xp, x: xp.asarray(x, copy=True))
    c["empty"] = Case(no_input, lambda xp: xp.empty((2, 3)).shape)
    c["empty_like"] = Case(unary(ALL), lambda xp, x: xp.empty_like(x).shape)
    c["eye"] = Case(no_input, lambda xp: xp.eye(3, 4, k=1, dtype=xp.int32))
    c["full"] = Case(no_input, lambda xp: xp.full((2, 2), 7))
    c["full_like"] = Case(unary(NUMERIC), lambda xp, x: xp.full_like(x, 3))
    c["linspace"] = Case(no_input, lambda xp: xp.linspace(0, 1, num=5, dtype=xp.float64))
    c["meshgrid"] = Case(
        fixed(("float64", (3,)), ("float64", (2,))), lambda xp, a, b: xp.meshgrid(a, b)
    )
    c["ones"] = Case(no_input, lambda xp: xp.ones((2,), dtype=xp.uint16))
    c["ones_like"] = Case(unary(ALL), lambda xp, x: xp.ones_like(x))
    c["zeros"] = Case(no_input, lambda xp: xp.zeros((3,), dtype=xp.uint32))
    c["zeros_like"] = Case(unary(ALL), lambda xp, x: xp.zeros_like(x))
    c["tril"] = Case(matrices(REAL, (2, 3, 4)), lambda xp, x: xp.tril(x, k=1))
    c["triu"] = Case(matrices(REAL, (2, 3, 4)), lambda xp, x: xp.triu(x, k=-1))
    c["from_dlpack"] = Case(unary(NUMERIC), lambda xp, x: xp.from_dlpack(x))
    # data type functions
    c["astype"] = Case(unary(REAL_NUMERIC), lambda xp, x: xp.astype(x, xp.float64))
    c["can_cast"] = Case(no_input, lambda xp: [
        xp.can_cast(getattr(xp, a), getattr(xp, b)) for a in ALL for b in ALL
    ])  # fmt: skip
    c["result_type"] = Case(no_input, _result_types)
    c["finfo"] = Case(no_input, lambda xp: [
        (f.bits, f.eps, f.max, f.min, f.smallest_normal)
        for f in (xp.finfo(xp.float32), xp.finfo(xp.complex128))
    ])  # fmt: skip
    c["iinfo"] = Case(no_input, lambda xp: [
        (xp.iinfo(getattr(xp, t)).bits, xp.iinfo(getattr(xp, t)).max) for t in INT
    ])  # fmt: skip
    c["isdtype"] = Case(no_input, lambda xp: [
        xp.isdtype(getattr(xp, t), k) for t in ALL
        for k in ("bool", "signed integer", "unsigned integer", "integral", "real floating",
                  "complex floating", "numeric")
    ])  # fmt: skip
    # manipulation
    c["broadcast_arrays"] = Case(binary(ALL), lambda xp, a, b: xp.broadcast_arrays(a, b))
    c["broadcast_to"] = Case(fixed(("int16", (3, 1))), lambda xp, x: xp.broadcast_to(x, (2, 3, 4)))
    c["concat"] = Case(
        fixed(("int8", (2, 3)), ("int16", (1, 3))), lambda xp, a, b: xp.concat((a, b), axis=0)
    )
    c["expand_dims"] = Case(unary(ALL), lambda xp, x: xp.expand_dims(x, axis=0))
    c["flip"] = Case(unary(ALL), lambda xp, x: xp.flip(x))
    c["moveaxis"] = Case(fixed(("float32", (2, 3, 4))), lambda xp, x: xp.moveaxis(x, 0, -1))
    c["permute_dims"] = Case(
        fixed(("uint8", (2, 3, 4))), lambda xp, x: xp.permute_dims(x, (2, 0, 1))
    )
    c["repeat"] = Case(fixed(("int32", (2, 3))), lambda xp, x: xp.repeat(x, 2, axis=1))
    c["reshape"] = Case(fixed(("float64", (2, 6))), lambda xp, x: xp.reshape(x, (3, 4)))
    c["roll"] = Case(unary(ALL), lambda xp, x: xp.roll(x, 1))
    c["squeeze"] = Case(fixed(("int64", (2, 1, 3))), lambda xp, x: xp.squeeze(x, axis=1))
    c["stack"] = Case(
        fixed(("float32", (2, 3)), ("float32", (2, 3))), lambda xp, a, b: xp.stack((a, b), axis=1)
    )
    c["tile"] = Case(fixed(("int8", (2, 3))), lambda xp, x: xp.tile(x, (2, 1)))
    c["unstack"] = Case(fixed(("float64", (3, 2))), lambda xp, x: xp.unstack(x, axis=1))
    # indexing
    c["take"] = Case(fixed(("float32", (5,))), lambda xp, x: xp.take(x, xp.asarray([0, 3, 3])))
    c["take_along_axis"] = Case(fixed(("float64", (2, 4))), _take_along)
    # linear algebra
    c["matmul"] = Case(
        fixed(("float64", (2, 3, 4)), ("float64", (4, 2))), lambda xp, a, b: xp.matmul(a, b)
    )
    c["matrix_transpose"] = Case(unary(ALL), _matrix_transpose)
    c["tensordot"] = Case(
        fixed(("float64", (2, 3)), ("float64", (3, 4))), lambda xp, a, b: xp.tensordot(a, b, axes=1)
    )
    c["vecdot"] = Case(
        fixed(("complex128", (2, 3)), ("complex128", (2, 3))), lambda xp, a, b: xp.vecdot(a, b)
    )
    # searching, sorting, sets
    c["argmax"] = Case(unary(REAL_NUMERIC), lambda xp, x: xp.argmax(x))
    c["argmin"] = Case(unary(REAL_NUMERIC), lambda xp, x: xp.argmin(x, axis=-1 if x.ndim else None))
    c["count_nonzero"] = Case(unary(ALL), lambda xp, x: xp.count_nonzero(x))
    c["nonzero"] = Case(fixed(("int8", (3, 4))), lambda xp, x: xp.nonzero(x))
    c["searchsorted"] = Case(fixed(("float64", (6,)), ("float64", (4,))), _searchsorted)
    c["where"] = Case(binary(NUMERIC), lambda xp, a, b: xp.where(a == a, a, b))
    c["argsort"] = Case(
        fixed(("int8", (3, 6))), lambda xp, x: xp.argsort(x, axis=1, descending=True, stable=True)
    )
    c["sort"] = Case(unary(REAL_NUMERIC), lambda xp, x: xp.sort(x, axis=-1) if x.ndim else x)
    c["unique_all"] = Case(fixed(("int16", (8,))), lambda xp, x: xp.unique_all(x))
    c["unique_counts"] = Case(fixed(("int32", (8,))), lambda xp, x: xp.unique_counts(x))
    c["unique_inverse"] = Case(fixed(("uint8", (2, 4))), lambda xp, x: xp.unique_inverse(x))
    c["unique_values"] = Case(fixed(("float32", (8,))), lambda xp, x: xp.unique_values(x))
    # statistics and utilities
    for name in ("max", "min"):
        c[name] = Case(unary(REAL_NUMERIC), _reduce(name))
    for name in ("sum", "prod"):
        c[name] = Case(unary(NUMERIC), _reduce(name))
    c["mean"] = Case(unary(REAL), _reduce("mean"))
    c["std"] = Case(
        unary(REAL), lambda xp, x: xp.std(x, correction=1) if math.prod(x.shape) > 1 else 0
    )
    c["var"] = Case(unary(REAL), lambda xp, x: xp.var(x, axis=-1 if x.ndim else None))
    c["all"] = Case(unary(ALL), _reduce("all"))
    c["any"] = Case(unary(ALL), _reduce("any"))
    c["cumulative_sum"] = Case(
        fixed(("uint8", (3, 4))), lambda xp, x: xp.cumulative_sum(x, axis=1, include_initial=True)
    )
    c["cumulative_prod"] = Case(
        fixed(("int32", (3, 4))), lambda xp, x: xp.cumulative_prod(x, axis=0)
    )
    c["diff"] = Case(fixed(("int64", (3, 5))), lambda xp, x: xp.diff(x, axis=1, n=2))
    # extensions
    c["linalg.cholesky"] = Case(positive_matrices(REAL), fn("linalg.cholesky", upper=True))
    c["linalg.cross"] = Case(
        fixed(("float64", (2, 3)), ("float64", (2, 3))), lambda xp, a, b: xp.linalg.cross(a, b)
    )
    for name in ("det", "inv", "eigvalsh", "svdvals"):
        make = positive_matrices(REAL) if name == "eigvalsh" else matrices(("float64",))
        c[f"linalg.{name}"] = Case(make, fn(f"linalg.{name}"))
    c["linalg.diagonal"] = Case(matrices(REAL), fn("linalg.diagonal", offset=1))
    c["linalg.matrix_norm"] = Case(matrices(("float64",)), fn("linalg.matrix_norm", ord="nuc"))
    c["linalg.matrix_power"] = Case(
        matrices(("float64",)), lambda xp, x: xp.linalg.matrix_power(x, 3)
    )
    c["linalg.matrix_rank"] = Case(matrices(("float64",)), fn("linalg.matrix_rank"))
    c["linalg.outer"] = Case(
        fixed(("float32", (3,)), ("float32", (2,))), lambda xp, a, b: xp.linalg.outer(a, b)
    )
    c["linalg.pinv"] = Case(matrices(("float64",), (3, 2)), fn("linalg.pinv"))
    c["linalg.slogdet"] = Case(matrices(("float64",)), lambda xp, x: tuple(xp.linalg.slogdet(x)))
    c["linalg.solve"] = Case(
        fixed(("float64", (3, 3)), ("float64", (3, 2))), lambda xp, a, b: xp.linalg.solve(a, b)
    )
    c["linalg.trace"] = Case(matrices(("float32", "int32")), fn("linalg.trace"))
    c["linalg.vector_norm"] = Case(unary(REAL), fn("linalg.vector_norm", ord=3))
    c["linalg.eigh"] = Case(positive_matrices(REAL), lambda xp, x: xp.linalg.eigh(x).eigenvalues)
    c["linalg.qr"] = Case(matrices(("float64",)), lambda xp, x: abs(xp.linalg.qr(x).R))
    c["linalg.svd"] = Case(matrices(("float64",)), lambda xp, x: xp.linalg.svd(x).S)
    for name in ("matmul", "matrix_transpose", "tensordot", "vecdot"):
        c[f"linalg.{name}"] = Case(
            fixed(("float64", (3, 3)), ("float64", (3, 3))),
            lambda xp, a, b, name=name: _linalg_twin(xp, name, a, b),
        )
    for name in ("fft", "ifft", "fftn", "ifftn", "rfft", "rfftn", "hfft", "ihfft"):
        dtypes = REAL if name.startswith(("r", "ih")) else ("complex64", "complex128")
        c[f"fft.{name}"] = Case(matrices(dtypes, (4, 6)) if dtypes == REAL else _cplx((4, 6)),
                                fn(f"fft.{name}"))  # fmt: skip
    for name in ("irfft", "irfftn"):
        c[f"fft.{name}"] = Case(_cplx((4, 6)), fn(f"fft.{name}"))
    c["fft.fftfreq"] = Case(no_input, lambda xp: xp.fft.fftfreq(8, d=0.5))
    c["fft.rfftfreq"] = Case(no_input, lambda xp: xp.fft.rfftfreq(9, d=0.25))
    c["fft.fftshift"] = Case(matrices(REAL, (3, 4)), fn("fft.fftshift"))
    c["fft.ifftshift"] = Case(matrices(REAL, (3, 4)), fn("fft.ifftshift"))
    c["__array_namespace_info__"] = Case(no_input, _info)
    # promotion across dtypes, Python scalars, keyword variants
    for name in ("add", "multiply", "equal", "less", "maximum", "where"):
        call = (lambda xp, a, b: xp.where(a == a, a, b)) if name == "where" else fn(name)
        if name in ("less", "maximum"):
            call = _real_only(call)
        c[f"{name}[mixed dtypes]"] = Case(mixed, call)
    c["add[int scalar]"] = Case(unary(NUMERIC), lambda xp, x: xp.add(x, 3))
    c["multiply[float scalar]"] = Case(unary(FLOAT), lambda xp, x: xp.multiply(x, 1.5))
    c["subtract[scalar first]"] = Case(unary(REAL), lambda xp, x: xp.subtract(2.0, x))
    c["where[scalars]"] = Case(unary(REAL), lambda xp, x: xp.where(x > 0, x, 0.0))
    c["sum[dtype]"] = Case(unary(INT), lambda xp, x: xp.sum(x, dtype=xp.float64))
    c["sum[tuple axis]"] = Case(
        fixed(("uint16", (2, 3, 4))), lambda xp, x: xp.sum(x, axis=(0, 2), keepdims=True)
    )
    c["prod[int8]"] = Case(
        unary(("int8", "uint8")), lambda xp, x: xp.prod(x, axis=0) if x.ndim else x
    )
    c["max[tuple axis]"] = Case(fixed(("float32", (2, 3, 4))), lambda xp, x: xp.max(x, axis=(0, 1)))
    c["mean[empty]"] = Case(fixed(("float64", (0,))), lambda xp, x: xp.mean(x))
    c["concat[axis None]"] = Case(
        fixed(("int32", (2, 2)), ("int32", (3,))), lambda xp, a, b: xp.concat((a, b), axis=None)
    )
    c["squeeze[not 1]"] = Case(fixed(("int8", (2, 3))), lambda xp, x: xp.squeeze(x, axis=0))
    c["reshape[copy]"] = Case(
        fixed(("float32", (2, 3))),
        lambda xp, x: xp.reshape(xp.matrix_transpose(x), (6,), copy=True),
    )
    c["astype[no copy]"] = Case(unary(ALL), lambda xp, x: xp.astype(x, x.dtype, copy=False))
    c["sort[descending]"] = Case(
        fixed(("float64", (3, 5))), lambda xp, x: xp.sort(x, axis=0, descending=True)
    )
    c["clip[array bounds]"] = Case(
        fixed(("float64", (3, 4)), ("float64", (4,))), lambda xp, x, lo: xp.clip(x, min=lo)
    )
    return c


def _real_only(call):
    def checked(xp, a, b):
        if "complex" in str(a.dtype) or "complex" in str(b.dtype):
            return 0
        return call(xp, a, b)

    return checked


def _cplx(shape):
    def make(rng):
        return ((rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype("complex128"),)

    return make


def _shift(direction):
    def call(xp, a, b):
        b = xp.abs(b) % 8
        return getattr(xp, f"bitwise_{direction}_shift")(a, b)

    return call


def _result_types(xp):
    out = []
    for a in ALL:
        for b in ALL:
            try:
                out.append(str(xp.result_type(getattr(xp, a), getattr(xp, b))).split(".")[-1])
            except Exception:  # noqa: BLE001 - an undefined pair may raise
                out.append("error")
    return [r for r, (a, b) in zip(out, ((a, b) for a in ALL for b in ALL)) if _defined(a, b)]


def _defined(a, b):
    """Pairs the standard's promotion table defines (same kind, or int with uint)."""
    kinds = {t: ("b" if t == "bool" else "i" if t in INT else "f") for t in ALL}
    if kinds[a] != kinds[b]:
        return False
    return not ({a, b} & {"uint64"} and {a, b} & {"int8", "int16", "int32", "int64"})


def _take_along(xp, x):
    return xp.take_along_axis(x, xp.asarray([[0, 3], [2, 1]]), axis=1)


def _matrix_transpose(xp, x):
    return xp.matrix_transpose(x) if x.ndim >= 2 else x


def _searchsorted(xp, a, v):
    return xp.searchsorted(xp.sort(a), v, side="right")


def _reduce(name):
    def call(xp, x):
        axis = -1 if x.ndim and x.shape[-1] else None
        if name in ("max", "min") and x.size == 0:
            return 0
        return getattr(xp, name)(x, axis=axis, keepdims=True)

    return call


def _linalg_twin(xp, name, a, b):
    if name == "matrix_transpose":
        return xp.linalg.matrix_transpose(a)
    if name == "tensordot":
        return xp.linalg.tensordot(a, b, axes=1)
    return getattr(xp.linalg, name)(a, b)


def _info(xp):
    info = xp.__array_namespace_info__()
    return (
        sorted(info.capabilities()),
        sorted(info.dtypes()),
        sorted(info.dtypes(kind="integral")),
        sorted(info.default_dtypes()),
        len(info.devices()) >= 1,
    )


# ------------------------------------------------------------------ comparison


def to_subject(xp, array):
    if xp is np:
        return array
    return xp.asarray(array)


def plain(value):
    """Any result (arrays, tuples, scalars) as nested NumPy/Python values."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "shape") and hasattr(value, "dtype") and not isinstance(value, np.generic):
        dtype = str(value.dtype).split(".")[-1]
        return ("array", dtype, tuple(value.shape), np.asarray(_to_numpy(value)))
    if isinstance(value, np.generic):
        return ("array", str(value.dtype), (), np.asarray(value))
    return value


def _to_numpy(value):
    if type(value).__module__.startswith("array_api_strict"):
        return np.asarray(value._array)
    return np.asarray(value)


def same(a, b) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, tuple) and a and a[0] == "array":
        if not (isinstance(b, tuple) and b and b[0] == "array"):
            return False
        if a[1] != b[1] or a[2] != b[2]:
            return False
        x, y = a[3], b[3]
        if x.dtype.kind in "fc":
            rtol = 1e-4 if x.dtype in (np.float32, np.complex64) else 1e-10
            return bool(np.allclose(x, y, rtol=rtol, atol=rtol, equal_nan=True))
        return bool(np.array_equal(x, y))
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


def _outcome(call, namespace, arrays):
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return plain(call(namespace, *arrays))
    except Exception as error:  # noqa: BLE001 - a refusal is an outcome too
        return ("raises", f"{type(error).__name__}: {error}")


def _raised(outcome) -> bool:
    return isinstance(outcome, tuple) and outcome[:1] == ("raises",)


#: cases whose result dtype is the default real floating dtype, which the standard lets
#: each library choose (array-api-strict's is float64, PyTorch's float32)
DEFAULT_FLOAT_CASES = {"asarray", "fft.fftfreq", "fft.rfftfreq"}


def _as_default_float(expected, name: str):
    """``expected`` (float64) as it is in a library whose default floating is ``name``."""
    if name == "float64" or not (isinstance(expected, tuple) and expected[1] == "float64"):
        return expected
    return ("array", name, expected[2], expected[3].astype(name))


def run(xp, examples: int, seed: int = 0, only=None) -> dict:
    """Function name -> None (passed) or the first mismatch, for subject ``xp``."""
    import array_api_strict as strict

    strict.set_array_api_strict_flags(api_version="2024.12")
    results = {}
    default = str(xp.__array_namespace_info__().default_dtypes()["real floating"]).split(".")[-1]
    for name, case in cases().items():
        if only and name not in only:
            continue
        rng = np.random.default_rng(seed)
        failure = None
        for _ in range(examples):
            inputs = case.make(rng)
            expected = _outcome(case.call, strict, [strict.asarray(a) for a in inputs])
            got = _outcome(case.call, xp, [to_subject(xp, a) for a in inputs])
            if name in DEFAULT_FLOAT_CASES:
                expected = _as_default_float(expected, default)
            if _raised(expected):  # the reference refused: the subject must too
                ok = _raised(got)
            else:
                ok = not _raised(got) and same(expected, got)
            if not ok:
                failure = (inputs, expected, got)
                break
        results[name] = failure
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("subjects", nargs="+", choices=("torch", "numpy"))
    parser.add_argument("--examples", type=int, default=10)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    for subject in args.subjects:
        results = run(subject_namespace(subject), args.examples)
        failed = sorted(name for name, failure in results.items() if failure)
        print(f"{subject}: {len(results) - len(failed)} passed, {len(failed)} failed")
        if args.verbose:
            for name in failed:
                inputs, expected, got = results[name]
                shapes = [(a.dtype.name, a.shape) for a in inputs]
                print(f"  {name}: inputs {shapes}\n    expected {str(expected)[:200]}\n"
                      f"    got      {str(got)[:200]}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
