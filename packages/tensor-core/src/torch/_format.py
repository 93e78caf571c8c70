"""``repr`` of tensors in PyTorch's style, and ``torch.set_printoptions``.

Values are formatted together: integral floats print as ``1.``, others with
``precision`` decimals, and scientific notation is used when the nonzero magnitudes span
more than three orders of magnitude or leave [1e-4, 1e8). Tensors with more than
``threshold`` elements are summarised to ``edgeitems`` at each edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["set_printoptions", "get_printoptions", "tensor_repr"]


@dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


OPTIONS = _PrintOptions()
_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(
    precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None
) -> None:
    """Set how tensors print.

    Args:
        precision (int): decimals of floats. Default: ``4``.
        threshold (int): element count above which tensors are summarised. Default: ``1000``.
        edgeitems (int): items kept at each edge when summarising. Default: ``3``.
        linewidth (int): characters per line. Default: ``80``.
        profile (str): ``"default"``, ``"short"`` or ``"full"`` (never summarise); the
            other arguments then override it.
        sci_mode (bool or None): force scientific notation on or off; ``None`` decides
            automatically. Default: ``None``.

    Examples::

        >>> torch.set_printoptions(precision=2)
        >>> torch.tensor([1.12345])
        tensor([1.12])
        >>> torch.set_printoptions(profile="default")
    """
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(f"Unknown profile {profile!r}; choose from {sorted(_PROFILES)}")
        for key, value in _PROFILES[profile].items():
            setattr(OPTIONS, key, value)
    for key, value in (
        ("precision", precision),
        ("threshold", threshold),
        ("edgeitems", edgeitems),
        ("linewidth", linewidth),
    ):
        if value is not None:
            setattr(OPTIONS, key, value)
    OPTIONS.sci_mode = sci_mode


def get_printoptions() -> dict:
    """The current print options as a dict."""
    return dict(vars(OPTIONS))


# ------------------------------------------------------------------ value formatting


class _FloatFormat:
    """Chooses one notation and width for a set of real values."""

    def __init__(self, values: np.ndarray) -> None:
        precision = OPTIONS.precision
        finite = values[np.isfinite(values)]
        nonzero = np.abs(finite[finite != 0])
        self.integral = bool(np.all(finite == np.ceil(finite)))
        self.sci = False
        if nonzero.size:
            high, low = float(nonzero.max()), float(nonzero.min())
            if self.integral:
                self.sci = high / low > 1000.0 or high > 1.0e8
            else:
                self.sci = high / low > 1000.0 or high > 1.0e8 or low < 1.0e-4
        if OPTIONS.sci_mode is not None:
            self.sci = OPTIONS.sci_mode
        self.precision = precision
        # as in PyTorch, zeros, infinities and NaNs do not widen the columns
        self.width = max((len(self.raw(float(v))) for v in finite[finite != 0]), default=1)

    def raw(self, value: float) -> str:
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if self.sci:
            return f"{value:.{self.precision}e}"
        if self.integral:
            return f"{value:.0f}."
        return f"{value:.{self.precision}f}"

    def __call__(self, value: float) -> str:
        return self.raw(value).rjust(self.width)


class _IntFormat:
    def __init__(self, values: np.ndarray) -> None:
        self.width = max((len(str(int(v))) for v in values), default=1)

    def __call__(self, value) -> str:
        return str(int(value)).rjust(self.width)


class _BoolFormat:
    def __init__(self, values: np.ndarray) -> None:
        self.width = 5 if not values.all() else 4

    def __call__(self, value) -> str:
        return ("True" if value else "False").rjust(self.width)


class _ComplexFormat:
    def __init__(self, values: np.ndarray) -> None:
        self.real = _FloatFormat(values.real.astype(np.float64))
        self.imag = _FloatFormat(np.abs(values.imag.astype(np.float64)))
        nonzero = [len(self.real.raw(float(v))) for v in values.real if v != 0 and np.isfinite(v)]
        self.real_width = max(nonzero, default=0)
        self.width = self.real_width + self.imag.width + 2

    def __call__(self, value) -> str:
        imag = float(value.imag)
        sign = "-" if math.copysign(1.0, imag) < 0 and not math.isnan(imag) else "+"
        return (
            self.real.raw(float(value.real)).rjust(self.real_width)
            + sign
            + self.imag.raw(abs(imag))
            + "j"
        )


def _summary(array: np.ndarray, edge: int) -> np.ndarray:
    """The values that a summarised print shows (for choosing the format)."""
    if array.ndim == 0:
        return array.reshape(1)
    if array.shape[0] > 2 * edge:
        array = np.concatenate([array[:edge], array[-edge:]])
    return np.concatenate([_summary(sub, edge) for sub in array]) if array.ndim > 1 else array


def _formatter(array: np.ndarray, summarize: bool):
    values = _summary(array, OPTIONS.edgeitems) if summarize else array.reshape(-1)
    if array.dtype == np.bool_:
        return _BoolFormat(values)
    if array.dtype.kind in "iu":
        return _IntFormat(values)
    if array.dtype.kind == "c":
        return _ComplexFormat(values)
    return _FloatFormat(values.astype(np.float64))


def _vector(array: np.ndarray, indent: int, summarize: bool, fmt) -> str:
    edge = OPTIONS.edgeitems
    if summarize and array.shape[0] > 2 * edge:
        items = [fmt(v) for v in array[:edge]] + [" ..."] + [fmt(v) for v in array[-edge:]]
    else:
        items = [fmt(v) for v in array]
    per_line = max(1, math.floor((OPTIONS.linewidth - indent) / (fmt.width + 2)))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _render(array: np.ndarray, indent: int, summarize: bool, fmt) -> str:
    if array.ndim == 0:
        return fmt(array[()]).strip()
    if array.ndim == 1:
        return _vector(array, indent, summarize, fmt)
    edge = OPTIONS.edgeitems
    if summarize and array.shape[0] > 2 * edge:
        parts = (
            [_render(sub, indent + 1, summarize, fmt) for sub in array[:edge]]
            + ["..."]
            + [_render(sub, indent + 1, summarize, fmt) for sub in array[-edge:]]
        )
    else:
        parts = [_render(sub, indent + 1, summarize, fmt) for sub in array]
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def tensor_repr(tensor, default_dtype, plain: bool = False) -> str:
    """``repr`` of a dense tensor; ``plain`` (the parts of a sparse tensor) leaves out the
    dtype and autograd suffixes and always gives the size of an empty tensor."""
    prefix = "tensor("
    array = tensor._np
    suffixes = []
    if type(array) is not np.ndarray and tensor.device.type != "cpu":
        array = np.asarray(tensor.cpu()._np)
        if not plain:
            suffixes.append(f"device='{tensor.device}'")
    if array.dtype.name == "bfloat16":
        array = array.astype(np.float32)
    elif array.dtype.name == "float8_e8m0fnu":
        # PyTorch's printer tests elements against 0 cast to the dtype, which e8m0fnu (it
        # has no zero) rounds to its smallest value 2 ** -127: those elements print as 0
        array = array.astype(np.float32)
        array = np.where(array == np.float32(2.0**-127), np.float32(0), array)
    if array.size == 0:
        body = "[]"
        if array.ndim != 1 or plain:
            suffixes.append(f"size={tuple(array.shape)}")
    else:
        summarize = array.size > OPTIONS.threshold
        fmt = _formatter(array, summarize)
        body = _render(array, len(prefix), summarize, fmt)
    # an empty long or bool tensor names its dtype (its values cannot show it)
    implied = tensor.dtype in (default_dtype, default_dtype.to_complex()) or (
        tensor.dtype.name in ("int64", "bool") and array.size > 0
    )
    if not implied and not plain:
        suffixes.append(f"dtype={tensor.dtype}")
    if plain:
        pass
    elif tensor.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(tensor.grad_fn).__name__}>")
    elif tensor.requires_grad:
        suffixes.append("requires_grad=True")
    for suffix in suffixes:
        # measured on the whole text so far, "tensor(" included (a one-line body too)
        text = prefix + body
        last_line = len(text) - text.rfind("\n") + 1
        if last_line + len(suffix) + 2 > OPTIONS.linewidth:
            body += ",\n" + " " * len(prefix) + suffix
        else:
            body += ", " + suffix
    return prefix + body + ")"
