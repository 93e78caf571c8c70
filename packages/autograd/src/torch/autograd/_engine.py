"""torch-autograd's grad engine (core's ``GradEngine`` hook): recording each op as a graph
node, tensor hooks and retained gradients. The nodes are in ``_nodes``, the in-place
history of views in ``_view_history``, the backward pass in ``_backward``."""

from __future__ import annotations

import weakref

import torch
from torch._interface import GradEngine
from torch._interface import tensors as _tensors

from . import _anomaly, _saved_hooks
from ._backward import _backward_on_arrays, run_backward
from ._derivatives import DERIVATIVES
from ._derivatives._entry import input_meta
from ._hooks import HookDict, add_hook, leaf_meta

# the interface's tensor fields come bound once, from _nodes
from ._nodes import (
    _NO_EDGE,
    _STALE_VIEW,
    AccumulateGrad,
    Node,
    _array,
    _grad_fn,
    _history,
    _leaf_edge,
    _node_class,
    _pack_saved,
    _requires_grad,
    _set_history,
    _version_counter,
    _view_base,
    edge,
    edge_from,
)
from ._view_history import (
    _MULTI_VIEW_NODES,
    _mark_multi_view,
    _multi_view_message,
    _multi_view_of,
    _multi_views,
    _rebase_view,
    _refresh_view,
)

__all__ = ["Engine", "Node", "AccumulateGrad", "run_backward"]

_Tensor = torch.Tensor
_new_node = object.__new__
# the result's array and version counter (shared with the node from now on), not the
# result itself: no reference cycle between a result and its node
_saved_result = _tensors.saved_result
_set_result_history = _tensors.set_result_history
_anomaly_state = _anomaly.state
_hooks_open = _saved_hooks._open  # how many saved_tensors_hooks blocks are open


def _input_versions(inputs, which) -> tuple:
    if which is None and len(inputs) == 1:  # the common unary op, without the loop
        x = inputs[0]
        if not isinstance(x, _Tensor):
            return ()
        counter = _version_counter(x)
        return ((0, 0 if counter is None else counter[0]),)
    versions = []
    for index in range(len(inputs)) if which is None else which:
        x = inputs[index]
        if isinstance(x, _Tensor):
            counter = _version_counter(x)  # None until the first in-place write: version 0
            versions.append((index, 0 if counter is None else counter[0]))
    return tuple(versions)


def _read_by(reads, edges) -> tuple:
    """The inputs whose values the formulas of the inputs that need a gradient read."""
    return tuple({i for r, e in zip(reads, edges) if e[0] is not None for i in r})


def _unsaved_to_meta(inputs, which) -> tuple:
    """``inputs`` with the tensors whose values the formulas do not read replaced by their
    shape and dtype, so that the node does not keep them alive."""
    if not which:
        if len(inputs) == 1:
            return (input_meta(inputs[0]),)
        return tuple([input_meta(x) for x in inputs])
    return tuple([x if i in which else input_meta(x) for i, x in enumerate(inputs)])


