"""torch.linalg: linear algebra on NumPy's LAPACK."""

from .._ops.decompositions import (
    LinAlgError,
    cholesky,
    det,
    eigh,
    eigvals,
    eigvalsh,
    inv,
    lstsq,
    matrix_norm,
    matrix_rank,
    norm,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
)
from .._ops.reduction import vector_norm

__all__ = [
    "LinAlgError",
    "cholesky",
    "det",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matrix_norm",
    "matrix_rank",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "vector_norm",
]
