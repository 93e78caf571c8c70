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
from .._ops.out_variants import add_out as _add_out
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

# out= for every function here (their kernels make a new result)
for _name in __all__[1:]:
    globals()[_name] = _add_out(globals()[_name], f"linalg_{_name}", exact=True)
