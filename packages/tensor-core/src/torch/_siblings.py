"""Where the parts of the ``torch`` namespace that core does not ship come from.

Each sibling wheel installs one subpackage into the shared ``torch`` namespace. When a
sibling is missing, ``import torch.nn`` would fail with Python's bare "No module named
'torch.nn'"; the finder below turns that into a message naming the distribution to
install. It sits at the end of ``sys.meta_path``, so it is asked only after every real
finder has failed to find the module.
"""

from __future__ import annotations

import importlib
import sys
from importlib.abc import MetaPathFinder

__all__ = ["SIBLINGS", "MissingSiblingFinder", "import_sibling", "install_finder"]

# module name -> distribution that ships it
SIBLINGS: dict[str, str] = {
    "torch.autograd": "torch-autograd",
    "torch.nn": "torch-nn",
    "torch.optim": "torch-optim",
    "torch.multiprocessing": "torch-multiprocessing",
    "torch.utils.data": "torch-utils-data",
    "torch.legacy": "torch-legacy",
}


def _owner(fullname: str) -> str | None:
    """The sibling distribution that ships ``fullname`` (a sibling or a module inside one)."""
    for module, dist in SIBLINGS.items():
        if fullname == module or fullname.startswith(module + "."):
            return dist
    return None


def missing_message(fullname: str, dist: str) -> str:
    return (
        f"No module named '{fullname}': it is part of the '{dist}' distribution, "
        f"which is not installed. Install it with: pip install {dist}"
    )


class MissingSiblingFinder(MetaPathFinder):
    """Last-resort finder: explains which wheel provides a missing ``torch.*`` module."""

    def find_spec(self, fullname, path=None, target=None):
        dist = _owner(fullname)
        if dist is None:
            return None
        root = next(m for m in SIBLINGS if fullname == m or fullname.startswith(m + "."))
        if fullname != root and root in sys.modules:
            return None  # the sibling is installed; this is just a missing module inside it
        raise ModuleNotFoundError(missing_message(fullname, dist), name=fullname)


def install_finder() -> None:
    if not any(isinstance(f, MissingSiblingFinder) for f in sys.meta_path):
        sys.meta_path.append(MissingSiblingFinder())


def import_sibling(fullname: str):
    """Import a sibling subpackage on first attribute access (``torch.nn``, ...)."""
    return importlib.import_module(fullname)
