"""The state behind ``torch.autograd.graph.saved_tensors_hooks``: the (pack, unpack)
pairs in force in each thread, and the packed form of a saved tensor.

The engine asks :func:`active` on every recorded op, so that is a global counter: only
when some thread has hooks does it look at the thread's own stack."""

from __future__ import annotations

import threading

__all__ = ["Packed", "active", "push", "pop", "current", "pack", "unpack"]


class _State(threading.local):
    def __init__(self) -> None:
        self.stack: list[tuple] = []  # (pack_hook, unpack_hook), innermost last
        self.disabled: list[str] = []  # messages of disable_saved_tensors_hooks blocks


_state = _State()
#: how many saved_tensors_hooks blocks are open, over all threads
_open = [0]


def active() -> bool:
    return _open[0] > 0


def push(pack_hook, unpack_hook) -> None:
    if _state.disabled:
        raise RuntimeError(_state.disabled[-1])
    _state.stack.append((pack_hook, unpack_hook))
    _open[0] += 1


def pop() -> None:
    _state.stack.pop()
    _open[0] -= 1


def current():
    """The innermost (pack, unpack) pair of this thread, or None."""
    stack = _state.stack
    return stack[-1] if stack else None  # None also while a pack hook runs


def disable(message: str) -> None:
    _state.disabled.append(message)


def enable() -> None:
    _state.disabled.pop()


class Packed:
    """A saved tensor as its pack hook returned it, with the unpack hook to undo that."""

    __slots__ = ("value", "unpack_hook")

    def __init__(self, value, unpack_hook) -> None:
        self.value = value
        self.unpack_hook = unpack_hook


def pack(tensor, hooks) -> Packed:
    pack_hook, unpack_hook = hooks
    stack = _state.stack
    stack.append(None)  # ops inside the pack hook save their tensors as they are
    try:
        return Packed(pack_hook(tensor), unpack_hook)
    finally:
        stack.pop()


def unpack(packed: Packed):
    import torch

    tensor = packed.unpack_hook(packed.value)
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(
            f"Output of saved tensor unpack_hook expected to be a Tensor but got result of "
            f"type {type(tensor).__name__}"
        )
    return tensor
