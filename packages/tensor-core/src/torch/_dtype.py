"""``torch.dtype`` objects, their NumPy counterparts, and PyTorch's type promotion."""

from __future__ import annotations

import functools

import ml_dtypes
import numpy as np

__all__ = ["dtype", "get_default_dtype", "set_default_dtype", "promote_types"]


class dtype:
    """A tensor element type (``torch.float32``, ``torch.int64``, ...)."""

    __slots__ = (
        "name",
        "np_dtype",
        "itemsize",
        "is_floating_point",
        "is_complex",
        "is_signed",
        "_category",
        "_legacy",
        "_fast_arith",
        "_limited",
    )

    def __init__(self, name, np_dtype, category, legacy, limited=None):
        self.name = name
        self.np_dtype = np.dtype(np_dtype)
        self.itemsize = self.np_dtype.itemsize
        self._category = category  # 0 bool, 1 integer, 2 floating, 3 complex
        self.is_floating_point = category == 2
        self.is_complex = category == 3
        self.is_signed = name not in (
            "bool",
            "uint8",
            "uint16",
            "uint32",
            "uint64",
            "float8_e8m0fnu",
        )
        self._legacy = legacy  # legacy tensor type name, e.g. "FloatTensor"
        # "uint" (uint16/32/64) or "float8": dtypes PyTorch supports only in a few kernels
        # and refuses to promote with other dtypes (see torch._dtype_support); None otherwise
        self._limited = limited
        # NumPy's +, -, * on two arrays of this dtype give PyTorch's result (not for bool,
        # where PyTorch refuses -, complex32, which NumPy lacks, or the limited dtypes,
        # whose kernels mostly refuse)
        self._fast_arith = name not in ("bool", "complex32") and limited is None

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_dtype_by_name, (self.name,))

    def to_complex(self) -> dtype:
        # there is no complex bfloat16: it widens to complex64, as in PyTorch
        return {
            float16: complex32,
            bfloat16: complex64,
            float32: complex64,
            float64: complex128,
        }.get(self, self)

    def to_real(self) -> dtype:
        return {complex32: float16, complex64: float32, complex128: float64}.get(self, self)


bool_ = dtype("bool", np.bool_, 0, "BoolTensor")
uint8 = dtype("uint8", np.uint8, 1, "ByteTensor")
int8 = dtype("int8", np.int8, 1, "CharTensor")
int16 = dtype("int16", np.int16, 1, "ShortTensor")
int32 = dtype("int32", np.int32, 1, "IntTensor")
int64 = dtype("int64", np.int64, 1, "LongTensor")
float16 = dtype("float16", np.float16, 2, "HalfTensor")
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, 2, "BFloat16Tensor")
float32 = dtype("float32", np.float32, 2, "FloatTensor")
float64 = dtype("float64", np.float64, 2, "DoubleTensor")
# NumPy has no complex32; it is listed for promotion only and has no kernels yet.
complex32 = dtype("complex32", np.complex64, 3, "ComplexHalfTensor")
complex64 = dtype("complex64", np.complex64, 3, "ComplexFloatTensor")
complex128 = dtype("complex128", np.complex128, 3, "ComplexDoubleTensor")
# PyTorch 2.3+'s "limited support" unsigned types: creation, copies, a few kernels
uint16 = dtype("uint16", np.uint16, 1, "UInt16Tensor", "uint")
uint32 = dtype("uint32", np.uint32, 1, "UInt32Tensor", "uint")
uint64 = dtype("uint64", np.uint64, 1, "UInt64Tensor", "uint")
# 8-bit floats, stored as ml_dtypes' NumPy types: creation, conversion, a few kernels
float8_e4m3fn = dtype("float8_e4m3fn", ml_dtypes.float8_e4m3fn, 2, "Float8_e4m3fnTensor", "float8")
float8_e5m2 = dtype("float8_e5m2", ml_dtypes.float8_e5m2, 2, "Float8_e5m2Tensor", "float8")
float8_e4m3fnuz = dtype(
    "float8_e4m3fnuz", ml_dtypes.float8_e4m3fnuz, 2, "Float8_e4m3fnuzTensor", "float8"
)
float8_e5m2fnuz = dtype(
    "float8_e5m2fnuz", ml_dtypes.float8_e5m2fnuz, 2, "Float8_e5m2fnuzTensor", "float8"
)
float8_e8m0fnu = dtype(
    "float8_e8m0fnu", ml_dtypes.float8_e8m0fnu, 2, "Float8_e8m0fnuTensor", "float8"
)

