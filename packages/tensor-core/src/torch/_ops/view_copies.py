"""The ``torch.<view>_copy`` functions (a contiguous copy of what the view op gives:
``t_copy``, ``diagonal_copy``, ``slice_copy``, ...) and ``torch.detach``/``detach_``.

NOTE: composites of the view ops and ``clone`` (gradients follow from them).
"""

from __future__ import annotations

import torch

from .._tensor import Tensor
from ._dispatch import defop

__all__ = ["detach", "detach_"]


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


# the torch.<view>_copy functions
for _name, _function in copies().items():
    defop(_name, _function, family="view_copies")
