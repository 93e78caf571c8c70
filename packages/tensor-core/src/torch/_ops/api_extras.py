"""More ``torch.*`` functions of PyTorch's namespace: ``isin``, ``unravel_index``,
``row_stack``, ``asarray``, ``rsub``, ``scalar_tensor``, ``frobenius_norm``,
``nuclear_norm``, ``rms_norm``, ``lu_solve``/``lu_unpack`` (and ``linalg.lu_solve``),
``detach``, the ``*_copy`` forms of the view ops, and the removed functions
(``torch.solve``, ``torch.eig``, ...) with PyTorch's message.

NOTE: composites of existing ops (gradients follow from them); ``isin`` and
``unravel_index`` give integer or bool results and have none.
"""

from __future__ import annotations

import numpy as np

import torch

from .. import _dtype
from .._return_types import _structseq
from .._tensor import Tensor
from ._dispatch import defop

__all__ = [
    "isin",
    "unravel_index",
    "row_stack",
    "asarray",
    "rsub",
    "scalar_tensor",
    "frobenius_norm",
    "nuclear_norm",
    "rms_norm",
    "lu_solve",
    "lu_unpack",
    "detach",
    "detach_",
]


@defop("isin")
def isin(elements, test_elements, *, assume_unique: bool = False, invert: bool = False):
    """Whether each of ``elements`` is among ``test_elements`` (either may be a number)."""
    values = elements._np if isinstance(elements, Tensor) else np.asarray(elements)
    tests = test_elements._np if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    found = np.isin(values, tests, invert=invert)
    return Tensor._from_array(np.asarray(found, dtype=bool), _dtype.bool_)


@defop("unravel_index")
def unravel_index(indices, shape) -> tuple:
    """The coordinates in a tensor of ``shape`` of each flat index, one tensor per dim
    (negative indices count from the end)."""
    if not isinstance(indices, Tensor):
        indices = torch.tensor(indices)
    kind = indices._dtype
    if kind.is_floating_point or kind.is_complex or kind is _dtype.bool_:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    size = int(np.prod(shape))
    # NOTE: PyTorch computes the coordinates by division and remainder, so an index out of
    # range wraps around instead of raising
    flat = indices._np.astype(np.int64) % size if size else indices._np.astype(np.int64)
    coords = np.unravel_index(flat, shape) if shape else ()
    # views of the columns of one (..., ndim) tensor, as PyTorch lays them out
    stacked = np.stack(coords, -1) if coords else np.zeros(flat.shape + (0,), np.int64)
    table = Tensor._from_array(np.ascontiguousarray(stacked, dtype=np.int64), _dtype.int64)
    return tuple(table[..., i] for i in range(len(shape)))


@defop("row_stack")
def row_stack(tensors) -> Tensor:
    """:func:`torch.vstack` (NumPy's older name)."""
    return torch.vstack(tensors)


@defop("asarray")
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad: bool = False):
    """``obj`` as a tensor, sharing memory with a tensor (or a NumPy array) when its
    dtype allows and ``copy`` is not True."""
    if isinstance(obj, Tensor):
        result = obj if dtype is None or obj.dtype is dtype else obj.to(dtype)
        if copy and result is obj:
            result = obj.clone()
    elif isinstance(obj, np.ndarray) and not copy:
        result = torch.from_numpy(obj)
        if dtype is not None and result.dtype is not dtype:
            result = result.to(dtype)
    else:
        result = torch.tensor(obj, dtype=dtype)
    if requires_grad:
        result.requires_grad_(True)
    return result


@defop("rsub")
def rsub(input: Tensor, other, *, alpha=1) -> Tensor:
    """``other - alpha * input``."""
    return (
        torch.sub(other, input, alpha=alpha)
        if isinstance(other, Tensor)
        else (other - input * alpha if alpha != 1 else other - input)
    )


@defop("scalar_tensor")
def scalar_tensor(s, *, dtype=None, device=None, layout=None, requires_grad=False):
    """A 0-dim tensor holding ``s`` (of the default float dtype unless ``dtype``)."""
    result = torch.tensor(s, dtype=dtype or _dtype.get_default_dtype())
    return result.requires_grad_(True) if requires_grad else result


@defop("frobenius_norm")
def frobenius_norm(input: Tensor, dim, keepdim: bool = False) -> Tensor:
    """The 2-norm of the elements over ``dim``."""
    return torch.linalg.vector_norm(input, 2, tuple(dim), keepdim)


@defop("nuclear_norm")
def nuclear_norm(input: Tensor, dim=(-2, -1), keepdim: bool = False) -> Tensor:
    """The sum of singular values of the matrices over ``dim``."""
    if isinstance(dim, bool):  # nuclear_norm(input, keepdim)
        dim, keepdim = (-2, -1), dim
    return torch.linalg.matrix_norm(input, "nuc", tuple(dim), keepdim)


@defop("rms_norm")
def rms_norm(input: Tensor, normalized_shape, weight=None, eps=None) -> Tensor:
    """``input / sqrt(mean(input ** 2) + eps)`` over the trailing ``normalized_shape`` dims,
    times ``weight``; ``eps`` defaults to the dtype's machine epsilon."""
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    out = input * torch.rsqrt((input * input).mean(dims, keepdim=True) + eps)
    return out * weight if weight is not None else out


