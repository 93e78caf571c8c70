"""What the distributions built over a :class:`Categorical` share (OneHotCategorical,
Multinomial, ExpRelaxedCategorical): the categorical holds ``probs``/``logits``, its
batch shape is theirs, and one event has the categories' number of entries."""

from __future__ import annotations

import torch

from .categorical import Categorical
from .distribution import _init_expanded
from .utils import _forwarded

__all__ = ["OverCategorical"]


class OverCategorical:
    """Mixin for a distribution whose parameters are those of ``self._categorical``."""

    def _set_categorical(self, probs, logits):
        """Build ``self._categorical``; return the batch and event shapes it implies."""
        self._categorical = Categorical(probs=probs, logits=logits)
        return self._categorical.batch_shape, self._categorical.param_shape[-1:]

    def _expand_categorical(self, new, batch_shape):
        """Finish ``expand``: ``new`` (already holding the other attributes) gets the
        categorical expanded to ``batch_shape`` and this validation setting."""
        batch_shape = torch.Size(batch_shape)
        new._categorical = self._categorical.expand(batch_shape)
        return _init_expanded(self, new, batch_shape)

    def _new(self, *args, **kwargs):
        return self._categorical._new(*args, **kwargs)

    param_shape = _forwarded("_categorical.param_shape")
    probs = _forwarded("_categorical.probs")
    logits = _forwarded("_categorical.logits")
