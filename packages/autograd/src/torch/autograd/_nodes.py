"""The nodes of the graph: one per recorded op (``Node``, ``MultiOutputNode``), one per
leaf (``AccumulateGrad``), their classes per op, and the edges that link them."""

from __future__ import annotations

import dis
import re
import weakref
from collections import namedtuple

import numpy as np

import torch
from torch._interface import ops
from torch._interface import tensors as _tensors

from . import _saved_hooks
from ._derivatives import DERIVATIVES
from ._derivatives.arrays import ARRAY_FORMULAS
from ._hooks import HookDict, _leaves, add_hook, leaf_meta

__all__ = ["Node", "MultiOutputNode", "AccumulateGrad", "edge"]

_Tensor = torch.Tensor
# core's tensor fields, read through its interface: bound once, for the hot paths
# (recording reads what it needs of each input in one ``history`` call)
_history, _STALE_VIEW = _tensors.history, _tensors.STALE_VIEW
_array, _dtype_of, _version_counter = _tensors.array, _tensors.dtype_of, _tensors.version_counter
_requires_grad, _grad_fn, _view_base = _tensors.requires_grad, _tensors.grad_fn, _tensors.view_base
# ... and written through it
_set_history, _bump_version = _tensors.set_history, _tensors.bump_version
_set_requires_grad = _tensors.set_requires_grad
_set_version_counter = _tensors.set_version_counter
_wrap, _from_array = _tensors.wrap, _tensors.from_array
_grad_mode = _tensors.grad_mode()

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
#: makes a formula's namedtuple of saved arguments from the recorded tuple (what
#: ``_make`` does, without its Python frame: backward builds one per node)
_new_tuple = tuple.__new__


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
    #: the type the formulas get the op's saved arguments as: a namedtuple of the names its
    #: OpDef declares (``saved.alpha``), made when backward runs (recording stays as lean
    #: as before); ``None``: the tuple core recorded, as it is
    _saved_type = None
    #: ``_saved_type`` where some Tensor formula of the op reads its saved arguments, else
    #: ``None`` (backward then passes the recorded tuple: no namedtuple made per node)
    _saved_named = None
    #: the same for the array formulas, and which of them read it (a binary op builds the
    #: namedtuple only when a formula that runs reads it: ``add`` of a constant does not)
    _array_saved_named = None
    _array_reads_saved = ()

    def __init__(self, inputs, saved, edges, versions=(), out=None):
        # NOTE: Engine.record sets these fields itself (no frame for this __init__ on the
        # hottest path): keep the two in step
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
        if self._saved_named is not None:
            saved = _new_tuple(self._saved_named, saved)
        if derivative.variadic:
            formula = derivative.formulas[0]
            return tuple(
                None if edge[0] is None else formula(grad, inputs, saved, index)
                for index, edge in enumerate(self.next_functions)
            )
        if self._out is not None:  # the formulas read the saved result too
            result = self._saved_output()
            if _grad_mode.enabled:  # create_graph: the result as an output of this node
                _set_history(result, self)
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
            counter = _version_counter(inputs[index])
            if (0 if counter is None else counter[0]) != expected:
                self._check_versions()
        saved, edges, formulas = self._saved, self.next_functions, self._array_formulas
        named = self._array_saved_named
        if out is not None:
            if named is not None:
                saved = _new_tuple(named, saved)
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
            if named is not None:
                reads = self._array_reads_saved
                if (reads[0] and first[0] is not None) or (reads[1] and second[0] is not None):
                    saved = _new_tuple(named, saved)
            return (
                None if first[0] is None else formulas[0](grad, inputs, saved),
                None if second[0] is None else formulas[1](grad, inputs, saved),
            )
        if named is not None:
            saved = _new_tuple(named, saved)
        if len(edges) == 1:
            return (formulas[0](grad, inputs, saved),)
        return tuple(
            None if edge[0] is None else formula(grad, inputs, saved)
            for formula, edge in zip(formulas, edges)
        )

    def _saved_output(self):
        """The saved result as a Tensor sharing its memory and version counter, made
        afresh so that the node never references a tensor that references it back."""
        return _rebuilt(self._out)

    def _check_input_versions(self) -> None:
        inputs = self._inputs
        for index, expected in self._versions:
            x = inputs[index]
            counter = _version_counter(x)
            current = 0 if counter is None else counter[0]
            if current != expected:
                raise RuntimeError(
                    _modified_message(x.type(), x.shape, x.grad_fn, current, expected)
                )

    def _check_versions(self) -> None:
        self._check_input_versions()
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
        if _grad_mode.enabled and outputs is not None:
            # create_graph: the saved outputs as outputs of this node
            for nr, result in enumerate(outputs):
                _set_history(result, self)
                self._output_refs.append((weakref.ref(result), nr))
        grads = list(grads)
        saved = self._saved
        if self._saved_named is not None:
            saved = _new_tuple(self._saved_named, saved)
        return tuple(
            None if edge[0] is None else formula(grads, inputs, saved, outputs)
            for formula, edge in zip(self._derivative.formulas, self.next_functions)
        )

    __call__ = apply

    def _saved_outputs(self):
        """The saved outputs, None when the formulas read none (``reads_outputs``)."""
        if self._out is None:
            return None
        return tuple([_rebuilt(out) for out in self._out])

    def _check_versions(self) -> None:
        self._check_input_versions()
        for out in self._out or ():
            if type(out) is tuple and out[2][0] != out[3]:
                result = _wrap(out[0], out[1])
                raise RuntimeError(
                    _modified_message(result.type(), result.shape, self, out[2][0], out[3])
                )


