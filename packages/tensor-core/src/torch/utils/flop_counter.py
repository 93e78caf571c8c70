"""``torch.utils.flop_counter``: :class:`FlopCounterMode` counts the floating-point
operations of matrix products and convolutions run inside it.

It is a :class:`torch.overrides.TorchFunctionMode` over core's op-call interception:
``mm``, ``addmm``, ``bmm``, ``baddbmm``, ``matmul``, ``linear`` and ``conv1d/2d/3d``
calls are counted with PyTorch's formulas (a multiply-add is 2 FLOPs), other ops count 0.
Counts are kept under ``"Global"`` only: the per-module breakdown of PyTorch (which
needs module hooks) is not built, so ``get_flop_counts()`` has that one key.

Examples::

    >>> from torch.utils.flop_counter import FlopCounterMode
    >>> with FlopCounterMode(display=False) as counter:
    ...     _ = torch.mm(torch.ones(4, 3), torch.ones(3, 5))
    >>> counter.get_total_flops()
    120
"""

from __future__ import annotations

import math
from collections import defaultdict

from torch.overrides import TorchFunctionMode

__all__ = ["FlopCounterMode", "register_flop_formula"]


def _mm(a, b, *args, **kwargs) -> int:
    (m, k), n = a.shape, b.shape[-1]
    return 2 * m * k * n


def _addmm(bias, a, b, *args, **kwargs) -> int:
    return _mm(a, b)


def _bmm(a, b, *args, **kwargs) -> int:
    batch, m, k = a.shape
    return 2 * batch * m * k * b.shape[-1]


def _baddbmm(bias, a, b, *args, **kwargs) -> int:
    return _bmm(a, b)


def _matmul(a, b, *args, **kwargs) -> int:
    if a.dim() < 2 or b.dim() < 2:  # vector products
        return 2 * a.numel() * (b.shape[-1] if b.dim() >= 2 else 1)
    batch = math.prod(a.shape[:-2]) if a.dim() > b.dim() else math.prod(b.shape[:-2])
    return 2 * max(batch, 1) * a.shape[-2] * a.shape[-1] * b.shape[-1]


def _linear(x, weight, bias=None, *args, **kwargs) -> int:
    rows = x.numel() // x.shape[-1]
    return 2 * rows * weight.shape[1] * weight.shape[0]


def _conv(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, *a, out=None, **kw):
    # each output element: in_channels/groups * kernel multiply-adds
    per_output = math.prod(weight.shape[1:])
    return 2 * out.numel() * per_output


_FORMULAS = {
    "mm": _mm,
    "addmm": _addmm,
    "bmm": _bmm,
    "baddbmm": _baddbmm,
    "matmul": _matmul,
    "linear": _linear,
    "conv1d": _conv,
    "conv2d": _conv,
    "conv3d": _conv,
}
_NEEDS_OUTPUT = {"conv1d", "conv2d", "conv3d"}


def register_flop_formula(targets, get_raw=False):
    """Register ``formula(*args, **kwargs) -> int`` as the FLOP count of the functions
    named ``targets`` (a name or a list of names)."""

    def register(formula):
        for target in targets if isinstance(targets, (list, tuple)) else [targets]:
            _FORMULAS[getattr(target, "__name__", target)] = formula
        return formula

    return register


class FlopCounterMode(TorchFunctionMode):
    """Count FLOPs inside ``with FlopCounterMode() as counter:``.

    Args:
        mods: ignored (PyTorch's older way of naming modules).
        depth (int): kept for the table PyTorch prints. Default: 2.
        display (bool): print the total when leaving. Default: ``True``.
        custom_mapping (dict, optional): function name -> formula, added to the built-in
            ones.
    """

    def __init__(self, mods=None, depth=2, display=True, custom_mapping=None) -> None:
        super().__init__()
        self.depth = depth
        self.display = display
        self.flop_counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self._formulas = dict(_FORMULAS)
        for target, formula in (custom_mapping or {}).items():
            self._formulas[getattr(target, "__name__", target)] = formula

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        result = func(*args, **kwargs)
        name = getattr(func, "__name__", "")
        formula = self._formulas.get(name)
        if formula is not None:
            extra = {"out": result} if name in _NEEDS_OUTPUT else {}
            self.flop_counts["Global"][name] += int(formula(*args, **kwargs, **extra))
        return result

    def get_total_flops(self) -> int:
        """Every FLOP counted so far."""
        return sum(self.flop_counts["Global"].values())

    def get_flop_counts(self) -> dict[str, dict[str, int]]:
        """``{"Global": {function name: FLOPs}}``."""
        return {module: dict(counts) for module, counts in self.flop_counts.items()}

    def __enter__(self):
        self.flop_counts.clear()
        return super().__enter__()

    def __exit__(self, *exc_info):
        super().__exit__(*exc_info)
        if self.display:
            print(f"Total FLOPs: {self.get_total_flops()}")
