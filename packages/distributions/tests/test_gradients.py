"""``torch.autograd.gradcheck`` (float64) on the reparameterised samplers and on the
scoring functions: analytical gradients against finite differences, the seed reset
before every evaluation so that each one sees the same noise."""

from __future__ import annotations

import pytest

import torch
import torch.distributions as D  # noqa: N812
from torch.autograd import gradcheck


def _seeded(fn):
    def wrapped(*params):
        torch.manual_seed(0)
        return fn(*params)

    return wrapped


def _params(*values):
    return tuple(torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in values)


# distributions by a factory of their parameters (the class where it takes them as they
# come) and the float64 values of those parameters: rsample's gradient, noise fixed
RSAMPLE = {
    "Normal": (D.Normal, ([0.5, -1.0], [1.0, 2.0])),
    "Uniform": (D.Uniform, ([0.0, 1.0], [1.0, 3.0])),
    "Laplace": (D.Laplace, ([0.5, -1.0], [1.0, 2.0])),
    "Cauchy": (D.Cauchy, ([0.5, -1.0], [1.0, 2.0])),
    "Exponential": (D.Exponential, ([0.5, 2.0],)),
    "LogNormal": (D.LogNormal, ([0.5, -1.0], [0.5, 0.3])),
    "HalfNormal": (D.HalfNormal, ([1.0, 2.0],)),
    "Gumbel": (D.Gumbel, ([0.5, -1.0], [1.0, 2.0])),
    "Pareto": (D.Pareto, ([1.0, 2.0], [3.0, 4.0])),
    "Weibull": (D.Weibull, ([1.0, 2.0], [1.5, 3.0])),
    "Kumaraswamy": (D.Kumaraswamy, ([1.5, 2.0], [2.0, 3.0])),
    "GeneralizedPareto": (D.GeneralizedPareto, ([0.0, 1.0], [1.0, 2.0], [0.2, -0.1])),
    "ContinuousBernoulli": (D.ContinuousBernoulli, ([0.3, 0.8],)),
    "RelaxedBernoulli": (D.RelaxedBernoulli, (2.2, [0.3, 0.8])),
    "RelaxedOneHotCategorical": (D.RelaxedOneHotCategorical, (2.2, [0.1, 0.2, 0.7])),
    "LogisticNormal": (D.LogisticNormal, ([0.5, -1.0], [1.0, 0.5])),
    "MultivariateNormal": (
        lambda loc, a: D.MultivariateNormal(loc, scale_tril=torch.tril(a)),
        ([0.5, -1.0], [[1.0, 0.0], [0.3, 2.0]]),
    ),
    "LowRankMultivariateNormal": (
        D.LowRankMultivariateNormal,
        ([0.5, -1.0], [[1.0], [0.5]], [1.0, 2.0]),
    ),
    # the gamma family: gradcheck in the rate / location only (in the concentration the
    # draw is differentiated implicitly, which finite differences of a rejection sampler
    # do not see; the golden tests compare those gradients with PyTorch's)
    "Gamma_rate": (lambda rate: D.Gamma(torch.tensor([0.5, 3.0]), rate), ([1.0, 3.0],)),
    "StudentT_loc_scale": (
        lambda loc, scale: D.StudentT(torch.tensor([3.0, 5.0]), loc, scale),
        ([0.5, -1.0], [1.0, 2.0]),
    ),
    "InverseGamma_rate": (
        lambda rate: D.InverseGamma(torch.tensor([3.0, 4.0]), rate),
        ([1.0, 2.0],),
    ),
}


@pytest.mark.parametrize("name", sorted(RSAMPLE))
def test_rsample_gradcheck(name):
    make, values = RSAMPLE[name]
    assert gradcheck(_seeded(lambda *params: make(*params).rsample((3,))), _params(*values))


