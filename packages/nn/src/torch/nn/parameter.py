"""``nn.Parameter``: a tensor that a module registers as one of its parameters."""

from __future__ import annotations

import torch

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer"]


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


class Buffer(torch.Tensor):
    """A tensor marked as module state: assigning it to a module attribute registers it
    as a buffer (the module stores a plain tensor).

    Args:
        data (Tensor): the values. Default: an empty tensor.
        persistent (bool): whether the module's ``state_dict`` includes it.
            Default: ``True``.

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> m = nn.Module()
        >>> m.steps = nn.Buffer(torch.zeros(1))
        >>> list(m.state_dict())
        ['steps']
    """

    __slots__ = ("persistent",)

    def __new__(cls, data=None, *, persistent: bool = True):
        if data is None:
            data = torch.empty(0)
        if not isinstance(data, torch.Tensor):
            raise TypeError(f"Buffer data must be a Tensor, got {type(data).__name__}")
        buf = object.__new__(cls)
        alias = data.detach()
        for slot in torch.Tensor.__slots__:
            if slot != "__weakref__":
                object.__setattr__(buf, slot, getattr(alias, slot))
        buf.persistent = persistent
        return buf

    def __init__(self, data=None, *, persistent: bool = True):
        pass

    def detach(self) -> torch.Tensor:
        return torch.Tensor.detach(self)


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet (used by the ``Lazy*`` modules);
    :meth:`materialize` gives it a shape and turns it into a :class:`Parameter`.

    Examples::

        >>> from torch import nn
        >>> p = nn.UninitializedParameter()
        >>> p.materialize((2, 3))
        >>> type(p).__name__, tuple(p.shape)
        ('Parameter', (2, 3))
    """

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        param = Parameter.__new__(cls, torch.empty(0, dtype=dtype), requires_grad)
        return param

    def __init__(self, requires_grad: bool = True, device=None, dtype=None):
        pass

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Allocate (uninitialised) data of ``shape`` and become a Parameter."""
        data = torch.empty(tuple(shape), dtype=dtype or self.dtype)
        for slot in ("_storage_", "_offset_", "_np", "_dtype"):
            object.__setattr__(self, slot, getattr(data, slot))
        self.__class__ = self.cls_to_become

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    def __reduce_ex__(self, protocol):
        return (UninitializedParameter, (self.requires_grad,))


class UninitializedBuffer(torch.Tensor):
    """A buffer whose shape is not known yet (used by the lazy norm layers);
    :meth:`materialize` gives it a shape and turns it into a plain tensor."""

    __slots__ = ()

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None, persistent=True):
        buf = object.__new__(cls)
        empty = torch.empty(0, dtype=dtype)
        for slot in torch.Tensor.__slots__:
            if slot != "__weakref__":
                object.__setattr__(buf, slot, getattr(empty, slot))
        return buf

    def __init__(self, requires_grad: bool = False, device=None, dtype=None, persistent=True):
        pass

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Allocate (uninitialised) data of ``shape`` and become a plain tensor."""
        data = torch.empty(tuple(shape), dtype=dtype or self.dtype)
        for slot in ("_storage_", "_offset_", "_np", "_dtype"):
            object.__setattr__(self, slot, getattr(data, slot))
        self.__class__ = torch.Tensor

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"
