"""``torch.finfo`` and ``torch.iinfo``: the numerical limits of a dtype."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from . import _dtype

__all__ = ["finfo", "iinfo"]

# PyTorch's epsilon of e5m2fnuz is 2 ** -3 where ml_dtypes gives 2 ** -2
_FLOAT8_EPS = {"float8_e5m2fnuz": 0.125}


class finfo:
    """Limits of a floating dtype (default: the default dtype).

    Examples::

        >>> torch.finfo(torch.float16).max, torch.finfo(torch.bfloat16).eps
        (65504.0, 0.0078125)
    """

    __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")

    def __init__(self, type=None):
        type = type or _dtype.get_default_dtype()
        if not (type.is_floating_point or type.is_complex):
            raise TypeError(
                "torch.finfo() requires a floating point input type. Use "
                "torch.iinfo to handle 'torch.finfo'"
            )
        real = type.to_real()
        ml_type = real is _dtype.bfloat16 or real._limited == "float8"
        info = ml_dtypes.finfo(real.np_dtype) if ml_type else np.finfo(real.np_dtype)
        self.bits = real.itemsize * 8
        self.eps = _FLOAT8_EPS.get(real.name, float(info.eps))
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.tiny)
        # 10 ** -(the decimal digits the type holds), computed in double as PyTorch does
        self.resolution = 10.0 ** -int(info.nmant * math.log10(2))
        self.dtype = real.name

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
            f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
            f"tiny={self.tiny:g}, dtype={self.dtype})"
        )


class iinfo:
    """Limits of an integer dtype.

    Examples::

        >>> torch.iinfo(torch.int8).min, torch.iinfo(torch.uint8).max
        (-128, 255)
    """

    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, type):
        if type.is_floating_point or type.is_complex or type is _dtype.bool_:
            raise TypeError(
                "torch.iinfo() requires an integer input type. Use torch.finfo to "
                "handle 'torch.iinfo'"
            )
        info = np.iinfo(type.np_dtype)
        self.bits, self.max, self.min, self.dtype = (
            info.bits,
            int(info.max),
            int(info.min),
            type.name,
        )

    def __repr__(self) -> str:
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"
