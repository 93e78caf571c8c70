"""Handles for registered hooks, and the per-leaf bookkeeping that hooks on leaves need."""

from __future__ import annotations

import itertools
import weakref

__all__ = ["RemovableHandle"]

_next_id = itertools.count()


class RemovableHandle:
    """What ``register_hook`` returns: ``remove()`` unregisters the hook.

    Args:
        hooks (dict): the table the hook was put in, keyed by ``handle.id``.

    Examples::

        >>> x = torch.ones(2, requires_grad=True)
        >>> handle = x.register_hook(lambda g: g * 3)
        >>> (x * 1).sum().backward()
        >>> x.grad
        tensor([3., 3.])
        >>> handle.remove()
    """

    __slots__ = ("_table", "id")

    def __init__(self, hooks: dict) -> None:
        self.id = next(_next_id)
        self._table = weakref.ref(hooks)

    def remove(self) -> None:
        hooks = self._table()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


class HookDict(dict):
    """A dict that weak references can point to (plain dicts cannot)."""

    __slots__ = ("__weakref__",)


def add_hook(hooks: HookDict, fn) -> RemovableHandle:
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


class LeafMeta:
    """What autograd keeps about a leaf tensor while it lives: its hooks and the graph
    edge to its gradient accumulator (made on first use, then shared by every graph that
    uses the leaf; the accumulator refers to the leaf weakly, through ``tensor``)."""

    __slots__ = ("tensor", "hooks", "edge")

    def __init__(self, tensor, on_death) -> None:
        self.tensor = weakref.ref(tensor, on_death)
        self.hooks: HookDict | None = None
        self.edge: tuple | None = None  # (AccumulateGrad node, 0)


_leaves: dict[int, LeafMeta] = {}


def _forget(key: int):
    def callback(ref) -> None:
        meta = _leaves.get(key)
        if meta is not None and meta.tensor is ref:
            del _leaves[key]

    return callback


def leaf_meta(tensor, create: bool = True) -> LeafMeta | None:
    """The bookkeeping of ``tensor`` (made on first use when ``create``)."""
    key = id(tensor)
    meta = _leaves.get(key)
    if meta is not None and meta.tensor() is tensor:
        return meta
    if not create:
        return None
    meta = _leaves[key] = LeafMeta(tensor, _forget(key))
    return meta
