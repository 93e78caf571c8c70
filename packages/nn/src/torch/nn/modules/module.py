"""``nn.Module``: the base class of every layer and model.

A module owns parameters, buffers and child modules, registered by attribute
assignment; it converts them together (``to``, ``float``), saves and loads them as a
``state_dict``, switches train/eval mode, and runs hooks around ``forward``.
"""

from __future__ import annotations

import functools
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator
from typing import Any

import torch

from ..parameter import Buffer, Parameter
from . import _hooks
from ._hooks import (
    GLOBAL,
    GLOBAL_IS_FULL,
    BackwardHook,
    NonFullBackwardHook,
    RemovableHandle,
)

__all__ = [
    "Module",
    "register_module_forward_pre_hook",
    "register_module_forward_hook",
    "register_module_backward_hook",
    "register_module_full_backward_pre_hook",
    "register_module_full_backward_hook",
    "register_module_buffer_registration_hook",
    "register_module_module_registration_hook",
    "register_module_parameter_registration_hook",
]

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it missed and the keys it did not use."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _typename(value) -> str:
    if isinstance(value, torch.Tensor):
        return value.type()
    module = type(value).__module__
    name = type(value).__qualname__
    return name if module in ("builtins", None) else f"{module}.{name}"


def _indent(text: str, spaces: int) -> str:
    """Indent every line of ``text`` but the first by ``spaces`` spaces."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    pad = " " * spaces
    return lines[0] + "\n" + "\n".join(pad + line for line in lines[1:])


def _check_name(kind: str, name, owner: Module, table: dict) -> None:
    """The checks shared by register_parameter/register_buffer/add_module."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {_typename(name)}")
    if "." in name:
        suffix = f", got: {name}" if kind == "module" else ""
        raise KeyError(f'{kind} name can\'t contain "."{suffix}')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    if hasattr(owner, name) and name not in table:
        raise KeyError(f"attribute '{name}' already exists")


def _registration_hooks(kind: str, owner: Module, name: str, value):
    """``value`` as the global ``<kind>_registration`` hooks replace it (a hook that
    returns None keeps it)."""
    for hook in GLOBAL[f"{kind}_registration"].values():
        output = hook(owner, name, value)
        if output is not None:
            value = output
    return value


_TENSOR_SLOTS = {name: torch.Tensor.__dict__[name] for name in torch.Tensor.__slots__}


def _assign_data(param: torch.Tensor, new: torch.Tensor) -> None:
    """Make ``param`` hold ``new``'s data in place (what ``param.data = new`` does in
    PyTorch), so the Parameter object keeps its identity."""
    for slot in ("_storage_", "_offset_", "_np", "_dtype"):
        # through the Tensor slots: a lazy placeholder's own ``_np`` refuses to be read
        object.__setattr__(param, slot, _TENSOR_SLOTS[slot].__get__(new))