_LuUnpack = _structseq("lu_unpack", ("P", "L", "U"))


@defop("lu_unpack")
def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data=True, unpack_pivots=True):  # noqa: N803
    """``(P, L, U)`` from the compact factorisation of :func:`torch.linalg.lu_factor`."""
    from .linalg_extras import _permutation

    m, n = LU_data.shape[-2:]
    k = min(m, n)
    eye = torch.eye(m, k, dtype=LU_data.dtype)
    lower = torch.tril(LU_data[..., :, :k], -1) + eye
    upper = torch.triu(LU_data[..., :k, :])
    perm = _permutation(LU_pivots._np.astype(np.int64), m, LU_data._np.dtype)
    P = Tensor._from_array(np.ascontiguousarray(perm), LU_data._dtype)  # noqa: N806
    return _LuUnpack(P, lower, upper)


def _lu_solve(LU: Tensor, pivots: Tensor, B: Tensor) -> Tensor:  # noqa: N803
    from .linalg_extras import solve_triangular

    P, L, U = lu_unpack(LU, pivots)  # noqa: N806
    from .decompositions import _in_lapack_buffer

    y = solve_triangular(L, P.mT @ B, upper=False, unitriangular=True)
    x = solve_triangular(U, y, upper=True)
    return _in_lapack_buffer(x, x.shape[-2])  # column-major, as LAPACK leaves it


@defop("lu_solve")
def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:  # noqa: N803
    """The solution of ``A X = b`` from ``A``'s compact LU factorisation (the older
    argument order of ``torch.linalg.lu_solve``)."""
    return _lu_solve(LU_data, LU_pivots, b)


def linalg_lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left=True, adjoint=False):  # noqa: N803
    """The solution of ``A X = B`` (``X A = B`` unless ``left``; with ``adjoint``, of
    ``A^H``) from ``A``'s compact LU factorisation."""
    if adjoint or not left:
        P, L, U = lu_unpack(LU, pivots)  # noqa: N806
        A = P @ L @ U  # noqa: N806
        A = A.mT.conj() if adjoint else A  # noqa: N806
        return torch.linalg.solve(A, B, left=left)
    return _lu_solve(LU, pivots, B)


linalg_lu_solve.__name__ = "lu_solve"


@defop("detach")
def detach(input: Tensor) -> Tensor:
    """``input.detach()``."""
    return input.detach()


@defop("detach_")
def detach_(input: Tensor) -> Tensor:
    """``input.detach_()``."""
    return input.detach_()


def _copy_of(view_name: str):
    def function(input: Tensor, *args, **kwargs):
        result = getattr(torch, view_name)(input, *args, **kwargs)
        if isinstance(result, (tuple, list)):
            return type(result)(r.clone(memory_format=torch.contiguous_format) for r in result)
        return result.clone(memory_format=torch.contiguous_format)

    function.__name__ = view_name + "_copy"
    function.__doc__ = f"A contiguous copy of ``torch.{view_name}(...)``."
    return function


_VIEW_COPIES = (
    "view t transpose diagonal expand permute select squeeze unsqueeze unbind split "
    "split_with_sizes unfold as_strided view_as_real view_as_complex detach"
).split()


def _view(input, *shape):
    return input.view(*shape)


def _expand(input, size, *, implicit=False):
    return input.expand(size)


def _unfold(input, dimension, size, step):
    return input.unfold(dimension, size, step)


@defop("slice_copy")
def _slice(input, dim=0, start=None, end=None, step=1):
    index = (slice(None),) * (dim % input.dim()) + (slice(start, end, step),)
    return input[index].clone(memory_format=torch.contiguous_format)


@defop("alias_copy")
def _alias(input):
    return input.clone()


def copies() -> dict:
    """The ``torch.<view>_copy`` functions."""
    result = {}
    for name in _VIEW_COPIES:
        source = {"view": _view, "expand": _expand, "unfold": _unfold}.get(name)
        if source is None:
            result[name + "_copy"] = _copy_of(name)
        else:
            result[name + "_copy"] = _copy_of_function(source, name)
    result["slice_copy"] = _slice
    result["alias_copy"] = _alias
    return result


def _copy_of_function(view, name):
    def function(input: Tensor, *args, **kwargs):
        return view(input, *args, **kwargs).clone(memory_format=torch.contiguous_format)

    function.__name__ = name + "_copy"
    function.__doc__ = f"A contiguous copy of ``Tensor.{name}(...)``."
    return function


_REMOVED_SINCE = "This function was deprecated since version 1.9 and is now removed."

#: the first line of PyTorch's message for each removed function, then our pointer
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


def _removed(name: str):
    rest, use = _REMOVED_MESSAGES[name]

    def function(*args, **kwargs):
        raise RuntimeError(f"{_REMOVED_SINCE}{rest}\nUse {use} instead.")

    function.__name__ = name
    return function


# functions PyTorch removed: calling them raises its message
for _name in _REMOVED_MESSAGES:
    defop(_name, _removed(_name), family="removed")
for _name, _function in copies().items():
    defop(_name, _function, family="view_copies")
