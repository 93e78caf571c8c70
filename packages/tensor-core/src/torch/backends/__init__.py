"""torch.backends: switches and queries for the libraries PyTorch can compute with
(cuDNN, cuBLAS, MKL, oneDNN, OpenMP, ...).

Each submodule answers for this build: CUDA libraries are there only when a CUDA runtime
is (see :mod:`torch.cuda`); on the CPU, matrix products use Intel MKL when the ``mkl``
wheel is installed (``torch.backends.mkl.is_available()``), and nothing uses OpenMP,
oneDNN or NNPACK. The switches (``torch.backends.cudnn.benchmark = True``, ...) are
module attributes that read back what was set; ``flags()`` context managers set several
and restore them on exit.

Examples::

    >>> import torch.backends.cudnn as cudnn
    >>> cudnn.benchmark = True
    >>> cudnn.benchmark
    True
    >>> cudnn.benchmark = False
"""

from __future__ import annotations

import sys as _sys
import types as _types
from contextlib import contextmanager as _contextmanager

from . import _precision

__all__ = [
    "ContextProp",
    "GenericModule",
    "PropModule",
    "disable_global_flags",
    "flags",
    "flags_frozen",
    "set_flags",
]

# Test suites freeze the switches so that only flags() context managers may change them.
_mutation_allowed = [True]


def disable_global_flags() -> None:
    """Forbid plain assignment to backend switches (``flags()`` still works)."""
    _mutation_allowed[0] = False


def flags_frozen() -> bool:
    """Whether :func:`disable_global_flags` has frozen the backend switches."""
    return not _mutation_allowed[0]


@_contextmanager
def _mutation_window():
    """Let the ``flags()`` context managers set switches even when they are frozen."""
    saved = _mutation_allowed[0]
    _mutation_allowed[0] = True
    try:
        yield
    finally:
        _mutation_allowed[0] = saved


@_contextmanager
def _flags_scope(set_flags, *values):
    """The body of every backend's ``flags()``: set the switches with ``set_flags(*values)``
    (even when frozen), run the block, then restore what ``set_flags`` returned."""
    with _mutation_window():
        previous = set_flags(*values)
    try:
        yield
    finally:
        with _mutation_window():
            set_flags(*previous)


class _UnbuiltVerbose:
    """The body of a ``verbose`` context manager whose library log is not built here:
    entering with a level other than ``VERBOSE_OFF`` (0) raises, as PyTorch does when the
    library cannot turn its log on. A subclass names ``_library`` and keeps the
    requested level under PyTorch's attribute name (``_level`` reads it)."""

    _library = ""

    def _level(self) -> int:
        raise NotImplementedError

    def __enter__(self):
        if self._level() == 0:
            return None
        raise AssertionError(
            f"Failed to set {self._library} into verbose mode. Please consider to disable "
            "this verbose scope."
        )

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False


class ContextProp:
    """A module attribute read and written through a getter and a setter."""

    def __init__(self, getter, setter):
        self.getter = getter
        self.setter = setter

    def __get__(self, obj, objtype):
        return self.getter()

    def __set__(self, obj, val):
        if flags_frozen():
            raise RuntimeError(
                f"not allowed to set {obj.__name__} flags after disable_global_flags; "
                "please use flags() context manager instead"
            )
        self.setter(val)


def _wrapping_methods(class_name: str):
    """``__init__(m, name)`` and ``__getattr__`` of a module type PyTorch builds around the
    original module ``m`` (the attributes its class lacks are read from ``m``). PyTorch
    writes them in each such class, whose name errors about their arguments give."""

    def __init__(self, m, name):  # noqa: N807 - the method it becomes
        _types.ModuleType.__init__(self, name, getattr(m, "__doc__", None))
        self.m = m

    def __getattr__(self, attr):  # noqa: N807 - the method it becomes
        wrapped = self.__dict__.get("m")
        if wrapped is None:
            raise AttributeError(f"module '{self.__name__}' has no attribute '{attr}'")
        return getattr(wrapped, attr)

    __init__.__qualname__ = f"{class_name}.__init__"
    __getattr__.__qualname__ = f"{class_name}.__getattr__"
    return __init__, __getattr__


class PropModule(_types.ModuleType):
    """A module type whose class holds properties (``cudnn.enabled``, ...).

    PyTorch wraps the original module ``m``; this project swaps the module's class
    instead (``module.__class__ = SubclassOfPropModule``), so the module object stays the
    one ``import`` returns. Building one around another module still works.
    """

    __init__, __getattr__ = _wrapping_methods("PropModule")

    def __dir__(self):
        names = set(super().__dir__())
        names.update(n for n in vars(type(self)) if not n.startswith("_"))
        return sorted(names)


class _FP32Precision:
    """``<backend>.<op>.fp32_precision``: one entry of the float32 precision settings."""

    __slots__ = ("backend", "op")

    def __init__(self, backend: str, op: str):
        object.__setattr__(self, "backend", backend)
        object.__setattr__(self, "op", op)

    def __getattr__(self, name):
        if name == "fp32_precision":
            return _precision.get(self.backend, self.op)
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name != "fp32_precision":
            raise AttributeError("Unknown attribute " + name)
        _precision.set(self.backend, self.op, value)


def _precision_prop(backend: str, op: str, set_backend: str | None = None) -> ContextProp:
    """A ``fp32_precision`` module attribute for (``backend``, ``op``)."""
    return ContextProp(
        lambda: _precision.get(backend, op),
        lambda value: _precision.set(set_backend or backend, op, value),
    )


def set_flags(_fp32_precision="none"):
    """Set the generic float32 precision; returns the previous setting as a tuple."""
    previous = (_precision.get("generic", "all"),)
    if _fp32_precision is not None:
        _precision.set("generic", "all", _fp32_precision)
    return previous


def flags(fp32_precision="none"):
    """Set the generic float32 precision inside a ``with`` block."""
    return _flags_scope(set_flags, fp32_precision)


class GenericModule(PropModule):
    fp32_precision = _precision_prop("generic", "all")


_sys.modules[__name__].__class__ = GenericModule

# the submodules read the names above, so they are imported last
from . import cpu as cpu  # noqa: E402
from . import cuda as cuda  # noqa: E402
from . import cudnn as cudnn  # noqa: E402
from . import cusparselt as cusparselt  # noqa: E402
from . import kleidiai as kleidiai  # noqa: E402
from . import mha as mha  # noqa: E402
from . import miopen as miopen  # noqa: E402
from . import mkl as mkl  # noqa: E402
from . import mkldnn as mkldnn  # noqa: E402
from . import mps as mps  # noqa: E402
from . import nnpack as nnpack  # noqa: E402
from . import openmp as openmp  # noqa: E402
from . import opt_einsum as opt_einsum  # noqa: E402
from . import python_native as python_native  # noqa: E402
from . import quantized as quantized  # noqa: E402
