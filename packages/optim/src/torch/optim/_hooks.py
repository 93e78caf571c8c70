"""A handle that removes a registered hook (optimizers and schedulers register hooks in
ordered dicts keyed by the handle's id)."""

from __future__ import annotations

import itertools
import weakref

__all__ = ["RemovableHandle"]

_next_id = itertools.count()


class RemovableHandle:
    """Removes the hook it was returned for from its registry; also a context manager.

    Args:
        hooks_dict (dict): the registry the hook is stored in under ``handle.id``.
    """

    def __init__(self, hooks_dict: dict) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(_next_id)

    def remove(self) -> None:
        hooks = self.hooks_dict_ref()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()