def _rebuilt(out):
    """A saved result (``(array, dtype, version counter, version)``, or packed by
    saved-tensor hooks) as a Tensor sharing its memory and version counter."""
    if type(out) is _saved_hooks.Packed:
        return _saved_hooks.unpack(out)
    array, dtype, counter, _ = out
    result = _wrap(array, dtype)
    _set_version_counter(result, counter)
    return result


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
    if type(output) is tuple:  # a multi-output node keeps each output it reads
        if node._out is not None:
            node._out = tuple(_saved_hooks.pack(o, hooks) for o in output)
    elif node._out is not None:
        node._out = _saved_hooks.pack(output, hooks)
    node._get_extra().packed = True


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
        if not create_graph and _requires_grad(grad):
            grad = grad.detach()
        if grad.dtype != leaf.dtype:  # as PyTorch: the gradient takes the leaf's dtype
            grad = _cast(grad, leaf.dtype)
        previous = leaf.grad
        if previous is None:
            if type(grad) is not _Tensor:  # sparse gradients and subclasses: as they are
                leaf.grad = grad
            elif create_graph:  # a differentiable copy
                leaf.grad = grad.contiguous() if not grad.is_contiguous() else grad.clone()
            elif not isinstance(_array(leaf), np.ndarray):  # a device array (CuPy's):
                leaf.grad = _from_array(_array(grad).copy(), _dtype_of(grad))  # copied there
            else:  # a copy of its own (an optimizer updates it in place)
                array = _empty_in_layout_of(_array(leaf))
                np.copyto(array, _array(grad))
                leaf.grad = _from_array(_tensors.on_device_of(leaf, array), _dtype_of(grad))
        elif not create_graph and type(grad) is _Tensor:
            array = _array(grad)
            into = _in_place_target(previous, array)
            if into is not None:  # a write: its version moves on, as after any in-place op
                np.add(into, array, out=into)
                _bump_version(previous)
            else:
                leaf.grad = _sum_of_gradients(previous, grad, create_graph)
        else:
            leaf.grad = _sum_of_gradients(previous, grad, create_graph)

    def release(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {id(self):#x}>"


def _sum_of_gradients(previous, grad, create_graph: bool):
    """``.grad`` after adding ``grad`` where either is sparse (or a subclass), as PyTorch's
    AccumulateGrad: a dense gradient onto a sparse one gives a new dense tensor (sparse +
    dense is refused, dense + sparse is not); otherwise the sum is in place (a sparse sum
    concatenates the entries, uncoalesced), or out of place under ``create_graph``."""
    if previous.is_sparse and not grad.is_sparse:
        return grad + previous
    if create_graph or not (previous.is_sparse or grad.is_sparse):
        return previous + grad
    with torch.no_grad():
        return previous.add_(grad)


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


def _in_place_target(previous, array):
    """The array of ``previous`` (a leaf's ``.grad``) when a gradient ``array`` can be added
    into it in place: a plain dense tensor of the same shape and dtype (as in PyTorch, also
    one that an earlier ``create_graph`` backward left in a graph); else None."""
    if type(previous) is not _Tensor:
        return None
    into = _array(previous)
    if into.shape == array.shape and into.dtype == array.dtype:
        flags = into.flags  # (a new flags object per read: read once)
        if (flags.c_contiguous or _dense(into)) and flags.writeable:
            return into
    return None


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


def _node_class(op_name: str, saved_names=None) -> type:
    """The node class of an op, named as PyTorch names it (``AddBackward0``); one per op
    (ops sharing a name differ in their array formulas). ``saved_names`` (default: those
    the registered op declares) name the entries of the saved tuple for the formulas."""
    cls = _node_classes.get(op_name)
    if cls is None:
        derivative = DERIVATIVES[op_name]
        namespace = {"__slots__": ()}
        formulas = ARRAY_FORMULAS.get(op_name)
        if formulas is not None and not derivative.variadic:
            namespace["_array_formulas"] = formulas
        namespace["_derivative"] = derivative
        names = saved_names
        if names is None:
            names = ops[op_name].saved if op_name in ops else ()
        if names:
            named = namedtuple(f"{derivative.node_name}Saved", names)
            namespace["_saved_type"] = named
            if any(map(_reads_saved, derivative.formulas)):
                namespace["_saved_named"] = named
            reads = tuple(map(_reads_saved, formulas or ()))
            if any(reads):
                namespace["_array_saved_named"] = named
                namespace["_array_reads_saved"] = reads
        base = Node
        if derivative.outputs > 1:
            namespace["_num_outputs"] = derivative.outputs
            base = MultiOutputNode
        if derivative.node_name == "NotImplemented":
            namespace["name"] = _not_implemented_name
        cls = _node_classes[op_name] = type(derivative.node_name, (base,), namespace)
    return cls


def _reads_saved(formula) -> bool:
    """Whether ``formula(grad, inputs, saved, ...)`` may read ``saved``: False only for a
    plain function whose code never touches its third parameter (wrappers, closures over
    it and other callables count as reading it)."""
    code = getattr(formula, "__code__", None)
    if code is None or code.co_argcount < 3:
        return True
    name = code.co_varnames[2]
    if name in code.co_cellvars:
        return True
    for instruction in dis.get_instructions(code):
        if "FAST" in instruction.opname:
            value = instruction.argval
            if value == name or (type(value) is tuple and name in value):
                return True
    return False


def edge(x):
    """The edge of the graph that a tensor argument contributes: (node, output index)."""
    return edge_from(x, _history(x))


def edge_from(x, fn):
    """:func:`edge` of ``x`` whose history ``fn`` was read already (the recording hot path
    handles the common case, a single-output node, itself and calls this for the rest)."""
    if fn is False:
        return _NO_EDGE
    if fn is _STALE_VIEW:
        # its base was written in place since its node was made (rare: imported here, as
        # _view_history builds on this module)
        from ._view_history import _refresh_view

        fn = _refresh_view(x)
    if fn is None:
        meta = _leaves.get(id(x))
        if meta is not None and meta.edge is not None and meta.tensor() is x:
            return meta.edge
        return _leaf_edge(x)
    if fn._num_outputs == 1:
        return (fn, 0)
    return (fn, fn._output_nr(x))