class Module:
    """Base class of all neural-network modules.

    Subclasses call ``super().__init__()`` first, assign parameters, buffers and
    submodules as attributes, and define :meth:`forward`. Calling the module runs the
    forward hooks around ``forward``.

    Examples::

        >>> class Affine(nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.scale = nn.Parameter(torch.ones(2))
        ...         self.inner = nn.Identity()
        ...     def forward(self, x):
        ...         return self.inner(x) * self.scale
        >>> m = Affine()
        >>> [name for name, _ in m.named_parameters()]
        ['scale']
        >>> m
        Affine(
          (inner): Identity()
        )
    """

    dump_patches: bool = False
    _version: int = 1
    training: bool
    call_super_init: bool = False

    def __init__(self, *args, **kwargs) -> None:
        if not self.call_super_init and (args or kwargs):
            unexpected = ", ".join(map(repr, args)) or ", ".join(kwargs)
            raise TypeError(
                f"{type(self).__name__}.__init__() got unexpected arguments: {unexpected}"
            )
        setter = super().__setattr__
        setter("training", True)
        setter("_parameters", {})
        setter("_buffers", {})
        setter("_non_persistent_buffers_set", set())
        setter("_backward_pre_hooks", OrderedDict())
        setter("_backward_hooks", OrderedDict())
        setter("_is_full_backward_hook", None)
        setter("_forward_hooks", OrderedDict())
        setter("_forward_hooks_with_kwargs", OrderedDict())
        setter("_forward_hooks_always_called", OrderedDict())
        setter("_forward_pre_hooks", OrderedDict())
        setter("_forward_pre_hooks_with_kwargs", OrderedDict())
        setter("_state_dict_hooks", OrderedDict())
        setter("_state_dict_pre_hooks", OrderedDict())
        setter("_load_state_dict_pre_hooks", OrderedDict())
        setter("_load_state_dict_post_hooks", OrderedDict())
        setter("_modules", {})

    forward: Callable[..., Any]

    def forward(self, *input):  # noqa: F811
        """The computation of the module; every subclass defines it."""
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    # ---------------------------------------------------------------- registration

    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        """Add a buffer: a tensor that is module state but not a parameter.

        Args:
            name (str): the attribute name.
            tensor (Tensor or None): the value; ``None`` registers the name without
                state.
            persistent (bool): whether ``state_dict`` includes it. Default: ``True``.
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name("buffer", name, self, self._buffers)
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(
                f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        tensor = _registration_hooks("buffer", self, name, tensor)
        if isinstance(tensor, Buffer):
            tensor = tensor.detach()
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param) -> None:
        """Add a parameter.

        Args:
            name (str): the attribute name.
            param (Parameter or None): the parameter; ``None`` registers the name only.
        """
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name("parameter", name, self, self._parameters)
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        if param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters "
                f"must be created explicitly. To express '{name}' as a function of another "
                "Tensor, compute the value in the forward() method."
            )
        param = _registration_hooks("parameter", self, name, param)
        self._parameters[name] = param

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module, reachable as the attribute ``name``.

        Args:
            name (str): the attribute name.
            module (Module or None): the child.
        """
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        _check_name("module", name, self, self._modules)
        module = _registration_hooks("module", self, name, module)
        self._modules[name] = module

    def register_module(self, name: str, module: Module | None) -> None:
        """Alias of :meth:`add_module`."""
        self.add_module(name, module)

    # ------------------------------------------------------------- attribute access

    def __getattr__(self, name: str):
        state = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            values = state.get(table)
            if values is not None and name in values:
                return values[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            self._claim(name, params, "parameters", "_buffers", "_modules")
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        else:
            self._set_non_parameter(name, value)

    def _claim(self, name: str, table, kind: str, *others: str) -> None:
        """Make ``name`` free for a value of ``kind`` (kept in ``table``): drop it from the
        ``others`` tables and the instance dict."""
        if table is None:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        state = self.__dict__
        self._forget(name, state, *(state[other] for other in others))
        self._non_persistent_buffers_set.discard(name)

    def _set_non_parameter(self, name: str, value) -> None:
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            self._claim(name, modules, "module", "_parameters", "_buffers")
            modules[name] = _registration_hooks("module", self, name, value)
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as child module '{name}' "
                    "(torch.nn.Module or None expected)"
                )
            modules[name] = value
        else:
            buffers = self.__dict__.get("_buffers")
            if isinstance(value, Buffer) or (buffers is not None and name in buffers):
                if value is not None and not isinstance(value, torch.Tensor):
                    raise TypeError(
                        f"cannot assign '{_typename(value)}' as buffer '{name}' "
                        "(torch.Tensor or None expected)"
                    )
                persistent = getattr(value, "persistent", None)
                if persistent is None:
                    persistent = name not in self._non_persistent_buffers_set
                if isinstance(value, Buffer):
                    self._forget(name, self.__dict__, self._parameters, self._modules)
                self.register_buffer(name, value, persistent)
            else:
                object.__setattr__(self, name, value)

    @staticmethod
    def _forget(name: str, *tables) -> None:
        for table in tables:
            table.pop(name, None)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        attrs = set(dir(type(self))) | set(self.__dict__)
        attrs |= set(self._parameters) | set(self._buffers) | set(self._modules)
        return sorted(a for a in attrs if not a[:1].isdigit())

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        defaults = {
            "_forward_pre_hooks_with_kwargs": OrderedDict,
            "_forward_hooks_with_kwargs": OrderedDict,
            "_forward_hooks_always_called": OrderedDict,
            "_state_dict_pre_hooks": OrderedDict,
            "_load_state_dict_post_hooks": OrderedDict,
            "_backward_pre_hooks": OrderedDict,
            "_non_persistent_buffers_set": set,
        }
        for key, factory in defaults.items():
            self.__dict__.setdefault(key, factory())
        self.__dict__.setdefault("_is_full_backward_hook", None)

    # ------------------------------------------------------------------- iteration

    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        seen = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for name, value in get_members(module):
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield (module_prefix + ("." if module_prefix else "") + name, value)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters of this module (and of its descendants when ``recurse``).

        Args:
            recurse (bool): include submodules' parameters. Default: ``True``.
        """
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ):
        """``(name, parameter)`` pairs, names dotted from this module.

        Args:
            prefix (str): prepended to every name. Default: ``''``.
            recurse (bool): include submodules. Default: ``True``.
            remove_duplicate (bool): yield a shared parameter once. Default: ``True``.
        """
        yield from self._named_members(
            lambda m: m._parameters.items(), prefix, recurse, remove_duplicate
        )

    def buffers(self, recurse: bool = True) -> Iterator[torch.Tensor]:
        """The buffers of this module (and its descendants when ``recurse``)."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """``(name, buffer)`` pairs; arguments as :meth:`named_parameters`."""
        yield from self._named_members(
            lambda m: m._buffers.items(), prefix, recurse, remove_duplicate
        )

    def children(self) -> Iterator[Module]:
        """The direct submodules."""
        for _, module in self.named_children():
            yield module

    def named_children(self):
        """``(name, module)`` pairs of the direct submodules (each module once)."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def modules(self) -> Iterator[Module]:
        """This module and all its descendants, depth first, each once."""
        for _, module in self.named_modules():
            yield module

    def named_modules(
        self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True
    ):
        """``(name, module)`` for this module (name ``prefix``) and all descendants."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub_prefix, remove_duplicate)

    def __hash__(self) -> int:
        return id(self)

    def _walk(self, target: str, what: str):
        module = self
        for item in target.split(".") if target else []:
            if not hasattr(module, item):
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return module

    def get_submodule(self, target: str) -> Module:
        """The submodule at dotted path ``target`` (``''`` is this module).

        Raises:
            AttributeError: when a step of the path does not exist or is not a module.
        """
        return self._walk(target, "module")

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Replace (or, unless ``strict``, add) the submodule at dotted path ``target``."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        parent_path, _, name = target.rpartition(".")
        parent = self.get_submodule(parent_path)
        if strict and not hasattr(parent, name):
            raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(parent, name, module)

    def _get_member(self, target: str, table: str, kind: str):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        value = getattr(module, name)
        if name not in getattr(module, table):
            raise AttributeError(f"`{name}` is not {kind}")
        return value

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at dotted path ``target``."""
        return self._get_member(target, "_parameters", "an nn.Parameter")

    def get_buffer(self, target: str) -> torch.Tensor:
        """The buffer at dotted path ``target``."""
        return self._get_member(target, "_buffers", "a buffer")

    def get_extra_state(self) -> Any:
        """Extra state to save in ``state_dict``; define it with :meth:`set_extra_state`."""
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called."
        )

    def set_extra_state(self, state: Any) -> None:
        """Restore the state :meth:`get_extra_state` returned."""
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called."
        )

    def _has_extra_state(self) -> bool:
        return type(self).get_extra_state is not Module.get_extra_state

    # ------------------------------------------------------------------ state dict

    def _save_to_state_dict(self, destination, prefix: str, keep_vars: bool) -> None:
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if self._has_extra_state():
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """An ordered dict of the module's whole state: parameters and persistent buffers,
        keyed by dotted names in registration order, each module before its children.

        Args:
            destination (dict, optional): fill this mapping instead of a new one.
            prefix (str): prepended to every key. Default: ``''``.
            keep_vars (bool): keep the tensors attached to autograd. Default: ``False``.

        Examples::

            >>> for key in nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)).state_dict():
            ...     print(key)
            0.weight
            0.bias
            1.weight
            1.bias
            1.running_mean
            1.running_var
            1.num_batches_tracked
        """
        if args:  # the positional form (destination, prefix, keep_vars) of old releases
            destination, prefix, keep_vars = (
                list(args) + [destination, prefix, keep_vars][len(args) :]
            )[:3]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        metadata = getattr(destination, "_metadata", None)
        if metadata is not None:
            metadata[prefix[:-1]] = {"version": self._version}
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(
                    destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
                )
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, {"version": self._version})
            if result is not None:
                destination = result
        return destination

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ) -> None:
        for hook in self._load_state_dict_pre_hooks.values():
            hook(
                state_dict,
                prefix,
                local_metadata,
                strict,
                missing_keys,
                unexpected_keys,
                error_msgs,
            )
        persistent = {
            k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set
        }
        local = {
            k: v
            for k, v in list(self._parameters.items()) + list(persistent.items())
            if v is not None
        }
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            self._load_one(name, key, param, state_dict[key], assign, error_msgs)
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if self._has_extra_state():
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    head = key[len(prefix) :].split(".", 1)[0]
                    if head not in self._modules and head not in local:
                        unexpected_keys.append(key)

    def _load_one(self, name, key, param, value, assign, error_msgs) -> None:
        if not isinstance(value, torch.Tensor):
            error_msgs.append(
                f'While copying the parameter named "{key}", expected torch.Tensor or '
                f"Tensor-like object from checkpoint but received {type(value)}"
            )
            return
        if tuple(value.shape) != tuple(param.shape):
            error_msgs.append(
                f"size mismatch for {key}: copying a param with shape {value.shape} from "
                f"checkpoint, the shape in current model is {param.shape}."
            )
            return
        try:
            with torch.no_grad():
                if assign:
                    if isinstance(param, Parameter) and not isinstance(value, Parameter):
                        value = Parameter(value, requires_grad=param.requires_grad)
                    setattr(self, name, value)
                else:
                    param.copy_(value)
        except Exception as error:  # noqa: BLE001 - reported like PyTorch, with the cause
            error_msgs.append(
                f'While copying the parameter named "{key}", whose dimensions in the model '
                f"are {param.shape} and whose dimensions in the checkpoint are "
                f"{value.shape}, an exception occurred : {error.args}."
            )

    def load_state_dict(
        self, state_dict, strict: bool = True, assign: bool = False
    ) -> _IncompatibleKeys:
        """Copy parameters and buffers from ``state_dict`` into this module and its
        descendants.

        Args:
            state_dict (dict): as :meth:`state_dict` returns it.
            strict (bool): require the keys to match exactly. Default: ``True``.
            assign (bool): assign the given tensors instead of copying into the
                existing ones. Default: ``False``.

        Returns:
            NamedTuple: ``missing_keys`` and ``unexpected_keys``, lists of key names.

        Raises:
            RuntimeError: with ``strict`` and keys that do not match, or on shape
                mismatches, listing every problem.
        """
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state, prefix=""):
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(
                local_state, prefix, local_metadata, True, missing, unexpected, errors
            )
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state = {
                        k: v for k, v in local_state.items() if k.startswith(child_prefix)
                    }
                    load(child, child_state, child_prefix)
            incompatible = _IncompatibleKeys(missing, unexpected)
            for hook in module._load_state_dict_post_hooks.values():
                hook(module, incompatible)

        load(self, state_dict)
        if strict:
            if unexpected:
                errors.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in unexpected)
                    ),
                )
            if missing:
                errors.insert(
                    0,
                    "Missing key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in missing)
                    ),
                )
        if errors:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    type(self).__name__, "\n\t".join(errors)
                )
            )
        return _IncompatibleKeys(missing, unexpected)

    def register_state_dict_pre_hook(self, hook) -> RemovableHandle:
        """``hook(module, prefix, keep_vars)`` runs before :meth:`state_dict` saves."""
        return _add(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook) -> RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata)`` runs after saving."""
        return _add(self._state_dict_hooks, hook)

    _register_state_dict_hook = register_state_dict_post_hook

    def register_load_state_dict_pre_hook(self, hook) -> RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` runs before this module loads its part."""
        return _add(self._load_state_dict_pre_hooks, functools.partial(hook, self))

    def _register_load_state_dict_pre_hook(self, hook, with_module: bool = False):
        return _add(
            self._load_state_dict_pre_hooks, functools.partial(hook, self) if with_module else hook
        )

    def register_load_state_dict_post_hook(self, hook) -> RemovableHandle:
        """``hook(module, incompatible_keys)`` runs after this module loaded its part."""
        return _add(self._load_state_dict_post_hooks, hook)

    # -------------------------------------------------------------- mode and grads

    def train(self, mode: bool = True) -> Module:
        """Set training mode (``mode=True``) or evaluation mode on every module.

        Returns:
            Module: self.
        """
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        """``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Set ``requires_grad`` of every parameter; returns self."""
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters: to ``None`` (default) or to zeros."""
        for param in self.parameters():
            if param.grad is None:
                continue
            if set_to_none:
                param.grad = None
            else:
                param.grad = torch.zeros_like(param.grad)

    # ------------------------------------------------------------------ conversion

    def _apply(self, fn, recurse: bool = True) -> Module:
        if recurse:
            for module in self.children():
                module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with torch.no_grad():
                new = fn(param)
            if new is not param:
                _assign_data(param, new)
            if param.grad is not None:
                with torch.no_grad():
                    grad = fn(param.grad)
                if grad is not param.grad:
                    param.grad = grad
        for name, buf in self._buffers.items():
            if buf is not None:
                self._buffers[name] = fn(buf)
        return self

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn`` on every submodule (children first), then on self; returns self.

        Examples::

            >>> net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
            >>> def init(m):
            ...     if isinstance(m, nn.Linear):
            ...         nn.init.zeros_(m.bias)
            >>> net.apply(init)[1].bias
            Parameter containing:
            tensor([0.], requires_grad=True)
        """
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def to(self, *args, **kwargs) -> Module:
        """Move and/or cast the parameters and buffers: ``to(device)``, ``to(dtype)``,
        ``to(device, dtype)``, ``to(tensor)``; only floating-point (and complex) values
        change dtype. Returns self."""
        device, dtype, non_blocking = _parse_to(*args, **kwargs)
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got "
                f"desired dtype={dtype}"
            )

        def convert(t):
            target = dtype if (t.is_floating_point() or t.is_complex()) else None
            return t.to(device=device, dtype=target, non_blocking=non_blocking)

        return self._apply(convert)

    def _cast(self, dtype) -> Module:
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def float(self) -> Module:
        """Cast floating-point parameters and buffers to float32."""
        return self._cast(torch.float32)

    def double(self) -> Module:
        """Cast floating-point parameters and buffers to float64."""
        return self._cast(torch.float64)

    def half(self) -> Module:
        """Cast floating-point parameters and buffers to float16."""
        return self._cast(torch.float16)

    def bfloat16(self) -> Module:
        """Cast floating-point parameters and buffers to bfloat16."""
        return self._cast(torch.bfloat16)

    def type(self, dst_type) -> Module:
        """Cast all parameters and buffers to ``dst_type``."""
        return self._apply(lambda t: t.type(dst_type))

    def cpu(self) -> Module:
        """Move all parameters and buffers to the CPU."""
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None) -> Module:
        """Move all parameters and buffers to a CUDA device."""
        return self._apply(lambda t: t.cuda(device))

    def share_memory(self) -> Module:
        """Move the parameters and buffers to shared memory."""
        return self._apply(lambda t: t.share_memory_())

    # ----------------------------------------------------------------------- repr

    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The module-specific part of ``repr``; layers override it."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            f"({name}): " + _indent(repr(module), 2) for name, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        body = ""
        if len(extra_lines) == 1 and not child_lines:
            body = extra_lines[0]
        elif lines:
            body = "\n  " + "\n  ".join(lines) + "\n"
        return f"{self._get_name()}({body})"

    # ---------------------------------------------------------------------- hooks

    def register_forward_pre_hook(
        self, hook, *, prepend: bool = False, with_kwargs: bool = False
    ) -> RemovableHandle:
        """Run ``hook(module, args)`` before ``forward``; it may return new args (a
        tuple, or one value that gets wrapped). With ``with_kwargs``,
        ``hook(module, args, kwargs)`` may return ``(args, kwargs)``.

        Args:
            hook (Callable): the hook.
            prepend (bool): run it before the hooks already registered. Default: ``False``.
            with_kwargs (bool): pass the keyword arguments too. Default: ``False``.

        Returns:
            RemovableHandle: ``handle.remove()`` removes the hook.
        """
        handle = RemovableHandle(
            self._forward_pre_hooks, extra_dict=self._forward_pre_hooks_with_kwargs
        )
        _insert(self._forward_pre_hooks, handle.id, hook, prepend)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(
        self, hook, *, prepend: bool = False, with_kwargs: bool = False, always_call: bool = False
    ) -> RemovableHandle:
        """Run ``hook(module, args, output)`` after ``forward``; it may return a new
        output. With ``with_kwargs``, ``hook(module, args, kwargs, output)``.

        Args:
            hook (Callable): the hook.
            prepend (bool): run before the hooks already registered. Default: ``False``.
            with_kwargs (bool): pass the keyword arguments too. Default: ``False``.
            always_call (bool): run even when ``forward`` raised. Default: ``False``.

        Returns:
            RemovableHandle: ``handle.remove()`` removes the hook.
        """
        handle = RemovableHandle(
            self._forward_hooks,
            extra_dict=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called],
        )
        _insert(self._forward_hooks, handle.id, hook, prepend)
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Run ``hook(module, grad_output)`` when the gradients w.r.t. the module's
        outputs are known; it may return new ``grad_output``."""
        handle = RemovableHandle(self._backward_pre_hooks)
        _insert(self._backward_pre_hooks, handle.id, hook, prepend)
        return handle

    def register_full_backward_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Run ``hook(module, grad_input, grad_output)`` when the gradients w.r.t. the
        module's (positional tensor) inputs are computed; it may return new
        ``grad_input``. Inputs that need no gradient get ``None``."""
        if self._is_full_backward_hook is False:
            raise RuntimeError(_MIXED_HOOKS)
        self._is_full_backward_hook = True
        handle = RemovableHandle(self._backward_hooks)
        _insert(self._backward_hooks, handle.id, hook, prepend)
        return handle

    def register_backward_hook(self, hook) -> RemovableHandle:
        """Deprecated: use :meth:`register_full_backward_hook`. Here it is served by the
        same mechanism."""
        if self._is_full_backward_hook is True:
            raise RuntimeError(_MIXED_HOOKS)
        self._is_full_backward_hook = False
        return _add(self._backward_hooks, hook)

    def _backward_hook_lists(self):
        """(full hooks, non-full hooks, pre-hooks), globals first."""
        full, non_full = [], []
        if GLOBAL_IS_FULL[0] is not None:
            (full if GLOBAL_IS_FULL[0] else non_full).extend(GLOBAL["backward"].values())
        if self._is_full_backward_hook is False:
            non_full.extend(self._backward_hooks.values())
        else:
            full.extend(self._backward_hooks.values())
        pre_hooks = list(GLOBAL["backward_pre"].values()) + list(self._backward_pre_hooks.values())
        return full, non_full, pre_hooks

    # ---------------------------------------------------------------------- call

    def _has_hooks(self) -> bool:
        return bool(
            self._forward_hooks
            or self._forward_pre_hooks
            or self._backward_hooks
            or self._backward_pre_hooks
            or GLOBAL["forward_pre"]
            or GLOBAL["forward"]
            or GLOBAL["backward"]
            or GLOBAL["backward_pre"]
        )

    def __call__(self, *args, **kwargs):
        if not self._has_hooks():
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    _call_impl = __call__

    def _run_pre_hooks(self, args, kwargs):
        hooks = list(GLOBAL["forward_pre"].items()) + list(self._forward_pre_hooks.items())
        for hook_id, hook in hooks:
            if hook_id in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError(
                            "forward pre-hook must return None or a tuple of "
                            f"(new_args, new_kwargs), but got {result}."
                        )
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        return args, kwargs

    def _run_forward_hooks(self, args, kwargs, output, only_always: bool = False):
        hooks = list(GLOBAL["forward"].items()) + list(self._forward_hooks.items())
        for hook_id, hook in hooks:
            always = (
                hook_id in self._forward_hooks_always_called
                or hook_id in GLOBAL["forward_always_called"]
            )
            if only_always and not always:
                continue
            if (
                hook_id in self._forward_hooks_with_kwargs
                or hook_id in GLOBAL["forward_with_kwargs"]
            ):
                result = hook(self, args, kwargs, output)
            else:
                result = hook(self, args, output)
            if result is not None:
                output = result
        return output

    def _call_with_hooks(self, args, kwargs):
        hooks, non_full, pre_hooks = self._backward_hook_lists()
        backward = BackwardHook(self, hooks, pre_hooks) if (hooks or pre_hooks) else None
        legacy = NonFullBackwardHook(self, non_full) if non_full else None
        try:
            args, kwargs = self._run_pre_hooks(args, kwargs)
            inputs = args
            if legacy is not None:
                args = legacy.setup(args)
            if backward is not None and hooks:
                args = backward.setup_input_hook(args)
            output = self.forward(*args, **kwargs)
        except Exception:
            if legacy is not None:
                legacy.release()
            self._run_forward_hooks(args, kwargs, None, only_always=True)
            raise
        output = self._run_forward_hooks(args, kwargs, output)
        if backward is not None:
            if not hooks:
                backward.n_inputs = len(args)
            output = backward.setup_output_hook(output)
        if legacy is not None:
            legacy.attach(inputs, output)
        return output


