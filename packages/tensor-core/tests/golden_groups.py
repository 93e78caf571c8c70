"""Cases of the grouped golden files (``{"setup": ..., "groups": {group: {code: outcome}}}``,
recorded under real PyTorch): one pytest case per expression."""

from __future__ import annotations

import pytest

#: expressions with these record gradients: they need torch-autograd, which core's own
#: session lacks (they run where every package is installed)
GRADIENT_WORDS = ("requires_grad=True", "requires_grad_(", "backward(", ".grad")


def cases(golden: dict, needs_nn) -> list:
    """``(group, code)`` parameters for every expression of ``golden``, marked ``autograd``
    when it records gradients and ``nn`` when ``needs_nn(code)`` (it needs torch-nn)."""

    def marks(code: str) -> list:
        marks = [pytest.mark.autograd] if any(w in code for w in GRADIENT_WORDS) else []
        return marks + ([pytest.mark.nn] if needs_nn(code) else [])

    return [
        pytest.param(group, code, id=f"{group}:{code}", marks=marks(code))
        for group, codes in golden["groups"].items()
        for code in codes
    ]
