"""Containers: modules that hold other modules or parameters in order or by name."""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping

import torch

from ..parameter import Parameter
from .module import Module, _indent

__all__ = ["Container", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


class Container(Module):
    """Deprecated: a Module holding the keyword arguments as submodules; subclass
    :class:`Module` instead."""

    def __init__(self, **kwargs) -> None:
        super().__init__()
        import warnings

        warnings.warn(
            "nn.Container is deprecated. All of it's functionality is now implemented in "
            "nn.Module. Subclass that instead.",
            stacklevel=2,
        )
        for key, value in kwargs.items():
            self.add_module(key, value)


def _normal_index(idx, size: int, owner: str) -> int:
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


class Sequential(Module):
    """Runs its modules one after the other, each on the previous one's output.

    Args:
        *args: the modules, or one ``OrderedDict`` of named modules.

    Examples::

        >>> net = nn.Sequential(nn.Linear(4, 3), nn.ReLU())
        >>> net
        Sequential(
          (0): Linear(in_features=4, out_features=3, bias=True)
          (1): ReLU()
        )
        >>> net(torch.zeros(2, 4)).shape
        torch.Size([2, 3])
    """

    def _non_full_hook_target(self):
        # deprecated backward hooks see the last node of the forward: the last module's
        return self[-1] if len(self) else None

    def __init__(self, *args: Module) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        keys = list(self._modules)
        return self._modules[keys[_normal_index(idx, len(keys), "Sequential")]]

    def __setitem__(self, idx, module: Module) -> None:
        keys = list(self._modules)
        setattr(self, keys[_normal_index(idx, len(keys), "Sequential")], module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)
        if isinstance(idx, slice):
            for key in keys[idx]:
                delattr(self, key)
        else:
            delattr(self, keys[_normal_index(idx, len(keys), "Sequential")])
        # keep the names 0..n-1
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __add__(self, other: Sequential) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(
                "add operator supports only objects of Sequential class, but "
                f"{type(other)} is given."
            )
        return Sequential(*self, *other)

    def __iadd__(self, other: Sequential) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(
                "add operator supports only objects of Sequential class, but "
                f"{type(other)} is given."
            )
        return self.extend(other)

    def __mul__(self, other: int) -> Sequential:
        if not isinstance(other, int) or other <= 0:
            raise ValueError(
                f"Non-positive multiplication factor {other} for {type(self)}"
                if isinstance(other, int)
                else f"unsupported operand type(s) for *: {type(self)} and {type(other)}"
            )
        return Sequential(*(list(self) * other))

    __rmul__ = __mul__

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, module: Module) -> Sequential:
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        """Insert ``module`` before position ``index``; returns self."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules = OrderedDict()
        for i, m in enumerate(modules):
            self.add_module(str(i), m)
        return self

    def extend(self, sequential: Iterable[Module]) -> Sequential:
        """Append every module of ``sequential``; returns self."""
        for module in sequential:
            self.append(module)
        return self

    def pop(self, key: int) -> Module:
        """Remove and return the module at ``key``."""
        module = self[key]
        del self[key]
        return module

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


class ModuleList(Module):
    """A list of submodules, registered so that parameters and ``to()`` see them.

    Args:
        modules (iterable, optional): the initial modules.

    Examples::

        >>> layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
        >>> layers
        ModuleList(
          (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)
        )
        >>> len(list(layers.parameters()))
        6
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self += modules

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_normal_index(idx, len(self), "ModuleList"))]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, str(_normal_index(idx, len(self), "ModuleList")), module)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(_normal_index(idx, len(self), "ModuleList")))
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        combined = ModuleList()
        for module in list(self) + list(other):
            combined.append(module)
        return combined

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def insert(self, index: int, module: Module) -> None:
        """Insert ``module`` before position ``index``."""
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules = OrderedDict()
        for i, m in enumerate(modules):
            self.add_module(str(i), m)

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key: int) -> Module:
        """Remove and return the module at ``key``."""
        module = self[key]
        del self[key]
        return module

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        """Append every module of ``modules``; returns self."""
        if not isinstance(modules, Iterable):
            raise TypeError(
                "ModuleList.extend should be called with an iterable, but got "
                + type(modules).__name__
            )
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    def __repr__(self) -> str:
        """Consecutive children with equal reprs are shown once, as ``(i-j): n x ...``."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        groups = []  # [first index, last index, repr]
        for i, text in enumerate(reprs):
            if groups and groups[-1][2] == text:
                groups[-1][1] = i
            else:
                groups.append([i, i, text])
        lines = []
        for first, last, text in groups:
            if first == last:
                lines.append(f"({first}): " + _indent(text, 2))
            else:
                count = last - first + 1
                lines.append(f"({first}-{last}): {count} x " + _indent(text, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )


class ModuleDict(Module):
    """A dict of submodules, in insertion order.

    Args:
        modules (mapping or iterable of pairs, optional): the initial modules.

    Examples::

        >>> d = nn.ModuleDict({"act": nn.ReLU(), "lin": nn.Linear(1, 1)})
        >>> list(d.keys())
        ['act', 'lin']
    """

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        """Remove every module."""
        self._modules.clear()

    def pop(self, key: str) -> Module:
        """Remove ``key`` and return its module."""
        module = self[key]
        del self[key]
        return module

    def keys(self):
        """The names."""
        return self._modules.keys()

    def items(self):
        """``(name, module)`` pairs."""
        return self._modules.items()

    def values(self):
        """The modules."""
        return self._modules.values()

    def update(self, modules) -> None:
        """Add or replace modules from a mapping or an iterable of ``(name, module)``."""
        if not isinstance(modules, Iterable):
            raise TypeError(
                "ModuleDict.update should be called with an iterable of key/value pairs, "
                f"but got {type(modules).__name__}"
            )
        if isinstance(modules, Mapping):
            for key, module in modules.items():
                self[key] = module
            return
        for j, pair in enumerate(modules):
            if not isinstance(pair, Iterable):
                raise TypeError(
                    f"ModuleDict update sequence element #{j} should be Iterable; is "
                    f"{type(pair).__name__}"
                )
            if len(pair) != 2:
                raise ValueError(
                    f"ModuleDict update sequence element #{j} has length {len(pair)}; 2 is required"
                )
            self[pair[0]] = pair[1]

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )


def _param_summary(value) -> str:
    if isinstance(value, torch.Tensor):
        kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
        size = "x".join(str(s) for s in value.size())
        return f"{kind} containing: [{value.type()} of size {size}]"
    return f"Object of type: {type(value).__name__}"


class ParameterList(Module):
    """A list of parameters, registered on the module (plain tensors become
    Parameters).

    Args:
        values (iterable, optional): the initial values.

    Examples::

        >>> ps = nn.ParameterList([torch.zeros(2), torch.ones(3)])
        >>> ps
        ParameterList(
            (0): Parameter containing: [torch.float32 of size 2]
            (1): Parameter containing: [torch.float32 of size 3]
        )
    """

    def __init__(self, values: Iterable | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)([self[i] for i in range(len(self))[idx]])
        return getattr(self, str(_normal_index(idx, len(self), "ParameterList")))

    def __setitem__(self, idx: int, param) -> None:
        idx = _normal_index(idx, len(self), "ParameterList")
        if isinstance(param, torch.Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, str(idx), param)

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __iadd__(self, parameters: Iterable):
        return self.extend(parameters)

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, value) -> ParameterList:
        """Add ``value`` at the end; returns self."""
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable) -> ParameterList:
        """Append every value; returns self."""
        if not isinstance(values, Iterable) or isinstance(values, torch.Tensor):
            raise TypeError(
                "ParameterList.extend should be called with an iterable, but got "
                + type(values).__name__
            )
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({i}): " + _dtype_summary(p) for i, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


def _dtype_summary(value) -> str:
    if isinstance(value, torch.Tensor):
        kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
        size = "x".join(str(s) for s in value.size())
        device = "" if value.device.type == "cpu" else f" ({value.device})"
        return f"{kind} containing: [{value.dtype} of size {size}{device}]"
    return f"Object of type: {type(value).__name__}"


class ParameterDict(Module):
    """A dict of parameters, registered on the module (plain tensors become
    Parameters).

    Args:
        parameters (mapping or iterable of pairs, optional): the initial values.

    Examples::

        >>> pd = nn.ParameterDict({"scale": torch.ones(1)})
        >>> pd
        ParameterDict(  (scale): Parameter containing: [torch.FloatTensor of size 1])
    """

    def __init__(self, parameters=None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    def _key(self, key) -> str:
        if not isinstance(key, str):
            raise TypeError(f"ParameterDict keys must be strings, got {type(key).__name__}")
        return key

    def __getitem__(self, key: str):
        return getattr(self, self._key(key))

    def __setitem__(self, key: str, value) -> None:
        key = self._key(key)
        self._keys[key] = None
        if isinstance(value, torch.Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, key, value)

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __reversed__(self):
        return reversed(list(self._keys))

    def __contains__(self, key) -> bool:
        return key in self._keys

    def copy(self) -> ParameterDict:
        """A new ParameterDict holding the same parameters."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key: str, default=None):
        """``self[key]``, first setting it to ``default`` when absent."""
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        """Remove every entry."""
        for key in list(self._keys):
            del self[key]

    def pop(self, key: str):
        """Remove ``key`` and return its value."""
        value = self[key]
        del self[key]
        return value

    def popitem(self):
        """Remove and return the last inserted ``(key, value)``."""
        key = list(self._keys)[-1]
        return key, self.pop(key)

    def get(self, key: str, default=None):
        """``self[key]`` if present, else ``default``."""
        return self[key] if key in self else default

    def fromkeys(self, keys, default=None) -> ParameterDict:
        """A new ParameterDict with ``keys`` all set to ``default``."""
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        """The keys."""
        return self._keys.keys()

    def items(self):
        """``(key, value)`` pairs."""
        return ((k, self[k]) for k in self._keys)

    def values(self):
        """The values."""
        return (self[k] for k in self._keys)

    def update(self, parameters) -> None:
        """Add or replace entries from a mapping or an iterable of ``(key, value)``."""
        if not isinstance(parameters, Iterable):
            raise TypeError(
                "ParametersDict.update should be called with an iterable of key/value "
                f"pairs, but got {type(parameters).__name__}"
            )
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif isinstance(parameters, Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = list(parameters)
        for j, pair in enumerate(pairs):
            if len(pair) != 2:
                raise ValueError(
                    f"ParameterDict update sequence element #{j} has length {len(pair)}; "
                    "2 is required"
                )
            self[pair[0]] = pair[1]

    def __or__(self, other: ParameterDict) -> ParameterDict:
        merged = self.copy()
        merged.update(other)
        return merged

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): " + _param_summary(v) for k, v in self.items())

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterDict should not be called.")
