"""torch.linalg: linear algebra on NumPy's LAPACK."""

from .._ops.combining import linalg_cross as cross
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
from .._ops.ldl import LINALG as _LDL
from .._ops.linalg import matmul
from .._ops.linalg_solvers import LINALG as _EXTRAS
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

# the rest of torch.linalg (torch._ops.linalg_solvers, products, lu, torch._ops.combining)
globals().update(_EXTRAS)
from .._ops.lu import linalg_lu_solve as lu_solve  # noqa: E402

globals().update(_LDL)  # ldl_factor, ldl_factor_ex, ldl_solve (with out=)

_EXTRAS = {**_EXTRAS, "lu_solve": lu_solve, **_LDL}
_WITH_OUT = """cross matmul multi_dot matrix_power matrix_exp lu_factor lu_factor_ex lu
solve_triangular inv_ex solve_ex cholesky_ex eig tensorinv tensorsolve householder_product vecdot
cond""".split()
for _name in _WITH_OUT:
    globals()[_name] = _add_out(globals()[_name], f"linalg_{_name}", exact=True)
__all__ += ["cross", "matmul", *_EXTRAS]
