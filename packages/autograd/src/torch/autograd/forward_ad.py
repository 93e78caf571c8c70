"""Forward-mode automatic differentiation: tensors carry a tangent through every op.

Inside a ``dual_level()`` block, :func:`make_dual` pairs a tensor with a tangent (the
direction of the derivative); every op on dual tensors computes its result and the
result's tangent (the Jacobian-vector product) at once, and :func:`unpack_dual` reads both
back. When the block exits, the dual tensors made in it act as their primals.

Examples::

    >>> import torch.autograd.forward_ad as fwAD
    >>> x = torch.tensor([1.0, 2.0])
    >>> with fwAD.dual_level():
    ...     y = fwAD.make_dual(x, torch.ones(2)) ** 2
    ...     fwAD.unpack_dual(y).tangent
    tensor([2., 4.])
"""

from __future__ import annotations

from typing import Any, NamedTuple

import torch

from ._transforms.dual import DualLevel, make_dual_tensor, unwrap_dual
from ._transforms.levels import TransformTensor

__all__ = [
    "UnpackedDualTensor",
    "enter_dual_level",
    "exit_dual_level",
    "make_dual",
    "unpack_dual",
    "dual_level",
]

#: the level ``dual_level``/``enter_dual_level`` opened (PyTorch allows one at a time)
_current: list[DualLevel] = []


class UnpackedDualTensor(NamedTuple):
    """What :func:`unpack_dual` returns: the primal and its tangent (None if it has
    none at that level)."""

    primal: torch.Tensor
    tangent: torch.Tensor | None


def enter_dual_level() -> int:
    """Open a dual level (there can be one at a time) and return its number; prefer the
    ``dual_level()`` context manager."""
    if _current:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    level = DualLevel().enter()
    _current.append(level)
    return level.number


def exit_dual_level(*, level: int | None = None) -> None:
    """Close the dual level opened by :func:`enter_dual_level`."""
    if not _current or (level is not None and _current[-1].number != level):
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. "
            "This is not supported."
        )
    _current.pop().exit()


def _level(level: int | None) -> DualLevel | None:
    if not _current:
        return None
    if level is not None and _current[-1].number != level:
        return None
    return _current[-1]


def _size_list(shape) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


def make_dual(tensor, tangent, *, level: int | None = None):
    """``tensor`` with ``tangent`` as its forward gradient, at the current dual level.

    Args:
        tensor (Tensor): the primal, floating point or complex.
        tangent (Tensor): its tangent, of the same size.
        level (int, optional): the dual level (default: the current one).
    """
    found = _level(level)
    if found is None:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure "
            "to enter_dual_level() first."
        )
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(
            f"Expected primal to be floating point or complex, but got: {tensor.dtype}"
        )
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(
            f"Expected tangent to be floating point or complex, but got: {tangent.dtype}"
        )
    if tuple(tensor.shape) != tuple(tangent.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            "original Tensor, this is not supported. Tensor is of size "
            f"{_size_list(tensor.shape)} while the given forward gradient is of size "
            f"{_size_list(tangent.shape)}."
        )
    primal, _ = unwrap_dual(found, tensor)
    # NOTE: a view of the primal, as in PyTorch (the dual tensor shares its memory)
    return make_dual_tensor(found, primal.view_as(primal), tangent)


def unpack_dual(tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """The primal of ``tensor`` and its tangent at the current dual level (None when it
    has none, or when no level is open)."""
    found = _level(level)
    if not isinstance(tensor, TransformTensor):
        return UnpackedDualTensor(tensor, None)
    if found is None:
        primal = tensor
        while isinstance(primal, TransformTensor) and hasattr(primal, "_primal"):
            primal = primal._primal
        return UnpackedDualTensor(primal, None)
    primal, tangent = unwrap_dual(found, tensor)
    return UnpackedDualTensor(primal, tangent)


class dual_level:
    """Context manager of a dual level: the dual tensors made inside carry tangents until
    it exits.

    Examples::

        >>> import torch.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     x = fwAD.make_dual(torch.tensor(0.0), torch.tensor(1.0))
        ...     fwAD.unpack_dual(torch.sin(x)).tangent
        tensor(1.)
    """

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: Any) -> None:
        exit_dual_level()

    def __call__(self, function):
        import functools

        @functools.wraps(function)
        def wrapped(*args, **kwargs):
            with dual_level():
                return function(*args, **kwargs)

        return wrapped
