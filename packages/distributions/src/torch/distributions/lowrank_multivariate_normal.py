"""The multivariate normal distribution with low-rank plus diagonal covariance."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from ._location_scale import SymmetricAboutLoc
from .distribution import Distribution
from .multivariate_normal import _batch_mahalanobis, _batch_mv
from .utils import _standard_normal, lazy_property

__all__ = ["LowRankMultivariateNormal"]


def _batch_capacitance_tril(W, D):
    """The Cholesky factor of the capacitance ``I + W^T D^-1 W`` (of size rank x rank),
    through which the Woodbury identity inverts ``W W^T + D``."""
    rank = W.size(-1)
    capacitance = torch.matmul(W.mT / D.unsqueeze(-2), W) + torch.eye(rank, dtype=W.dtype)
    return torch.linalg.cholesky(capacitance)


def _batch_lowrank_logdet(W, D, capacitance_tril):
    """``log det(W W^T + D)`` by the matrix determinant lemma."""
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + D.log().sum(-1)


def _batch_lowrank_mahalanobis(W, D, x, capacitance_tril):
    """``x^T (W W^T + D)^-1 x`` by the Woodbury identity."""
    wt_dinv_x = _batch_mv(W.mT / D.unsqueeze(-2), x)
    return (x.pow(2) / D).sum(-1) - _batch_mahalanobis(capacitance_tril, wt_dinv_x)


@parameters(
    Arg(
        "loc", constraints.real_vector, "the mean, of shape ``batch_shape + (n,)``.", kind="Tensor"
    ),
    Arg(
        "cov_factor",
        constraints.independent(constraints.real, 2),
        "the low-rank factor, of shape ``batch_shape + (n, rank)``.",
        kind="Tensor",
    ),
    Arg(
        "cov_diag",
        constraints.independent(constraints.positive, 1),
        "the diagonal part (positive), of shape ``batch_shape + (n,)``.",
        kind="Tensor",
    ),
    expand_keeps=("_unbroadcasted_cov_factor", "_unbroadcasted_cov_diag", "_capacitance_tril"),
)
class LowRankMultivariateNormal(SymmetricAboutLoc, Distribution):
    """A multivariate normal whose covariance is ``cov_factor @ cov_factor.T +
    diag(cov_diag)``: determinant and inverse cost O(n rank^2), not O(n^3).

    Examples::

        >>> factor = torch.tensor([[1.0], [0.0]])
        >>> m = LowRankMultivariateNormal(torch.zeros(2), factor, torch.ones(2))
        >>> m.sample()
        tensor([ 1.2476, -2.1788])
    """

    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, cov_factor, cov_diag, validate_args=None) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event_shape = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError(
                "cov_factor must be at least two-dimensional, with optional leading batch "
                "dimensions"
            )
        if cov_factor.shape[-2:-1] != event_shape:
            raise ValueError(
                f"cov_factor must be a batch of matrices with shape {event_shape[0]} x m"
            )
        if cov_diag.shape[-1:] != event_shape:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event_shape}")
        try:
            loc_, self.cov_factor, cov_diag_ = torch.broadcast_tensors(
                loc.unsqueeze(-1), cov_factor, cov_diag.unsqueeze(-1)
            )
        except RuntimeError as e:
            raise ValueError(
                f"Incompatible batch shapes: loc {loc.shape}, cov_factor {cov_factor.shape}, "
                f"cov_diag {cov_diag.shape}"
            ) from e
        self.loc = loc_[..., 0]
        self.cov_diag = cov_diag_[..., 0]
        self._unbroadcasted_cov_factor = cov_factor
        self._unbroadcasted_cov_diag = cov_diag
        self._capacitance_tril = _batch_capacitance_tril(cov_factor, cov_diag)
        super().__init__(self.loc.shape[:-1], event_shape, validate_args=validate_args)

    def _matrix_shape(self):
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def variance(self):
        variance = self._unbroadcasted_cov_factor.pow(2).sum(-1) + self._unbroadcasted_cov_diag
        return variance.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def scale_tril(self):
        # D^1/2 chol(I + D^-1/2 W W^T D^-1/2): lower triangular, squares to the covariance
        n = self._event_shape[0]
        sqrt_diag = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        scaled = self._unbroadcasted_cov_factor / sqrt_diag
        inner = torch.matmul(scaled, scaled.mT) + torch.eye(n, dtype=scaled.dtype)
        return (sqrt_diag * torch.linalg.cholesky(inner)).expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        factor = self._unbroadcasted_cov_factor
        covariance = torch.matmul(factor, factor.mT) + torch.diag_embed(
            self._unbroadcasted_cov_diag
        )
        return covariance.expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        wt_dinv = self._unbroadcasted_cov_factor.mT / self._unbroadcasted_cov_diag.unsqueeze(-2)
        a = torch.linalg.solve_triangular(self._capacitance_tril, wt_dinv, upper=False)
        precision = torch.diag_embed(self._unbroadcasted_cov_diag.reciprocal()) - a.mT @ a
        return precision.expand(self._matrix_shape())

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        w_shape = shape[:-1] + self.cov_factor.shape[-1:]
        eps_w = _standard_normal(w_shape, dtype=self.loc.dtype, device=self.loc.device)
        eps_d = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return (
            self.loc
            + _batch_mv(self._unbroadcasted_cov_factor, eps_w)
            + self._unbroadcasted_cov_diag.sqrt() * eps_d
        )

    def _log_det(self):
        return _batch_lowrank_logdet(
            self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag, self._capacitance_tril
        )

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        distance = _batch_lowrank_mahalanobis(
            self._unbroadcasted_cov_factor,
            self._unbroadcasted_cov_diag,
            value - self.loc,
            self._capacitance_tril,
        )
        n = self._event_shape[0]
        return -0.5 * (n * math.log(2 * math.pi) + self._log_det() + distance)

    def entropy(self):
        n = self._event_shape[0]
        entropy = 0.5 * (n * (1.0 + math.log(2 * math.pi)) + self._log_det())
        return entropy if len(self._batch_shape) == 0 else entropy.expand(self._batch_shape)
