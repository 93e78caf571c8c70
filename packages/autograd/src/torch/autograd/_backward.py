"""The backward pass: an iterative, dependency-counted walk of the graph (no recursion, so
graph depth is unlimited), in two forms: the general one on Tensors, and the common case
(``x.backward()`` without create_graph, inputs or anomaly mode) on NumPy arrays."""

from __future__ import annotations

import sys
import threading

import numpy as np

import torch
from torch._interface import tensors as _tensors

from . import _anomaly
from ._derivatives.arrays import THREADED_MIN_SIZE, NoArrayFormError, add_into_big
from ._hooks import _leaves, leaf_meta

# the interface's tensor fields come bound once, from _nodes
from ._nodes import (
    _STALE_VIEW,
    AccumulateGrad,
    _array,
    _bump_version,
    _dtype_of,
    _existing_accumulator,
    _from_array,
    _history,
    _in_layout_of,
    _in_place_target,
    _requires_grad,
    edge,
    edge_from,
)

__all__ = ["run_backward"]

_Tensor = torch.Tensor
_on_device_of = _tensors.on_device_of
_grad_mode = _tensors.grad_mode()
_anomaly_state = _anomaly.state


class _Tasks(threading.local):
    """The nodes each running backward pass of this thread executes (innermost last),
    kept only while some multi-grad hook watches (``watching``, over all threads)."""

    def __init__(self) -> None:
        self.stack: list = []

    def push(self, nodes) -> None:
        self.stack.append((object(), nodes))  # a fresh token per pass

    def pop(self) -> None:
        self.stack.pop()

    def current(self):
        return self.stack[-1] if self.stack else None


_tasks = _Tasks()
#: how many multi-grad hooks watch, over all threads (graph.register_multi_grad_hook): a
#: module-level cell, for every backward pass reads it (an attribute of the thread-local
#: ``_tasks`` costs a per-thread dictionary lookup)
watching = [0]

# ------------------------------------------------------------------------ backward pass


def _root_grads(tensors, grad_tensors):
    roots = []
    for i, (tensor, grad) in enumerate(zip(tensors, grad_tensors)):
        if not _requires_grad(tensor):
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
        if grad is None:
            if tensor.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            grad = torch.ones_like(tensor)
        elif tuple(grad.shape) != tuple(tensor.shape):
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of "
                f"{grad.shape} and output[{i}] has a shape of {tensor.shape}."
            )
        node, nr = edge(tensor)
        roots.append((node, nr, grad))
    return roots


def _graph(roots) -> tuple[dict, set]:
    """Every node reachable from ``roots``, with the parents of each."""
    parents: dict = {}
    stack = [node for node, _, _ in roots]
    seen = set(stack)
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            parents.setdefault(child, []).append(node)
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return parents, seen


def _needed(parents, targets) -> set:
    """The nodes from which some target is reachable (only they need to run)."""
    needed = set(targets)
    stack = list(needed)
    while stack:
        for parent in parents.get(stack.pop(), ()):
            if parent not in needed:
                needed.add(parent)
                stack.append(parent)
    return needed


def _count_dependencies(parents, needed) -> dict:
    dependencies: dict = {}
    for child, its_parents in parents.items():
        if needed is None or child in needed:
            count = sum(1 for p in its_parents if needed is None or p in needed)
            if count:
                dependencies[child] = count
    return dependencies


def _add_grad(buffers, node, nr, grad) -> None:
    if node._num_outputs == 1:
        previous = buffers.get(node)
        buffers[node] = grad if previous is None else previous + grad
        return
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * node._num_outputs
    slots[nr] = grad if slots[nr] is None else slots[nr] + grad


class _Targets:
    """Where the gradients of ``inputs`` go: captured (``autograd.grad``) or accumulated
    into ``.grad`` (``backward(inputs=...)``)."""

    def __init__(self, inputs, capture: bool):
        self.inputs = inputs
        self.capture = capture
        self.captured = [None] * len(inputs)
        self.leaves: dict = {}  # AccumulateGrad -> input index
        self.nonleaves: dict = {}  # (node, output nr) -> input index
        for i, t in enumerate(inputs):
            if t.grad_fn is None:
                accumulator = _existing_accumulator(t)
                if accumulator is not None:
                    self.leaves[accumulator] = i
            else:
                self.nonleaves[edge(t)] = i

    def nodes(self) -> set:
        return set(self.leaves) | {node for node, _ in self.nonleaves}

    def store(self, index: int, grad) -> None:
        if grad is None:
            return
        if self.capture:
            previous = self.captured[index]
            self.captured[index] = grad if previous is None else previous + grad
        else:
            tensor = self.inputs[index]
            tensor.grad = grad if tensor.grad is None else tensor.grad + grad