class Engine(GradEngine):
    """torch-autograd's implementation of core's grad-engine hook."""

    def __init__(self) -> None:
        self._recipes: dict[str, tuple] = {}
        self._pending_view = None  # a view about to be written in place (see record)

    def _recipe(self, op) -> tuple:
        derivative = DERIVATIVES.get(op.name)
        if derivative is None:
            raise NotImplementedError(f"the derivative of '{op.name}' is not implemented")
        which = derivative.saved_inputs
        drops = which if derivative.drops_inputs else None
        check = which != () and derivative.reads is None
        # (node class, saved inputs, check them all, inputs kept whole, reads per input,
        # saves the output): everything record needs per op, looked up once
        recipe = (
            _node_class(op.name, op.saved),
            which,
            check,
            drops,
            derivative.reads,
            derivative.saves_output,
        )
        self._recipes[op] = recipe
        return recipe

    def record(self, op, inputs, output, saved) -> None:
        # the hot path of recording: everything per op is looked up once, in _recipe
        recipe = self._recipes.get(op)
        if recipe is None:
            recipe = self._recipe(op)
        if type(output) is tuple:  # an op with several outputs (linalg.svd, qr, eig)
            self._record_multi(recipe, inputs, output, saved)
            return
        cls, which, check_inputs, drops, reads, saves_output = recipe
        count = len(inputs)
        source = inputs[0]
        # edge(x) of the first two inputs, inline where x is the single output of a node
        # (the common case: no call at all) or no tensor that requires grad
        fn = _history(source)
        if fn is False:
            first = _NO_EDGE
        elif fn is not None and fn is not _STALE_VIEW and fn._num_outputs == 1:
            first = (fn, 0)
        elif fn is not None and fn is not _STALE_VIEW and _grad_fn(output) is fn:
            # an in-place write into an output of a node with several: the source is the
            # snapshot of the output's old value, which stands where the output does
            first = (fn, fn._output_nr(output))
        else:
            first = edge_from(source, fn)
        if count == 1:
            edges = (first,)
        elif count == 2:
            fn = _history(inputs[1])
            if fn is False:
                second = _NO_EDGE
            elif fn is not None and fn is not _STALE_VIEW and fn._num_outputs == 1:
                second = (fn, 0)
            else:
                second = edge_from(inputs[1], fn)
            edges = (first, second)
        else:
            edges = (first, *[edge(x) for x in inputs[1:]])
        if drops is not None:
            if not drops and count == 1 and type(source) is _Tensor:  # input_meta, inline
                inputs = (_array(source).shape,)
            else:
                inputs = _unsaved_to_meta(inputs, drops)
        if check_inputs:
            versions = _input_versions(inputs, which)
        elif reads is not None:
            if count == 2:  # _read_by, inline for binary ops
                read = reads[0] if edges[0][0] is not None else ()
                if edges[1][0] is not None:
                    read += reads[1]
            else:
                read = _read_by(reads, edges)
            versions = _input_versions(inputs, read)
        else:
            versions = ()
        # Node(inputs, saved, edges, versions, out), without the frame of its __init__
        node = _new_node(cls)
        node._inputs, node._saved, node.next_functions = inputs, saved, edges
        node._versions, node._extra = versions, None
        node._out = _saved_result(output) if saves_output else None
        # the history, unless the result's dtype never requires grad (integer and bool
        # results: x.long(), x.round() of an integer tensor); checked in the same call
        # (such results are rare: the node made for nothing costs less than a check first)
        base = _set_result_history(output, node)
        if base is False:
            return
        if _anomaly_state.enabled:
            _anomaly.attach_trace(node)
        if base is not None:  # a view
            if cls.__name__ in _MULTI_VIEW_NODES:
                _mark_multi_view(output, cls.__name__, saved[-1])
            elif _multi_views and _multi_view_of(source) is not None:
                _mark_multi_view(output, cls.__name__, 0)
        if _hooks_open[0]:
            _pack_saved(node, output)
        if self._pending_view is not None and output is self._pending_view:
            self._pending_view = None
            _rebase_view(output, node)

    def _record_multi(self, recipe, inputs, outputs, saved) -> None:
        """Record an op that returns a tuple of tensors: one node for all of them, which
        saves every output (its formulas read them, as PyTorch's do)."""
        cls, which = recipe[0], recipe[1]
        if cls._num_outputs != len(outputs):
            raise RuntimeError(
                f"{cls.__name__} expects {cls._num_outputs} outputs, got {len(outputs)}"
            )
        edges = tuple([edge(x) for x in inputs])
        inputs = _unsaved_to_meta(inputs, which or ())
        versions = _input_versions(inputs, which) if which else ()
        if cls._derivative.reads_outputs:
            outs = tuple(_saved_result(o) for o in outputs)
        else:
            outs = None
        node = cls(inputs, saved, edges, versions, outs, outputs)
        if _anomaly_state.enabled:
            _anomaly.attach_trace(node)
        for output in outputs:
            _set_history(output, node)
        if _saved_hooks._open[0]:
            _pack_saved(node, outputs)

    def inplace_on_view(self, view) -> None:
        entry = _multi_view_of(view) if _multi_views else None
        if entry is not None:
            raise RuntimeError(_multi_view_message(entry, "is being modified inplace"))
        base = _view_base(view)
        if _requires_grad(base) and _grad_fn(base) is None:
            return  # a view of a leaf: the caller raises
        self._pending_view = view

    def view_rebased(self, view) -> None:
        if self._pending_view is view:
            self._pending_view = None
        if _requires_grad(view) and _grad_fn(view) is not None:
            _rebase_view(view, _grad_fn(view))

    def refresh_view(self, view):
        return _refresh_view(view)

    def backward(self, tensors, grad_tensors, retain_graph, create_graph, inputs) -> None:
        if inputs is None and not create_graph and not _anomaly_state.enabled:
            # Tensor.backward's common case, without the argument normalisation
            _backward_on_arrays(tuple(tensors), tuple(grad_tensors), bool(retain_graph))
            return
        from ._api import backward

        backward(tensors, grad_tensors, retain_graph, create_graph, inputs)

    def register_hook(self, tensor, hook):
        if not _requires_grad(tensor):
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        fn = tensor.grad_fn
        if fn is None:
            meta = leaf_meta(tensor)
            if meta.hooks is None:
                meta.hooks = HookDict()
            return add_hook(meta.hooks, hook)
        return fn._register_tensor_hook(fn._output_nr(tensor), hook)

    def register_post_accumulate_grad_hook(self, tensor, hook):
        # a post hook of the leaf's AccumulateGrad node: it runs once .grad holds the sum
        # (not under autograd.grad, which accumulates nothing); the node keeps only a weak
        # reference, as it does of the leaf itself
        accumulator = _leaf_edge(tensor)[0]
        leaf = weakref.ref(tensor)

        def after_accumulation(grad_inputs, grad_outputs):
            alive = leaf()
            if alive is not None:
                hook(alive)

        return accumulator.register_hook(after_accumulation)

    def retain_grad(self, tensor) -> None:
        if not _requires_grad(tensor):
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        fn = tensor.grad_fn
        if fn is None:
            return  # a leaf keeps its gradient anyway
        fn._get_extra().retained[fn._output_nr(tensor)] = weakref.ref(tensor)

    def retains_grad(self, tensor) -> bool:
        fn = tensor.grad_fn
        if fn is None or fn._extra is None:
            return False
        return fn._output_nr(tensor) in fn._extra.retained
