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


# rsample as a function of the parameters, noise fixed
RSAMPLE = {
    "Normal": (lambda loc, scale: D.Normal(loc, scale).rsample((3,)), ([0.5, -1.0], [1.0, 2.0])),
    "Uniform": (lambda lo, hi: D.Uniform(lo, hi).rsample((3,)), ([0.0, 1.0], [1.0, 3.0])),
    "Laplace": (lambda loc, scale: D.Laplace(loc, scale).rsample((3,)), ([0.5, -1.0], [1.0, 2.0])),
    "Cauchy": (lambda loc, scale: D.Cauchy(loc, scale).rsample((3,)), ([0.5, -1.0], [1.0, 2.0])),
    "Exponential": (lambda rate: D.Exponential(rate).rsample((3,)), ([0.5, 2.0],)),
    "LogNormal": (
        lambda loc, scale: D.LogNormal(loc, scale).rsample((3,)),
        ([0.5, -1.0], [0.5, 0.3]),
    ),
    "HalfNormal": (lambda scale: D.HalfNormal(scale).rsample((3,)), ([1.0, 2.0],)),
    "Gumbel": (lambda loc, scale: D.Gumbel(loc, scale).rsample((3,)), ([0.5, -1.0], [1.0, 2.0])),
    "Pareto": (lambda scale, alpha: D.Pareto(scale, alpha).rsample((3,)), ([1.0, 2.0], [3.0, 4.0])),
    "Weibull": (lambda scale, k: D.Weibull(scale, k).rsample((3,)), ([1.0, 2.0], [1.5, 3.0])),
    "Kumaraswamy": (lambda a, b: D.Kumaraswamy(a, b).rsample((3,)), ([1.5, 2.0], [2.0, 3.0])),
    "GeneralizedPareto": (
        lambda loc, scale, c: D.GeneralizedPareto(loc, scale, c).rsample((3,)),
        ([0.0, 1.0], [1.0, 2.0], [0.2, -0.1]),
    ),
    "ContinuousBernoulli": (lambda p: D.ContinuousBernoulli(p).rsample((3,)), ([0.3, 0.8],)),
    "RelaxedBernoulli": (
        lambda t, p: D.RelaxedBernoulli(t, p).rsample((3,)),
        (2.2, [0.3, 0.8]),
    ),
    "RelaxedOneHotCategorical": (
        lambda t, p: D.RelaxedOneHotCategorical(t, p).rsample((3,)),
        (2.2, [0.1, 0.2, 0.7]),
    ),
    "LogisticNormal": (
        lambda loc, scale: D.LogisticNormal(loc, scale).rsample((3,)),
        ([0.5, -1.0], [1.0, 0.5]),
    ),
    "MultivariateNormal": (
        lambda loc, a: D.MultivariateNormal(loc, scale_tril=torch.tril(a)).rsample((3,)),
        ([0.5, -1.0], [[1.0, 0.0], [0.3, 2.0]]),
    ),
    "LowRankMultivariateNormal": (
        lambda loc, w, d: D.LowRankMultivariateNormal(loc, w, d).rsample((3,)),
        ([0.5, -1.0], [[1.0], [0.5]], [1.0, 2.0]),
    ),
    # the gamma family: gradcheck in the rate / location only (in the concentration the
    # draw is differentiated implicitly, which finite differences of a rejection sampler
    # do not see; the golden tests compare those gradients with PyTorch's)
    "Gamma_rate": (
        lambda rate: D.Gamma(torch.tensor([0.5, 3.0]), rate).rsample((3,)),
        ([1.0, 3.0],),
    ),
    "StudentT_loc_scale": (
        lambda loc, scale: D.StudentT(torch.tensor([3.0, 5.0]), loc, scale).rsample((3,)),
        ([0.5, -1.0], [1.0, 2.0]),
    ),
    "InverseGamma_rate": (
        lambda rate: D.InverseGamma(torch.tensor([3.0, 4.0]), rate).rsample((3,)),
        ([1.0, 2.0],),
    ),
}


@pytest.mark.parametrize("name", sorted(RSAMPLE))
def test_rsample_gradcheck(name):
    fn, values = RSAMPLE[name]
    assert gradcheck(_seeded(fn), _params(*values))


_LOG_PROB_VALUES = {
    "Normal": (
        lambda loc, scale: D.Normal(loc, scale).log_prob(torch.tensor([0.3, 2.0])),
        ([0.5, -1.0], [1.0, 2.0]),
    ),
    "Gamma": (
        lambda a, b: D.Gamma(a, b).log_prob(torch.tensor([0.3, 2.0])),
        ([0.5, 3.0], [1.0, 2.0]),
    ),
    "Beta": (
        lambda a, b: D.Beta(a, b).log_prob(torch.tensor([0.3, 0.8])),
        ([0.5, 3.0], [1.5, 2.0]),
    ),
    "Dirichlet": (
        lambda a: D.Dirichlet(a).log_prob(torch.tensor([0.2, 0.3, 0.5])),
        ([0.5, 3.0, 1.0],),
    ),
    "StudentT": (
        lambda df, loc, scale: D.StudentT(df, loc, scale).log_prob(torch.tensor([0.3, 2.0])),
        ([3.0, 5.0], [0.5, -1.0], [1.0, 2.0]),
    ),
    "Binomial": (lambda p: D.Binomial(10, p).log_prob(torch.tensor([3.0, 8.0])), ([0.3, 0.7],)),
    "Categorical": (
        lambda logits: D.Categorical(logits=logits).log_prob(torch.tensor([0, 2])),
        ([0.5, -1.0, 2.0],),
    ),
    "Poisson": (lambda rate: D.Poisson(rate).log_prob(torch.tensor([3.0, 0.0])), ([2.5, 1.0],)),
    "MultivariateNormal": (
        lambda loc, cov: D.MultivariateNormal(loc, (cov + cov.mT) / 2 + 2 * torch.eye(2)).log_prob(
            torch.tensor([0.3, 1.0])
        ),
        ([0.5, -1.0], [[1.0, 0.2], [0.3, 1.0]]),
    ),
    "VonMises": (
        lambda loc, k: D.VonMises(loc, k).log_prob(torch.tensor([0.3, 2.0])),
        ([0.5, -1.0], [1.0, 5.0]),
    ),
    "Wishart": (
        lambda df: D.Wishart(df, torch.eye(2)).log_prob(torch.tensor([[2.0, 0.3], [0.3, 1.0]])),
        (4.5,),
    ),
    "LKJCholesky": (
        lambda c: D.LKJCholesky(2, c).log_prob(torch.tensor([[1.0, 0.0], [0.6, 0.8]])),
        (1.5,),
    ),
    "NegativeBinomial": (
        lambda n, p: D.NegativeBinomial(n, p).log_prob(torch.tensor([3.0, 0.0])),
        ([3.0, 5.0], [0.3, 0.6]),
    ),
    "FisherSnedecor": (
        lambda a, b: D.FisherSnedecor(a, b).log_prob(torch.tensor([0.3, 2.0])),
        ([3.0, 5.0], [6.0, 7.0]),
    ),
}


@pytest.mark.parametrize("name", sorted(_LOG_PROB_VALUES))
def test_log_prob_gradcheck(name):
    fn, values = _LOG_PROB_VALUES[name]
    assert gradcheck(fn, _params(*values))


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