def run_backward(tensors, grad_tensors, retain_graph, create_graph, inputs, capture):
    """Run the backward pass. With ``capture``, return the gradients of ``inputs`` instead
    of accumulating into leaves (``torch.autograd.grad``)."""
    if retain_graph is None:
        retain_graph = create_graph
    if not create_graph and not _anomaly_state.enabled:
        if inputs is None:
            _backward_on_arrays(tensors, grad_tensors, retain_graph)
            return None
        return _grad_on_arrays(tensors, grad_tensors, retain_graph, inputs, capture)
    roots = _root_grads(tensors, grad_tensors)
    targets = None
    if inputs is not None:
        for t in inputs:
            if not _requires_grad(t):
                raise RuntimeError("One of the differentiated Tensors does not require grad")
        targets = _Targets(inputs, capture)

    parents, seen = _graph(roots)
    needed = None if targets is None else _needed(parents, targets.nodes())
    dependencies = _count_dependencies(parents, needed)
    if watching[0]:
        _tasks.push(seen if needed is None else needed)
        try:
            return _run_general(
                roots, targets, needed, dependencies, create_graph, retain_graph, capture
            )
        finally:
            _tasks.pop()
    return _run_general(roots, targets, needed, dependencies, create_graph, retain_graph, capture)


def _run_general(roots, targets, needed, dependencies, create_graph, retain_graph, capture):
    buffers: dict = {}
    for node, nr, grad in roots:
        if needed is None or node in needed:
            _add_grad(buffers, node, nr, grad)
    ready = [node for node in buffers if node not in dependencies]

    with torch.set_grad_enabled(create_graph):
        while ready:
            node = ready.pop()
            grads = _run_node(node, buffers.pop(node, None), targets, create_graph, retain_graph)
            for (child, nr), child_grad in zip(node.next_functions, grads):
                if child is None or (needed is not None and child not in needed):
                    continue
                if child_grad is not None:
                    _add_grad(buffers, child, nr, child_grad)
                dependencies[child] -= 1
                if dependencies[child] == 0:
                    ready.append(child)
    return tuple(targets.captured) if capture else None


def _run_node(node, grad, targets, create_graph, retain_graph) -> tuple:
    """Hooks, capture and the node's own formulas; the gradients for ``next_functions``."""
    if isinstance(node, AccumulateGrad):
        _run_accumulator(node, grad, targets, create_graph)
        return ()
    if node._extra is not None:
        grad = _run_pre_hooks(node, grad)
    if targets is not None:
        _capture_nonleaf(node, grad, targets)
    if grad is None or (node._num_outputs > 1 and all(g is None for g in grad)):
        return (None,) * len(node.next_functions)
    if _anomaly.state.enabled:
        grads = _anomaly.checked_apply(node, grad)
    else:
        grads = node.apply(grad)
    if not retain_graph:
        node.release()
    extra = node._extra
    if extra is not None and extra.post_hooks:
        grads = _run_post_hooks(extra, grads, grad, node._num_outputs)
    return grads


def _capture_nonleaf(node, grad, targets) -> None:
    if not targets.nonleaves:
        return
    for nr in range(node._num_outputs):
        index = targets.nonleaves.get((node, nr))
        if index is not None:
            targets.store(index, grad if node._num_outputs == 1 else grad[nr])


def _run_accumulator(node, grad, targets, create_graph) -> None:
    if grad is None:
        return
    leaf = node.variable
    if leaf is None:
        return
    meta = leaf_meta(leaf, create=False)
    if meta is not None and meta.hooks:
        grad = _call_tensor_hooks(meta.hooks, grad)
    if node._extra is not None and node._extra.pre_hooks:
        (grad,) = _call_pre_hooks(node._extra.pre_hooks, (grad,))
    if targets is not None:
        index = targets.leaves.get(node)
        if index is None:
            return
        if targets.capture:
            targets.store(index, grad)
            return
    node.accumulate(grad, create_graph)
    extra = node._extra
    if extra is not None and extra.post_hooks:
        for hook in tuple(extra.post_hooks.values()):
            hook((), (grad,))


