"""In-place writes into views of tensors that require grad: the base's history becomes a
``CopySlices`` node, a view's node is regenerated when its base changed under it, and the
views of ops returning several views refuse such writes (as in PyTorch)."""

from __future__ import annotations

import re
import weakref

from torch._interface import ops
from torch._interface import tensors as _tensors

from . import _anomaly
from ._nodes import (  # with the interface's tensor fields, bound once there
    _grad_fn,
    _node_class,
    _NodeBase,
    _requires_grad,
    _set_history,
    _view_base,
    edge,
)

_anomaly_state = _anomaly.state


#: the nodes of the views that ops returning several views give (``unbind``, ``split``,
#: ``chunk``, ``split_with_sizes``): PyTorch forbids in-place writes into them
_MULTI_VIEW_NODES = frozenset({"UnbindBackward0", "SplitBackward0", "SplitWithSizesBackward0"})
#: id of such a view (or of a view of one, made with grad recorded) -> (weak reference,
#: name of the node that made it, its output number), as PyTorch's view creation meta
_multi_views: dict[int, tuple] = {}


def _mark_multi_view(view, node_name: str, output_nr: int) -> None:
    key = id(view)

    def forget(ref, key=key):
        entry = _multi_views.get(key)
        if entry is not None and entry[0] is ref:
            del _multi_views[key]

    _multi_views[key] = (weakref.ref(view, forget), node_name, output_nr)


def _op_name(node_name: str) -> str:
    """The op a node is named after (``SplitBackward0`` -> ``Split``), for messages."""
    return re.sub(r"Backward\d*$", "", node_name)


def _multi_view_of(view):
    """(reference, op name, output number) when ``view`` came out of an op returning
    several views, else ``None``."""
    entry = _multi_views.get(id(view))
    return entry if entry is not None and entry[0]() is view else None


def _multi_view_message(entry, what: str) -> str:
    return (
        f"Output {entry[2]} of {_op_name(entry[1])} is a view and {what}. This view is the "
        "output of a function that returns multiple views. Such functions do not allow the "
        "output views to be modified inplace. You should replace the inplace operation by an "
        "out-of-place one."
    )


def _geometry(t) -> tuple:
    return (tuple(t.shape), t.stride(), t.storage_offset())


def _real_geometry(t) -> tuple:
    """The geometry of ``t`` counted in elements of its real dtype: a complex tensor's is
    that of its ``view_as_real`` (a trailing dim of 2 parts, strides and offset doubled)."""
    shape, strides, offset = _geometry(t)
    if t.dtype.is_complex:
        return (shape + (2,), tuple(2 * s for s in strides) + (1,), 2 * offset)
    return (shape, strides, offset)


def _retyping(base, view):
    """``None`` when ``view`` has its base's dtype; else (base is complex, view is
    complex) for a view that reinterprets complex elements as real pairs or back
    (view_as_real, view_as_complex, ``.real``, ``.imag`` and views of them)."""
    base_dtype, view_dtype = base.dtype, view.dtype
    if view_dtype is base_dtype:
        return None
    base_complex, view_complex = base_dtype.is_complex, view_dtype.is_complex
    real = base_dtype.to_real() if base_complex else base_dtype
    if base_complex == view_complex or real is not (
        view_dtype.to_real() if view_complex else view_dtype
    ):
        raise NotImplementedError(
            f"an in-place write into a {view_dtype} view of a {base_dtype} tensor is not "
            "differentiable here"
        )
    return (base_complex, view_complex)


class CopySlices(_NodeBase):
    """The history of a base tensor after an in-place write into one of its views: the
    view's region comes from the in-place op's node, the rest from the base's old history
    (PyTorch's node of the same name). When the view reinterprets the base's dtype
    (complex elements as real pairs or back), the geometries count real elements and the
    gradients pass through ``view_as_real`` / ``view_as_complex`` on the way."""

    __slots__ = ("next_functions", "_geometries", "_retyped", "_extra", "__weakref__")

    def __init__(self, base_edge, view_edge, base_geometry, view_geometry, retyped=None) -> None:
        self.next_functions = (base_edge, view_edge)
        self._geometries = (base_geometry, view_geometry)
        self._retyped = retyped
        self._extra = None

    def apply(self, grad):
        base_geometry, view_geometry = self._geometries
        retyped = self._retyped
        whole = grad
        if retyped is not None and retyped[0]:
            whole = ops["view_as_real"].function(grad)
        gathered = ops["_view_gather"].function(whole, base_geometry, view_geometry)
        rest = None
        if self.next_functions[0][0] is not None:
            region = ops["_view_scatter"].function(gathered, base_geometry, view_geometry)
            if retyped is not None and retyped[0]:
                region = ops["view_as_complex"].function(region)
            rest = grad - region
        if retyped is not None and retyped[1]:
            gathered = ops["view_as_complex"].function(gathered)
        return (rest, gathered)

    __call__ = apply

    def release(self) -> None:
        pass


def _rebase_view(view, node) -> None:
    """After ``node`` recorded an in-place write into ``view``: the view's base takes a
    CopySlices history and the view becomes a strided view of that new history."""
    base = _view_base(view)
    retyped = _retyping(base, view)
    geometries = _view_geometries(base, view, retyped)
    copy = CopySlices(edge(base), (node, 0), *geometries, retyped)
    _set_history(base, copy)
    _set_history(view, _view_node(base, geometries, retyped, (copy, 0)))


def _view_geometries(base, view, retyped) -> tuple:
    """(base, view) geometries, in real elements when the view reinterprets the dtype."""
    if retyped is None:
        return _geometry(base), _geometry(view)
    return _real_geometry(base), _real_geometry(view)


def _view_node(base, geometries, retyped, base_edge):
    """The node of a view read out of its base's history reached through ``base_edge``."""
    if retyped is None:
        return _node_class("as_strided")((base.shape,), geometries, (base_edge,))
    op = "_rebased_view_as_complex" if retyped[1] else "_rebased_view_as_real"
    return _node_class(op, _RETYPED_SAVED)((), (*geometries, retyped), (base_edge,))


#: what the node of a rebased dtype-reinterpreting view saves (not an op: no OpDef names
#: it): the geometries and (base is complex, view is complex)
_RETYPED_SAVED = ("base_geometry", "view_geometry", "complex_flags")


def _refresh_view(view):
    """The node of ``view`` once its base was written in place after that node was made
    (through the base itself or another of its views): a strided view of the base's
    current history, as PyTorch regenerates it. Returns the view's node."""
    entry = _multi_view_of(view) if _multi_views else None
    if entry is not None:
        raise RuntimeError(
            _multi_view_message(
                entry, "its base or another view of its base has been modified inplace"
            )
        )
    _tensors.mark_view_current(view)
    base = _view_base(view)
    if _grad_fn(view) is None or not _requires_grad(base):
        # a view made without grad (no_grad mode, a base not requiring grad) or made a
        # leaf: no history to follow, as PyTorch's non-differentiable views
        return _grad_fn(view)
    retyped = _retyping(base, view)
    node = _view_node(base, _view_geometries(base, view, retyped), retyped, edge(base))
    if _anomaly_state.enabled:
        _anomaly.attach_trace(node)
    _set_history(view, node)
    return node
