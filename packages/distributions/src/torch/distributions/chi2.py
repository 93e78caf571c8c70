"""The chi-squared distribution."""

from __future__ import annotations

from . import constraints
from ._declared import Arg, parameters
from .gamma import Gamma

__all__ = ["Chi2"]


@parameters(
    Arg("df", constraints.positive, "the degrees of freedom (positive)."),
)
class Chi2(Gamma):
    """The chi-squared distribution with ``df`` degrees of freedom:
    ``Gamma(df / 2, 1 / 2)``.

    Examples::

        >>> Chi2(torch.tensor([1.0])).sample()
        tensor([0.0016])
    """

    def __init__(self, df, validate_args=None) -> None:
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Chi2, _instance)
        return super().expand(batch_shape, new)

    @property
    def df(self):
        return self.concentration * 2
