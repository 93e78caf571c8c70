"""Interception of op calls: the one mechanism that autocast and the profiler act through.

While no interceptor is active, ``torch.add``, ``Tensor.__add__``, ``F.linear``, ... are
the plain functions: interception costs nothing then. :func:`activate` wraps the
bindings an interceptor asks for (by PyTorch op name: ``"add"``, ``"mm"``,
``"linalg_solve"``, ``"cross_entropy_loss"``); :func:`deactivate` puts the plain
functions back. Several interceptors may be active at once (autocast inside a profiled
region): each wrapped binding calls them in activation order, outermost first.

An interceptor is any object with

- ``wants(op_name) -> bool``: whether to wrap the bindings of that op;
- ``__call__(op_name, function, args, kwargs)``: run ``function(*args, **kwargs)``
  (possibly with changed arguments) and return its result;
- optionally ``registry_functions = True``: also see the calls that go through the op
  registry (``ops[name].function``: torch-nn's calls of core kernels and torch-autograd's
  derivative formulas), not only the public bindings.

Bindings are found by name in ``torch``, ``torch.linalg``, ``torch.special``,
``torch.fft``, ``torch.nn.functional`` (those already imported when an interceptor is
activated) and ``Tensor``. Code that copied a function out of these namespaces before
(``from torch import mm``) keeps calling the plain function.
"""

from __future__ import annotations

import functools
import sys
import threading
import types

from ._interface import ops
from ._tensor import Tensor

__all__ = ["activate", "deactivate", "active", "op_name_of_method"]

#: namespaces searched for bindings: module name -> prefix of the PyTorch op names
_MODULES = {
    "torch": "",
    "torch.linalg": "linalg_",
    "torch.special": "special_",
    "torch.fft": "fft_",
    "torch.nn.functional": "",
}
#: binding name -> PyTorch's op name where they differ (``F.cross_entropy`` runs
#: ``aten::cross_entropy_loss``)
_RENAMED = {
    "cross_entropy": "cross_entropy_loss",
    "grid_sample": "grid_sampler",
}
#: Tensor attributes that are not ops (metadata, plumbing, conversions to Python)
_NOT_OPS = {
    "__init__", "__new__", "__init_subclass__", "__getattribute__", "__getattr__",
    "__setattr__", "__delattr__", "__reduce__", "__reduce_ex__", "__getstate__",
    "__setstate__", "__repr__", "__str__", "__format__", "__hash__", "__sizeof__", "__dir__",
    "__array__", "__array_wrap__", "__array_namespace__", "__dlpack__", "__dlpack_device__",
    "__deepcopy__", "__copy__", "__len__", "__bool__", "__float__", "__int__",
    "__complex__", "__index__", "__contains__", "__iter__", "__reversed__",
    "__class_getitem__", "__torch_function__", "__getitem__", "__setitem__", "backward",
    "register_hook", "retain_grad", "requires_grad_", "size", "dim", "numel", "nelement",
    "stride", "storage_offset", "data_ptr", "element_size", "is_contiguous",
    "is_floating_point", "is_complex", "tolist", "item", "storage", "untyped_storage",
    "_wrap_dim", "_alias", "_from_array", "type", "numpy", "get_device",
}  # fmt: skip
#: functions of the namespaces that are not ops: state, settings, serialization
_NOT_OP_FUNCTIONS = {
    "manual_seed", "seed", "initial_seed", "load", "save", "compile", "typename",
    "use_deterministic_algorithms", "numel", "result_type", "promote_types", "can_cast",
}  # fmt: skip
_NOT_OP_PREFIXES = ("is_", "get_", "set_", "are_")
#: Python operators -> PyTorch's op name (reflected and in-place forms are derived)
_OPERATORS = {
    "truediv": "div",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "__lshift__",
    "rshift": "__rshift__",
    "invert": "bitwise_not",
    "pos": "positive",
}

_lock = threading.RLock()
_active: list = []
#: (owner, attribute) -> the plain binding that a wrapper replaced
_replaced: dict = {}


