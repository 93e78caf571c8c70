"""Device dispatch of the op bindings, installed once a non-CPU backend registers.

With only the CPU, ``torch.add`` and ``Tensor.__add__`` are the CPU functions themselves
(no per-call device check). :func:`install` replaces every op binding of ``torch``,
``torch.linalg``, ``torch.special`` and ``Tensor`` by a dispatcher that checks the
devices of the tensor arguments, runs the op's kernel for that device type (or its
device-generic implementation) and hands back results on the device; :func:`uninstall`
puts the plain functions back. See ``torch._interface.backends``.
"""

from __future__ import annotations

import functools
import inspect
import sys
import types

from ._device import CPU
from ._interface import backends as _backends
from ._interface import ops
from ._op_calls import OPERATOR_OP_NAMES
from ._ops import _dispatch as _op_dispatch
from ._tensor import Tensor

__all__ = ["install", "uninstall", "installed", "common_device"]

# Bindings that handle devices themselves (they take a ``device`` argument, or move data
# between devices) and Tensor methods that only read metadata or are plumbing.
_OWN_DEVICE_HANDLING = {
    "to",
    "cpu",
    "cuda",
    "numpy",
    "type",
    "copy_",
    "__setitem__",
    "save",
    "load",
}
_PLUMBING = {
    "__init__",
    "__new__",
    "__init_subclass__",
    "__getattribute__",
    "__getattr__",
    "__setattr__",
    "__delattr__",
    "__reduce__",
    "__reduce_ex__",
    "__getstate__",
    "__setstate__",
    "__repr__",
    "__str__",
    "__format__",
    "__hash__",
    "__sizeof__",
    "__dir__",
    "__array__",
    "__array_wrap__",
    "__array_namespace__",
    "__dlpack__",
    "__dlpack_device__",
    "__deepcopy__",
    "__copy__",
    "__len__",
    "__bool__",
    "__float__",
    "__int__",
    "__complex__",
    "__index__",
    "__contains__",
    "__iter__",
    "__reversed__",
    "__class_getitem__",
    "__torch_function__",
    "backward",
    "register_hook",
    "retain_grad",
    "requires_grad_",
    "size",
    "dim",
    "numel",
    "nelement",
    "stride",
    "storage_offset",
    "data_ptr",
    "element_size",
    "is_contiguous",
    "is_floating_point",
    "is_complex",
    "tolist",
    "item",
    "storage",
    "untyped_storage",
    "_wrap_dim",
    "_alias",
}
_MIXING_ALLOWED = {"__getitem__"}  # CPU index tensors may index a tensor on a device

_originals: dict[tuple[object, str], object] = {}


def installed() -> bool:
    return bool(_originals)


def _scalar_to_device(value, device):
    if isinstance(value, Tensor) and value._device.type == "cpu" and not value.dim():
        return value.to(device)
    return value


def _scalars_to_device(args, kwargs, device):
    """0-dim CPU tensors among an op's arguments, which mix with any device as in PyTorch,
    copied to ``device``: a backend whose arrays the host cannot read (CuPy's) refuses a
    host array beside its own (a one-element upload; PyTorch passes it as a scalar)."""
    if not any(
        isinstance(v, Tensor) and v._device.type == "cpu" for v in (*args, *kwargs.values())
    ):
        return args, kwargs
    args = tuple(_scalar_to_device(v, device) for v in args)
    kwargs = {k: _scalar_to_device(v, device) for k, v in kwargs.items()}
    return args, kwargs


def _mixed_devices(first, second) -> RuntimeError:
    return RuntimeError(
        "Expected all tensors to be on the same device, but found at least two devices, "
        f"{first} and {second}!"
    )


def _tensors_of(value):
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, Tensor):
                yield item


def common_device(args, kwargs, check: bool = True):
    """The device an op on these arguments runs on (``CPU`` when every tensor is there).
    With ``check``, tensors on two devices raise PyTorch's error; a 0-dim CPU tensor goes
    with any device, as in PyTorch."""
    found = None
    cpu_seen = None
    for value in (*args, *kwargs.values()):
        for tensor in _tensors_of(value):
            dev = tensor._device  # read off the array (a sparse tensor: its values')
            if dev.type == "cpu":
                if cpu_seen is None and tensor.dim():
                    cpu_seen = CPU
                continue
            if found is None:
                found = dev
            elif dev != found and check:
                raise _mixed_devices(found, dev)
    if found is None:
        return CPU
    if cpu_seen is not None and check:
        raise _mixed_devices(found, CPU)
    return found


def _place_results(result, device, backend, inputs=()):
    """Put host arrays among ``result``'s tensors on ``device`` (a kernel that ran on the
    host hands them back there). The caller's own tensors (``inputs``: a 0-dim CPU tensor
    that an op returned as it is) stay where they are."""
    if isinstance(result, Tensor):
        if inputs and id(result) in inputs:
            return result
        if result.is_sparse:  # its indices and values are tensors of their own
            _place_results((result._indices_, result._values_), device, backend, inputs)
            return result
        array = result._np
        if backend.owns(array) and backend.index_of(array) == device.index:
            return result
        result._np = backend.adopt(array, device.index)
        storage = result._storage_
        if storage is not None and not backend.owns(storage._buffer):
            storage._buffer = backend.adopt(storage._buffer, device.index)
            storage.device = device
        return result
    if isinstance(result, (tuple, list)):
        for item in result:
            if isinstance(item, Tensor):
                _place_results(item, device, backend, inputs)
    return result


# Python operators -> the op whose kernel they run with the same argument order
_OPERATOR_OPS = {
    **OPERATOR_OP_NAMES,
    "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift",
    "neg": "neg",
    "abs": "abs",
}


