"""Interception of op calls: the one mechanism behind autocast, the profiler, torch.func's
transform levels and torch-jit's tracer.

While no layer is active, ``torch.add``, ``Tensor.__add__``, ``F.linear``,
``ops["add"].function`` ... are the plain functions: interception costs nothing then.
Activating a layer reinstalls every binding at once: each binding that some active layer
selects is replaced by one wrapper that runs the selecting layers in their order,
outermost first, the innermost calling the plain function. Deactivating reinstalls
again, so any start/stop order leaves the bindings plain once the last layer stops.

Two kinds of layer use the mechanism (their public views are ``torch._interface.calls``
and ``torch._interface.tracing``):

- an *interceptor* (:func:`activate`) sees ops by PyTorch op name: ``wants(op_name)``
  selects, ``interceptor(op_name, function, args, kwargs)`` runs the call;
  ``registry_functions = True`` adds the op registry's functions;
- an *interception* (:func:`start_interception`) sees every binding by its target name
  (``"torch.add"``, ``"Tensor.__add__"``, ``"Tensor.T"``, ``"ops.convolution"``) with
  ``handler(target, function, args, kwargs)``; it may add sibling namespaces and
  ``Tensor.size``/``Tensor.shape``.

Layers are ordered by their ``order`` (lower is outer; equal orders by activation), as
PyTorch's dispatch keys are: the profiler sees the call as the user made it, transform
levels come next, autocast inside them casts the arguments, and a trace innermost
records the casts and the op on the cast tensors.

Bindings are found by name in ``torch``, ``torch.linalg``, ``torch.special``,
``torch.fft``, ``torch.nn.functional`` and the namespaces an interception names (those
already imported), in ``Tensor`` and in the op registry. Code that copied a function out
of these namespaces before (``from torch import mm``) keeps calling the plain function.
"""

from __future__ import annotations

import itertools
import sys
import threading
import types

from ._interface import ops
from ._tensor import Tensor

__all__ = [
    "activate",
    "deactivate",
    "active",
    "start_interception",
    "op_name_of_method",
    "PROFILER_ORDER",
    "TRANSFORM_ORDER",
    "AUTOCAST_ORDER",
    "TRACER_ORDER",
]

#: layer orders, outermost first (an interceptor without ``order`` gets 0)
PROFILER_ORDER = 0
TRANSFORM_ORDER = 10
AUTOCAST_ORDER = 20
TRACER_ORDER = 30

#: namespaces searched for bindings: module name -> prefix of the PyTorch op names
_MODULES = {
    "torch": "",
    "torch.linalg": "linalg_",
    "torch.special": "special_",
    "torch.fft": "fft_",
    "torch.nn.functional": "",
}
#: the namespaces an interception sees without naming them
CORE_NAMESPACES = ("torch", "torch.linalg", "torch.special", "torch.fft")
#: binding name -> PyTorch's op name where they differ (``F.cross_entropy`` runs
#: ``aten::cross_entropy_loss``)
_RENAMED = {
    "cross_entropy": "cross_entropy_loss",
    "grid_sample": "grid_sampler",
}
#: Tensor attributes that are not ops (metadata, plumbing, conversions to Python):
#: interceptors never see them
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
#: Tensor attributes an interception does not see (construction, attribute access,
#: printing, hooks, metadata); conversions to Python values it does see
PLUMBING = frozenset({
    "__init__", "__new__", "__init_subclass__", "__getattribute__", "__getattr__",
    "__setattr__", "__delattr__", "__reduce__", "__reduce_ex__", "__getstate__",
    "__setstate__", "__repr__", "__str__", "__format__", "__hash__", "__sizeof__", "__dir__",
    "__array__", "__array_wrap__", "__array_namespace__", "__dlpack__", "__dlpack_device__",
    "__deepcopy__", "__copy__", "__class_getitem__", "__torch_function__",
    "__eq__", "__ne__",  # identity-style uses (``t in list``) must not be recorded
    "register_hook", "retain_grad", "requires_grad_", "backward", "size", "dim", "stride",
    "storage_offset", "data_ptr", "element_size", "is_contiguous", "is_floating_point",
    "is_complex", "storage", "untyped_storage", "_wrap_dim", "_alias", "_from_array",
    "type", "get_device",
})  # fmt: skip
#: Tensor properties that compute a tensor from a tensor: an interception sees them
TENSOR_PROPERTIES = ("T", "mT", "H", "mH", "real", "imag", "data")
#: what an interception with ``sizes=True`` sees besides
_SIZE_TARGETS = ("Tensor.size", "Tensor.shape")
#: functions of the namespaces that are not ops: state, settings, serialization
_NOT_OP_FUNCTIONS = {
    "manual_seed", "seed", "initial_seed", "load", "save", "compile", "typename",
    "use_deterministic_algorithms", "numel", "result_type", "promote_types", "can_cast",
}  # fmt: skip
_NOT_OP_PREFIXES = ("is_", "get_", "set_", "are_")
#: Python operators whose op has another name, as both the interception and the
#: dispatcher name them (``__truediv__`` runs ``div``)
OPERATOR_OP_NAMES = {
    "truediv": "div",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "invert": "bitwise_not",
}
#: Python operators -> PyTorch's op name (reflected and in-place forms are derived)
_OPERATORS = {
    **OPERATOR_OP_NAMES,
    "lshift": "__lshift__",
    "rshift": "__rshift__",
    "pos": "positive",
}
_BINARY_NAMES = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor",
    "lshift", "rshift",
}  # fmt: skip


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


