"""The graph and the engine: nodes recorded per op, and an iterative, dependency-counted
backward pass (no recursion, so graph depth is unlimited)."""

from __future__ import annotations

import re
import sys
import threading
import weakref

import numpy as np

import torch
from torch import _tensor as _tensor_module
from torch._grad_mode import _state as _grad_state
from torch._interface import GradEngine, ops

from . import _anomaly, _saved_hooks
from ._derivatives import DERIVATIVES
from ._derivatives._entry import input_meta
from ._derivatives.arrays import ARRAY_FORMULAS, NoArrayFormError
from ._hooks import HookDict, _leaves, add_hook, leaf_meta

__all__ = ["Engine", "Node", "AccumulateGrad", "run_backward"]

_Tensor = torch.Tensor
_make = _tensor_module.make

_FREED = (
    "Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the graph "
    "are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if "
    "you need to backward through the graph a second time or if you need to access saved "
    "tensors after calling backward."
)

_MODIFIED_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its "
    "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)

_NO_EDGE = (None, 0)
_anomaly_state = _anomaly.state


class _Extra:
    """The rarely used parts of a node, made on first use: hooks, retained gradients,
    the forward trace of anomaly mode and the user's metadata."""

    __slots__ = (
        "tensor_hooks",
        "retained",
        "pre_hooks",
        "post_hooks",
        "trace",
        "metadata",
        "packed",
    )

    def __init__(self) -> None:
        self.tensor_hooks: dict[int, HookDict] = {}
        self.retained: dict[int, weakref.ref] = {}
        self.pre_hooks: HookDict | None = None
        self.post_hooks: HookDict | None = None
        self.trace: list[str] | None = None
        self.metadata: dict | None = None
        #: whether saved tensors went through saved_tensors_hooks (see _pack_saved)
        self.packed = False


class _NodeBase:
    """What every graph node offers: ``name()``, ``next_functions`` and hooks."""

    __slots__ = ()
    _num_outputs = 1
    #: the op's array formulas (``_derivatives/arrays.py``) on nodes that have them
    _array_formulas = None

    def name(self) -> str:
        return type(self).__name__

    def _output_nr(self, tensor) -> int:
        return 0

    def _get_extra(self) -> _Extra:
        extra = self._extra
        if extra is None:
            extra = self._extra = _Extra()
        return extra

    def register_hook(self, fn):
        """Call ``fn(grad_inputs, grad_outputs)`` after this node has computed the
        gradients of its inputs; a non-None result replaces ``grad_inputs``."""
        extra = self._get_extra()
        if extra.post_hooks is None:
            extra.post_hooks = HookDict()
        return add_hook(extra.post_hooks, fn)

    def register_prehook(self, fn):
        """Call ``fn(grad_outputs)`` before this node runs; a non-None result replaces
        ``grad_outputs``."""
        extra = self._get_extra()
        if extra.pre_hooks is None:
            extra.pre_hooks = HookDict()
        return add_hook(extra.pre_hooks, fn)

    @property
    def metadata(self) -> dict:
        extra = self._get_extra()
        if extra.metadata is None:
            extra.metadata = {}
        return extra.metadata

    def _register_tensor_hook(self, output_nr: int, fn):
        hooks = self._get_extra().tensor_hooks.setdefault(output_nr, HookDict())
        return add_hook(hooks, fn)

    def __repr__(self) -> str:
        return f"<{self.name()} object at {id(self):#x}>"


