"""Activation checkpointing: trade compute for memory by not keeping what a part of the
forward pass saves for backward, and running that part again when backward needs it.

Two ways, as in PyTorch:

- ``use_reentrant=False`` (recommended): the part runs under saved-tensor hooks
  (:class:`torch.autograd.graph.saved_tensors_hooks`) that keep a placeholder instead of
  each saved tensor; the first time backward unpacks one, the part is run again and the
  placeholders are filled from that run. The graph is the ordinary one, so
  ``torch.autograd.grad``, keyword arguments and inputs that need no grad all work.
- ``use_reentrant=True``: the part runs without grad inside a custom autograd
  :class:`~torch.autograd.Function` whose backward runs it again with grad and
  backpropagates through it (a backward within backward).

Either way the random state of the forward is restored for the recomputation
(``preserve_rng_state=True``), so dropout draws the same mask twice, and the autocast
state of the forward is restored too.
"""

from __future__ import annotations

import contextlib
import enum
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import torch
from torch.autograd.graph import saved_tensors_hooks

__all__ = [
    "checkpoint",
    "checkpoint_sequential",
    "CheckpointError",
    "CheckpointFunction",
    "check_backward_validity",
    "detach_variable",
    "get_device_states",
    "set_device_states",
    "noop_context_fn",
    "set_checkpoint_early_stop",
    "DefaultDeviceType",
    "set_checkpoint_debug_enabled",
    "CheckpointPolicy",
    "SelectiveCheckpointContext",
    "create_selective_checkpoint_contexts",
    "SAC_IGNORED_OPS",
]

_REENTRANT_UNSET_WARNING = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
    "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
    "exception. use_reentrant=False is recommended, but if you need to preserve the current "
    "default behavior, you can pass use_reentrant=True. Refer to docs for more details on "
    "the differences between the two variants."
)
_SEQUENTIAL_REENTRANT_UNSET_WARNING = (
    "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be "
    "passed explicitly. In version 2.9 we will raise an exception if use_reentrant is not "
    "passed. use_reentrant=False is recommended, but if you need to preserve the current "
    "default behavior, you can pass use_reentrant=True. Refer to docs for more details on "
    "the differences between the two variants."
)


class CheckpointError(RuntimeError):
    """The recomputation of a checkpointed part differs from its forward pass."""


class CheckpointPolicy(enum.Enum):
    """What selective checkpointing does with one op's output (kept for the names:
    selective checkpointing itself is not built, see
    :func:`create_selective_checkpoint_contexts`)."""

    MUST_SAVE = 0
    PREFER_SAVE = 1
    MUST_RECOMPUTE = 2
    PREFER_RECOMPUTE = 3
    MUST_CPU_OFFLOAD = 4
    PREFER_CPU_OFFLOAD = 5


class SelectiveCheckpointContext:
    """The context a selective-checkpoint policy function receives."""

    def __init__(self, *, is_recompute: bool) -> None:
        self.is_recompute = is_recompute


#: ops selective checkpointing never saves (none: the feature is not built)
SAC_IGNORED_OPS: set = set()


def create_selective_checkpoint_contexts(policy_fn_or_list, allow_cache_entry_mutation=False):
    """Not built here: it needs per-op dispatch modes that this project does not have."""
    raise NotImplementedError(
        "selective activation checkpointing (create_selective_checkpoint_contexts) is not "
        "implemented in this project; checkpoint the whole function instead"
    )


class DefaultDeviceType:
    """The device type whose random state checkpoint preserves besides the CPU's."""

    _default_device_type = "cpu"

    @staticmethod
    def set_device_type(device: str = "cuda") -> None:
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type() -> str:
        return DefaultDeviceType._default_device_type


def noop_context_fn():
    """The default ``context_fn``: two contexts that do nothing."""
    return contextlib.nullcontext(), contextlib.nullcontext()


_debug_enabled: bool | None = None
_early_stop_enabled = True


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None):
    """Within the block, ``debug`` of every checkpoint is ``enabled`` (None: each call's)."""
    global _debug_enabled
    previous, _debug_enabled = _debug_enabled, enabled
    try:
        yield
    finally:
        _debug_enabled = previous


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Within the block, whether recomputation may stop once every saved tensor is back
    (ours always runs the whole function again; the setting is kept for the API)."""
    global _early_stop_enabled
    previous, _early_stop_enabled = _early_stop_enabled, enable
    try:
        yield
    finally:
        _early_stop_enabled = previous


def detach_variable(inputs: tuple) -> tuple:
    """``inputs`` with each tensor detached, keeping its ``requires_grad``."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(
            "Only tuple of tensors is supported. Got Unsupported input type: "
            + type(inputs).__name__
        )
    out = []
    for value in inputs:
        if not isinstance(value, torch.Tensor):
            out.append(value)
            continue
        detached = value.detach()
        detached.requires_grad = value.requires_grad
        out.append(detached)
    return tuple(out)


