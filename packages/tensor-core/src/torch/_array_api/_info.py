"""``__array_namespace_info__``: what the namespace supports."""

from __future__ import annotations

from .. import _dtype
from ._helpers import (
    BOOL,
    CPU,
    KINDS,
    NUMERIC,
    check_device,
    default_complex,
    default_float,
)

__all__ = ["__array_namespace_info__"]


class Info:
    """The inspection object of the standard's ``__array_namespace_info__()``."""

    __module__ = "torch"

    def capabilities(self) -> dict:
        """Optional features: boolean indexing and data-dependent output shapes are
        supported; arrays have at most 64 dimensions."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        """The device arrays are created on: the CPU."""
        return CPU

    def devices(self) -> list:
        """The devices this namespace computes on."""
        return [CPU]

    def default_dtypes(self, *, device=None) -> dict:
        """The default dtypes (real floating follows ``torch.get_default_dtype()``)."""
        check_device(device)
        return {
            "real floating": default_float(),
            "complex floating": default_complex(),
            "integral": _dtype.int64,
            "indexing": _dtype.int64,
        }

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The supported dtypes by name, of one ``kind`` (a name or a tuple of names)."""
        check_device(device)
        if kind is None:
            chosen = (BOOL, *NUMERIC)
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            chosen = []
            for k in kinds:
                if k not in KINDS:
                    raise ValueError(f"unknown data type kind {k!r}")
                chosen.extend(d for d in KINDS[k] if d not in chosen)
        return {d.name: d for d in chosen}


def __array_namespace_info__() -> Info:  # noqa: N807 - the standard's name
    """The inspection object of this array API namespace."""
    return Info()
