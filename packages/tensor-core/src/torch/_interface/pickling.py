"""Registration of picklable classes (extension API 0.5): how a sibling's classes appear
in checkpoints, without core naming them.

Core's serialization (``torch.save`` / ``torch.load``) knows PyTorch's checkpoint format;
the classes of sibling packages are theirs to declare, when the package is imported:

- :func:`register_global` makes the global ``module.qualname`` that checkpoints name
  resolve to an object, in every load, ``weights_only=True`` included (torch-nn registers
  ``torch.nn.parameter.Parameter``, which ``torch._utils._rebuild_parameter`` builds);
- :func:`register_pickled_name` makes ``torch.save`` write a class under another module
  path than the one it is defined in (PyTorch's, so that PyTorch loads the file: torch-nn
  defines ``BatchNorm2d`` elsewhere than PyTorch's ``torch.nn.modules.batchnorm``).

Core looks names up with :func:`find_global` (which imports the sibling that owns a
``torch.*`` module the first time one of its names is asked for, so that its
registrations exist; a sibling that is not installed gives None, and the load goes on to
its usual error naming the distribution to install) and :func:`pickled_name`.
"""

from __future__ import annotations

import sys
from typing import Any

from .._siblings import SIBLINGS, import_sibling

__all__ = ["register_global", "register_pickled_name", "find_global", "pickled_name"]

_globals: dict[tuple[str, str], Any] = {}
_pickled_names: dict[type, tuple[str, str]] = {}


def register_global(module: str, qualname: str, obj: Any) -> None:
    """Make the checkpoint global ``module.qualname`` resolve to ``obj``.

    Registered globals are trusted as core's own: ``weights_only`` loading allows them,
    so register only classes whose construction from checkpoint data runs no code the
    file chooses (a tensor subclass, not an arbitrary module).
    """
    _globals[(module, qualname)] = obj


def register_pickled_name(cls: type, module: str) -> None:
    """Pickle the class ``cls`` as ``module.<cls.__qualname__>`` (loading that name finds
    it again through the enclosing ``torch`` package that exports it)."""
    _pickled_names[cls] = (module, cls.__qualname__)


def find_global(module: str, qualname: str, *, load_owner: bool = True) -> Any | None:
    """The object registered for ``module.qualname``, or None. With ``load_owner``, a
    ``torch.*`` module that a sibling ships makes that sibling import (once, when it is
    installed), so its registrations are made."""
    found = _globals.get((module, qualname))
    if found is None and load_owner and _load_owner(module):
        found = _globals.get((module, qualname))
    return found


def pickled_name(obj: Any) -> tuple[str, str] | None:
    """``(module, qualname)`` registered for the class ``obj``, or None."""
    if not isinstance(obj, type):
        return None
    try:
        return _pickled_names.get(obj)
    except TypeError:  # a class whose metaclass makes it unhashable
        return None


def _load_owner(module: str) -> bool:
    """Import the sibling that ships ``module`` if it is installed and not imported yet;
    whether that happened."""
    for root in SIBLINGS:
        if module == root or module.startswith(root + "."):
            if root in sys.modules:
                return False
            try:
                import_sibling(root)
            except ModuleNotFoundError:
                return False
            return True
    return False