def _call_tensor_hooks(hooks, grad):
    for hook in tuple(hooks.values()):
        result = hook(grad)
        if result is not None:
            grad = result
    return grad


def _call_pre_hooks(hooks, grads: tuple) -> tuple:
    for hook in tuple(hooks.values()):
        result = hook(grads)
        if result is not None:
            grads = tuple(result)
    return grads


def _run_pre_hooks(node, grad):
    extra = node._extra
    single = node._num_outputs == 1
    slots = [grad] if single else list(grad)
    for nr, hooks in extra.tensor_hooks.items():
        if hooks and slots[nr] is not None:
            slots[nr] = _call_tensor_hooks(hooks, slots[nr])
    for nr, ref in extra.retained.items():
        tensor = ref()
        if tensor is not None and slots[nr] is not None:
            g = slots[nr]
            tensor.grad = g.detach() if tensor.grad is None else tensor.grad + g.detach()
    if extra.pre_hooks:
        slots = list(_call_pre_hooks(extra.pre_hooks, tuple(slots)))
    return slots[0] if single else slots


def _run_post_hooks(extra, grads, grad, num_outputs) -> tuple:
    grad_outputs = (grad,) if num_outputs == 1 else tuple(grad)
    for hook in tuple(extra.post_hooks.values()):
        result = hook(tuple(grads), grad_outputs)
        if result is not None:
            grads = tuple(result)
    return grads


# ------------------------------------------------- backward on arrays (the common case)
#
# ``x.backward()`` without create_graph, inputs or anomaly mode: gradients travel as NumPy
# arrays between nodes that have array formulas and no hooks, and become Tensors only
# where something may look at them (a hook, a node without array formulas, a leaf's
# ``.grad``). Every other node runs exactly as in ``run_backward``'s general loop.

_ndarray = np.ndarray
_np_add = np.add

#: the dtypes whose gradients travel as arrays (others stay Tensors all the way)
_ARRAY_DTYPES = frozenset((torch.float32, torch.float64))

#: NumPy dtype -> torch dtype of the gradients the engine wraps (not torch._dtype's
#: from_numpy_dtype: complex32 shares complex64's NumPy dtype there)
_DTYPES = {
    np.dtype(t.np_dtype): t
    for t in map(
        torch.__dict__.get,
        "bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64 complex64 "
        "complex128".split(),
    )
}
_getrefcount = sys.getrefcount


def _free_refs() -> int:
    """How many references ``sys.getrefcount`` reports for an array held only by a local
    variable of the backward loop (the pattern of ``_backward_on_arrays``)."""
    buffers = {None: np.empty(1)}
    grad = buffers.pop(None)
    return _getrefcount(grad)


#: an array gradient with no more references than this belongs to the engine alone: a
#: leaf's ``.grad`` may take it without a copy (PyTorch steals such gradients too)
_FREE_REFS = _free_refs()


def _root_arrays(tensors, grad_tensors) -> list:
    """The roots' nodes and gradients: ones for a single-element root without one (made
    here as an array), given gradients as checked by ``_root_grads``."""
    if len(tensors) == 1 and grad_tensors[0] is None:
        tensor = tensors[0]
        if type(tensor) is _Tensor and _dtype_of(tensor) in _ARRAY_DTYPES:
            array = _array(tensor)  # (two getters cost less than saved_fields' tuple)
            if array.size == 1 and type(array) is _ndarray:  # (a device's: _root_grads)
                fn = _history(tensor)  # edge(tensor), inline for an op's single output
                if fn is None or fn is False or fn is _STALE_VIEW or fn._num_outputs != 1:
                    node, nr = edge_from(tensor, fn)
                else:
                    node, nr = fn, 0
                if node is not None:  # it requires grad (else _root_grads raises)
                    grad = np.empty(array.shape, array.dtype)
                    grad.fill(1)
                    return [(node, nr, grad)]
    roots = _root_grads(tensors, grad_tensors)
    return [
        (
            node,
            nr,
            _array(grad) if type(grad) is _Tensor and _dtype_of(grad) in _ARRAY_DTYPES else grad,
        )
        for node, nr, grad in roots
    ]


