"""The ``layout=`` argument of the creation functions (``torch.zeros(2, 3,
layout=torch.sparse_coo)``, ``torch.rand(2, layout=torch.strided)``, ...).

``torch.strided`` (or ``None``) is the dense path. ``torch.sparse_coo`` gives an empty
sparse tensor where PyTorch has a sparse kernel (``zeros``, ``empty``, ``zeros_like``,
``empty_like`` of a sparse tensor, ``new_zeros``, ``new_empty``) and PyTorch's error
elsewhere: filling with a non-zero value is refused, and functions without a sparse
kernel name the ATen op that has none. The check is off the hot path: callers test
``layout is not None`` first.
"""

from __future__ import annotations

import numpy as np

from ._layout import layout as _layout_type
from ._layout import sparse_coo, strided

__all__ = ["is_sparse_layout", "sparse_like", "sparse_empty", "refuse_sparse"]

# functions whose argument parser names the bad argument (the others have overloads, and
# PyTorch reports the whole call as an invalid combination of arguments)
_SINGLE_SIGNATURE = {
    "zeros",
    "ones",
    "empty",
    "full",
    "range",
    "empty_strided",
    "zeros_like",
    "ones_like",
    "empty_like",
    "full_like",
    "new_zeros",
    "new_ones",
    "new_empty",
    "new_full",
}

#: the ATen op PyTorch 2.13 reports as missing a SparseCPU kernel, per creation function
_SPARSE_MISSING_KERNEL = {
    "arange": "aten::arange.start_out",
    "range": "aten::range.out",
    "linspace": "aten::linspace.out",
    "logspace": "aten::logspace.out",
    "eye": "aten::eye.m_out",
    "empty_strided": "aten::empty_strided",
    "rand": "aten::uniform_",
    "randn": "aten::normal_",
    "normal": "aten::normal_",
    "randint": "aten::random_.from",
    "randperm": "aten::randperm.generator_out",
    "ones_like": "aten::empty_strided",
    "empty_like": "aten::empty_strided",
    "full_like": "aten::empty_strided",
    "rand_like": "aten::empty_strided",
    "randn_like": "aten::empty_strided",
    "randint_like": "aten::empty_strided",
    "new_ones": "aten::fill_.Scalar",
    "new_full": "aten::fill_.Scalar",
}


def is_sparse_layout(layout, fn: str, args: tuple = ()) -> bool:
    """Whether ``layout`` asks ``fn`` for a sparse COO result (False for the dense
    ``torch.strided``); TypeError for what is not a ``torch.layout``, as PyTorch's
    argument parser words it (``args``: the call's positional arguments, for the
    message of functions with overloads)."""
    if layout is None or layout is strided:
        return False
    if not isinstance(layout, _layout_type):
        got = type(layout).__name__
        if fn in _SINGLE_SIGNATURE:
            raise TypeError(f"{fn}(): argument 'layout' must be torch.layout, not {got}")
        described = ", ".join([*(_type_name(a) for a in args), f"layout={got}"])
        raise TypeError(
            f"{fn}() received an invalid combination of arguments - got ({described}), but "
            "expected one of:\n * (..., *, torch.layout layout = None, ...)"
        )
    if layout is sparse_coo:
        return True
    raise RuntimeError(
        f"{fn}(): layout {layout} is not supported (only torch.strided and torch.sparse_coo are)"
    )


#: the in-place op that fails when a ``*_like`` function fills a sparse result made like
#: a sparse input (no ``layout=`` given)
_SPARSE_FILL_KERNEL = {
    "ones_like": "aten::fill_.Scalar",
    "full_like": "aten::fill_.Scalar",
    "rand_like": "aten::uniform_",
    "randn_like": "aten::normal_",
    "randint_like": "aten::random_.from",
}


def sparse_like(input, layout, fn: str, args: tuple) -> bool:
    """Whether a ``*_like`` call asks for a sparse COO result: ``layout`` is
    ``torch.sparse_coo``, or not given and ``input`` is sparse."""
    if layout is None:
        return bool(getattr(input, "is_sparse", False))
    return is_sparse_layout(layout, fn, args)


def refuse_sparse(fn: str, *, filling: bool = False):
    """PyTorch's error for ``fn`` asked for a sparse COO result it has no kernel for
    (``filling``: a ``*_like`` function following a sparse input's layout, which fails
    later, in the op that fills the result)."""
    if fn in ("ones", "full"):
        return RuntimeError("full(...) is not implemented for sparse layout")
    op = _SPARSE_FILL_KERNEL[fn] if filling else _SPARSE_MISSING_KERNEL[fn]
    return NotImplementedError(
        f"Could not run '{op}' with arguments from the 'SparseCPU' backend. This could be "
        "because the operator doesn't exist for this backend, or was omitted during the "
        "selective/custom build process (if using custom build)."
    )


def sparse_empty(shape, dtype, device=None, requires_grad: bool = False, like=None):
    """An all-zero sparse COO tensor with no stored entries: every dim sparse, or split
    into sparse and dense dims as those of the sparse tensor ``like``."""
    from ._creation import empty
    from ._sparse import sparse_coo_tensor

    shape = tuple(shape)
    sparse_dims = like.sparse_dim() if like is not None and like.is_sparse else len(shape)
    indices = empty((sparse_dims, 0), dtype=_int64())
    values = empty((0, *shape[sparse_dims:]), dtype=dtype)
    return sparse_coo_tensor(
        indices, values, shape, device=device, requires_grad=requires_grad, is_coalesced=True
    )


def _int64():
    from ._dtype import int64

    return int64


def _type_name(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, np.integer)):
        return "int"
    if isinstance(value, (float, np.floating)):
        return "float"
    name = type(value).__name__
    return "Tensor" if name in ("Tensor", "SparseTensor", "Parameter") else name
