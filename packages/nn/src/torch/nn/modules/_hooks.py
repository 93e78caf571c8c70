"""Hook bookkeeping for modules: removable handles, the global hook tables, and the
module side of full backward hooks (identity autograd functions around a forward).

A full backward hook needs two graph nodes: one at the module's outputs, which sees the
gradients flowing into the module (``grad_output``), and one at its inputs, which sees the
gradients leaving it (``grad_input``). Both are identity functions built on
``torch.autograd.Function``.
"""

from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict
from typing import Any

import torch

__all__ = ["RemovableHandle"]


class RemovableHandle:
    """A handle that removes one hook from the dict(s) it was added to.

    Args:
        hooks_dict: the dict the hook was stored in.
        extra_dict: further dicts that carry the same id (e.g. the kwargs flags).

    Examples::

        >>> from collections import OrderedDict
        >>> hooks = OrderedDict()
        >>> handle = RemovableHandle(hooks)
        >>> hooks[handle.id] = print
        >>> handle.remove()
        >>> len(hooks)
        0
    """

    _next_id = itertools.count()

    def __init__(self, hooks_dict: Any, *, extra_dict: Any = None) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(RemovableHandle._next_id)
        if extra_dict is None:
            extra_dict = ()
        elif isinstance(extra_dict, dict):
            extra_dict = (extra_dict,)
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self) -> None:
        """Remove the hook (a second call does nothing)."""
        for ref in (self.hooks_dict_ref,) + self.extra_dict_ref:
            table = ref()
            if table is not None and self.id in table:
                del table[self.id]

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()

    def __getstate__(self):
        return (self.hooks_dict_ref(), self.id)

    def __setstate__(self, state) -> None:
        table = OrderedDict() if state[0] is None else state[0]
        self.hooks_dict_ref = weakref.ref(table)
        self.id = state[1]
        self.extra_dict_ref = ()


# ------------------------------------------------------------------ global hook tables

GLOBAL = {
    "forward_pre": OrderedDict(),
    "forward": OrderedDict(),
    "forward_with_kwargs": OrderedDict(),
    "forward_always_called": OrderedDict(),
    "backward": OrderedDict(),
    "backward_pre": OrderedDict(),
    "buffer_registration": OrderedDict(),
    "module_registration": OrderedDict(),
    "parameter_registration": OrderedDict(),
}
#: whether the global backward hooks are full ones (None while there are none)
GLOBAL_IS_FULL: list = [None]


# --------------------------------------------------------------- full backward hooks


def _autograd_function():
    function = getattr(torch.autograd, "Function", None)
    if function is None:
        raise RuntimeError(
            "full backward hooks on modules need torch.autograd.Function, which the "
            "installed torch-autograd does not provide yet; upgrade torch-autograd"
        )
    return function


_IDENTITY = {}


def _identity_function():
    """An autograd Function: identity forward, ``on_backward(grads)`` in backward."""
    if "cls" not in _IDENTITY:
        function = _autograd_function()

        class _HookIdentity(function):
            @staticmethod
            def forward(ctx, on_backward, *tensors):
                ctx.on_backward = on_backward
                return tuple(t.view_as(t) for t in tensors)

            @staticmethod
            def backward(ctx, *grads):
                return (None,) + tuple(ctx.on_backward(grads))

        _IDENTITY["cls"] = _HookIdentity
    return _IDENTITY["cls"]


