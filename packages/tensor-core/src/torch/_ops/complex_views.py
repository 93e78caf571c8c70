"""Views between complex tensors and real tensors with a trailing dim of size 2 (real and
imaginary parts): ``view_as_real``, ``view_as_complex``, ``real`` and ``imag``. The
results share storage and version counter with their input.

The family also holds the complex conjugate ``conj`` and the constructor ``complex``,
both recorded ops (so ``conj()``, ``mH``, ``adjoint()`` and ``torch.complex`` keep the
autograd graph).

NOTE: ``conj`` computes the conjugate now instead of setting a lazy conjugate bit as
PyTorch does; results are equal, only ``is_conj()`` is always ``False`` here and the
result does not share memory with a complex input."""

from __future__ import annotations

import numpy as np

from .. import _dtype
from .._tensor import Tensor
from ._dispatch import as_array, check_tensor, defop, record, register_op
from .views import _with_strides

__all__ = ["view_as_real", "view_as_complex", "real", "imag", "conj", "is_conj", "complex"]

_COMPLEX_OF = {_dtype.float32: _dtype.complex64, _dtype.float64: _dtype.complex128}


def _retyped_alias(input: Tensor, array: np.ndarray, dtype, offset: int, strides) -> Tensor:
    if array.size == 0:  # NumPy's empty views lose the strides PyTorch keeps
        array = _with_strides(input, array, strides)
    result = input._alias(array, offset)
    result._dtype = dtype
    result._offset_ = offset
    return result


def _register_view(name: str, function):
    """A view op of one tensor, as view_as_real and view_as_complex are."""
    return register_op(name, function, f"{name}(Tensor(a) self) -> Tensor(a)", "view", view=True)


@defop("view_as_real")
def view_as_real(input: Tensor) -> Tensor:
    """A real view of a complex tensor with one more trailing dim of size 2 holding the
    real and imaginary parts.

    Examples::

        >>> z = torch.tensor([1 + 2j, 3 - 4j])
        >>> torch.view_as_real(z)
        tensor([[ 1.,  2.],
                [ 3., -4.]])
    """
    check_tensor(input, "view_as_real")
    if not input._dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    real = input._dtype.to_real()
    array = input._np[..., None].view(real.np_dtype)
    strides = [2 * s for s in input.stride()] + [1]
    result = _retyped_alias(input, array, real, input._offset * 2, strides)
    return record(VIEW_AS_REAL, (input,), result)


VIEW_AS_REAL = _register_view("view_as_real", view_as_real)


def _check_complex_layout(input: Tensor) -> None:
    if input._dtype not in _COMPLEX_OF:
        if input._dtype is _dtype.float16:
            raise NotImplementedError(
                "view_as_complex: complex32 (chalf) tensors are not built yet"
            )
        raise RuntimeError(
            "view_as_complex is only supported for half, float and double tensors, but got a "
            f"tensor of scalar type: {input._dtype._legacy[:-6]}"
        )
    if input._np.ndim == 0 or input._np.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    strides = input.stride()
    if strides[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in strides[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if input._offset % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")


@defop("view_as_complex")
def view_as_complex(input: Tensor) -> Tensor:
    """A complex view of a float32/float64 tensor whose last dim (size 2, stride 1) holds
    real and imaginary parts; the result drops that dim.

    Examples::

        >>> torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, -4.0]]))
        tensor([1.+2.j, 3.-4.j])
    """
    check_tensor(input, "view_as_complex")
    _check_complex_layout(input)
    complex_dtype = _COMPLEX_OF[input._dtype]
    array = input._np.view(complex_dtype.np_dtype)[..., 0]
    strides = [s // 2 for s in input.stride()[:-1]]
    result = _retyped_alias(input, array, complex_dtype, input._offset // 2, strides)
    return record(VIEW_AS_COMPLEX, (input,), result)


VIEW_AS_COMPLEX = _register_view("view_as_complex", view_as_complex)


@defop("real")
def real(input: Tensor) -> Tensor:
    """The real parts of a complex tensor as a view; a real tensor itself.

    Examples::

        >>> torch.real(torch.tensor([1 + 2j, 3 - 4j]))
        tensor([1., 3.])
    """
    check_tensor(input, "real")
    if not input._dtype.is_complex:
        return input
    return view_as_real(input)[..., 0]


@defop("imag")
def imag(input: Tensor) -> Tensor:
    """The imaginary parts of a complex tensor as a view (real tensors have none).

    Examples::

        >>> torch.imag(torch.tensor([1 + 2j, 3 - 4j]))
        tensor([ 2., -4.])
    """
    check_tensor(input, "imag")
    if not input._dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return view_as_real(input)[..., 1]


@defop("is_conj", method=True, public=False)
def is_conj(input: Tensor) -> bool:
    """Whether ``input`` is a lazily conjugated view (never here: ``conj`` computes).

    Examples::

        >>> torch.tensor([1 + 2j]).conj().is_conj()
        False
    """
    return False


@defop("conj", method=True)
def conj(input: Tensor) -> Tensor:
    """The complex conjugate (``input`` itself for real tensors). Differentiable: the
    gradient is the conjugate of the incoming gradient.

    Examples::

        >>> torch.conj(torch.tensor([1 + 2j, 3 - 4j]))
        tensor([1.-2.j, 3.+4.j])
    """
    check_tensor(input, "conj")
    if not input._dtype.is_complex:
        return input
    result = Tensor._from_array(np.conj(input._np), input._dtype)
    return record(CONJ, (input,), result)


CONJ = register_op("conj", conj, "conj(Tensor(a) self) -> Tensor(a)", "view")


def _legacy(d) -> str:
    return d._legacy[:-6]


def _complex_parts_check(a: Tensor, b: Tensor) -> None:
    floats = (_dtype.float16, _dtype.float32, _dtype.float64)
    if a._dtype not in floats or b._dtype not in floats:
        raise RuntimeError(
            "Expected both inputs to be Half, Float or Double tensors but got "
            f"{_legacy(a._dtype)} and {_legacy(b._dtype)}"
        )
    if a._dtype is not b._dtype:
        raise RuntimeError(
            f"Expected object of scalar type {_legacy(a._dtype)} but got scalar type "
            f"{_legacy(b._dtype)} for second argument"
        )


@defop("complex", out=True)
def complex(real: Tensor, imag: Tensor) -> Tensor:  # noqa: A001 - PyTorch's name
    """A complex tensor from its real and imaginary parts (float32 -> complex64), which
    broadcast together. Differentiable in both.

    Examples::

        >>> torch.complex(torch.tensor([1.0, 3.0]), torch.tensor([2.0, -4.0]))
        tensor([1.+2.j, 3.-4.j])
    """
    _complex_parts_check(real, imag)
    a, b = np.broadcast_arrays(real._np, imag._np)
    dtype = real._dtype.to_complex()
    result = Tensor._from_array(as_array(a + 1j * b, dtype.np_dtype), dtype)
    return record(COMPLEX, (real, imag), result)


COMPLEX = register_op("complex", complex, "complex(Tensor real, Tensor imag) -> Tensor", "view")
