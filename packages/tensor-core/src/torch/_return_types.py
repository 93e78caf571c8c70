"""``torch.return_types``: the named tuples that ``max(dim)``, ``sort``, ... return."""

from __future__ import annotations

from collections import namedtuple

__all__ = [
    "max",
    "min",
    "median",
    "nanmedian",
    "mode",
    "kthvalue",
    "cummax",
    "cummin",
    "sort",
    "topk",
    "frexp",
    "histogram",
    "histogramdd",
]


def _structseq(name: str, fields=("values", "indices")):
    base = namedtuple(name, fields)

    def __repr__(self) -> str:  # noqa: N807
        body = ",\n".join(f"{field}={getattr(self, field)!r}" for field in fields)
        return f"torch.return_types.{name}(\n{body})"

    cls = type(
        name, (base,), {"__slots__": (), "__repr__": __repr__, "__module__": "torch.return_types"}
    )
    return cls


max = _structseq("max")  # noqa: A001
min = _structseq("min")  # noqa: A001
median = _structseq("median")
mode = _structseq("mode")
kthvalue = _structseq("kthvalue")
cummax = _structseq("cummax")
cummin = _structseq("cummin")
sort = _structseq("sort")
topk = _structseq("topk")
nanmedian = _structseq("nanmedian")
frexp = _structseq("frexp", ("mantissa", "exponent"))
histogram = _structseq("histogram", ("hist", "bin_edges"))
histogramdd = _structseq("histogramdd", ("hist", "bin_edges"))
