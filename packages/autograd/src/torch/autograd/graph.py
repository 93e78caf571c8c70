"""The recorded graph as users see it: the :class:`Node` type of every ``grad_fn``, edges
(:func:`get_gradient_edge`), and hooks on the tensors that nodes save for backward
(:class:`saved_tensors_hooks`, :class:`save_on_cpu`)."""

from __future__ import annotations

import abc
import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

import torch
from torch._interface import tensors as _tensors

from . import _backward, _nodes, _saved_hooks
from ._nodes import _NodeBase, edge

__all__ = [
    "Node",
    "GradientEdge",
    "get_gradient_edge",
    "increment_version",
    "saved_tensors_hooks",
    "save_on_cpu",
    "disable_saved_tensors_hooks",
    "register_multi_grad_hook",
]


class Node(abc.ABC):
    """The type of every graph node (``tensor.grad_fn``, ``AccumulateGrad``, the nodes of
    custom Functions): ``isinstance(t.grad_fn, torch.autograd.graph.Node)`` holds.

    Examples::

        >>> x = torch.ones(2, requires_grad=True)
        >>> isinstance((x * 2).grad_fn, torch.autograd.graph.Node)
        True
    """

    @abc.abstractmethod
    def name(self) -> str:
        """The node's name, as ``MulBackward0``."""

    @property
    @abc.abstractmethod
    def next_functions(self) -> tuple:
        """``(node, output_nr)`` per input of the op: where its gradient goes next."""

    @property
    @abc.abstractmethod
    def metadata(self) -> dict:
        """A dict for the user's own annotations."""

    @abc.abstractmethod
    def register_hook(self, fn: Callable) -> Any:
        """Call ``fn(grad_inputs, grad_outputs)`` after the node has run."""

    @abc.abstractmethod
    def register_prehook(self, fn: Callable) -> Any:
        """Call ``fn(grad_outputs)`` before the node runs."""


Node.register(_NodeBase)


class GradientEdge(NamedTuple):
    """Where a tensor's gradient enters the graph: a node and which of its outputs."""

    node: Any
    output_nr: int
    ownership_token: Any = None


def get_gradient_edge(tensor: torch.Tensor) -> GradientEdge:
    """The graph edge of ``tensor``: its ``grad_fn`` and output number, or the
    ``AccumulateGrad`` node of a leaf.

    Args:
        tensor (Tensor): a tensor that requires grad.

    Examples::

        >>> x = torch.ones(2, requires_grad=True)
        >>> torch.autograd.graph.get_gradient_edge(x * 2).node.name()
        'MulBackward0'
    """
    if not tensor.requires_grad:
        raise RuntimeError(
            "It is not possible to get the gradient edge for a Tensor that does not require "
            "gradients"
        )
    node, output_nr = edge(tensor)
    return GradientEdge(node, output_nr)


def increment_version(tensor: torch.Tensor | Iterable[torch.Tensor]) -> None:
    """Count an in-place change the framework did not see (say, through ``.numpy()``):
    nodes that saved the tensor then refuse to use it in backward.

    Args:
        tensor (Tensor or iterable of Tensor): the tensors to mark as modified.

    Examples::

        >>> x = torch.ones(2, requires_grad=True)
        >>> y = x * 1
        >>> z = (y * y).sum()
        >>> torch.autograd.graph.increment_version(y)
        >>> try:
        ...     z.backward()
        ... except RuntimeError as error:
        ...     print("modified by an inplace operation" in str(error))
        True
    """
    tensors = (tensor,) if isinstance(tensor, torch.Tensor) else tuple(tensor)
    for t in tensors:
        _tensors.bump_version(t)