ALL_DTYPES = (
    bool_,
    uint8,
    int8,
    int16,
    int32,
    int64,
    float16,
    bfloat16,
    float32,
    float64,
    complex32,
    complex64,
    complex128,
    uint16,
    uint32,
    uint64,
    float8_e4m3fn,
    float8_e5m2,
    float8_e4m3fnuz,
    float8_e5m2fnuz,
    float8_e8m0fnu,
)
#: the dtypes of PyTorch's classic legacy classes (``torch.FloatTensor``,
#: ``torch.FloatStorage``): PyTorch has none for complex32 and the limited dtypes
CLASSIC_DTYPES = tuple(d for d in ALL_DTYPES if d is not complex32 and d._limited is None)
_BY_NAME = {d.name: d for d in ALL_DTYPES}
# complex32 shares complex64's NumPy dtype: complex64 is the one NumPy arrays map to
_FROM_NUMPY = {d.np_dtype: d for d in ALL_DTYPES if d is not complex32}

# The aliases PyTorch exposes as module attributes.
ALIASES = {
    "bool": bool_,
    "uint8": uint8,
    "int8": int8,
    "int16": int16,
    "short": int16,
    "int32": int32,
    "int": int32,
    "int64": int64,
    "long": int64,
    "float16": float16,
    "half": float16,
    "bfloat16": bfloat16,
    "float32": float32,
    "float": float32,
    "float64": float64,
    "double": float64,
    "complex32": complex32,
    "chalf": complex32,
    "complex64": complex64,
    "cfloat": complex64,
    "complex128": complex128,
    "cdouble": complex128,
    "uint16": uint16,
    "uint32": uint32,
    "uint64": uint64,
    "float8_e4m3fn": float8_e4m3fn,
    "float8_e5m2": float8_e5m2,
    "float8_e4m3fnuz": float8_e4m3fnuz,
    "float8_e5m2fnuz": float8_e5m2fnuz,
    "float8_e8m0fnu": float8_e8m0fnu,
}


def _dtype_by_name(name: str) -> dtype:
    return _BY_NAME[name]


def from_numpy_dtype(np_dtype) -> dtype:
    try:
        return _FROM_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The "
            "only supported types are: float64, float32, float16, complex64, complex128, "
            "int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool."
        ) from None


# ------------------------------------------------------------------------ defaults

_default = {"dtype": float32}


def get_default_dtype() -> dtype:
    """The floating dtype that float literals and ``torch.tensor([1.0])`` get.

    Examples::

        >>> torch.get_default_dtype()
        torch.float32
    """
    return _default["dtype"]


def set_default_dtype(d: dtype) -> None:
    """Set the default floating dtype (``torch.float32`` or ``torch.float64``, also
    float16 and bfloat16)."""
    if not isinstance(d, dtype) or d not in (float16, bfloat16, float32, float64):
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    _default["dtype"] = d


# ----------------------------------------------------------------------- promotion

_INT_ORDER = (uint8, int8, int16, int32, int64)


@functools.cache
def promote_types(a: dtype, b: dtype) -> dtype:
    """The dtype of ``a op b`` for two tensors of dtypes ``a`` and ``b`` (PyTorch's rules:
    the higher category wins whole; within a category the wider type wins, with
    ``uint8 + int8 -> int16`` and ``float16 + bfloat16 -> float32``)."""
    if a is b:
        return a
    if a._limited or b._limited:
        return _promote_limited(a, b)
    if a._category != b._category:
        hi, lo = (a, b) if a._category > b._category else (b, a)
        if hi.is_complex and lo.is_floating_point:
            # complex keeps the precision of the wider real part
            return promote_types(hi.to_real(), lo).to_complex()
        return hi
    if a._category == 1:
        if {a, b} == {uint8, int8}:
            return int16
        return max(a, b, key=_INT_ORDER.index)
    if a._category == 2:
        if {a, b} == {float16, bfloat16}:
            return float32
        return max(a, b, key=lambda d: d.itemsize)
    return max(a, b, key=lambda d: d.itemsize)  # complex


def _promote_limited(a: dtype, b: dtype) -> dtype:
    """PyTorch's promotion where a limited dtype takes part: float8 promotes with nothing
    else; uint16/32/64 only to a (non-float8) floating type."""
    if a._limited == "float8" or b._limited == "float8":
        raise RuntimeError(
            "Promotion for Float8 Types is not supported, attempted to promote "
            f"{a._legacy[:-6]} and {b._legacy[:-6]}"
        )
    other = b if a._limited else a
    if other.is_floating_point:
        return other
    raise RuntimeError(
        "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
        f"{a._legacy[:-6]} and {b._legacy[:-6]}"
    )
