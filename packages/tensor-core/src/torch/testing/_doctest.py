"""Run the ``Examples::`` blocks of a package's docstrings as doctests (used by every
package's test suite)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

__all__ = ["module_names", "check_docstring_examples"]

OPTIONS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def module_names(package_name: str, exclude=()) -> list[str]:
    """``package_name`` and every module below it, except those below ``exclude``."""
    package = importlib.import_module(package_name)
    prefix = package.__name__ + "."
    names = [info.name for info in pkgutil.walk_packages(package.__path__, prefix)]
    kept = [n for n in names if not any(n == e or n.startswith(e + ".") for e in exclude)]
    return [package.__name__] + kept


def check_docstring_examples(module_name: str) -> None:
    """Raise AssertionError if an example in ``module_name``'s docstrings fails."""
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=OPTIONS)
    if result.failed:
        raise AssertionError(
            f"{result.failed} of {result.attempted} docstring examples "
            f"failed in {module_name} (see the output above)"
        )
