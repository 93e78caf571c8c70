"""Dropout layers: active in training mode, the identity in evaluation mode."""

from __future__ import annotations

from .. import functional as F  # noqa: N812
from .module import Module
from .utils import _layer

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"]


class _DropoutNd(Module):
    _functional = None

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return type(self)._functional(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zero each element with probability ``p`` while training, scaling the rest by
    ``1 / (1 - p)``.

    Args:
        p (float): the drop probability. Default: 0.5.
        inplace (bool): overwrite the input. Default: ``False``.

    Shape:
        - Input: (*). Output: same shape.

    Examples::

        >>> m = nn.Dropout(p=0.2)
        >>> m
        Dropout(p=0.2, inplace=False)
        >>> m.eval()(torch.ones(3))
        tensor([1., 1., 1.])
    """

    _functional = staticmethod(F.dropout)


Dropout1d = _layer(
    _DropoutNd,
    "Dropout1d",
    "Zero whole channels of (N, C, L) inputs while training.",
    ">>> nn.Dropout1d(0.3)\nDropout1d(p=0.3, inplace=False)",
    _functional=staticmethod(F.dropout1d),
)
Dropout2d = _layer(
    _DropoutNd,
    "Dropout2d",
    "Zero whole channels of (N, C, H, W) inputs while training.",
    ">>> nn.Dropout2d()\nDropout2d(p=0.5, inplace=False)",
    _functional=staticmethod(F.dropout2d),
)
Dropout3d = _layer(
    _DropoutNd,
    "Dropout3d",
    "Zero whole channels of (N, C, D, H, W) inputs while training.",
    ">>> nn.Dropout3d()\nDropout3d(p=0.5, inplace=False)",
    _functional=staticmethod(F.dropout3d),
)
AlphaDropout = _layer(
    _DropoutNd,
    "AlphaDropout",
    "Dropout that keeps SELU activations' mean and variance.",
    ">>> nn.AlphaDropout(0.2)\nAlphaDropout(p=0.2, inplace=False)",
    _functional=staticmethod(F.alpha_dropout),
)
FeatureAlphaDropout = _layer(
    _DropoutNd,
    "FeatureAlphaDropout",
    "Alpha dropout of whole channels.",
    ">>> nn.FeatureAlphaDropout(0.2)\nFeatureAlphaDropout(p=0.2, inplace=False)",
    _functional=staticmethod(F.feature_alpha_dropout),
)
