"""Functions PyTorch removed from ``torch.*`` (``torch.solve``, ``torch.eig``, ...):
calling one raises PyTorch's message and names its replacement.

NOTE: declared with :func:`~._dispatch.defremoved`, apart from the op registry: ``solve``
is also the op of ``torch.linalg.solve``, which keeps its own binding.
"""

from __future__ import annotations

from ._dispatch import defremoved

_REMOVED_SINCE = "This function was deprecated since version 1.9 and is now removed."

#: the rest of PyTorch's message for each removed function, then our pointer
_REMOVED_MESSAGES = {
    "matrix_rank": ("", "torch.linalg.matrix_rank (its 'symmetric' is now 'hermitian')"),
    "eig": (
        " `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather "
        "than real tensors mimicking complex tensors.",
        "torch.linalg.eigvals or torch.linalg.eig",
    ),
    "solve": (
        " `torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` "
        "has its arguments reversed and does not return the LU factorization.",
        "torch.linalg.solve(A, B)",
    ),
    "symeig": (
        " The default behavior has changed from using the upper triangular portion of the "
        "matrix by default to using the lower triangular portion.",
        "torch.linalg.eigvalsh or torch.linalg.eigh (UPLO='U' for the old default)",
    ),
    "lstsq": (
        " `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.",
        "torch.linalg.lstsq(A, B) (arguments reversed; residuals in its 'residuals' field)",
    ),
}

for _name, (_rest, _use) in _REMOVED_MESSAGES.items():
    defremoved(_name, f"{_REMOVED_SINCE}{_rest}\nUse {_use} instead.")