def _dependencies(starts) -> dict:
    """For every node reachable from the nodes ``starts`` (a collection of the roots'
    nodes): how many edges lead into it."""
    dependencies: dict = {}
    stack = list(starts)
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            if child in dependencies:
                dependencies[child] += 1
            else:
                dependencies[child] = 1
                if child not in starts:
                    stack.append(child)
    return dependencies


def _as_tensor(grad):
    """A gradient as a Tensor (arrays are wrapped without a copy where they are dense)."""
    if type(grad) is _ndarray:
        return _from_array(grad, _DTYPES[grad.dtype])
    if isinstance(grad, _Tensor) or grad is None:
        return grad
    if isinstance(grad, np.generic):  # a NumPy scalar
        return _from_array(np.asarray(grad), _DTYPES[grad.dtype])
    return _from_array(grad, _DTYPES[grad.dtype])  # a device backend's array: kept there


def _as_tensors(grad, node):
    if node._num_outputs == 1:
        return _as_tensor(grad)
    return [_as_tensor(g) for g in grad]


def _add_to_buffer(buffers, node, nr, grad) -> None:
    if node._num_outputs == 1:
        previous = buffers.get(node)
        if previous is None:
            buffers[node] = grad
        elif type(previous) is type(grad) and not isinstance(grad, _Tensor):
            buffers[node] = previous + grad
        else:  # a Tensor (a sparse one, a subclass) and maybe an array: add as Tensors
            buffers[node] = _add_as_tensors(previous, grad)
        return
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * node._num_outputs
    previous = slots[nr]
    if previous is None:
        slots[nr] = grad
    elif type(previous) is type(grad) and not isinstance(grad, _Tensor):
        slots[nr] = previous + grad
    else:
        slots[nr] = _add_as_tensors(previous, grad)


def _add_as_tensors(previous, grad):
    """The sum of two gradients of one output, at least one a Tensor (sparse, a subclass).
    A dense one goes first (sparse + dense is refused where dense + sparse is not); of two
    sparse ones the later goes first, as PyTorch's input buffer orders their entries."""
    previous, grad = _as_tensor(previous), _as_tensor(grad)
    if previous.is_sparse:
        return grad + previous
    return previous + grad


def _backward_on_arrays(tensors, grad_tensors, retain_graph) -> None:
    buffers: dict = {}
    for node, nr, grad in _root_arrays(tensors, grad_tensors):
        if node._num_outputs == 1 and node not in buffers:
            buffers[node] = grad  # (_add_to_buffer's common case, inline)
        else:
            _add_to_buffer(buffers, node, nr, grad)
    grad = None  # (an array's references count: see _FREE_REFS)
    dependencies = _dependencies(buffers)  # (its keys: the roots' nodes)
    if watching[0]:  # multi-grad hooks need to know which nodes this pass runs
        _tasks.push(set(dependencies).union(buffers))
        try:
            _run_on_arrays(buffers, dependencies, retain_graph)
        finally:
            _tasks.pop()
        return
    _run_on_arrays(buffers, dependencies, retain_graph)


def _grad_on_arrays(tensors, grad_tensors, retain_graph, inputs, capture):
    """``autograd.grad`` / ``backward(inputs=...)`` on arrays: only the nodes that lead to
    ``inputs`` run; their gradients are captured (as Tensors) or accumulated."""
    roots = _root_arrays(tensors, grad_tensors)
    for t in inputs:
        if not _requires_grad(t):
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    targets = _Targets(inputs, capture)
    parents, _ = _graph(roots)
    needed = _needed(parents, targets.nodes())
    dependencies = _count_dependencies(parents, needed)
    buffers: dict = {}
    for node, nr, grad in roots:
        if node in needed:
            _add_to_buffer(buffers, node, nr, grad)
    roots = grad = None  # (an array's references count: see _FREE_REFS)
    if watching[0]:
        _tasks.push(needed)
        try:
            _run_on_arrays(buffers, dependencies, retain_graph, needed, targets)
        finally:
            _tasks.pop()
    else:
        _run_on_arrays(buffers, dependencies, retain_graph, needed, targets)
    return tuple(targets.captured) if capture else None


