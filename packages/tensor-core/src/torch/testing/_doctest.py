"""Run the ``Examples::`` blocks of a package's docstrings as doctests (used by every
package's test suite).

A package's examples may be written the way PyTorch's are, without the imports and the
seeding every one of them would repeat: the test passes the names the examples assume
(``namespace``, for example ``torch``, ``nn`` and ``F``) and a ``seed`` that the default
generator is set to before each docstring's examples, so a recorded random draw is the
one PyTorch gives for that seed.
"""

from __future__ import annotations

import doctest
import importlib
import io
import pkgutil
from collections.abc import Mapping

__all__ = ["module_names", "check_docstring_examples"]

OPTIONS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def module_names(package_name: str, exclude=()) -> list[str]:
    """``package_name`` and every module below it, except those below ``exclude``."""
    package = importlib.import_module(package_name)
    prefix = package.__name__ + "."
    names = [info.name for info in pkgutil.walk_packages(package.__path__, prefix)]
    kept = [n for n in names if not any(n == e or n.startswith(e + ".") for e in exclude)]
    return [package.__name__] + kept


def check_docstring_examples(
    module_name: str, *, namespace: Mapping[str, object] | None = None, seed: int | None = None
) -> None:
    """Raise AssertionError, with doctest's report, if an example in ``module_name``'s
    docstrings fails.

    Args:
        module_name: the module whose docstrings (module, classes, functions) are run.
        namespace: names every example sees besides the module's own globals, which take
            precedence (default: the module's globals only).
        seed: if given, ``torch.manual_seed(seed)`` runs before each docstring's examples;
            the default generator's state is restored afterwards (default: no seeding).
    """
    import torch

    module = importlib.import_module(module_name)
    globs = {**(namespace or {}), **vars(module)}
    tests = doctest.DocTestFinder().find(module, globs=globs)
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    state = torch.get_rng_state()
    try:
        for test in tests:
            if seed is not None:
                torch.manual_seed(seed)
            runner.run(test, out=report.write)
    finally:
        torch.set_rng_state(state)  # the examples' draws do not leak into other tests
    if runner.failures:
        raise AssertionError(
            f"{runner.failures} of {runner.tries} docstring examples failed in "
            f"{module_name}:\n{report.getvalue()}"
        )