_MIXED_HOOKS = (
    "Cannot use both regular backward hooks and full backward hooks on a single Module. "
    "Please use only one of them."
)


def _insert(table: OrderedDict, key, hook, prepend: bool) -> None:
    table[key] = hook
    if prepend:
        table.move_to_end(key, last=False)


def _add(table: OrderedDict, hook) -> RemovableHandle:
    handle = RemovableHandle(table)
    table[handle.id] = hook
    return handle


def _parse_to(*args, **kwargs):
    """(device, dtype, non_blocking) from the forms of ``Module.to``."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = kwargs.pop("non_blocking", False)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments: {sorted(kwargs)}")
    for arg in args:
        if isinstance(arg, torch.Tensor):
            device, dtype = arg.device, arg.dtype
        elif isinstance(arg, torch.dtype):
            dtype = arg
        elif isinstance(arg, bool):
            non_blocking = arg
        elif isinstance(arg, (str, torch.device, int)):
            device = torch.device(arg)
        else:
            raise TypeError(f"to() received an invalid argument: {_typename(arg)}")
    return device, dtype, non_blocking


# ------------------------------------------------------------------- global hooks


def register_module_forward_pre_hook(hook) -> RemovableHandle:
    """Register ``hook(module, args)`` to run before every module's forward hooks."""
    return _add(GLOBAL["forward_pre"], hook)


