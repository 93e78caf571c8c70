"""What sibling packages may read and write of a tensor's internals (CORE_API 0.5).

The ``Tensor``'s fields (its array, dtype, autograd history, version counter, view base)
are core's data model. Siblings (torch-autograd above all, whose engine records every op
and runs every backward) reach them only through this module, so that core may change how
a tensor keeps them. Every name here exists since CORE_API 0.5; a later minor version
only adds names.

Readers are functions that a sibling binds once at import. With the native core they are
``torch._C`` functions that read the tensor's slot directly (an attribute read's cost,
without a Python frame): the engine's hot paths call them for every op and node. Writers
that must keep fields consistent with each other (a view's history and its version) do
so in one call.
"""

from __future__ import annotations

import numpy as np

from .._grad_mode import _state as _grad_state
from .._tensor import Tensor
from .._tensor import make as _make

__all__ = [
    "on_device_of",
    "array",
    "dtype_of",
    "requires_grad",
    "grad_fn",
    "view_base",
    "view_version",
    "version_counter",
    "version",
    "saved_fields",
    "history",
    "STALE_VIEW",
    "saved_result",
    "wrap",
    "from_array",
    "set_history",
    "set_result_history",
    "set_requires_grad",
    "set_version_counter",
    "shared_version_counter",
    "bump_version",
    "mark_view_current",
    "replace_data",
    "grad_mode",
    "alias_as",
    "block_array_reads",
]

# ------------------------------------------------------------------------------- readers


def array(t):
    """The array holding ``t``'s elements (a strided NumPy view on the CPU). Writing
    into it bypasses the version counter: call :func:`bump_version` after."""
    return t._np


def dtype_of(t):
    """``t.dtype`` without the property call."""
    return t._dtype


def requires_grad(t):
    """``t.requires_grad`` without the property call."""
    return t._requires_grad


def grad_fn(t):
    """The node stored on ``t`` as it is. Unlike ``t.grad_fn`` it does not ask the
    engine to refresh the node of a view whose base was written in place since."""
    return t._grad_fn


def view_base(t):
    """The tensor whose storage ``t`` views, or ``None`` (``t._base``)."""
    return t._base


def view_version(t):
    """The version of the shared counter when ``t``'s (a view's) node was made; a
    different current version means its base was written in place since."""
    return t._view_version


def version_counter(t):
    """The one-element list that ``t`` and its views share as their version counter,
    or ``None`` while ``t`` was never written in place (version 0)."""
    return t._version_


def saved_fields(t) -> tuple:
    """``(array(t), dtype_of(t), version_counter(t))`` in one call: what an engine keeps of
    a tensor it saves, to rebuild it later with :func:`wrap` and
    :func:`set_version_counter` (without keeping the tensor, which references its node)."""
    return (t._np, t._dtype, t._version_)


#: what :func:`history` returns for a view whose base was written in place since its node
#: was made: the engine makes the view's node anew
STALE_VIEW = object()


def history(t):
    """What an engine reads of each input ``t`` of an op it records, in one call (the
    hottest path of recording): ``False`` when ``t`` is not a tensor that requires grad;
    else its node (:func:`grad_fn`: ``None`` for a leaf), or :data:`STALE_VIEW` for a view
    whose node is older than its base's last in-place write."""
    if not isinstance(t, Tensor) or not t._requires_grad:
        return False
    if t._base is not None and t._view_version != t._version_[0]:
        return STALE_VIEW
    return t._grad_fn


def saved_result(t: Tensor) -> tuple:
    """``(array, dtype, version counter, version)`` of ``t``, its counter made now if it has
    none (:func:`shared_version_counter`): what an engine keeps of a result its formulas
    read, to rebuild it later without keeping ``t`` (which references its node)."""
    counter = t._version_
    if counter is None:
        counter = t._version_ = [0]
    return (t._np, t._dtype, counter, counter[0])


def version(t: Tensor) -> int:
    """How many in-place writes ``t``'s memory has had (``t._version``)."""
    counter = t._version_
    return 0 if counter is None else counter[0]


# ------------------------------------------------------------------------- constructors

#: ``wrap(array, dtype)``: the hot-path constructor. ``array`` must be a fresh, dense,
#: C-contiguous result that nothing else views, of ``dtype``'s NumPy type; no checks.
wrap = _make


#: ``from_array(array, dtype=None)``: a new tensor for a computed ``array`` of any layout
#: (strides are made PyTorch's; a copy is made only for arrays with gaps or overlaps);
#: ``dtype`` defaults to the array's.
from_array = Tensor._from_array


# ------------------------------------------------------------------------------ writers


def set_history(t: Tensor, node) -> Tensor | None:
    """Make ``node`` the graph node that produced ``t`` and mark ``t`` as requiring grad
    (no leaf checks: for the engine recording an op's result). A view's node is then
    current for its counter's present version. Returns :func:`view_base` of ``t`` (the
    engine treats views further; one call instead of two on its hot path)."""
    t._grad_fn = node
    t._requires_grad = True
    base = t._base
    if base is not None:
        t._view_version = t._version_[0]
    return base


