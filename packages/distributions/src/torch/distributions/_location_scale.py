"""What the distributions centred at a ``loc`` share: mean and mode at ``loc`` for the
symmetric unimodal ones (Normal, Laplace, VonMises, the multivariate normals), and for
the location-scale families on the reals (Normal, Laplace, Cauchy) a ``loc`` and a
positive ``scale`` broadcast together and draws ``loc + scale * (a standard draw)``; and
the declaration of a ``loc`` and a ``scale`` (:func:`loc_and_scale`)."""

from __future__ import annotations

import torch

from . import constraints
from ._declared import Arg
from .distribution import _set_broadcast
from .utils import _forwarded

__all__ = ["LocationScale", "SymmetricAboutLoc", "loc_and_scale"]


def loc_and_scale(loc="the location.", scale="the scale (positive).") -> tuple[Arg, Arg]:
    """The declarations of a ``loc`` on the reals and a positive ``scale`` (what each
    means)."""
    return Arg("loc", constraints.real, loc), Arg("scale", constraints.positive, scale)


class SymmetricAboutLoc:
    """Mixin: a unimodal distribution symmetric about ``loc``; a class without a mean
    (Cauchy) overrides ``mean``."""

    mean = mode = _forwarded("loc")


class LocationScale(SymmetricAboutLoc):
    """Mixin: ``loc`` and ``scale`` parameters; a class that samples by shifting and
    scaling standard draws defines ``_standard_draws(shape)``: a reparameterised
    distribution on the reals."""

    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        batch_shape = _set_broadcast(self, loc=loc, scale=scale)
        super().__init__(batch_shape, validate_args=validate_args)

    def rsample(self, sample_shape=torch.Size()):
        eps = self._standard_draws(self._extended_shape(sample_shape))
        return self.loc + eps * self.scale