class Node(_NodeBase):
    """One recorded op: its derivative entry, what the formulas need, and edges to the
    nodes of its inputs (``next_functions``, as in PyTorch)."""

    __slots__ = (
        "_inputs",
        "_saved",
        "next_functions",
        "_versions",
        "_out",
        "_extra",
        "__weakref__",
    )

    #: the op's derivative entry (set on the node class of each op)
    _derivative = None

    def __init__(self, inputs, saved, edges, versions=(), out=None):
        self._inputs = inputs
        self._saved = saved
        self.next_functions = edges
        #: (input index, version when recorded) of each input whose value is needed
        self._versions = versions
        #: (array, dtype, version counter, version when recorded) of the result when the
        #: formulas need it: not the result itself, which references this node
        self._out = out
        self._extra = None

    def _saved_inputs(self) -> tuple:
        """The inputs the formulas read, unpacked when saved-tensor hooks packed them."""
        inputs = self._inputs
        if inputs is None:
            raise RuntimeError(_FREED)
        if self._extra is not None and self._extra.packed:
            inputs = tuple(
                _saved_hooks.unpack(x) if type(x) is _saved_hooks.Packed else x for x in inputs
            )
        return inputs

    def apply(self, grad):
        inputs = self._saved_inputs()
        if self._versions or self._out is not None:
            self._check_versions()
        saved, derivative = self._saved, self._derivative
        if derivative.variadic:
            formula = derivative.formulas[0]
            return tuple(
                None if edge[0] is None else formula(grad, inputs, saved, index)
                for index, edge in enumerate(self.next_functions)
            )
        if self._out is not None:  # the formulas read the saved result too
            result = self._saved_output()
            if _grad_state.enabled:  # create_graph: the result as an output of this node
                result.grad_fn = self
                result._requires_grad = True
            return tuple(
                None if edge[0] is None else formula(grad, inputs, saved, result)
                for formula, edge in zip(derivative.formulas, self.next_functions)
            )
        return tuple(
            None if edge[0] is None else formula(grad, inputs, saved)
            for formula, edge in zip(derivative.formulas, self.next_functions)
        )

    __call__ = apply

    def _apply_arrays(self, grad) -> tuple:
        """``apply`` on NumPy arrays, through the op's array formulas (which raise
        ``NoArrayFormError`` for cases they leave to ``apply``)."""
        inputs = self._inputs
        if inputs is None:
            raise RuntimeError(_FREED)
        out = self._out
        for index, expected in self._versions:  # inline: _check_versions explains
            counter = inputs[index]._version_
            if (0 if counter is None else counter[0]) != expected:
                self._check_versions()
        saved, edges, formulas = self._saved, self.next_functions, self._array_formulas
        if out is not None:
            if out[2][0] != out[3]:
                self._check_versions()
            if len(edges) == 1:
                return (formulas[0](grad, inputs, saved, out[0]),)
            return tuple(
                None if edge[0] is None else formula(grad, inputs, saved, out[0])
                for formula, edge in zip(formulas, edges)
            )
        if len(edges) == 2:
            first, second = edges
            return (
                None if first[0] is None else formulas[0](grad, inputs, saved),
                None if second[0] is None else formulas[1](grad, inputs, saved),
            )
        if len(edges) == 1:
            return (formulas[0](grad, inputs, saved),)
        return tuple(
            None if edge[0] is None else formula(grad, inputs, saved)
            for formula, edge in zip(formulas, edges)
        )

    def _saved_output(self):
        """The saved result as a Tensor sharing its memory and version counter, made
        afresh so that the node never references a tensor that references it back."""
        if type(self._out) is _saved_hooks.Packed:
            return _saved_hooks.unpack(self._out)
        array, dtype, counter, _ = self._out
        result = _make(array, dtype)
        result._version_ = counter
        return result

    def _check_versions(self) -> None:
        inputs = self._inputs
        for index, expected in self._versions:
            x = inputs[index]
            counter = x._version_
            current = 0 if counter is None else counter[0]
            if current != expected:
                fn = x.grad_fn
                raise RuntimeError(_modified_message(x.type(), x.shape, fn, current, expected))
        out = self._out
        if type(out) is tuple:
            current, expected = out[2][0], out[3]
            if current != expected:
                result = self._saved_output()
                raise RuntimeError(
                    _modified_message(result.type(), result.shape, self, current, expected)
                )

    def release(self) -> None:
        # the saved result goes too: activations are freed as backward passes them
        self._inputs = None
        self._saved = None
        self._out = None