def check_backward_validity(inputs: Iterable[Any]) -> None:
    """Warn when no tensor among ``inputs`` requires grad (the part gets no gradient)."""
    if not any(isinstance(x, torch.Tensor) and x.requires_grad for x in inputs):
        warnings.warn(
            "None of the inputs have requires_grad=True. Gradients will be None", stacklevel=3
        )


def get_device_states(*args) -> tuple[list, list]:
    """The random states of the non-CPU devices of ``args``' tensors (none here: the CPU
    is the only device with tensors)."""
    return [], []


def set_device_states(devices, states, *, device_type=None) -> None:
    """Restore what :func:`get_device_states` returned (nothing to restore here)."""


class _ForwardState:
    """What a recomputation must see as the forward saw it: the random state and the
    autocast state."""

    def __init__(self, preserve_rng_state: bool) -> None:
        self.rng_state = torch.get_rng_state() if preserve_rng_state else None
        self.autocast = (
            torch.is_autocast_enabled("cpu"),
            torch.get_autocast_dtype("cpu"),
            torch.is_autocast_cache_enabled(),
        )

    @contextlib.contextmanager
    def restored(self):
        """Run a block with the forward's random state (the caller's is put back after)
        and autocast state."""
        saved_rng = torch.get_rng_state() if self.rng_state is not None else None
        if self.rng_state is not None:
            torch.set_rng_state(self.rng_state)
        enabled, dtype, cache = self.autocast
        try:
            with torch.autocast("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache):
                yield
        finally:
            if saved_rng is not None:
                torch.set_rng_state(saved_rng)


# ------------------------------------------------------------------------ reentrant


class CheckpointFunction(torch.autograd.Function):
    """The reentrant checkpoint: forward without grad, backward by running the function
    again with grad and backpropagating through that run."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.forward_state = _ForwardState(preserve_rng_state)
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
        ctx.inputs = [None if isinstance(a, torch.Tensor) else a for a in args]
        ctx.save_for_backward(*(args[i] for i in ctx.tensor_indices))
        with torch.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        inputs = list(ctx.inputs)
        for index, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[index] = tensor
        inputs = detach_variable(tuple(inputs))
        with ctx.forward_state.restored(), torch.enable_grad():
            outputs = ctx.run_function(*inputs)
        if isinstance(outputs, torch.Tensor):
            outputs = (outputs,)
        pairs = [
            (out, grad)
            for out, grad in zip(outputs, grads)
            if isinstance(out, torch.Tensor) and out.requires_grad
        ]
        if not pairs:
            raise RuntimeError(
                "none of output has requires_grad=True, this checkpoint() is not necessary"
            )
        torch.autograd.backward([p[0] for p in pairs], [p[1] for p in pairs])
        input_grads = tuple(x.grad if isinstance(x, torch.Tensor) else None for x in inputs)
        return (None, None, *input_grads)


# -------------------------------------------------------------------- non-reentrant


class _Recomputation:
    """One checkpointed call: placeholders for what its forward saved, filled by running
    the function again the first time backward asks for one."""

    def __init__(self, function, args, kwargs, forward_state, determinism_check, debug) -> None:
        self.function, self.args, self.kwargs = function, args, kwargs
        self.forward_state = forward_state
        self.check_metadata = determinism_check == "default"
        self.debug = debug
        self.metadata: list[dict] = []  # of each tensor the forward saved, in order
        self.recomputed: list = []

    def pack(self, tensor):
        self.metadata.append(_metadata(tensor))
        return len(self.metadata) - 1

    def unpack(self, index: int):
        if index >= len(self.recomputed) or self.recomputed[index] is None:
            self._recompute()
        tensor = self.recomputed[index]
        self.recomputed[index] = None  # a later backward (retain_graph) recomputes again
        return tensor

    def _recompute(self) -> None:
        saved: list = []

        def keep(tensor):
            saved.append(tensor.detach())
            return tensor

        args = detach_variable(tuple(self.args))
        with self.forward_state.restored(), torch.enable_grad():
            with saved_tensors_hooks(keep, lambda tensor: tensor):
                self.function(*args, **self.kwargs)
        if len(saved) < len(self.metadata):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.metadata)}\n"
                f"Number of tensors saved during recomputation: {len(saved)}"
            )
        saved = saved[: len(self.metadata)]
        if self.check_metadata:
            self._check(saved)
        self.recomputed = saved

    def _check(self, saved: list) -> None:
        mismatches = [
            (i, before, _metadata(tensor))
            for i, (before, tensor) in enumerate(zip(self.metadata, saved))
            if before != _metadata(tensor)
        ]
        if mismatches:
            lines = "".join(
                f"tensor at position {i}:\nsaved metadata: {before}\nrecomputed metadata: {after}\n"
                for i, before, after in mismatches
            )
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{lines}"
            )


def _metadata(tensor) -> dict:
    return {"shape": tensor.shape, "dtype": tensor.dtype, "device": tensor.device}


def _checkpoint_without_reentrant(
    function, preserve_rng_state, context_fn, determinism_check, debug, *args, **kwargs
):
    if determinism_check not in ("default", "none"):
        raise ValueError(
            f"determinism_check should be one of ['default', 'none'], but got {determinism_check}"
        )
    recomputation = _Recomputation(
        function,
        args,
        kwargs,
        _ForwardState(preserve_rng_state),
        determinism_check,
        debug if _debug_enabled is None else _debug_enabled,
    )
    forward_context, _recompute_context = context_fn()
    with saved_tensors_hooks(recomputation.pack, recomputation.unpack), forward_context:
        return function(*args, **kwargs)


# ---------------------------------------------------------------------------- public


def checkpoint(
    function,
    *args,
    use_reentrant: bool | None = None,
    context_fn: Callable[[], tuple] = noop_context_fn,
    determinism_check: str = "default",
    debug: bool = False,
    early_stop: bool = True,
    **kwargs,
):
    """Run ``function(*args, **kwargs)`` without keeping the tensors it saves for
    backward; backward runs it again to get them.

    Args:
        function: the part of the model to checkpoint.
        args: its arguments.
        use_reentrant (bool): ``False`` (recommended) keeps placeholders through
            saved-tensor hooks; ``True`` runs the part without grad inside a custom
            autograd Function (no keyword arguments, no ``torch.autograd.grad``). Not
            passing it warns, as in PyTorch 2.13, and means ``True``.
        context_fn: returns two context managers, around the forward and around the
            recomputation (``use_reentrant=False`` only). Default: two no-ops.
        determinism_check (str): ``"default"`` compares the shape, dtype and device of
            each recomputed tensor with the forward's (a :class:`CheckpointError` when
            they differ); ``"none"`` does not.
        debug (bool): kept for PyTorch's signature. Default: False.
        early_stop (bool): kept for PyTorch's signature. Default: True.
        preserve_rng_state (bool, keyword): run the recomputation with the random state
            of the forward (same dropout masks). Default: True.
        kwargs: keyword arguments of ``function`` (``use_reentrant=False`` only).

    Examples::

        >>> from torch.utils.checkpoint import checkpoint
        >>> x = torch.ones(3, requires_grad=True)
        >>> y = checkpoint(lambda t: (t * 2).sin(), x, use_reentrant=False)
        >>> y.sum().backward()
        >>> x.grad.shape
        torch.Size([3])
    """
    if use_reentrant is None:
        warnings.warn(_REENTRANT_UNSET_WARNING, stacklevel=2)
        use_reentrant = True
    preserve_rng_state = kwargs.pop("preserve_rng_state", True)
    if use_reentrant:
        if context_fn is not noop_context_fn or debug:
            raise ValueError(
                "Passing `context_fn` or `debug` is only supported when use_reentrant=False."
            )
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    return _checkpoint_without_reentrant(
        function, preserve_rng_state, context_fn, determinism_check, debug, *args, **kwargs
    )


def checkpoint_sequential(functions, segments: int, input, use_reentrant=None, **kwargs):
    """Run ``functions`` (a list of modules or callables, or an ``nn.Sequential``) one
    after the other on ``input``, checkpointing each of ``segments`` chunks but the last.

    Args:
        functions: the layers, run in order.
        segments (int): how many chunks to split them into.
        input: the input of the first layer.
        use_reentrant (bool): as in :func:`checkpoint` (not passing it warns).
        preserve_rng_state (bool, keyword): as in :func:`checkpoint`. Default: True.
    """
    if use_reentrant is None:
        warnings.warn(_SEQUENTIAL_REENTRANT_UNSET_WARNING, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if callable(getattr(functions, "children", None)):  # an nn.Sequential
        functions = list(functions.children())
    functions = list(functions)
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(
            _run_range(functions, start, end),
            input,
            use_reentrant=use_reentrant,
            preserve_rng_state=preserve,
        )
    return _run_range(functions, end + 1, len(functions) - 1)(input)


def _run_range(functions: list, start: int, end: int):
    def run(input):
        for function in functions[start : end + 1]:
            input = function(input)
        return input

    return run