def op_name_of_method(name: str) -> str:
    """PyTorch's op name of ``Tensor.<name>`` (``__radd__`` -> ``add``, ``__iadd__`` ->
    ``add_``)."""
    if not (name.startswith("__") and name.endswith("__")):
        return name
    inner = name[2:-2]
    suffix = ""
    if inner.startswith("i") and inner[1:] in _BINARY_NAMES:
        inner, suffix = inner[1:], "_"
    elif inner.startswith("r") and inner[1:] in _BINARY_NAMES:
        inner = inner[1:]
    return _OPERATORS.get(inner, inner) + suffix


_BINARY_NAMES = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor",
    "lshift", "rshift",
}  # fmt: skip


def active() -> tuple:
    """The active interceptors, outermost first."""
    return tuple(_active)


def activate(interceptor) -> None:
    """Make ``interceptor`` see every call of the ops it wants (until :func:`deactivate`)."""
    with _lock:
        if interceptor in _active:
            raise RuntimeError("this op-call interceptor is already active")
        _active.append(interceptor)
        _reinstall()


def deactivate(interceptor) -> None:
    """Stop ``interceptor``; with none left, the bindings are the plain functions again."""
    with _lock:
        _active.remove(interceptor)
        _reinstall()


def _bindings():
    """(owner, attribute, op name, plain function, is a registry function) of every
    interceptable binding."""
    for module_name, prefix in _MODULES.items():
        module = sys.modules.get(module_name)
        if module is None:
            continue
        names = getattr(module, "__all__", ())
        for name in names:
            if name.startswith(("_", *_NOT_OP_PREFIXES)) or name in _NOT_OP_FUNCTIONS:
                continue
            value = _plain(module.__dict__.get(name))
            if isinstance(value, types.FunctionType):
                yield module, name, prefix + _RENAMED.get(name, name), value, False
    for name, value in list(vars(Tensor).items()):
        value = _plain(value)
        if name not in _NOT_OPS and isinstance(value, types.FunctionType):
            yield Tensor, name, op_name_of_method(name), value, False
    for op in ops.everything():
        value = _plain(op.function)
        if isinstance(value, types.FunctionType):
            yield op, "function", op.name, value, True


def _plain(value):
    """The plain binding behind one of our wrappers (or ``value`` itself)."""
    return getattr(value, "__intercepted__", value)


def _restore() -> None:
    for (owner, name), plain in _replaced.items():
        current = getattr(owner, name, None)
        if getattr(current, "__intercepted__", None) is plain:
            setattr(owner, name, plain)
    _replaced.clear()


#: the last few installations: (namespaces seen, active interceptors) -> the wrappers
#: (owner, attribute, plain, wrapper); an autocast region entered every step reuses them
_installations: dict = {}
_KEPT_INSTALLATIONS = 4


def _reinstall() -> None:
    _restore()
    if not _active:
        return
    # the interceptors themselves (not their ids, which a new object may reuse)
    key = (_namespaces_key(), tuple(_active))
    installation = _installations.get(key)
    if installation is None or any(
        _plain(getattr(owner, name, None)) is not plain for owner, name, plain, _ in installation
    ):
        installation = _installations[key] = _build_installation()
        while len(_installations) > _KEPT_INSTALLATIONS:
            del _installations[next(iter(_installations))]
    for owner, name, plain, wrapper in installation:
        _replaced[(owner, name)] = plain
        setattr(owner, name, wrapper)


def _namespaces_key() -> tuple:
    """What the set of bindings depends on: the loaded namespaces, Tensor's attributes,
    the registry's size."""
    loaded = tuple(sys.modules.get(name) is not None for name in _MODULES)
    return loaded, len(vars(Tensor)), len(ops.everything())


def _build_installation() -> list:
    installation = []
    for owner, name, op_name, plain, in_registry in _bindings():
        chain = [
            interceptor
            for interceptor in _active
            if interceptor.wants(op_name)
            and (not in_registry or getattr(interceptor, "registry_functions", False))
        ]
        if chain:
            installation.append((owner, name, plain, _wrapped(plain, op_name, chain)))
    return installation


def _wrapped(plain, op_name: str, chain: list):
    call = plain
    for interceptor in reversed(chain):
        call = _link(interceptor, op_name, call)

    @functools.wraps(plain)
    def intercepted(*args, **kwargs):
        return call(*args, **kwargs)

    intercepted.__intercepted__ = plain
    return intercepted


def _link(interceptor, op_name: str, inner):
    def link(*args, **kwargs):
        return interceptor(op_name, inner, args, kwargs)

    return link