_BINARY = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or")
_BINARY += ("xor", "lshift", "rshift")
_REFLECTED = {"r" + name for name in _BINARY}
_IN_PLACE = {"i" + name: name for name in _BINARY}


def _op_of(name: str):
    """The registered op a binding called ``name`` runs (``__add__`` -> ``add``,
    ``__iadd__`` -> ``add_``; reflected operators have none: their arguments are swapped)."""
    if name.startswith("__") and name.endswith("__"):
        inner = name[2:-2]
        if inner in _REFLECTED:
            return None
        if inner in _IN_PLACE:
            name = _OPERATOR_OPS.get(_IN_PLACE[inner], _IN_PLACE[inner]) + "_"
        else:
            name = _OPERATOR_OPS.get(inner, inner)
    return ops.lookup(name)  # registered, or declared (a composite)


def _dispatching(function, name: str, op=None):
    op = op if op is not None else _op_of(name)
    check = name not in _MIXING_ALLOWED
    local = _backends._local

    @functools.wraps(function)
    def dispatch(*args, **kwargs):
        depth = getattr(local, "depth", 0)
        if depth:
            # inside an op already sent to a device: composites mix in host constants
            if op is not None:
                kernel = op.kernels.get(local.device.type)
                if getattr(kernel, "runs_binding", False):
                    return kernel(function, *args, **kwargs)  # e.g. a host round trip
            result = function(*args, **kwargs)
            return _place_results(result, local.device, local.backend, local.inputs)
        device = common_device(args, kwargs, check)
        if device.type == "cpu":
            return function(*args, **kwargs)
        backend = _backends.get_backend(device.type)
        kernel = op.kernels.get(device.type) if op is not None else None
        if check and getattr(backend, "select", None) is not None:
            args, kwargs = _scalars_to_device(args, kwargs, device)
        inputs = {id(t) for value in (*args, *kwargs.values()) for t in _tensors_of(value)}
        local.depth, local.device, local.backend, local.inputs = 1, device, backend, inputs
        # the device of the inputs is current while the op runs (where a device's array
        # module allocates and launches, as ``cupy.cuda.Device(i)``)
        select = getattr(backend, "select", None)
        previous = select(device.index) if select is not None else None
        try:
            if kernel is not None and getattr(kernel, "runs_binding", False):
                result = kernel(function, *args, **kwargs)
            else:
                result = (kernel or function)(*args, **kwargs)
        finally:
            if select is not None:
                backend.restore(previous)
            local.depth = 0
            local.device = local.backend = local.inputs = None
        return _place_results(result, device, backend, inputs)

    dispatch.__wrapped_binding__ = function
    return dispatch


_direct_calls: dict[str, object] = {}


def call_op(name: str, function, *args, **kwargs):
    """``function``, the Python form of registered op ``name`` that a composite calls
    directly (no public binding of its own), run as its binding would be: with no device
    backend installed it is a plain call; on a device, the op's device kernel (a host round
    trip) applies, inside a composite too."""
    if not _originals:
        return function(*args, **kwargs)
    dispatch = _direct_calls.get(name)
    if dispatch is None:
        dispatch = _direct_calls[name] = _dispatching(function, name)
    return dispatch(*args, **kwargs)


def _takes_device(function) -> bool:
    try:
        return "device" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def _wrappable(name: str, value) -> bool:
    if name in _OWN_DEVICE_HANDLING or name in _PLUMBING:
        return False
    if isinstance(value, type) or not callable(value):
        return False
    if not isinstance(value, (types.FunctionType, types.BuiltinFunctionType, functools.partial)):
        return False
    return not _takes_device(value)


def _wrap_namespace(owner, names) -> None:
    for name in names:
        value = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name)
        if value is None or not _wrappable(name, value):
            continue
        _originals[(owner, name)] = value
        setattr(owner, name, _dispatching(value, name))


def _saved_on_device(result, saved) -> None:
    """Inside an op sent to a device, its result and the tensors its host kernel saved for
    backward (not the caller's own) go to the device before the engine keeps them."""
    local = _backends._local
    if not getattr(local, "depth", 0):
        return
    _place_results(result, local.device, local.backend, local.inputs)
    if not isinstance(saved, tuple):
        return  # a kernel's own record of arrays, which its backward kernel reads
    for item in saved:
        if isinstance(item, Tensor) and id(item) not in local.inputs:
            _place_results(item, local.device, local.backend, local.inputs)


def install() -> None:
    """Wrap every op binding in a device dispatcher (idempotent)."""
    if _originals:
        return
    _op_dispatch.saved_on_device = _saved_on_device
    torch = sys.modules["torch"]
    _wrap_namespace(torch, [n for n in torch.__all__ if not n.startswith("_")])
    for sub in ("linalg", "special", "fft"):
        module = sys.modules.get(f"torch.{sub}")
        if module is None:
            try:
                module = __import__(f"torch.{sub}", fromlist=["_"])
            except ImportError:
                continue
        _wrap_namespace(module, list(getattr(module, "__all__", ())))
    _wrap_namespace(Tensor, list(vars(Tensor)))
    _wrap_op_functions()


def _wrap_op_functions() -> None:
    """Route ``OpDef.function`` too: torch-nn's functional calls and torch-autograd's
    derivative formulas reach core ops through it, and a native host kernel among them
    must see its result handed back on the device."""
    for op in ops.everything():
        function = op.function
        if function is None or not _wrappable(op.name, function):
            continue
        _originals[(op, "function")] = function
        op.function = _dispatching(function, op.name, op)


def uninstall() -> None:
    """Put the plain bindings back."""
    _op_dispatch.saved_on_device = None
    for (owner, name), value in _originals.items():
        setattr(owner, name, value)
    _originals.clear()