class MultiOutputNode(Node):
    """The node of a core op that returns several tensors (``linalg.svd``, ``linalg.qr``,
    ``linalg.eig``): one node for all of them, so that the formulas see every output's
    gradient at once (the gauge checks of the singular vectors need U's and V's together).
    ``_out`` holds one saved result per output."""

    __slots__ = ("_output_refs",)

    def __init__(self, inputs, saved, edges, versions, outs, outputs):
        super().__init__(inputs, saved, edges, versions, outs)
        self._output_refs = [(weakref.ref(t), nr) for nr, t in enumerate(outputs)]

    def _output_nr(self, tensor) -> int:
        for ref, nr in self._output_refs:
            if ref() is tensor:
                return nr
        raise RuntimeError(f"tensor is not an output of {self.name()}")

    def apply(self, grads):
        inputs = self._saved_inputs()
        self._check_versions()
        outputs = self._saved_outputs()
        if _grad_state.enabled:  # create_graph: the saved outputs as outputs of this node
            for nr, result in enumerate(outputs):
                result.grad_fn = self
                result._requires_grad = True
                self._output_refs.append((weakref.ref(result), nr))
        grads = list(grads)
        return tuple(
            None if edge[0] is None else formula(grads, inputs, self._saved, outputs)
            for formula, edge in zip(self._derivative.formulas, self.next_functions)
        )

    __call__ = apply

    def _saved_outputs(self) -> tuple:
        result = []
        for out in self._out:
            if type(out) is _saved_hooks.Packed:
                result.append(_saved_hooks.unpack(out))
                continue
            array, dtype, counter, _ = out
            tensor = _make(array, dtype)
            tensor._version_ = counter
            result.append(tensor)
        return tuple(result)

    def _check_versions(self) -> None:
        inputs = self._inputs
        for index, expected in self._versions:
            x = inputs[index]
            counter = x._version_
            current = 0 if counter is None else counter[0]
            if current != expected:
                raise RuntimeError(
                    _modified_message(x.type(), x.shape, x.grad_fn, current, expected)
                )
        for out in self._out:
            if type(out) is tuple and out[2][0] != out[3]:
                result = _make(out[0], out[1])
                raise RuntimeError(
                    _modified_message(result.type(), result.shape, self, out[2][0], out[3])
                )


def _pack_saved(node, output) -> None:
    """Under ``saved_tensors_hooks``: the node keeps what the pack hook makes of each tensor
    its formulas read (and of its result when saved), unpacked when backward needs them
    (without version checks, as in PyTorch)."""
    hooks = _saved_hooks.current()
    if hooks is None:
        return
    inputs = list(node._inputs)
    for index, _ in node._versions:
        inputs[index] = _saved_hooks.pack(inputs[index], hooks)
    node._inputs = tuple(inputs)
    node._versions = ()
    if type(output) is tuple:  # a multi-output node keeps each output
        node._out = tuple(_saved_hooks.pack(o, hooks) for o in output)
    elif node._out is not None:
        node._out = _saved_hooks.pack(output, hooks)
    node._get_extra().packed = True


class _Tasks(threading.local):
    """The nodes each running backward pass of this thread executes (innermost last),
    kept only while some multi-grad hook watches (``watched``, over all threads)."""

    watched = 0

    def __init__(self) -> None:
        self.stack: list = []

    def push(self, nodes) -> None:
        self.stack.append((object(), nodes))  # a fresh token per pass

    def pop(self) -> None:
        self.stack.pop()

    def current(self):
        return self.stack[-1] if self.stack else None


_tasks = _Tasks()


def _modified_message(legacy_type, shape, fn, current, expected) -> str:
    where = "" if fn is None else f", which is output 0 of {_op_name(fn)},"
    return (
        "one of the variables needed for gradient computation has been modified by an "
        f"inplace operation: [{legacy_type} {list(shape)}]{where} is at version {current}; "
        f"expected version {expected} instead. {_MODIFIED_HINT}"
    )


def _op_name(fn) -> str:
    return re.sub(r"Backward\d*$", "", fn.name())


