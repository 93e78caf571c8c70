"""A subclass with its own ``__init__`` must define its own ``expand``: the check names
the class of this package whose ``expand`` it inherits, also where that ``expand`` is
shared (the transformed distributions share TransformedDistribution's). PyTorch 2.13
raises the same for each."""

from __future__ import annotations

import re

import pytest

import torch
import torch.distributions as D  # noqa: N812

ONES = torch.ones(2)
CASES = {
    "HalfNormal": (D.HalfNormal, (ONES,)),
    "HalfCauchy": (D.HalfCauchy, (ONES,)),
    "LogNormal": (D.LogNormal, (ONES, ONES)),
    "Gumbel": (D.Gumbel, (ONES, ONES)),
    "RelaxedBernoulli": (D.RelaxedBernoulli, (torch.tensor(1.0), ONES / 2)),
    "TransformedDistribution": (D.TransformedDistribution, (D.Normal(ONES, 1.0), [])),
    "Exponential": (D.Exponential, (ONES,)),
    "Bernoulli": (D.Bernoulli, (ONES / 2,)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_custom_init_needs_custom_expand(name):
    public, args = CASES[name]

    class Mine(public):
        def __init__(self):
            super().__init__(*args)

    class Below(Mine):  # inherits the custom __init__
        pass

    for cls in (Mine, Below):
        message = (
            f"Subclass {cls.__name__} of {name} that defines a custom __init__ method must "
            "also define a custom .expand() method."
        )
        with pytest.raises(NotImplementedError, match=re.escape(message)):
            cls().expand((3, 2))


@pytest.mark.parametrize("name", sorted(CASES))
def test_subclass_without_init_expands(name):
    public, args = CASES[name]

    class Mine(public):
        pass

    expanded = Mine(*args).expand((3, 2))
    assert type(expanded) is Mine and expanded.batch_shape == (3, 2)
