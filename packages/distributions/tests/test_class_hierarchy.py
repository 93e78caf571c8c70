"""Base classes as in PyTorch 2.13 where code may look at them: Independent is generic
in the type of the distribution it wraps, and the half-open interval is no closed
interval."""

from __future__ import annotations

import typing

import torch.distributions as D  # noqa: N812
from torch.distributions import constraints


def test_independent_is_generic_in_its_base():
    assert issubclass(D.Independent, typing.Generic)
    assert D.Independent[D.Normal].__origin__ is D.Independent


def test_half_open_interval_is_not_an_interval():
    half_open = constraints.half_open_interval(0.0, 1.0)
    assert not isinstance(half_open, type(constraints.interval(0.0, 1.0)))
    assert isinstance(constraints.unit_interval, constraints.interval)