class saved_tensors_hooks:  # noqa: N801 - PyTorch's public name
    """Context manager: the tensors that ops save for backward while it is active are
    handed to ``pack_hook``, which returns what to keep instead; backward gets them back
    through ``unpack_hook``. Only the innermost pair applies; hooks are per thread.

    Args:
        pack_hook (Callable): ``pack_hook(tensor) -> Any``, called when an op saves
            ``tensor``; it must not modify ``tensor`` in place.
        unpack_hook (Callable): ``unpack_hook(packed) -> Tensor``, called each time
            backward needs the saved tensor; it must return a tensor with the value of
            the one saved.

    Examples::

        >>> x = torch.ones(3, requires_grad=True)
        >>> seen = []
        >>> with torch.autograd.graph.saved_tensors_hooks(
        ...     lambda t: seen.append("pack") or t, lambda t: seen.append("unpack") or t
        ... ):
        ...     y = (x * x).sum()
        >>> y.backward()
        >>> seen
        ['pack', 'pack', 'unpack', 'unpack']
    """

    def __init__(
        self, pack_hook: Callable[[torch.Tensor], Any], unpack_hook: Callable[[Any], torch.Tensor]
    ) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        _saved_hooks.push(self.pack_hook, self.unpack_hook)

    def __exit__(self, *exc) -> None:
        _saved_hooks.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's public name
    """Keep the tensors saved for backward in CPU memory (copied there on saving, moved
    back to their device when backward uses them). On this CPU-only build the copy is
    what remains: saved tensors no longer alias the forward's tensors.

    Args:
        pin_memory (bool): copy into pinned memory (accepted; CPU memory here).
            Default: ``False``.
        device_type (str): the device type whose tensors are moved. Default: ``"cuda"``.

    Examples::

        >>> x = torch.ones(2, requires_grad=True)
        >>> with torch.autograd.graph.save_on_cpu():
        ...     y = (x * x).sum()
        >>> y.backward()
        >>> x.grad
        tensor([2., 2.])
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack(tensor):
            packed = torch.empty(tuple(tensor.shape), dtype=tensor.dtype)
            packed.copy_(tensor.detach())
            return (tensor.device, packed)

        def unpack(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack, unpack)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str) -> Iterator[None]:
    """Context manager in which entering :class:`saved_tensors_hooks` raises a
    RuntimeError with ``error_message`` (for code whose saved tensors must stay as they
    are).

    Args:
        error_message (str): the message of the error.

    Examples::

        >>> with torch.autograd.graph.disable_saved_tensors_hooks("not here"):
        ...     try:
        ...         with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        ...             pass
        ...     except RuntimeError as error:
        ...         print(error)
        not here
    """
    _saved_hooks.disable(error_message)
    try:
        yield
    finally:
        _saved_hooks.enable()


class _MultiHandle:
    """What ``register_multi_grad_hook`` returns: ``remove()`` removes all its hooks."""

    __slots__ = ("handles", "removed")

    def __init__(self, handles: tuple) -> None:
        self.handles = handles
        self.removed = False

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()
        if not self.removed:
            self.removed = True
            _backward.watching[0] -= 1

    def __enter__(self) -> _MultiHandle:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def register_multi_grad_hook(tensors, fn: Callable, *, mode: str = "all") -> _MultiHandle:
    """Call ``fn`` once per backward pass for a group of tensors: with ``mode="all"``,
    ``fn(grads)`` after the gradients of all of them that the pass computes are known
    (``grads`` is a list with ``None`` for tensors the pass does not reach); with
    ``mode="any"``, ``fn(grad)`` with the first of their gradients computed.

    Args:
        tensors (sequence of Tensor): the tensors to watch.
        fn (Callable): the hook; its result is ignored.
        mode (str): ``"all"`` or ``"any"``. Default: ``"all"``.

    Examples::

        >>> a = torch.ones(2, requires_grad=True)
        >>> b = torch.ones(1, requires_grad=True)
        >>> c = torch.ones(1, requires_grad=True)
        >>> seen = []
        >>> handle = torch.autograd.graph.register_multi_grad_hook(
        ...     (a, b, c), lambda grads: seen.append([g is not None for g in grads])
        ... )
        >>> (a.sum() * b).sum().backward()
        >>> seen
        [[True, True, False]]
        >>> handle.remove()
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    state: dict = {"token": None}

    def start(task) -> None:
        # a new backward pass: which of the tensors it reaches
        state["token"] = task[0]
        state["grads"] = [None] * len(tensors)
        state["done"] = False
        nodes = task[1]
        state["waiting"] = sum(1 for t in tensors if t.requires_grad and _node_of(t) in nodes)

    def hook_for(index: int):
        def hook(grad):
            task = _backward._tasks.current()
            if task is None:
                return
            if state["token"] is not task[0]:
                start(task)
            if state["done"]:
                return
            if mode == "any":
                state["done"] = True
                fn(grad)
                return
            state["grads"][index] = grad
            state["waiting"] -= 1
            if state["waiting"] <= 0:
                state["done"] = True
                fn(state["grads"])

        return hook

    handles = tuple(t.register_hook(hook_for(i)) for i, t in enumerate(tensors) if t.requires_grad)
    _backward.watching[0] += 1
    return _MultiHandle(handles)


def _node_of(tensor):
    if tensor.grad_fn is not None:
        return tensor.grad_fn
    return _nodes._existing_accumulator(tensor)
