"""The Pareto (type I) distribution."""

from __future__ import annotations

from . import constraints
from .exponential import Exponential
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform
from .utils import broadcast_all

__all__ = ["Pareto"]


class Pareto(TransformedDistribution):
    """The Pareto distribution of minimum ``scale`` and tail index ``alpha``:
    ``scale * exp(E)`` for ``E ~ Exponential(alpha)``.

    Args:
        scale (float or Tensor): the minimum value (positive).
        alpha (float or Tensor): the tail index (positive).
        validate_args (bool, optional): see :class:`Distribution`.

    Examples::

        >>> Pareto(torch.tensor([1.0]), torch.tensor([1.0])).sample()
        tensor([33.3923])
    """

    # by hand, not from @parameters: PyTorch orders the constraints alpha, scale (its
    # repr shows them so) but the arguments scale, alpha
    arg_constraints = {"alpha": constraints.positive, "scale": constraints.positive}

    _expanded_attributes = ("scale", "alpha")

    def __init__(self, scale, alpha, validate_args=None) -> None:
        self.scale, self.alpha = broadcast_all(scale, alpha)
        base = Exponential(self.alpha, validate_args=validate_args)
        transforms = [ExpTransform(), AffineTransform(loc=0, scale=self.scale)]
        super().__init__(base, transforms, validate_args=validate_args)

    @property
    def mean(self):
        a = self.alpha.clamp(min=1)  # infinite for alpha <= 1
        return a * self.scale / (a - 1)

    @property
    def mode(self):
        return self.scale

    @property
    def variance(self):
        a = self.alpha.clamp(min=2)  # infinite for alpha <= 2
        return self.scale.pow(2) * a / ((a - 1).pow(2) * (a - 2))

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return constraints.greater_than_eq(self.scale)

    def entropy(self):
        return (self.scale / self.alpha).log() + (1 + self.alpha.reciprocal())
