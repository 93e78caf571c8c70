"""The multivariate normal distribution."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from ._location_scale import SymmetricAboutLoc
from .distribution import Distribution, _init_expanded
from .utils import _standard_normal, lazy_property

__all__ = ["MultivariateNormal"]


def _batch_mv(bmat, bvec):
    """Matrix-vector products over broadcast batch dims."""
    return torch.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(bL, bx):
    """Squared Mahalanobis distances ``|L^-1 x|^2`` for the lower-triangular ``bL``,
    broadcast over the batch dims of ``bx`` (which may have more than ``bL``)."""
    batch = torch.broadcast_shapes(bL.shape[:-2], bx.shape[:-1])
    n = bx.size(-1)
    lower = bL.expand(batch + (n, n))
    solved = torch.linalg.solve_triangular(
        lower, bx.expand(batch + (n,)).unsqueeze(-1), upper=False
    )
    return solved.squeeze(-1).pow(2).sum(-1)


def _precision_to_scale_tril(P):
    """The lower Cholesky factor of ``P^-1``, without inverting ``P``: the Cholesky factor
    of ``P`` with rows and columns reversed gives an upper factor of ``P``, whose inverse
    transposed is the wanted lower factor."""
    flipped = torch.linalg.cholesky(torch.flip(P, (-2, -1)))
    inverse_factor = torch.transpose(torch.flip(flipped, (-2, -1)), -2, -1)
    identity = torch.eye(P.shape[-1], dtype=P.dtype, device=P.device)
    return torch.linalg.solve_triangular(inverse_factor, identity, upper=False)


class _GivenByOneMatrix:
    """Mixin for the distributions given one of ``covariance_matrix``,
    ``precision_matrix`` or ``scale_tril`` (MultivariateNormal, Wishart): all are held as
    the lower Cholesky factor of the covariance, unbroadcast; the scale and covariance
    matrices are computed from it on first use, of ``self._matrix_shape()``."""

    def _set_scale_tril(self, covariance_matrix, precision_matrix, scale_tril) -> None:
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    def _expand_matrices(self, new, matrix_shape) -> None:
        """Give ``new`` the matrices ``self`` was given or has computed, expanded."""
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(matrix_shape))

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        lower = self._unbroadcasted_scale_tril
        return torch.matmul(lower, lower.mT).expand(self._matrix_shape())


@parameters(
    Arg("loc", constraints.real_vector, "the mean, at least one-dimensional.", kind="Tensor"),
    Arg(
        "covariance_matrix",
        constraints.positive_definite,
        "positive definite covariance.",
        kind="Tensor, optional",
    ),
    Arg(
        "precision_matrix",
        constraints.positive_definite,
        "positive definite precision.",
        kind="Tensor, optional",
    ),
    Arg(
        "scale_tril",
        constraints.lower_cholesky,
        "lower Cholesky factor of the covariance.",
        kind="Tensor, optional",
    ),
)
class MultivariateNormal(_GivenByOneMatrix, SymmetricAboutLoc, Distribution):
    """The multivariate normal distribution of mean ``loc`` and one of a covariance
    matrix, a precision matrix or a lower-triangular scale ``L`` (covariance ``L L^T``).

    Examples::

        >>> MultivariateNormal(torch.zeros(2), torch.eye(2)).sample()
        tensor([ 1.5410, -0.2934])
    """

    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self,
        loc,
        covariance_matrix=None,
        precision_matrix=None,
        scale_tril=None,
        validate_args=None,
    ) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [m is not None for m in (covariance_matrix, scale_tril, precision_matrix)]
        if sum(given) != 1:
            raise ValueError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        for name, matrix in (
            ("scale_tril", scale_tril),
            ("covariance_matrix", covariance_matrix),
            ("precision_matrix", precision_matrix),
        ):
            if matrix is None:
                continue
            if matrix.dim() < 2:
                prefix = "scale_tril matrix" if name == "scale_tril" else name
                raise ValueError(
                    f"{prefix} must be at least two-dimensional, with optional leading "
                    "batch dimensions"
                )
            batch_shape = torch.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
            setattr(self, name, matrix.expand(batch_shape + (-1, -1)))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        self._set_scale_tril(covariance_matrix, precision_matrix, scale_tril)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(MultivariateNormal, _instance)
        batch_shape = torch.Size(batch_shape)
        matrix_shape = batch_shape + self.event_shape + self.event_shape
        new.loc = self.loc.expand(batch_shape + self.event_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        self._expand_matrices(new, matrix_shape)
        return _init_expanded(self, new, batch_shape)

    def _matrix_shape(self):
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def precision_matrix(self):
        return torch.cholesky_inverse(self._unbroadcasted_scale_tril).expand(self._matrix_shape())

    @property
    def variance(self):
        variance = self._unbroadcasted_scale_tril.pow(2).sum(-1)
        return variance.expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        distance = _batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        n = self._event_shape[0]
        return -0.5 * (n * math.log(2 * math.pi) + distance) - self._half_log_det()

    def entropy(self):
        n = self._event_shape[0]
        entropy = 0.5 * n * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return entropy if len(self._batch_shape) == 0 else entropy.expand(self._batch_shape)
