"""Replay every docstring example of our torch.distributions source under real PyTorch.

Run it with PyTorch 2.13's interpreter (it reads our source files as text and never
imports our torch)::

    ~/.cache/ptdiff/ref/bin/python packages/distributions/tests/replay_examples_under_pytorch.py

Each docstring's examples run the way test_doctests.py runs them against our build: the
generator seeded with 0 first, ``torch`` and torch.distributions' public names in scope,
over the globals of PyTorch's module of the same name. A recorded output that PyTorch
does not print makes it list the example and exit 1, so the outputs in our docstrings
are PyTorch's.
"""

import ast
import doctest
import importlib
import pathlib
import sys

import torch
import torch.distributions

SOURCE = pathlib.Path(__file__).resolve().parents[1] / "src" / "torch" / "distributions"
OPTIONS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
EXAMPLE_SEED = 0


def docstrings(tree):
    """(qualified name, docstring) of the module and every class and function in it."""
    found = []

    def visit(node, prefix):
        text = ast.get_docstring(node, clean=False)
        if text:
            found.append((prefix, text))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, f"{prefix}.{child.name}")

    visit(tree, "")
    return found


def namespace(module_name):
    names = {"torch": torch}
    public = vars(torch.distributions).items()
    names.update((name, value) for name, value in public if not name.startswith("_"))
    try:
        names.update(vars(importlib.import_module(module_name)))
    except ImportError:  # a private module of ours that PyTorch does not have
        pass
    return names


def replay(path, runner):
    stem = "" if path.stem == "__init__" else "." + path.stem
    module_name = "torch.distributions" + stem
    parser = doctest.DocTestParser()
    for qualname, text in docstrings(ast.parse(path.read_text())):
        test = parser.get_doctest(
            text, namespace(module_name), module_name + qualname, str(path), 0
        )
        if test.examples:
            torch.manual_seed(EXAMPLE_SEED)
            runner.run(test)


def main():
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    for path in sorted(SOURCE.glob("*.py")):
        replay(path, runner)
    version = torch.__version__
    print(f"{runner.tries} examples replayed under torch {version}, {runner.failures} differ")
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main())
