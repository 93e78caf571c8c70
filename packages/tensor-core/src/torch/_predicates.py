"""Questions about objects and tensors: ``torch.is_complex``, ``torch.is_nonzero``,
``torch.is_same_size`` and ``torch.typename``."""

from __future__ import annotations

from ._ops._dispatch import defop
from ._tensor import Tensor

__all__ = ["is_complex", "is_nonzero", "is_same_size", "typename"]


def _check(input, name: str, arg: str = "input", position: int = 1) -> None:
    if not isinstance(input, Tensor):
        raise TypeError(
            f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
            f"{type(input).__name__}"
        )


@defop("is_complex")
def is_complex(input: Tensor) -> bool:
    """Whether ``input`` has a complex dtype.

    Examples::

        >>> torch.is_complex(torch.zeros(2, dtype=torch.complex64))
        True
        >>> torch.is_complex(torch.zeros(2))
        False
    """
    _check(input, "is_complex")
    return input._dtype.is_complex


@defop("is_nonzero", method=True)
def is_nonzero(input: Tensor) -> bool:
    """Whether the single element of ``input`` is not zero (any shape holding exactly one
    element).

    Examples::

        >>> torch.is_nonzero(torch.tensor([[0.5]])), torch.is_nonzero(torch.tensor(0))
        (True, False)
    """
    _check(input, "is_nonzero")
    size = input._np.size
    if size == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if size > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input._np.reshape(())[()])


@defop("is_same_size", method=True)
def is_same_size(input: Tensor, other: Tensor) -> bool:
    """Whether ``input`` and ``other`` have the same shape.

    Examples::

        >>> torch.is_same_size(torch.zeros(2, 3), torch.ones(2, 3))
        True
    """
    _check(input, "is_same_size")
    _check(other, "is_same_size", "other", 2)
    return input._np.shape == other._np.shape


@defop("typename")
def typename(obj) -> str:
    """A readable type name: a tensor's legacy type (``'torch.FloatTensor'``), otherwise
    the qualified name of ``obj`` (when it is a class or function) or of its type, with
    the module in front unless it is ``builtins``.

    Examples::

        >>> torch.typename(torch.zeros(2)), torch.typename(3), torch.typename(torch.Tensor)
        ('torch.FloatTensor', 'int', 'torch.Tensor')
    """
    if isinstance(obj, Tensor):
        return obj.type()
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if not isinstance(name, str):
        name = type(obj).__qualname__
        module = type(obj).__module__
    else:
        module = getattr(obj, "__module__", "") or ""
    if module in ("", "builtins"):
        return name
    if module.startswith("torch.") and name in _PUBLIC_AT_ROOT:
        module = "torch"
    return f"{module}.{name}"


# classes PyTorch defines in torch/__init__-level modules: ours live in private modules
_PUBLIC_AT_ROOT = {"Tensor", "Size", "dtype", "device", "Generator"}