def set_result_history(t: Tensor, node):
    """:func:`set_history` for the result of an op being recorded, in the same call as the
    check of its dtype: a result of an integer or bool dtype (which never requires grad)
    is left alone and ``False`` returned; otherwise :func:`view_base` of ``t``."""
    if t._dtype._category < 2:
        return False
    return set_history(t, node)


def set_requires_grad(t: Tensor, flag: bool) -> None:
    """Set ``t.requires_grad`` without the leaf and dtype checks of the public setter
    (for an engine wiring outputs into its graph)."""
    t._requires_grad = flag


def set_version_counter(t: Tensor, counter: list | None) -> None:
    """Give ``t`` the version counter ``counter`` (from :func:`shared_version_counter` of
    another tensor): in-place writes through either are then seen by both."""
    t._version_ = counter


def shared_version_counter(t: Tensor) -> list:
    """``t``'s version counter, made now if ``t`` has none yet, so that others may share
    it (:func:`set_version_counter`)."""
    counter = t._version_
    if counter is None:
        counter = t._version_ = [0]
    return counter


#: ``bump_version(t)``: record an in-place write into ``t`` (after writing into
#: :func:`array` of it). The method itself: one call, not a function calling it.
bump_version = Tensor._bump_version


def mark_view_current(t: Tensor) -> None:
    """Record that the node of view ``t`` reads its base's history as it is now."""
    t._view_version = t._version_[0]


def replace_data(t: Tensor, source: Tensor) -> None:
    """Make ``t`` view ``source``'s memory, with ``source``'s shape and dtype, keeping
    ``t``'s identity, autograd fields and version counter (``t.data = source``)."""
    t._storage_ = source._storage_
    t._offset_ = source._offset_
    _ARRAY_SLOT.__set__(t, source._np)  # the slot itself: subclasses may wrap ``_np``
    t._dtype = source._dtype


_ARRAY_SLOT = Tensor.__dict__["_np"]


# ---------------------------------------------------------------------------- grad mode


def grad_mode():
    """This thread's grad-mode state: an object whose ``enabled`` attribute is
    ``torch.is_grad_enabled()`` (a plain attribute read, for hot checks) and may be set
    directly, as ``torch.set_grad_enabled`` would, where a context manager costs too much
    (restore it in a ``finally``); ``inference`` tells ``inference_mode``. The object is
    the same for the process's life: bind it once."""
    return _grad_state


# ------------------------------------------------------------------- tensor subclasses


def alias_as(cls: type, source: Tensor) -> Tensor:
    """A new instance of the ``Tensor`` subclass ``cls`` (its ``__init__`` not called)
    holding every field of ``source``: the same memory, dtype, autograd fields and version
    counter (PyTorch's ``Tensor._make_subclass``; ``nn.Parameter`` and ``nn.Buffer``)."""
    alias = object.__new__(cls)
    for slot in _FIELD_SLOTS:
        slot.__set__(alias, slot.__get__(source))
    return alias


def block_array_reads(cls: type, on_read) -> None:
    """Make reading the array of an instance of ``cls`` (a mixin of ``Tensor``
    subclasses) call ``on_read(t)``, which raises, so that every computation refuses it;
    writing the array still sets it. For placeholders without data (torch-nn's
    uninitialized parameters)."""
    cls._np = property(on_read, _ARRAY_SLOT.__set__)


#: the slot descriptors of a tensor's fields (its ``__slots__`` less the weak reference)
_FIELD_SLOTS = tuple(Tensor.__dict__[name] for name in Tensor.__slots__ if name != "__weakref__")


def on_device_of(like: Tensor, array):
    """``array`` (a kernel's result on the host) on the device of ``like``: a device's
    backend adopts it (API 0.5). Host tensors and device arrays pass unchanged."""
    held = like._np
    if type(held) is np.ndarray or type(array) is not np.ndarray:
        return array
    from .backends import backend_of_array

    backend = backend_of_array(held)
    return backend.adopt(array, backend.index_of(held))


# ------------------------------------------------------------------- native versions


def _bind_native_readers() -> None:
    """Replace the readers (and :func:`set_result_history`) by ``torch._C``'s: the same
    results without a Python frame, for the engine calls them for every input it records
    and every node it runs. The Python definitions stay as the reference and for
    ``TORCH_NATIVE=0``."""
    from .. import _native

    if not _native.ENABLED:
        return
    reader = _native.kernels.slot_reader
    namespace = globals()
    for name, field in _READ_FIELDS.items():
        namespace[name] = reader(Tensor, field)
    namespace["history"] = _native.kernels.history_reader(Tensor, STALE_VIEW)
    namespace["set_result_history"] = _native.kernels.result_history_writer(Tensor)


_READ_FIELDS = {
    "array": "_np",
    "dtype_of": "_dtype",
    "requires_grad": "_requires_grad",
    "grad_fn": "_grad_fn",
    "view_base": "_base",
    "view_version": "_view_version",
    "version_counter": "_version_",
}
_bind_native_readers()