class BackwardHook:
    """Wires a module's full backward (pre-)hooks around one call of its forward."""

    def __init__(self, module, user_hooks, user_pre_hooks) -> None:
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_positions: list[int] = []

    @staticmethod
    def _tensor_positions(values) -> list[int]:
        """Every tensor's position when any tensor requires grad (the others then get
        gradients too, as in PyTorch), else none."""
        tensors = [i for i, v in enumerate(values) if isinstance(v, torch.Tensor)]
        if any(values[i].requires_grad for i in tensors):
            return tensors
        return []

    def _wrap(self, values, on_backward):
        positions = self._tensor_positions(values)
        if not positions or not torch.is_grad_enabled():
            return values, positions
        wrapped = _identity_function().apply(on_backward, *(values[i] for i in positions))
        if isinstance(wrapped, torch.Tensor):
            wrapped = (wrapped,)
        values = list(values)
        for i, tensor in zip(positions, wrapped):
            values[i] = tensor
        return tuple(values), positions

    def setup_input_hook(self, args: tuple) -> tuple:
        """Wrap the tensor inputs; their backward calls the full backward hooks."""
        self.n_inputs = len(args)
        wrapped, self.input_positions = self._wrap(args, self._on_input_grads)
        return wrapped

    def setup_output_hook(self, output):
        """Wrap the tensor outputs; their backward captures ``grad_output`` and runs the
        backward pre-hooks."""
        single = isinstance(output, torch.Tensor)
        values = (output,) if single else output
        if not isinstance(values, tuple):
            return output
        self.n_outputs = len(values)
        wrapped, self.output_positions = self._wrap(values, self._on_output_grads)
        return wrapped[0] if single else wrapped

    def _scatter(self, grads, positions, size):
        full = [None] * size
        for i, g in zip(positions, grads):
            full[i] = g
        return tuple(full)

    def _on_output_grads(self, grads):
        grad_outputs = self._scatter(grads, self.output_positions, self.n_outputs)
        for hook in self.user_pre_hooks:
            result = hook(self.module, grad_outputs)
            if result is not None:
                grad_outputs = _check_grads(result, len(grad_outputs), "backward pre hook")
        self.grad_outputs = grad_outputs
        if not self.input_positions:
            # nothing upstream requires grad: the hooks run now, with no grad_input
            self._run_hooks(tuple(None for _ in range(self.n_inputs)))
        return tuple(grad_outputs[i] for i in self.output_positions)

    def _on_input_grads(self, grads):
        grad_inputs = self._scatter(grads, self.input_positions, self.n_inputs)
        grad_inputs = self._run_hooks(grad_inputs)
        return tuple(grad_inputs[i] for i in self.input_positions)

    def _run_hooks(self, grad_inputs):
        for hook in self.user_hooks:
            result = hook(self.module, grad_inputs, self.grad_outputs)
            if result is not None:
                grad_inputs = _check_grads(result, len(grad_inputs), "backward hook")
        return grad_inputs


def _check_grads(result, expected: int, what: str) -> tuple:
    if isinstance(result, torch.Tensor):
        result = (result,)
    if not isinstance(result, tuple) or len(result) != expected:
        raise RuntimeError(
            f"{what} returned an invalid number of grads; expected a tuple of "
            f"{expected} values, got "
            f"{len(result) if isinstance(result, tuple) else type(result).__name__}"
        )
    return result


# ----------------------------------------------------- non-full (deprecated) backward hooks
#
# ``register_backward_hook`` hooks see the gradients of the LAST autograd node of the
# module's forward: ``grad_input`` are the gradients w.r.t. that node's inputs, not the
# module's. Our graphs do not always have PyTorch's node structure (nn.Linear is one fused
# node here, an addmm on the transposed weight there; many activations are composites
# here, single nodes there), so each module class says how to present its last node as
# PyTorch's (``_non_full_hook_style``):
#
# - "node": our last node is PyTorch's (ReLU, Conv, custom modules): its post hook as is.
# - "input": PyTorch's last node takes the module input (elementwise activations): the
#   hook gets the gradient w.r.t. the input, caught by an identity around it.
# - "linear": PyTorch's ``addmm(bias, input, weight.t())`` (or ``mm``) for 2-d input, a
#   view of the output gradient to (-1, out_features) for other ranks.

