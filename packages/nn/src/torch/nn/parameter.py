"""``nn.Parameter``: a tensor that a module registers as one of its parameters."""

from __future__ import annotations

import torch

__all__ = ["Parameter"]


class Parameter(torch.Tensor):
    """A tensor that is a module parameter; it requires grad unless told otherwise.

    It shares memory with the tensor it is made from.

    Args:
        data (Tensor): the parameter's values. Default: an empty tensor.
        requires_grad (bool): whether it requires grad. Default: ``True``.

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> nn.Parameter(torch.tensor([1.0, 2.0]))
        Parameter containing:
        tensor([1., 2.], requires_grad=True)
    """

    __slots__ = ()

    def __new__(cls, data=None, requires_grad: bool = True):
        if data is None:
            data = torch.empty(0)
        if not isinstance(data, torch.Tensor):
            raise TypeError(f"Parameter data must be a Tensor, got {type(data).__name__}")
        param = object.__new__(cls)
        # share storage and version counter with `data`, as a detached alias
        alias = data.detach()
        for slot in torch.Tensor.__slots__:
            if slot != "__weakref__":
                object.__setattr__(param, slot, getattr(alias, slot))
        param.requires_grad_(requires_grad)
        return param

    def __init__(self, data=None, requires_grad: bool = True):
        # everything happens in __new__; this states the signature for tools and docs
        pass

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return (Parameter, (self.detach(), self.requires_grad))