class AccumulateGrad(_NodeBase):
    """The node of a leaf: adds the incoming gradient to ``variable.grad``. There is one
    per leaf, made when a graph first uses it and kept while the leaf lives."""

    __slots__ = ("_variable", "next_functions", "_extra", "__weakref__")

    def __init__(self, variable_ref: weakref.ref):
        self._variable = variable_ref
        self.next_functions = ()
        self._extra = None

    @property
    def variable(self):
        """The leaf (None once it has died: nobody can see its gradient any more)."""
        return self._variable()

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def accumulate(self, grad, create_graph: bool) -> None:
        """Add ``grad`` into the leaf's ``.grad`` as PyTorch does: the first gradient is
        copied (others may hold it), later ones are added in place, or out of place under
        ``create_graph`` (the sum is then differentiable)."""
        leaf = self.variable
        if leaf is None:
            return
        if not create_graph and grad._requires_grad:
            grad = grad.detach()
        if grad.dtype != leaf.dtype:  # as PyTorch: the gradient takes the leaf's dtype
            grad = _cast(grad, leaf.dtype)
        previous = leaf.grad
        if previous is None:
            if type(grad) is not _Tensor:  # sparse gradients and subclasses: as they are
                leaf.grad = grad
            elif create_graph:  # a differentiable copy
                leaf.grad = grad.contiguous() if not grad.is_contiguous() else grad.clone()
            else:  # a copy of its own (an optimizer updates it in place)
                array = _empty_in_layout_of(leaf._np)
                np.copyto(array, grad._np)
                leaf.grad = _from_array(array, grad._dtype)
        elif not create_graph and type(grad) is _Tensor and _adds_in_place(previous, grad._np):
            np.add(previous._np, grad._np, out=previous._np)
            previous._bump_version()
        else:
            leaf.grad = previous + grad

    def release(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {id(self):#x}>"


def _empty_in_layout_of(like: np.ndarray) -> np.ndarray:
    """An empty array for a leaf's gradient: with the leaf's strides when the leaf is dense
    (a transposed leaf gets a transposed gradient), else C-contiguous; PyTorch's gradient
    layout contract."""
    if like.flags.c_contiguous:
        return np.empty(like.shape, like.dtype)
    out = np.empty_like(like)  # NumPy keeps the dims' memory order of a dense array
    if out.strides != like.strides:  # gaps or overlaps: C order
        return np.empty(like.shape, like.dtype)
    return out


def _in_layout_of(like: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """``grad`` (the engine's own array) laid out as ``_empty_in_layout_of`` says."""
    if like.flags.c_contiguous and grad.flags.c_contiguous:
        return grad
    out = _empty_in_layout_of(like)
    if out.strides == grad.strides:
        return grad
    np.copyto(out, grad)
    return out


def _adds_in_place(previous, array) -> bool:
    """Whether a gradient ``array`` can be added into ``previous`` (a leaf's ``.grad``) in
    place: a plain dense tensor of the same shape and dtype (as in PyTorch, also one that
    an earlier ``create_graph`` backward left in a graph)."""
    return (
        type(previous) is _Tensor
        and previous._np.shape == array.shape
        and previous._np.dtype == array.dtype
        and (previous._np.flags.c_contiguous or _dense(previous._np))
        and previous._np.flags.writeable
    )


def _dense(array: np.ndarray) -> bool:
    """No gaps or overlaps (in some dim order): safe to write into element by element."""
    return np.empty_like(array).strides == array.strides and 0 not in array.strides


def _cast(grad, dtype):
    if grad.is_complex() and not dtype.is_complex:
        grad = torch.real(grad)
    return grad.to(dtype)


def _leaf_edge(tensor) -> tuple:
    """The edge to a leaf's AccumulateGrad node (made on first use, shared by every graph
    that uses the leaf while it lives)."""
    meta = leaf_meta(tensor)
    leaf_edge = meta.edge
    if leaf_edge is None:
        leaf_edge = meta.edge = (AccumulateGrad(meta.tensor), 0)
    return leaf_edge


def _existing_accumulator(tensor):
    meta = leaf_meta(tensor, create=False)
    return None if meta is None or meta.edge is None else meta.edge[0]


_node_classes: dict[str, type] = {}


def _not_implemented_name(self) -> str:
    return "torch::autograd::NotImplemented"  # PyTorch's name() of such nodes


def _node_class(op_name: str) -> type:
    """The node class of an op, named as PyTorch names it (``AddBackward0``); one per op
    (ops sharing a name differ in their array formulas)."""
    cls = _node_classes.get(op_name)
    if cls is None:
        derivative = DERIVATIVES[op_name]
        namespace = {"__slots__": ()}
        formulas = ARRAY_FORMULAS.get(op_name)
        if formulas is not None and not derivative.variadic:
            namespace["_array_formulas"] = formulas
        namespace["_derivative"] = derivative
        base = Node
        if derivative.outputs > 1:
            namespace["_num_outputs"] = derivative.outputs
            base = MultiOutputNode
        if derivative.node_name == "NotImplemented":
            namespace["name"] = _not_implemented_name
        cls = _node_classes[op_name] = type(derivative.node_name, (base,), namespace)
    return cls


def edge(x):
    """The edge of the graph that a tensor argument contributes: (node, output index)."""
    if not isinstance(x, _Tensor) or not x._requires_grad:
        return _NO_EDGE
    fn = x._grad_fn
    if x._base is not None and x._view_version != x._version_[0]:
        fn = _refresh_view(x)  # its base was written in place since its node was made
    if fn is None:
        meta = _leaves.get(id(x))
        if meta is not None and meta.edge is not None and meta.tensor() is x:
            return meta.edge
        return _leaf_edge(x)
    if fn._num_outputs == 1:
        return (fn, 0)
    return (fn, fn._output_nr(x))


def _input_versions(inputs, which) -> tuple:
    versions = []
    for index in range(len(inputs)) if which is None else which:
        x = inputs[index]
        if isinstance(x, _Tensor):
            counter = x._version_  # None until the first in-place write: version 0
            versions.append((index, 0 if counter is None else counter[0]))
    return tuple(versions)


def _read_by(reads, edges) -> tuple:
    """The inputs whose values the formulas of the inputs that need a gradient read."""
    if len(edges) == 2:
        first = reads[0] if edges[0][0] is not None else ()
        return first + reads[1] if edges[1][0] is not None else first
    return tuple({i for r, e in zip(reads, edges) if e[0] is not None for i in r})


def _unsaved_to_meta(inputs, which) -> tuple:
    """``inputs`` with the tensors whose values the formulas do not read replaced by their
    shape and dtype, so that the node does not keep them alive."""
    if not which:
        if len(inputs) == 1:
            return (input_meta(inputs[0]),)
        return tuple([input_meta(x) for x in inputs])
    return tuple([x if i in which else input_meta(x) for i, x in enumerate(inputs)])


def _saved_result(output) -> tuple:
    # the result's array and version counter (made now if it has none yet: the result and
    # the node must share it), not the result (no reference cycle with its node)
    counter = output._version_
    if counter is None:
        counter = output._version_ = [0]
    return (output._np, output._dtype, counter, counter[0])


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
            _node_class(op.name),
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
        if output._dtype._category < 2:
            return  # integer and bool results never require grad (x.long(), x.bool())
        cls, which, check_inputs, drops, reads, saves_output = recipe
        count = len(inputs)
        if count == 2:
            edges = (edge(inputs[0]), edge(inputs[1]))
        elif count == 1:
            edges = (edge(inputs[0]),)
        else:
            edges = tuple([edge(x) for x in inputs])
        source = inputs[0]
        if drops is not None:
            inputs = _unsaved_to_meta(inputs, drops)
        if check_inputs:
            versions = _input_versions(inputs, which)
        elif reads is not None:
            versions = _input_versions(inputs, _read_by(reads, edges))
        else:
            versions = ()
        node = cls(inputs, saved, edges, versions, _saved_result(output) if saves_output else None)
        if _anomaly_state.enabled:
            _anomaly.attach_trace(node)
        output._grad_fn = node
        if output._base is not None:
            output._view_version = output._version_[0]
            if cls.__name__ in _MULTI_VIEW_NODES:
                _mark_multi_view(output, cls.__name__, saved[-1])
            elif _multi_views and _multi_view_of(source) is not None:
                _mark_multi_view(output, cls.__name__, 0)
        output._requires_grad = True
        if _saved_hooks._open[0]:
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
        outs = tuple(_saved_result(o) for o in outputs)
        node = cls(inputs, saved, edges, versions, outs, outputs)
        if _anomaly_state.enabled:
            _anomaly.attach_trace(node)
        for output in outputs:
            output.grad_fn = node
            output._requires_grad = True
        if _saved_hooks._open[0]:
            _pack_saved(node, outputs)

    def inplace_on_view(self, view) -> None:
        entry = _multi_view_of(view) if _multi_views else None
        if entry is not None:
            raise RuntimeError(_multi_view_message(entry, "is being modified inplace"))
        base = view._base
        if base._requires_grad and base._grad_fn is None:
            return  # a view of a leaf: the caller raises
        self._pending_view = view

    def view_rebased(self, view) -> None:
        if self._pending_view is view:
            self._pending_view = None
        if view._requires_grad and view._grad_fn is not None:
            _rebase_view(view, view._grad_fn)

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
        if not tensor._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        fn = tensor.grad_fn
        if fn is None:
            meta = leaf_meta(tensor)
            if meta.hooks is None:
                meta.hooks = HookDict()
            return add_hook(meta.hooks, hook)
        return fn._register_tensor_hook(fn._output_nr(tensor), hook)

    def retain_grad(self, tensor) -> None:
        if not tensor._requires_grad:
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


# ------------------------------------------------------------------- in-place on views

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

    _multi_views[key] = (
        weakref.ref(view, forget),
        re.sub(r"Backward\d*$", "", node_name),
        output_nr,
    )


def _multi_view_of(view):
    """(reference, op name, output number) when ``view`` came out of an op returning
    several views, else ``None``."""
    entry = _multi_views.get(id(view))
    return entry if entry is not None and entry[0]() is view else None


def _multi_view_message(entry, what: str) -> str:
    return (
        f"Output {entry[2]} of {entry[1]} is a view and {what}. This view is the output of "
        "a function that returns multiple views. Such functions do not allow the output "
        "views to be modified inplace. You should replace the inplace operation by an "
        "out-of-place one."
    )


def _geometry(t) -> tuple:
    return (tuple(t.shape), t.stride(), t.storage_offset())


def _real_geometry(t) -> tuple:
    """The geometry of ``t`` counted in elements of its real dtype: a complex tensor's is
    that of its ``view_as_real`` (a trailing dim of 2 parts, strides and offset doubled)."""
    shape, strides, offset = _geometry(t)
    if t._dtype.is_complex:
        return (shape + (2,), tuple(2 * s for s in strides) + (1,), 2 * offset)
    return (shape, strides, offset)


def _retyping(base, view):
    """``None`` when ``view`` has its base's dtype; else (base is complex, view is
    complex) for a view that reinterprets complex elements as real pairs or back
    (view_as_real, view_as_complex, ``.real``, ``.imag`` and views of them)."""
    if view._dtype is base._dtype:
        return None
    base_complex, view_complex = base._dtype.is_complex, view._dtype.is_complex
    real = base._dtype.to_real() if base_complex else base._dtype
    if base_complex == view_complex or real is not (
        view._dtype.to_real() if view_complex else view._dtype
    ):
        raise NotImplementedError(
            f"an in-place write into a {view._dtype} view of a {base._dtype} tensor is not "
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
    base = view._base
    retyped = _retyping(base, view)
    geometries = _view_geometries(base, view, retyped)
    copy = CopySlices(edge(base), (node, 0), *geometries, retyped)
    base.grad_fn = copy
    base._requires_grad = True
    view.grad_fn = _view_node(base, geometries, retyped, (copy, 0))


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
    return _node_class(op)((), (*geometries, retyped), (base_edge,))


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
    view._view_version = view._version_[0]
    base = view._base
    if view._grad_fn is None or not base._requires_grad:
        # a view made without grad (no_grad mode, a base not requiring grad) or made a
        # leaf: no history to follow, as PyTorch's non-differentiable views
        return view._grad_fn
    retyped = _retyping(base, view)
    node = _view_node(base, _view_geometries(base, view, retyped), retyped, edge(base))
    if _anomaly_state.enabled:
        _anomaly.attach_trace(node)
    view._grad_fn = node
    view._requires_grad = True
    return node


# ------------------------------------------------------------------------ backward pass


def _root_grads(tensors, grad_tensors):
    roots = []
    for i, (tensor, grad) in enumerate(zip(tensors, grad_tensors)):
        if not tensor._requires_grad:
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
            if not t._requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
        targets = _Targets(inputs, capture)

    parents, seen = _graph(roots)
    needed = None if targets is None else _needed(parents, targets.nodes())
    dependencies = _count_dependencies(parents, needed)
    if _tasks.watched:
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
_from_array = _Tensor._from_array

#: the dtypes whose gradients travel as arrays (others stay Tensors all the way)
_ARRAY_DTYPES = frozenset((torch.float32, torch.float64))

#: NumPy dtype -> torch dtype of the gradients the engine wraps (not torch._dtype's
#: from_numpy_dtype: complex32 shares complex64's NumPy dtype there)
_DTYPES = {
    np.dtype(t.np_dtype): t
    for t in (
        torch.bool,
        torch.uint8,
        torch.int8,
        torch.int16,
        torch.int32,
        torch.int64,
        torch.float16,
        torch.bfloat16,
        torch.float32,
        torch.float64,
        torch.complex64,
        torch.complex128,
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
        if (
            tensor._requires_grad
            and type(tensor) is _Tensor
            and tensor._dtype in _ARRAY_DTYPES
            and tensor._np.size == 1
        ):
            array = tensor._np
            grad = np.empty(array.shape, array.dtype)
            grad.fill(1)
            node, nr = edge(tensor)
            return [(node, nr, grad)]
    roots = _root_grads(tensors, grad_tensors)
    return [
        (node, nr, grad._np if type(grad) is _Tensor and grad._dtype in _ARRAY_DTYPES else grad)
        for node, nr, grad in roots
    ]


def _dependencies(roots) -> dict:
    """For every node reachable from ``roots``: how many edges lead into it."""
    dependencies: dict = {}
    starts = {node for node, _, _ in roots}
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
    return _from_array(np.asarray(grad), _DTYPES[grad.dtype])  # a NumPy scalar


def _as_tensors(grad, node):
    if node._num_outputs == 1:
        return _as_tensor(grad)
    return [_as_tensor(g) for g in grad]


def _add_to_buffer(buffers, node, nr, grad) -> None:
    if node._num_outputs == 1:
        previous = buffers.get(node)
        if previous is None:
            buffers[node] = grad
        elif type(previous) is type(grad):
            buffers[node] = previous + grad
        else:  # an array and a Tensor (a sparse one, a subclass): add as Tensors
            buffers[node] = _as_tensor(previous) + _as_tensor(grad)
        return
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * node._num_outputs
    previous = slots[nr]
    if previous is None:
        slots[nr] = grad
    elif type(previous) is type(grad):
        slots[nr] = previous + grad
    else:
        slots[nr] = _as_tensor(previous) + _as_tensor(grad)


def _backward_on_arrays(tensors, grad_tensors, retain_graph) -> None:
    roots = _root_arrays(tensors, grad_tensors)
    dependencies = _dependencies(roots)
    buffers: dict = {}
    for node, nr, grad in roots:
        _add_to_buffer(buffers, node, nr, grad)
    roots = grad = None  # (an array's references count: see _FREE_REFS)
    if _tasks.watched:  # multi-grad hooks need to know which nodes this pass runs
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
        if not t._requires_grad:
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
    if _tasks.watched:
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
    ready = [node for node in buffers if node not in dependencies]
    state = _grad_state
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
                    if type(child_grad) is _Tensor and child_grad._dtype in _ARRAY_DTYPES:
                        child_grad = child_grad._np  # a plain dense Tensor: its array
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
    leaf = node.variable
    if leaf is None:
        return
    meta = _leaves.get(id(leaf))
    if node._extra is not None or (meta is not None and meta.hooks):
        _run_accumulator(node, _as_tensor(grad), None, False)
        return
    if type(grad) is not _ndarray:
        if isinstance(grad, _Tensor):
            node.accumulate(grad, False)
            return
        grad = np.asarray(grad)  # a NumPy scalar
    dtype = leaf._dtype
    if grad.dtype != dtype.np_dtype:  # as PyTorch: the gradient takes the leaf's dtype
        node.accumulate(_as_tensor(grad), False)
        return
    previous = leaf.grad
    if previous is None:  # the engine's own array (see _FREE_REFS): no copy
        leaf.grad = _from_array(_in_layout_of(leaf._np, grad), dtype)
    elif _adds_in_place(previous, grad):  # as PyTorch: accumulated in place
        np.add(previous._np, grad, out=previous._np)
        previous._bump_version()
    else:
        leaf.grad = previous + _from_array(grad, dtype)