# as RSAMPLE, with the value log_prob scores: log_prob's gradient in the parameters
LOG_PROB = {
    "Normal": (D.Normal, [0.3, 2.0], ([0.5, -1.0], [1.0, 2.0])),
    "Gamma": (D.Gamma, [0.3, 2.0], ([0.5, 3.0], [1.0, 2.0])),
    "Beta": (D.Beta, [0.3, 0.8], ([0.5, 3.0], [1.5, 2.0])),
    "Dirichlet": (D.Dirichlet, [0.2, 0.3, 0.5], ([0.5, 3.0, 1.0],)),
    "StudentT": (D.StudentT, [0.3, 2.0], ([3.0, 5.0], [0.5, -1.0], [1.0, 2.0])),
    "Binomial": (lambda p: D.Binomial(10, p), [3.0, 8.0], ([0.3, 0.7],)),
    "Categorical": (lambda logits: D.Categorical(logits=logits), [0, 2], ([0.5, -1.0, 2.0],)),
    "Poisson": (D.Poisson, [3.0, 0.0], ([2.5, 1.0],)),
    "MultivariateNormal": (
        lambda loc, cov: D.MultivariateNormal(loc, (cov + cov.mT) / 2 + 2 * torch.eye(2)),
        [0.3, 1.0],
        ([0.5, -1.0], [[1.0, 0.2], [0.3, 1.0]]),
    ),
    "VonMises": (D.VonMises, [0.3, 2.0], ([0.5, -1.0], [1.0, 5.0])),
    "Wishart": (lambda df: D.Wishart(df, torch.eye(2)), [[2.0, 0.3], [0.3, 1.0]], (4.5,)),
    "LKJCholesky": (lambda c: D.LKJCholesky(2, c), [[1.0, 0.0], [0.6, 0.8]], (1.5,)),
    "NegativeBinomial": (D.NegativeBinomial, [3.0, 0.0], ([3.0, 5.0], [0.3, 0.6])),
    "FisherSnedecor": (D.FisherSnedecor, [0.3, 2.0], ([3.0, 5.0], [6.0, 7.0])),
}


@pytest.mark.parametrize("name", sorted(LOG_PROB))
def test_log_prob_gradcheck(name):
    make, value, params = LOG_PROB[name]
    assert gradcheck(lambda *p: make(*p).log_prob(torch.tensor(value)), _params(*params))


def test_entropy_and_kl_gradcheck():
    assert gradcheck(lambda a, b: D.Gamma(a, b).entropy(), _params([0.5, 3.0], [1.0, 2.0]))
    assert gradcheck(
        lambda m, s: D.kl_divergence(D.Normal(m, s), D.Normal(0.0, 1.0)),
        _params([0.5, -1.0], [0.7, 2.0]),
    )
    assert gradcheck(
        lambda p: D.kl_divergence(D.Dirichlet(p), D.Dirichlet(torch.ones(3))),
        _params([0.5, 3.0, 1.0]),
    )


def test_gamma_concentration_gradient_is_the_implicit_one():
    # d(sample)/d(alpha) equals -(dF/dalpha)/(dF/dx) for the draw's CDF F: checked by
    # moving alpha and re-solving F(x'; alpha') = F(x; alpha) numerically
    alpha = torch.tensor([0.7, 2.5, 11.0], dtype=torch.float64, requires_grad=True)
    torch.manual_seed(0)
    x = torch._standard_gamma(alpha)
    (grad,) = torch.autograd.grad(x.sum(), alpha)
    eps = 1e-6
    with torch.no_grad():
        target = torch.special.gammainc(alpha, x)
        moved = alpha + eps
        lo, hi = torch.zeros_like(x), x * 2 + 10
        for _ in range(200):  # bisection for F(x'; alpha + eps) = target
            mid = (lo + hi) / 2
            below = torch.special.gammainc(moved, mid) < target
            lo, hi = torch.where(below, mid, lo), torch.where(below, hi, mid)
        numeric = (lo - x) / eps
    assert torch.allclose(grad, numeric, rtol=1e-3, atol=1e-6)