def _run_on_arrays(buffers, dependencies, retain_graph, needed=None, targets=None) -> None:
    """The loop of backward on arrays; ``needed`` and ``targets`` as in ``run_backward``
    (``autograd.grad`` and ``backward(inputs=...)``)."""
    ready = []  # (a loop, not a comprehension: no function object made per pass)
    for node in buffers:
        if node not in dependencies:
            ready.append(node)
    state = _grad_mode
    enabled, state.enabled = state.enabled, False
    try:
        while ready:
            node = ready.pop()
            grad = buffers.pop(node, None)
            if grad is None:
                grads = None
            elif type(node) is AccumulateGrad:
                if targets is not None and (targets.capture or node not in targets.leaves):
                    _run_accumulator(node, _as_tensor(grad), targets, False)  # captured
                    continue
                if type(grad) is _ndarray and (
                    grad.base is not None or _getrefcount(grad) > _FREE_REFS
                ):
                    grad = grad.copy()  # others see its memory too: the leaf gets its own
                _accumulate(node, grad)
                continue
            elif (
                node._array_formulas is not None and node._extra is None and type(grad) is _ndarray
            ):
                if targets is not None and targets.nonleaves:
                    _capture_nonleaf(node, _as_tensor(grad), targets)
                try:
                    grads = node._apply_arrays(grad)
                except NoArrayFormError:  # a case for the Tensor formulas
                    grads = _run_node(node, _as_tensor(grad), None, False, retain_graph)
                else:
                    if not retain_graph:  # node.release(), inline
                        node._inputs = node._saved = node._out = None
            else:
                grads = _run_node(node, _as_tensors(grad, node), targets, False, retain_graph)
            grad = None
            if grads is None:
                grads = (None,) * len(node.next_functions)
            for (child, nr), child_grad in zip(node.next_functions, grads):
                if child is None or (needed is not None and child not in needed):
                    continue
                if child_grad is not None:
                    if type(child_grad) is _Tensor and _dtype_of(child_grad) in _ARRAY_DTYPES:
                        child_grad = _array(child_grad)  # a plain dense Tensor: its array
                    if child._num_outputs == 1 and child not in buffers:
                        buffers[child] = child_grad
                    else:
                        _add_to_buffer(buffers, child, nr, child_grad)
                count = dependencies[child] - 1
                dependencies[child] = count
                if not count:
                    ready.append(child)
            grads = child_grad = None
    finally:
        state.enabled = enabled


def _accumulate(node, grad) -> None:
    """Add a gradient (an array the engine owns, or a Tensor) into the leaf's ``.grad``."""
    leaf = node._variable()  # node.variable, without the property's frame
    if leaf is None:
        return
    meta = _leaves.get(id(leaf))
    if node._extra is not None or (meta is not None and meta.hooks):
        _run_accumulator(node, _as_tensor(grad), None, False)
        return
    if type(grad) is not _ndarray:
        if not isinstance(grad, np.generic):  # a Tensor, or a device backend's array
            node.accumulate(_as_tensor(grad), False)
            return
        grad = np.asarray(grad)  # a NumPy scalar
    dtype = _dtype_of(leaf)
    if grad.dtype != dtype.np_dtype:  # as PyTorch: the gradient takes the leaf's dtype
        node.accumulate(_as_tensor(grad), False)
        return
    previous = leaf.grad
    if previous is None:  # the engine's own array (see _FREE_REFS): no copy
        leaf.grad = _from_array(_on_device_of(leaf, _in_layout_of(_array(leaf), grad)), dtype)
    else:
        into = _in_place_target(previous, grad)
        if into is not None:  # as PyTorch: accumulated in place (a write: a new version)
            if into.size < THREADED_MIN_SIZE:
                _np_add(into, grad, into)  # (out= positionally: no keyword parsing)
            else:
                add_into_big(into, grad)
            _bump_version(previous)
            return
        fresh = _from_array(_on_device_of(leaf, grad), dtype)
        # onto a sparse .grad: dense + sparse (sparse + dense is refused), as PyTorch's
        leaf.grad = fresh + previous if previous.is_sparse else previous + fresh