# ------------------------------------------------------------------------------ bindings


class Binding:
    """One place an op is bound: ``owner.attribute`` holds ``plain`` while nothing
    intercepts it."""

    __slots__ = ("owner", "attribute", "plain", "target", "op_name", "namespace", "traced",
                 "is_property")  # fmt: skip

    def __init__(self, owner, attribute, plain, target, op_name, namespace, traced) -> None:
        self.owner, self.attribute, self.plain = owner, attribute, plain
        self.target = target  # "torch.add", "Tensor.__add__", "Tensor.T", "ops.add"
        self.op_name = op_name  # PyTorch's op name, None when interceptors skip it
        self.namespace = namespace  # module name, "Tensor" or "ops"
        self.traced = traced  # whether an interception sees it without ``sizes``
        self.is_property = isinstance(plain, property)


def _plain(value):
    """The plain binding behind one of our wrappers (or ``value`` itself)."""
    return getattr(value, "__intercepted__", value)


def _is_function(value) -> bool:
    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType))


def _namespace_bindings(module_name: str):
    module = sys.modules.get(module_name)
    if module is None:
        return
    prefix = _MODULES.get(module_name)
    names = getattr(module, "__all__", None) or [n for n in vars(module) if n[:1] != "_"]
    for name in names:
        value = _plain(module.__dict__.get(name))
        if not _is_function(value):
            continue
        is_op = prefix is not None and not (
            name.startswith(("_", *_NOT_OP_PREFIXES)) or name in _NOT_OP_FUNCTIONS
        )
        op_name = prefix + _RENAMED.get(name, name) if is_op else None
        yield Binding(module, name, value, f"{module_name}.{name}", op_name, module_name, True)


def _tensor_bindings():
    for name, value in list(vars(Tensor).items()):
        value = _plain(value)
        if isinstance(value, property):
            if name in TENSOR_PROPERTIES or name == "shape":
                yield Binding(Tensor, name, value, f"Tensor.{name}", None, "Tensor",
                              name != "shape")  # fmt: skip
            continue
        if not _is_function(value) or (name in PLUMBING and name in _NOT_OPS and name != "size"):
            continue
        op_name = None if name in _NOT_OPS else op_name_of_method(name)
        yield Binding(Tensor, name, value, f"Tensor.{name}", op_name, "Tensor",
                      name not in PLUMBING)  # fmt: skip


def _registry_bindings():
    for op in ops.everything():
        value = _plain(op.function)
        if _is_function(value):
            yield Binding(op, "function", value, f"ops.{op.name}", op.name, "ops", True)


def _bindings(namespaces) -> list:
    """Every binding any layer could select, in ``torch``'s namespaces, the extra
    ``namespaces``, ``Tensor`` and the registry."""
    found = []
    for module_name in dict.fromkeys((*_MODULES, *namespaces)):
        found += _namespace_bindings(module_name)
    found += _tensor_bindings()
    found += _registry_bindings()
    return found


# -------------------------------------------------------------------------------- layers


class _Layer:
    """One active user of the mechanism: which bindings it selects and how it links into
    the chain of a wrapped binding. ``owner`` is the object the user activated; ``key``
    identifies the wrappers it makes (cached installations are reused by key)."""

    namespaces: tuple = ()

    def __init__(self, owner, order: int, sequence: int) -> None:
        self.owner, self.order, self.sequence = owner, order, sequence
        self.key = owner

    def selects(self, binding: Binding) -> bool:
        raise NotImplementedError

    def link(self, binding: Binding, inner):
        raise NotImplementedError


