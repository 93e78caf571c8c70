"""``nn.Parameter``: a tensor that a module registers as one of its parameters."""

from __future__ import annotations

import os
import sys

import torch
from torch._interface import tensors

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer"]


class Parameter(torch.Tensor):
    """A tensor that is a module parameter; it requires grad unless told otherwise.

    It shares memory with the tensor it is made from.

    Args:
        data (Tensor): the parameter's values. Default: an empty tensor.
        requires_grad (bool): whether it requires grad. Default: ``True``.

    Examples::

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
        # share storage and version counter with `data`, as a detached alias
        param = tensors.alias_as(cls, data.detach())
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
        buf = tensors.alias_as(cls, data.detach())
        buf.persistent = persistent
        return buf

    def __init__(self, data=None, *, persistent: bool = True):
        pass

    def detach(self) -> torch.Tensor:
        return torch.Tensor.detach(self)


def _uninitialized_use(tensor) -> ValueError:
    return ValueError(
        f"Attempted to use an uninitialized parameter in {_torch_entry_point()}. This error "
        "happens when you are using a `LazyModule` or explicitly manipulating "
        f"`torch.nn.parameter.{type(tensor).__name__}` objects. When using LazyModules Call "
        "`forward` with a dummy batch to initialize the parameters before calling torch "
        "functions"
    )


def _torch_entry_point() -> str:
    """The name of the outermost torch function on the stack (what the user called)."""
    name = "a torch function"
    marker = f"{os.sep}torch{os.sep}"
    frame = sys._getframe(2)
    while frame is not None and marker in frame.f_code.co_filename:
        code = frame.f_code.co_name
        if code in _GENERIC_WRAPPERS:
            op = frame.f_locals.get("op")
            label = getattr(op, "name", None)
            if isinstance(label, str):
                name = label
        elif not code.startswith("_") or code.startswith("__"):
            name = code
        frame = frame.f_back
    return name


_GENERIC_WRAPPERS = frozenset({"method", "operator", "function", "compute"})


def _blocked_data(self):
    raise _uninitialized_use(self)


class UninitializedTensorMixin:
    """What the uninitialized parameter and buffer share: no shape until
    :meth:`materialize`. Until then their data cannot be used: ``.shape`` raises a
    RuntimeError and any computation (arithmetic, ``numel()``, ``sum()``, ``item()``, ...)
    a ValueError; only metadata (``dtype``, ``device``, ``requires_grad``, ``size()``) and
    dtype/device moves are allowed."""

    __slots__ = ()
    cls_to_become = None

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error "
            "usually happens in `load_state_dict` when trying to load an uninitialized "
            "parameter into an initialized one. Call `forward` to initialize the parameters "
            "before accessing their attributes."
        )

    def size(self, dim=None):
        # as PyTorch: the placeholder reports its empty (0,) storage
        return torch.Size([0]) if dim is None else torch.Size([0])[dim]

    ndim = property(lambda self: 1)

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Allocate (uninitialised) data of ``shape`` and turn into ``cls_to_become``.

        Args:
            shape (tuple): the shape to give the data.
            device: ignored (CPU only). Default: ``None``.
            dtype: the data type. Default: the placeholder's.
        """
        tensors.replace_data(self, torch.empty(tuple(shape), dtype=dtype or self.dtype))
        self.__class__ = self.cls_to_become

    # moves between dtypes/devices keep the placeholder (PyTorch allows these)
    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for arg in args:
            if isinstance(arg, torch.dtype):
                dtype = arg
            elif isinstance(arg, torch.Tensor):
                dtype = arg.dtype
        return self._with_dtype(dtype)

    def _with_dtype(self, dtype):
        if dtype is None or dtype is self.dtype:
            return self
        twin = type(self)(requires_grad=self.requires_grad, dtype=dtype)
        return twin

    def float(self, memory_format=None):
        return self._with_dtype(torch.float32)

    def double(self, memory_format=None):
        return self._with_dtype(torch.float64)

    def half(self, memory_format=None):
        return self._with_dtype(torch.float16)

    def bfloat16(self, memory_format=None):
        return self._with_dtype(torch.bfloat16)

    def cpu(self, memory_format=None):
        return self

    @property
    def data(self):
        # a parameter's data is a plain (empty) tensor, a buffer's is the placeholder itself
        if isinstance(self, torch.nn.Parameter):
            return torch.empty(0, dtype=self.dtype)
        return self

    @data.setter
    def data(self, value) -> None:
        torch.Tensor.data.__set__(self, value)

    # refused before any requires-grad or in-place check, as in PyTorch
    def __float__(self):
        raise _uninitialized_use(self)

    def __int__(self):
        raise _uninitialized_use(self)

    def __complex__(self):
        raise _uninitialized_use(self)

    def numpy(self, *, force: bool = False):
        raise _uninitialized_use(self)

    def fill_(self, value):
        raise _uninitialized_use(self)

    def zero_(self):
        raise _uninitialized_use(self)

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def get_device(self) -> int:
        return -1


# every computation reads the array: on a placeholder it raises
tensors.block_array_reads(UninitializedTensorMixin, _blocked_data)


def _empty_alias(cls, requires_grad: bool, dtype):
    tensor = tensors.alias_as(cls, torch.empty(0, dtype=dtype))
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape is not known yet (used by the ``Lazy*`` modules);
    :meth:`materialize` gives it a shape and turns it into a :class:`Parameter`.

    Args:
        requires_grad (bool): whether the parameter requires grad. Default: ``True``.
        device: ignored (CPU only). Default: ``None``.
        dtype: the data type once materialized. Default: the default dtype.

    Examples::

        >>> p = nn.UninitializedParameter()
        >>> p.materialize((2, 3))
        >>> type(p).__name__, tuple(p.shape)
        ('Parameter', (2, 3))
    """

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        return _empty_alias(cls, requires_grad, dtype)

    def __init__(self, requires_grad: bool = True, device=None, dtype=None):
        pass

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    def __deepcopy__(self, memo):
        copy = type(self)(self.requires_grad, dtype=self.dtype)
        memo[id(self)] = copy
        return copy

    def __reduce_ex__(self, protocol):
        return (UninitializedParameter, (self.requires_grad, None, self.dtype))


class UninitializedBuffer(UninitializedTensorMixin, torch.Tensor):
    """A buffer whose shape is not known yet (used by the lazy norm layers);
    :meth:`materialize` gives it a shape and turns it into a plain tensor.

    Args:
        requires_grad (bool): whether the buffer requires grad. Default: ``False``.
        device: ignored (CPU only). Default: ``None``.
        dtype: the data type once materialized. Default: the default dtype.
        persistent (bool): whether it belongs to the ``state_dict``. Default: ``True``.
    """

    __slots__ = ()
    cls_to_become = torch.Tensor

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None, persistent=True):
        return _empty_alias(cls, requires_grad, dtype)

    def __init__(self, requires_grad: bool = False, device=None, dtype=None, persistent=True):
        pass

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"


def is_lazy(param) -> bool:
    """Whether ``param`` is an uninitialized parameter or buffer (no shape yet)."""
    return isinstance(param, UninitializedTensorMixin)
