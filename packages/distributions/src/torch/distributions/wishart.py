"""The Wishart distribution."""

from __future__ import annotations

import math
import warnings
from numbers import Number

import torch

from . import constraints
from ._declared import Arg, parameters
from .chi2 import Chi2
from .distribution import _init_expanded
from .exp_family import ExponentialFamily
from .multivariate_normal import _GivenByOneMatrix
from .utils import lazy_property

__all__ = ["Wishart"]

_LOG_2 = math.log(2)


def _mvdigamma(x, p: int):
    """The multivariate digamma function of dimension ``p``."""
    if not x.gt((p - 1) / 2).all():
        raise AssertionError("Wrong domain for multivariate digamma function.")
    steps = torch.arange(p, dtype=x.dtype).div(2).expand(x.shape + (-1,))
    return torch.digamma(x.unsqueeze(-1) - steps).sum(-1)


def _clamp_above_eps(x):
    return x.clamp(min=torch.finfo(x.dtype).eps)


# df's constraint depends on the matrix size: arg_constraints is computed below
@parameters(
    Arg("df", None, "degrees of freedom, greater than the matrix size minus 1."),
    Arg("covariance_matrix", None, "positive definite scale matrix.", kind="Tensor, optional"),
    Arg("precision_matrix", None, "its inverse.", kind="Tensor, optional"),
    Arg("scale_tril", None, "its lower Cholesky factor.", kind="Tensor, optional"),
)
class Wishart(_GivenByOneMatrix, ExponentialFamily):
    """The Wishart distribution over positive definite matrices, with ``df`` degrees of
    freedom and scale given by one of a covariance matrix, a precision matrix or its
    lower Cholesky factor; sampled by Bartlett's decomposition.

    Examples::

        >>> Wishart(torch.tensor([2.0]), covariance_matrix=torch.eye(2)).sample().shape
        torch.Size([1, 2, 2])
    """

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self):
        return {
            "covariance_matrix": constraints.positive_definite,
            "precision_matrix": constraints.positive_definite,
            "scale_tril": constraints.lower_cholesky,
            "df": constraints.greater_than(self.event_shape[-1] - 1),
        }

    def __init__(
        self,
        df,
        covariance_matrix=None,
        precision_matrix=None,
        scale_tril=None,
        validate_args=None,
    ) -> None:
        given = [m for m in (covariance_matrix, precision_matrix, scale_tril) if m is not None]
        if len(given) != 1:
            raise AssertionError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        param = given[0]
        if param.dim() < 2:
            raise ValueError(
                "scale_tril must be at least two-dimensional, with optional leading batch "
                "dimensions"
            )
        if isinstance(df, Number):
            batch_shape = torch.Size(param.shape[:-2])
            self.df = torch.tensor(df, dtype=param.dtype, device=param.device)
        else:
            batch_shape = torch.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        p = event_shape[-1]
        if self.df.le(p - 1).any():
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {p - 1}.")
        name = (
            "scale_tril"
            if scale_tril is not None
            else "covariance_matrix"
            if covariance_matrix is not None
            else "precision_matrix"
        )
        setattr(self, name, param.expand(batch_shape + (-1, -1)))
        if self.df.lt(p).any():
            warnings.warn(
                "Low df values detected. Singular samples are highly likely to occur for "
                "ndim - 1 < df < ndim.",
                stacklevel=2,
            )
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        self._set_scale_tril(covariance_matrix, precision_matrix, scale_tril)
        self._dist_chi2 = self._bartlett_chi2(self.df, batch_shape)

    def _bartlett_chi2(self, df, batch_shape):
        """The chi-squared laws of the squared diagonal of Bartlett's factor."""
        steps = torch.arange(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype)
        return Chi2(df=df.unsqueeze(-1) - steps.expand(batch_shape + (-1,)))

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = torch.Size(batch_shape)
        matrix_shape = batch_shape + self.event_shape
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(matrix_shape)
        new.df = self.df.expand(batch_shape)
        new._batch_dims = [-(x + 1) for x in range(len(batch_shape))]
        self._expand_matrices(new, matrix_shape)
        new._event_shape = self.event_shape
        new._dist_chi2 = new._bartlett_chi2(new.df, batch_shape)
        return _init_expanded(self, new, batch_shape)

    def _matrix_shape(self):
        return self._batch_shape + self._event_shape

    @lazy_property
    def precision_matrix(self):
        identity = torch.eye(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype)
        precision = torch.cholesky_solve(identity, self._unbroadcasted_scale_tril)
        return precision.expand(self._matrix_shape())

    @property
    def mean(self):
        return self.df.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def mode(self):
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor[factor <= 0] = math.nan
        return factor.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def variance(self):
        v = self.covariance_matrix
        diag = v.diagonal(dim1=-2, dim2=-1)
        outer = diag.unsqueeze(-1) * diag.unsqueeze(-2)
        return self.df.view(self._batch_shape + (1, 1)) * (v.pow(2) + outer)

    def _bartlett_sampling(self, sample_shape=torch.Size()):
        p = self._event_shape[-1]
        chi = _clamp_above_eps(self._dist_chi2.rsample(sample_shape).sqrt())
        noise = chi.diag_embed(dim1=-2, dim2=-1)
        i, j = torch.tril_indices(p, p, offset=-1)
        below = torch.Size(sample_shape) + self._batch_shape + (p * (p - 1) // 2,)
        noise[..., i, j] = torch.randn(below, dtype=noise.dtype)
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape=torch.Size(), max_try_correction=None):
        """Draws by Bartlett's decomposition; singular draws (possible for
        ``df < ndim``) are redrawn up to ``max_try_correction`` times (default 10)."""
        if max_try_correction is None:
            max_try_correction = 10
        sample_shape = torch.Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        # NOTE: named as in PyTorch, this mask is True for the draws that are *valid*;
        # the redraw below keys on it all the same, so the stream of numbers matches
        is_singular = self.support.check(sample)
        if self._batch_shape:
            is_singular = is_singular.amax(self._batch_dims)
        if is_singular.any():
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                redraw = self._bartlett_sampling(is_singular[is_singular].shape)
                sample[is_singular] = redraw
                still = ~self.support.check(redraw)
                if self._batch_shape:
                    still = still.amax(self._batch_dims)
                is_singular[is_singular.clone()] = still
                if not is_singular.any():
                    break
        return sample

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu = self.df
        p = self._event_shape[-1]
        lower = self._unbroadcasted_scale_tril
        half_log_det = lower.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        trace = torch.cholesky_solve(value, lower).diagonal(dim1=-2, dim2=-1).sum(dim=-1)
        return (
            -nu * (p * _LOG_2 / 2 + half_log_det)
            - torch.mvlgamma(nu / 2, p=p)
            + (nu - p - 1) / 2 * torch.linalg.slogdet(value).logabsdet
            - trace / 2
        )

    def entropy(self):
        nu = self.df
        p = self._event_shape[-1]
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return (
            (p + 1) * (p * _LOG_2 / 2 + half_log_det)
            + torch.mvlgamma(nu / 2, p=p)
            - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p)
            + nu * p / 2
        )

    @property
    def _natural_params(self):
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (self.df - p - 1) / 2

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        return (y + (p + 1) / 2) * (
            -torch.linalg.slogdet(-2 * x).logabsdet + _LOG_2 * p
        ) + torch.mvlgamma(y + (p + 1) / 2, p=p)