class _InterceptorLayer(_Layer):
    """An interceptor: op names, ``interceptor(op_name, function, args, kwargs)``."""

    def __init__(self, interceptor, sequence: int) -> None:
        super().__init__(interceptor, getattr(interceptor, "order", 0), sequence)
        self.registry = getattr(interceptor, "registry_functions", False)

    def selects(self, binding: Binding) -> bool:
        if binding.op_name is None or (binding.namespace == "ops" and not self.registry):
            return False
        return self.owner.wants(binding.op_name)

    def link(self, binding: Binding, inner):
        interceptor, op_name = self.owner, binding.op_name

        def link(*args, **kwargs):
            return interceptor(op_name, inner, args, kwargs)

        return link


class _HandlerSlot:
    """Where the wrappers of interceptions with the same settings find the handler of
    the active one, so that each trace reuses them rather than wrapping ~2000 bindings
    anew (a trace of a module traces each submodule too)."""

    __slots__ = ("handler",)

    def __init__(self) -> None:
        self.handler = None


_slots: dict = {}  # interception settings -> _HandlerSlot


class _InterceptionLayer(_Layer):
    """An interception: target names, ``handler(target, function, args, kwargs)``."""

    def __init__(self, interception, namespaces, sizes: bool, order, sequence) -> None:
        super().__init__(interception, order, sequence)
        self.namespaces = tuple(namespaces)
        self.sizes = bool(sizes)
        self.key = ("interception", self.namespaces, self.sizes, order)
        self.slot = _slots.setdefault(self.key, _HandlerSlot())
        self._seen = {*CORE_NAMESPACES, *self.namespaces, "Tensor", "ops"}

    def selects(self, binding: Binding) -> bool:
        if binding.target in _SIZE_TARGETS:
            return self.sizes
        return binding.traced and binding.namespace in self._seen

    def link(self, binding: Binding, inner):
        slot, target = self.slot, binding.target

        def link(*args, **kwargs):
            handler = slot.handler
            if handler is None:  # a wrapper kept past its interception's end
                return inner(*args, **kwargs)
            return handler(target, inner, args, kwargs)

        return link


class _InterceptedProperty(property):
    """A Tensor property whose getter runs through the layers (``__intercepted__``: the
    plain property)."""


# ------------------------------------------------------------------------- installation

_lock = threading.RLock()
_layers: list[_Layer] = []
_sequence = itertools.count()
#: (owner, attribute) -> the plain binding that a wrapper replaced
_replaced: dict = {}
#: the last few installations: (bindings' key, active layers) -> the wrappers
#: (owner, attribute, plain, wrapper); an autocast region entered every step reuses them
_installations: dict = {}
_KEPT_INSTALLATIONS = 4


def active() -> tuple:
    """What is active (interceptors and interceptions), outermost first."""
    return tuple(layer.owner for layer in _layers)


def activate(interceptor) -> None:
    """Make ``interceptor`` see every call of the ops it wants (until :func:`deactivate`)."""
    with _lock:
        if any(layer.owner is interceptor for layer in _layers):
            raise RuntimeError("this op-call interceptor is already active")
        _add(_InterceptorLayer(interceptor, next(_sequence)))


def deactivate(interceptor) -> None:
    """Stop ``interceptor``; with nothing left active the bindings are plain again."""
    with _lock:
        for layer in _layers:
            if layer.owner is interceptor:
                _layers.remove(layer)
                _reinstall()
                if isinstance(layer, _InterceptionLayer):
                    layer.slot.handler = None
                return
        raise ValueError("this op-call interceptor is not active")


def start_interception(interception, namespaces=(), sizes=False, order=TRACER_ORDER) -> None:
    """Route every binding through ``interception.handler`` (until :func:`deactivate`)."""
    with _lock:
        layer = _InterceptionLayer(interception, namespaces, sizes, order, next(_sequence))
        if any(other.key == layer.key for other in _layers):
            raise RuntimeError("an op interception with these settings is already active")
        layer.slot.handler = interception.handler
        try:
            _add(layer)
        except BaseException:
            layer.slot.handler = None
            raise


def _add(layer: _Layer) -> None:
    _layers.append(layer)
    _layers.sort(key=lambda each: (each.order, each.sequence))
    try:
        _reinstall()
    except BaseException:
        _layers.remove(layer)
        _reinstall()
        raise


