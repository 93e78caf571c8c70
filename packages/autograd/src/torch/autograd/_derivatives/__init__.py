"""Derivative formulas of core's differentiable ops: one entry per op, one function per
input, grouped by the same families as core's kernels.

A formula is ``f(grad, inputs, saved) -> Tensor``: the gradient with respect to one
input, given the gradient of the output, the op's inputs and its saved non-tensor
arguments. Formulas are written with core ops, so running them with grad mode on
(``create_graph=True``) records them and higher-order gradients follow.
"""

from __future__ import annotations

from ._entry import Derivative
from .binary_math import BINARY_MATH
from .conversion import CONVERSION
from .decompositions import DECOMPOSITIONS
from .fft import FFT
from .fill import FILL
from .floating_point import FLOATING_POINT
from .gather_scatter import GATHER_SCATTER
from .householder import HOUSEHOLDER
from .index_ops import INDEX_OPS
from .linalg import LINALG
from .losses import LOSSES
from .nn_fused import NN_FUSED
from .nn_kernels import NN_KERNELS
from .pointwise import POINTWISE
from .random import RANDOM
from .reduction import REDUCTION
from .scans import SCANS
from .shape_ops import SHAPE_OPS
from .special import SPECIAL
from .ternary import TERNARY
from .unary_math import UNARY_MATH
from .views import VIEWS

__all__ = ["DERIVATIVES", "Derivative", "missing_formulas"]

DERIVATIVES: dict[str, Derivative] = {
    **POINTWISE,
    **UNARY_MATH,
    **BINARY_MATH,
    **TERNARY,
    **REDUCTION,
    **LINALG,
    **VIEWS,
    **CONVERSION,
    **GATHER_SCATTER,
    **SHAPE_OPS,
    **NN_KERNELS,
    **NN_FUSED,
    **LOSSES,
    **DECOMPOSITIONS,
    **HOUSEHOLDER,
    **FILL,
    **INDEX_OPS,
    **FLOATING_POINT,
    **SCANS,
    **SPECIAL,
    **FFT,
    **RANDOM,
}


def missing_formulas(registry) -> list[str]:
    """Names of differentiable ops in ``registry`` that have no derivative entry (an
    in-place op is covered by the entry of its out-of-place form)."""
    return sorted(
        op.name
        for op in registry.differentiable()
        if op.extra.get("out_of_place", op.name) not in DERIVATIVES
    )
