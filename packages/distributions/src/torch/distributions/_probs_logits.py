"""What the distributions given by ``probs`` or ``logits`` share (Bernoulli, Binomial,
NegativeBinomial, Geometric, ContinuousBernoulli, LogitRelaxedBernoulli, Categorical):
exactly one of the two is given and stored, the other is computed on first use; and
their declaration (:func:`probs_or_logits`) for the distributions over categories too.

A class names the two lazy properties below in its own body
(``logits = _probs_logits.logits``), as PyTorch's classes hold them in their own
``__dict__``."""

from __future__ import annotations

from numbers import Number

import torch

from . import constraints
from ._declared import Arg
from .utils import broadcast_all, lazy_property, logits_to_probs, probs_to_logits

__all__ = [
    "ProbsOrLogits",
    "ProbsOrLogitsParam",
    "logits",
    "probs",
    "probs_or_logits",
    "category_probs_or_logits",
]


def probs_or_logits(
    probs: str,
    logits: str = "its log-odds.",
    kind: str = "float or Tensor",
    *,
    probs_in=constraints.unit_interval,
    over_categories: bool = False,
) -> tuple[Arg, Arg]:
    """The declarations of the optional ``probs`` and ``logits`` (what each means): of a
    binary event (probabilities in ``probs_in``, log-odds on the reals) or, with
    ``over_categories``, of categories along the last dim (a simplex, real vectors)."""
    logits_in = constraints.real
    if over_categories:
        probs_in, logits_in = constraints.simplex, constraints.real_vector
    kind = f"{kind}, optional"
    return Arg("probs", probs_in, probs, kind), Arg("logits", logits_in, logits, kind)


def category_probs_or_logits(
    probs: str = "event probabilities.", logits: str = "unnormalised log-probabilities."
) -> tuple[Arg, Arg]:
    """:func:`probs_or_logits` over categories along the last dim, given as tensors."""
    return probs_or_logits(probs, logits, "Tensor", over_categories=True)


def _given_probs_or_logits(probs, logits):
    """``("probs", probs)`` or ``("logits", logits)``: the one given (exactly one must be)."""
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    return ("probs", probs) if probs is not None else ("logits", logits)


@lazy_property
def logits(self):
    return probs_to_logits(self.probs, is_binary=self._is_binary)


@lazy_property
def probs(self):
    return logits_to_probs(self.logits, is_binary=self._is_binary)


class ProbsOrLogits:
    """Mixin: stores the given one of ``probs``/``logits``; the two are of a binary
    event (sigmoid and log-odds) unless ``_is_binary`` is false (softmax over the last
    dim)."""

    _is_binary = True

    def _set_probs_or_logits(self, probs, logits):
        """Store the given one of ``probs``/``logits`` as a tensor; return the batch
        shape (empty for a Python number)."""
        name, given = _given_probs_or_logits(probs, logits)
        (value,) = broadcast_all(given)
        self._store(name, value)
        return torch.Size() if isinstance(given, Number) else value.size()

    def _store(self, name, value) -> None:
        """Keep the given parameter under its name (and, below, as ``_param``)."""
        setattr(self, name, value)


class ProbsOrLogitsParam(ProbsOrLogits):
    """:class:`ProbsOrLogits` that keeps the given parameter as ``_param``: the parameter
    shape, new tensors like it, and the values of a finite support along the batch."""

    @property
    def param_shape(self):
        return self._param.size()

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    def _store(self, name, value) -> None:
        setattr(self, name, value)
        self._param = value

    def _set_count_and_probs_or_logits(self, total_count, probs, logits):
        """The binomial family's parameters: ``total_count`` broadcast with the given one
        of ``probs``/``logits`` and of its dtype; return the batch shape."""
        name, given = _given_probs_or_logits(probs, logits)
        count, value = broadcast_all(total_count, given)
        self._store(name, value)
        self.total_count = count.type_as(value)
        return value.size()

    def _support_along_batch(self, values, expand: bool):
        """``values`` (the support, 1-D) along dim 0 before the batch dims, expanded over
        them or of size 1 there."""
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