def _restore() -> None:
    for (owner, name), plain in _replaced.items():
        current = getattr(owner, name, None)
        if getattr(current, "__intercepted__", None) is plain:
            setattr(owner, name, plain)
    _replaced.clear()


def _reinstall() -> None:
    """Put the plain bindings back, then wrap those the active layers select."""
    _restore()
    if not _layers:
        return
    namespaces = tuple(dict.fromkeys(n for layer in _layers for n in layer.namespaces))
    # the interceptors themselves (not their ids, which a new object may reuse)
    key = (_bindings_key(namespaces), tuple(layer.key for layer in _layers))
    installation = _installations.get(key)
    if installation is None or any(
        _plain(getattr(owner, name, None)) is not plain for owner, name, plain, _ in installation
    ):
        installation = _installations[key] = _build_installation(key[0])
        while len(_installations) > _KEPT_INSTALLATIONS:
            del _installations[next(iter(_installations))]
    for owner, name, plain, wrapper in installation:
        _replaced[(owner, name)] = plain
        setattr(owner, name, wrapper)


def _bindings_key(namespaces: tuple) -> tuple:
    """What the set of bindings depends on: the loaded namespaces, Tensor's attributes,
    the registry's size."""
    loaded = tuple(sys.modules.get(name) is not None for name in (*_MODULES, *namespaces))
    return namespaces, loaded, len(vars(Tensor)), len(ops.everything())


class _Enumeration:
    """The bindings of one set of namespaces and what was built on them: each layer's
    selection and the wrapper of each chain, so that an autocast region, a profile or a
    trace started again beside the same layers reuses them."""

    def __init__(self, bindings: list) -> None:
        self.bindings = bindings
        self.selections: dict = {}  # layer key -> indices of the bindings it selects
        self.wrappers: dict = {}  # (binding index, the chain's layer keys) -> wrapper

    def is_current(self) -> bool:
        """Whether every binding still holds the plain function it was found with."""
        return all(_plain(getattr(b.owner, b.attribute, None)) is b.plain for b in self.bindings)

    def installation(self, layers: list) -> list:
        if len(self.selections) > _KEPT_LAYERS:  # profiles come and go: forget old ones
            self.selections.clear()
            self.wrappers.clear()
        selected = [self._selection(layer) for layer in layers]
        installation = []
        for index in sorted(set().union(*selected)):
            chain = [layer for layer, chosen in zip(layers, selected) if index in chosen]
            memo = (index, tuple(layer.key for layer in chain))
            wrapper = self.wrappers.get(memo)
            binding = self.bindings[index]
            if wrapper is None:
                wrapper = self.wrappers[memo] = _wrapped(binding, chain)
            installation.append((binding.owner, binding.attribute, binding.plain, wrapper))
        return installation

    def _selection(self, layer: _Layer) -> frozenset:
        selection = self.selections.get(layer.key)
        if selection is None:
            selection = self.selections[layer.key] = frozenset(
                index for index, binding in enumerate(self.bindings) if layer.selects(binding)
            )
        return selection


_KEPT_LAYERS = 8
_enumerations: dict = {}  # the bindings' key -> their _Enumeration (the latest only)


def _build_installation(bindings_key: tuple) -> list:
    enumeration = _enumerations.get(bindings_key)
    if enumeration is None or not enumeration.is_current():
        _enumerations.clear()
        namespaces = bindings_key[0]
        enumeration = _enumerations[bindings_key] = _Enumeration(_bindings(namespaces))
    return enumeration.installation(_layers)


def _wrapped(binding: Binding, chain: list):
    """The outermost link of ``chain`` around the plain function (a property's getter),
    marked with ``__intercepted__`` so that it can be told from the plain one."""
    plain = binding.plain
    call = plain.fget if binding.is_property else plain
    module = getattr(call, "__module__", None)
    for layer in reversed(chain):
        call = layer.link(binding, call)
        # an outer layer sees where the function comes from (torch.func's levels let
        # torch.nn.functional's compositions run and intercept their parts)
        call.__module__ = module
    if binding.is_property:
        wrapper = _InterceptedProperty(call, plain.fset, plain.fdel, plain.__doc__)
    else:
        # named like the plain function (``functools.wraps`` would also copy the
        # attribute dictionary: too slow for ~2000 bindings at each new chain)
        wrapper = call
        wrapper.__name__ = plain.__name__
        wrapper.__qualname__ = plain.__qualname__
        wrapper.__doc__ = plain.__doc__
        wrapper.__wrapped__ = plain
    wrapper.__intercepted__ = plain
    return wrapper
