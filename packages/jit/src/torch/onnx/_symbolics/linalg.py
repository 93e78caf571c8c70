"""Matrix products: linear, matmul/mm/bmm, addmm, einsum."""

from __future__ import annotations

import torch

from .._graph import GraphContext
from .._registry import symbolic
from ._helpers import rank_of


def _transposed_weight(g: GraphContext, weight):
    """``weight.t()``: folded into a new initializer when the weight is known."""
    if isinstance(weight, torch.Tensor):
        return g.initializer(weight.detach().t().contiguous())
    return g.op("Transpose", weight, perm_i=[1, 0])


@symbolic("linear")
def linear(g, input, weight, bias=None):
    if rank_of(input) == 2 and rank_of(weight) == 2:
        return g.op("Gemm", input, weight, bias, transB_i=1)
    out = g.op("MatMul", input, _transposed_weight(g, weight) if rank_of(weight) == 2 else weight)
    return out if bias is None else g.op("Add", out, bias)


@symbolic("matmul", "mm", "bmm")
def matmul(g, self, other):
    return g.op("MatMul", self, other)


@symbolic("rmatmul")
def rmatmul(g, self, other):
    return g.op("MatMul", other, self)


@symbolic("addmm")
def addmm(g, input, mat1, mat2, *, beta=1, alpha=1):
    return g.op("Gemm", mat1, mat2, input, alpha_f=float(alpha), beta_f=float(beta))


@symbolic("baddbmm")
def baddbmm(g, input, batch1, batch2, *, beta=1, alpha=1):
    dtype = g.out_dtype()
    product = g.op("MatMul", batch1, batch2)
    if alpha != 1:
        product = g.op("Mul", product, g.constant(alpha, dtype))
    if beta == 0:
        return product
    if beta != 1:
        input = g.op("Mul", input, g.constant(beta, dtype))
    return g.op("Add", product, input)


@symbolic("einsum")
def einsum(g, equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return g.op("Einsum", *operands, equation_s=equation.replace(" ", ""))
