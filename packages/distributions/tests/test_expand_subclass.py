"""A subclass with its own ``__init__`` must define its own ``expand``: the check names
the public class whose ``expand`` it inherits, also where that ``expand`` is shared
(HalfNormal and HalfCauchy share theirs; PyTorch 2.13 raises the same for both)."""

from __future__ import annotations

import re

import pytest

import torch
import torch.distributions as D  # noqa: N812


@pytest.mark.parametrize("public", [D.HalfNormal, D.HalfCauchy, D.Exponential, D.Bernoulli])
def test_custom_init_needs_custom_expand(public):
    class Mine(public):
        def __init__(self):
            super().__init__(torch.ones(2))

    message = (
        f"Subclass Mine of {public.__name__} that defines a custom __init__ method must "
        "also define a custom .expand() method."
    )
    with pytest.raises(NotImplementedError, match=re.escape(message)):
        Mine().expand((3, 2))


@pytest.mark.parametrize("public", [D.HalfNormal, D.HalfCauchy])
def test_subclass_without_init_expands(public):
    class Mine(public):
        pass

    expanded = Mine(torch.ones(2)).expand((3, 2))
    assert type(expanded) is Mine and expanded.batch_shape == (3, 2)
