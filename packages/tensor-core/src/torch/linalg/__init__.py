"""torch.linalg: linear algebra. This release provides the vector norm; the matrix
functions (inv, det, solve, svd, ...) come with the linear-algebra family."""

from .._ops.reduction import vector_norm

__all__ = ["vector_norm"]