_NON_FULL_WARNINGS = {
    "output": (
        "Using non-full backward hooks on a Module that does not return a single Tensor or "
        "a tuple of Tensors is deprecated and will be removed in future versions. This hook "
        "will be missing some of the grad_output. Please use register_full_backward_hook to "
        "get the documented behavior."
    ),
    "input": (
        "Using non-full backward hooks on a Module that does not take as input a single "
        "Tensor or a tuple of Tensors is deprecated and will be removed in future versions. "
        "This hook will be missing some of the grad_input. Please use "
        "register_full_backward_hook to get the documented behavior."
    ),
    "nested": (
        "Using a non-full backward hook when outputs are nested in python data structure is "
        "deprecated and will be removed in future versions. This hook will be missing some "
        "grad_output."
    ),
    "outputs": (
        "Using a non-full backward hook when outputs are generated by different autograd "
        "Nodes is deprecated and will be removed in future versions. This hook will be "
        "missing some grad_output. Please use register_full_backward_hook to get the "
        "documented behavior."
    ),
    "nodes": (
        "Using a non-full backward hook when the forward contains multiple autograd Nodes is "
        "deprecated and will be removed in future versions. This hook will be missing some "
        "grad_input. Please use register_full_backward_hook to get the documented behavior."
    ),
}

_LEAF = object()  # stands for a leaf's gradient accumulator in the node comparison


def _first_tensor(value):
    """The tensor whose node carries the hooks: the first one, looking into the first item
    of sequences and the first tensor value of dicts (None when there is none)."""
    for _ in range(100):
        if isinstance(value, torch.Tensor):
            return value
        if isinstance(value, dict):
            value = next((v for v in value.values() if isinstance(v, torch.Tensor)), None)
        elif isinstance(value, (tuple, list)) and value:
            value = value[0]
        else:
            return None
    return None


