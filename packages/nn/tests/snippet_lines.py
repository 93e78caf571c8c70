"""How the golden snippets of utils/prune_cases.py and parallel/parallel_cases.py run, the
same way under real PyTorch (tools/golden/record_nn_prune.py, record_nn_parallel.py) and
under this project: every line but the last is a statement, the last an expression."""

from __future__ import annotations

import warnings


def run_lines(code: str, scope: dict):
    """The value of ``code``'s last line after running the lines before it in ``scope``,
    warnings silenced; exceptions propagate."""
    lines = code.split("\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec("\n".join(lines[:-1]), scope)
        return eval(lines[-1], scope)
