"""Filling a tensor with one value: ``torch.fill``, ``Tensor.fill_`` and ``Tensor.zero_``.

The value is a number or a 0-dim tensor; the in-place forms write straight into the
tensor's memory (``np.copyto`` of a scalar, no temporary array).
"""

from __future__ import annotations

import numpy as np

from .._dtype_support import FLOAT8_BY_NUMPY, to_float8
from .._interface import array_kernels
from .._native import large_fill
from .._tensor import Tensor
from ._dispatch import as_array, check_inplace_fill, check_tensor, defop, record, register_op
from .pointwise import INPLACE, _snapshot

__all__ = ["fill", "fill_", "zero_"]


def _scalar(value, op: str):
    """``value`` (a number or a 0-dim tensor) as a Python/NumPy scalar."""
    if isinstance(value, Tensor):
        if value._np.ndim:
            raise RuntimeError(
                f"{op} only supports 0-dimension value tensor but got tensor with "
                f"{value._np.ndim} dimensions."
            )
        return value._np[()]
    if isinstance(value, (bool, int, float, complex, np.generic)):
        return value
    raise TypeError(
        f"{op}(): argument 'value' must be Number or Tensor, not {type(value).__name__}"
    )


def _store(array: np.ndarray, scalar) -> None:
    if array.dtype.kind not in "c" and isinstance(scalar, (complex, np.complexfloating)):
        scalar = scalar.real  # PyTorch keeps the real part when filling a real tensor
    if array.dtype in FLOAT8_BY_NUMPY:  # PyTorch's float8 rounding of the value
        scalar = to_float8(as_array(scalar, np.float64), FLOAT8_BY_NUMPY[array.dtype])
    # a big float tensor by the threaded kernel, for values a double holds exactly
    if _exact_in_double(scalar) and large_fill(array, scalar):
        return
    with np.errstate(all="ignore"):
        np.copyto(array, scalar, casting="unsafe")


def _exact_in_double(scalar) -> bool:
    if isinstance(scalar, (float, np.floating, bool, np.bool_)):
        return True
    return isinstance(scalar, (int, np.integer)) and -(2**53) <= scalar <= 2**53


def fill_array(array: np.ndarray, value) -> None:
    """Every element of ``array`` set to ``value`` (a number or a 0-dim array of its
    dtype): the threaded kernel for a big float array, else NumPy's."""
    if not large_fill(array, value):
        array.fill(value)


# the engine fills gradients (a sum's, broadcast back) with the kernel fill_ uses
array_kernels.register("fill", fill_array)


@defop("fill", inplace=True, torch_inplace=True)
def fill(input: Tensor, value) -> Tensor:
    """A tensor shaped and typed like ``input`` with every element equal to ``value``
    (a number or a 0-dim tensor).

    Examples::

        >>> torch.fill(torch.zeros(2, 2, dtype=torch.int32), 7)
        tensor([[7, 7],
                [7, 7]], dtype=torch.int32)
    """
    check_tensor(input, "fill")
    scalar = _scalar(value, "fill")
    array = np.empty(input._np.shape, dtype=input._np.dtype, like=input._np)  # its device
    _store(array, scalar)
    return record(FILL, (input, value), Tensor._from_array(array, input._dtype))


FILL = register_op("fill", fill, "fill(Tensor self, Scalar value) -> Tensor", "fill")


def fill_(self: Tensor, value) -> Tensor:
    """Set every element of ``self`` to ``value`` (a number or a 0-dim tensor), in place.

    Examples::

        >>> x = torch.arange(4.0)
        >>> x.fill_(2.5)
        tensor([2.5000, 2.5000, 2.5000, 2.5000])
        >>> x.fill_(torch.tensor(1))
        tensor([1., 1., 1., 1.])
    """
    scalar = _scalar(value, "fill_")
    recording = check_inplace_fill(self, value)
    snapshot = _snapshot(self) if recording else None
    _store(self._np, scalar)
    self._bump_version()
    if recording:
        record(FILL_TENSOR_ if isinstance(value, Tensor) else FILL_, (snapshot, value), self)
    return self


@defop("zero_", method=True)
def zero_(self: Tensor) -> Tensor:
    """Set every element of ``self`` to zero, in place.

    Examples::

        >>> x = torch.ones(2, 3)
        >>> x[0].zero_()
        tensor([0., 0., 0.])
        >>> x
        tensor([[0., 0., 0.],
                [1., 1., 1.]])
    """
    recording = check_inplace_fill(self)
    snapshot = _snapshot(self) if recording else None
    _store(self._np, 0)
    self._bump_version()
    if recording:
        record(ZERO_, (snapshot,), self)
    return self


FILL_ = register_op(
    "fill_",
    fill_,
    "fill_(Tensor(a!) self, Scalar value) -> Tensor(a!)",
    "fill",
    inplace=True,
    out_of_place="fill",
)
FILL_TENSOR_ = register_op(
    "fill_.Tensor",
    fill_,
    "fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)",
    "fill",
    inplace=True,
    out_of_place="fill",
    binding="Tensor.fill_",
)
ZERO_ = register_op(
    "zero_",
    zero_,
    "zero_(Tensor(a!) self) -> Tensor(a!)",
    "fill",
    inplace=True,
    out_of_place="fill",
)
INPLACE["fill_"] = fill_
INPLACE["zero_"] = zero_
