"""Handles for registered hooks, shared by every package of the namespace.

A hook table is a dict mapping handle ids to hooks; registering a hook makes a
:class:`RemovableHandle` whose id is the key, and ``handle.remove()`` (or leaving its
``with`` block) takes the hook out again. The handle holds its tables weakly, so it
does not keep a module or tensor alive.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any

__all__ = ["RemovableHandle", "unserializable_hook"]


def _reference(table):
    """A weak reference to ``table`` when it allows one (plain ``dict`` does not: then a
    strong one, a callable returning it)."""
    try:
        return weakref.ref(table)
    except TypeError:
        return lambda: table


class RemovableHandle:
    """Removes one hook from the table(s) it was registered in.

    Args:
        hooks_dict (dict): the table the hook is stored in under ``handle.id``.
        extra_dict (dict or list of dicts, optional): further tables keyed by the same id
            (e.g. per-hook flags), cleared together with the hook. Default: ``None``.

    Examples::

        >>> from collections import OrderedDict
        >>> from torch.utils.hooks import RemovableHandle
        >>> hooks = OrderedDict()
        >>> handle = RemovableHandle(hooks)
        >>> hooks[handle.id] = print
        >>> with handle:
        ...     len(hooks)
        1
        >>> len(hooks)
        0
    """

    id: int
    next_id: int = 0  # the id the next handle gets (class-wide, as PyTorch counts)

    _counter = itertools.count()

    def __init__(self, hooks_dict: Any, *, extra_dict: Any = None) -> None:
        self.hooks_dict_ref = _reference(hooks_dict)
        self.id = next(RemovableHandle._counter)
        RemovableHandle.next_id = self.id + 1
        if extra_dict is None:
            extra = ()
        elif isinstance(extra_dict, dict):
            extra = (extra_dict,)
        else:
            extra = tuple(extra_dict)
        self.extra_dict_ref = tuple(_reference(table) for table in extra)

    def remove(self) -> None:
        """Take the hook out of its tables (again: nothing happens)."""
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            table = ref()
            if table is not None:
                table.pop(self.id, None)

    def __getstate__(self):
        tables = (self.hooks_dict_ref(), *(ref() for ref in self.extra_dict_ref))
        return (tables, self.id)

    def __setstate__(self, state) -> None:
        tables, self.id = state
        first = tables[0] if tables and tables[0] is not None else {}
        self.hooks_dict_ref = _reference(first)
        self.extra_dict_ref = tuple(_reference(t) for t in tables[1:] if t is not None)
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()

    def __repr__(self) -> str:
        return f"<RemovableHandle id={self.id}>"


def unserializable_hook(f):
    """Mark hook ``f`` as one that must not be saved with the tensor it is registered on
    (``torch.save`` skips it silently); returns ``f``.

    Examples::

        >>> from torch.utils.hooks import unserializable_hook
        >>> @unserializable_hook
        ... def hook(grad):
        ...     return grad
        >>> hook.__torch_unserializable__
        True
    """
    f.__torch_unserializable__ = True
    return f