class NonFullBackwardHook:
    """Wires a module's deprecated (non-full) backward hooks around one call."""

    def __init__(self, module, hooks) -> None:
        self.module = module
        self.hooks = hooks
        target = module
        while hasattr(target, "_non_full_hook_target"):
            nxt = target._non_full_hook_target()
            if nxt is None or nxt is target:
                break
            target = nxt
        self.target = target
        self.style = getattr(target, "_non_full_hook_style", "node")
        if self.style == "input" and getattr(target, "inplace", False):
            self.style = "node"  # an identity around an input modified in place cannot work
        self.target_input = None
        self.grad_output = None
        self._pending = None

    # -- before forward: the "input" style needs an identity around the target's input
    def setup(self, args: tuple) -> tuple:
        if self.style != "input":
            return args
        if self.target is self.module:
            return self._wrap_input(args)
        handle = self.target.register_forward_pre_hook(self._child_pre_hook)
        self._pending = handle
        return args

    def _child_pre_hook(self, child, args):
        self.release()
        return self._wrap_input(args)

    def release(self) -> None:
        if self._pending is not None:
            self._pending.remove()
            self._pending = None

    def _wrap_input(self, args: tuple) -> tuple:
        if not args or not isinstance(args[0], torch.Tensor):
            self.style = "node"
            return args
        self.target_input = args[0]
        if not (args[0].requires_grad and torch.is_grad_enabled()):
            return args
        (wrapped,) = _identity_function().apply(self._on_input_grad, args[0])
        return (wrapped,) + tuple(args[1:])

    def _on_input_grad(self, grads):
        grad_input = (grads[0],)
        for hook in self.hooks:
            result = hook(self.module, grad_input, self.grad_output)
            if result is not None:
                grad_input = _check_grads(result, 1, "backward hook")
        return grad_input

    # -- after forward: hooks on the last node, and PyTorch's deprecation warnings
    def attach(self, args: tuple, output) -> None:
        self.release()
        var = _first_tensor(output)
        grad_fn = None if var is None else var.grad_fn
        if grad_fn is None:
            return
        if self.style == "input" and self.target_input is not None:
            grad_fn.register_prehook(self._capture_grad_output)
        elif self.style == "linear" and _is_fused_linear(grad_fn):
            self._attach_linear(grad_fn)
        else:
            self.style = "node"
            for hook in self.hooks:
                grad_fn.register_hook(self._node_hook(hook))
        self._warn(args, output, grad_fn)

    def _capture_grad_output(self, grad_outputs):
        self.grad_output = tuple(grad_outputs)

    def _node_hook(self, hook):
        module = self.module

        def on_node(grad_inputs, grad_outputs):
            return hook(module, tuple(grad_inputs), tuple(grad_outputs))

        return on_node

    def _attach_linear(self, grad_fn) -> None:
        has_bias = getattr(self.target, "bias", None) is not None
        module = self.module

        def as_torch(grads):  # ours (input, weight, bias) -> addmm's (bias, input, weight.T)
            grad_x, grad_w, grad_b = grads
            grad_wt = None if grad_w is None else grad_w.t()
            return (grad_b, grad_x, grad_wt) if has_bias else (grad_x, grad_wt)

        def as_ours(grads):
            grads = tuple(grads)
            if has_bias:
                grad_b, grad_x, grad_wt = grads
            else:
                (grad_x, grad_wt), grad_b = grads, None
            return (grad_x, None if grad_wt is None else grad_wt.t(), grad_b)

        def post_hook(hook):
            def on_node(grad_inputs, grad_outputs):
                if grad_outputs[0].dim() != 2:
                    return None  # served by the pre-hook below
                shown = as_torch(tuple(grad_inputs))
                result = hook(module, shown, tuple(grad_outputs))
                if result is None:
                    return None
                return as_ours(_check_grads(result, len(shown), "backward hook"))

            return on_node

        def pre_hook(grad_outputs):
            (grad,) = grad_outputs
            if grad is None or grad.dim() == 2:
                return None
            flat = grad.reshape(-1, grad.shape[-1])
            changed = False
            for hook in self.hooks:
                result = hook(module, (flat,), (grad,))
                if result is not None:
                    (flat,) = _check_grads(result, 1, "backward hook")
                    changed = True
            return (flat.reshape(grad.shape),) if changed else None

        grad_fn.register_prehook(pre_hook)
        for hook in self.hooks:
            grad_fn.register_hook(post_hook(hook))

    def _warn(self, args, output, grad_fn) -> None:
        import warnings

        def warn(kind):
            warnings.warn(_NON_FULL_WARNINGS[kind], FutureWarning, stacklevel=4)

        outputs = (output,) if isinstance(output, torch.Tensor) else output
        if not (isinstance(outputs, tuple) and all(isinstance(o, torch.Tensor) for o in outputs)):
            return warn("output")
        if not all(isinstance(a, torch.Tensor) for a in args):
            return warn("input")
        output_nodes = {o.grad_fn for o in outputs if o.grad_fn is not None}
        if not output_nodes or (len(output_nodes) == 1 and grad_fn not in output_nodes):
            return warn("nested")
        if len(output_nodes) > 1:
            return warn("outputs")
        input_nodes = {a.grad_fn for a in args if a.grad_fn is not None}
        if input_nodes != self._last_node_inputs(grad_fn):
            warn("nodes")

    def _last_node_inputs(self, grad_fn) -> set:
        """The nodes feeding PyTorch's last node (gradient accumulators count as leaves)."""
        if self.style == "linear":
            return {_LEAF}  # the transposed weight's node is never a module input
        if self.style == "input":
            node = self.target_input.grad_fn
            return {_LEAF if node is None else node}
        return {node for node, _ in grad_fn.next_functions}


def _is_fused_linear(grad_fn) -> bool:
    # our nn.Linear records one node over (input, weight, bias); older cores compose it
    return type(grad_fn).__name__ == "AddmmBackward0" and len(grad_fn.next_functions) == 3