def register_module_forward_hook(
    hook, *, with_kwargs: bool = False, always_call: bool = False
) -> RemovableHandle:
    """Register ``hook(module, args, output)`` to run after every module's forward."""
    handle = RemovableHandle(
        GLOBAL["forward"],
        extra_dict=[GLOBAL["forward_with_kwargs"], GLOBAL["forward_always_called"]],
    )
    GLOBAL["forward"][handle.id] = hook
    if with_kwargs:
        GLOBAL["forward_with_kwargs"][handle.id] = True
    if always_call:
        GLOBAL["forward_always_called"][handle.id] = True
    return handle


def _global_backward(hook, full: bool) -> RemovableHandle:
    if GLOBAL_IS_FULL[0] is (not full):
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward hooks as a global "
            "Module hook. Please use only one of them."
        )
    GLOBAL_IS_FULL[0] = full
    return _add(GLOBAL["backward"], hook)


def register_module_backward_hook(hook) -> RemovableHandle:
    """Deprecated global backward hook (served like the full one)."""
    return _global_backward(hook, False)


def register_module_full_backward_hook(hook) -> RemovableHandle:
    """Register ``hook(module, grad_input, grad_output)`` for every module."""
    return _global_backward(hook, True)


def register_module_full_backward_pre_hook(hook) -> RemovableHandle:
    """Register ``hook(module, grad_output)`` for every module."""
    return _add(GLOBAL["backward_pre"], hook)


def register_module_buffer_registration_hook(hook) -> RemovableHandle:
    """Register ``hook(module, name, buffer)``, run on every buffer registration."""
    return _add(GLOBAL["buffer_registration"], hook)


def register_module_module_registration_hook(hook) -> RemovableHandle:
    """Register ``hook(module, name, submodule)``, run on every submodule registration."""
    return _add(GLOBAL["module_registration"], hook)


def register_module_parameter_registration_hook(hook) -> RemovableHandle:
    """Register ``hook(module, name, param)``, run on every parameter registration."""
    return _add(GLOBAL["parameter_registration"], hook)


_hooks.Module = Module
