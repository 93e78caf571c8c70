"""``repr`` of tensors in PyTorch's style (4 decimals, scientific notation for wide
ranges, ``dtype=`` and autograd suffixes)."""

from __future__ import annotations

import numpy as np

_LINE_WIDTH = 80


def _float_formatter(values: np.ndarray):
    finite = values[np.isfinite(values)]
    if finite.size == 0 or np.all(finite == np.round(finite)):
        # all integral: print "1." style unless the magnitudes need exponents
        if finite.size and np.abs(finite).max() >= 1e8:
            return lambda v: _sci(v)
        return lambda v: _special(v) or f"{v:.0f}."
    magnitude = np.abs(finite)
    nonzero = magnitude[magnitude != 0]
    if nonzero.size and (
        nonzero.max() / nonzero.min() > 1000 or nonzero.max() > 1e8 or nonzero.min() < 1e-4
    ):
        return lambda v: _sci(v)
    return lambda v: _special(v) or f"{v:.4f}"


def _special(v) -> str:
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return ""


def _sci(v) -> str:
    return _special(v) or f"{v:.4e}"


def _leaves(array: np.ndarray) -> list[str]:
    flat = array.reshape(-1)
    if array.dtype == np.bool_:
        return ["True" if v else "False" for v in flat]
    if array.dtype.kind in "iu":
        return [str(int(v)) for v in flat]
    if array.dtype.kind == "c":
        return _complex_leaves(flat)
    values = flat.astype(np.float64)
    fmt = _float_formatter(values)
    return [fmt(float(v)) for v in values]


def _complex_leaves(flat: np.ndarray) -> list[str]:
    real, imag = flat.real.astype(np.float64), flat.imag.astype(np.float64)
    real_fmt, imag_fmt = _float_formatter(real), _float_formatter(np.abs(imag))
    real_strs = [real_fmt(float(v)) for v in real]
    # the real parts are aligned on the width of the nonzero ones, as PyTorch does
    widths = [len(t) for t, v in zip(real_strs, real) if v != 0 and np.isfinite(v)]
    width = max(widths) if widths else 0
    leaves = []
    for text, im in zip(real_strs, imag):
        sign = "-" if np.signbit(im) and not np.isnan(im) else "+"
        leaves.append(f"{text.rjust(width)}{sign}{imag_fmt(float(abs(im))).lstrip()}j")
    return leaves


def _render(strings: np.ndarray, indent: int) -> str:
    if strings.ndim == 0:
        return str(strings[()])
    if strings.ndim == 1:
        items = list(strings)
        per_line = max(1, (_LINE_WIDTH - indent) // (len(items[0]) + 2)) if items else 1
        lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    separator = "," + "\n" * (strings.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(_render(sub, indent + 1) for sub in strings) + "]"


def tensor_repr(tensor, default_dtype) -> str:
    array = tensor._np
    suffixes = []
    if array.size == 0:
        body = "[]"
        if array.ndim != 1:
            suffixes.append(f"size={tuple(array.shape)}")
    else:
        leaves = _leaves(array)
        width = max(len(s) for s in leaves)
        strings = np.array([s.rjust(width) for s in leaves], dtype=object).reshape(array.shape)
        body = _render(strings, len("tensor("))
    implied = tensor.dtype in (default_dtype, default_dtype.to_complex()) or tensor.dtype.name in (
        "int64",
        "bool",
    )
    if not implied:
        suffixes.append(f"dtype={tensor.dtype}")
    if tensor.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(tensor.grad_fn).__name__}>")
    elif tensor.requires_grad:
        suffixes.append("requires_grad=True")
    return "tensor(" + ", ".join([body] + suffixes) + ")"
