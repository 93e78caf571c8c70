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
