"""The expressions whose outcomes are recorded under real PyTorch 2.13
(tools/golden/record_distributions.py) and compared here (test_golden.py).

Every case is a Python expression evaluated with ``torch`` and ``D``
(``torch.distributions``) after ``torch.manual_seed(0)``; its outcome (tensors, numbers,
strings, or the exception raised) is described by :func:`outcome`. The module imports no
torch itself, so one copy serves both interpreters.
"""

from __future__ import annotations

import math
import re
import warnings

# constructors, float64 unless the point is float32 sampling
DISTRIBUTIONS = {
    "Normal": "D.Normal(torch.tensor([0.0, 1.5]), torch.tensor([1.0, 2.0]))",
    "Uniform": "D.Uniform(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 3.0]))",
    "Laplace": "D.Laplace(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))",
    "Cauchy": "D.Cauchy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))",
    "Exponential": "D.Exponential(torch.tensor([0.5, 2.0]))",
    "Gamma": "D.Gamma(torch.tensor([0.5, 2.0, 9.0]), torch.tensor([1.0, 3.0, 0.5]))",
    "Chi2": "D.Chi2(torch.tensor([1.0, 3.0]))",
    "Beta": "D.Beta(torch.tensor([0.5, 2.0]), torch.tensor([1.5, 3.0]))",
    "Dirichlet": "D.Dirichlet(torch.tensor([[0.5, 2.0, 1.0], [1.0, 1.0, 4.0]]))",
    "Poisson": "D.Poisson(torch.tensor([0.5, 4.0, 12.0, 150.0]))",
    "Bernoulli": "D.Bernoulli(torch.tensor([0.3, 0.8]))",
    "BernoulliLogits": "D.Bernoulli(logits=torch.tensor([-1.0, 2.0]))",
    "Geometric": "D.Geometric(torch.tensor([0.3, 0.8]))",
    "Binomial": "D.Binomial(10, torch.tensor([0.3, 0.8]))",
    "BinomialLarge": "D.Binomial(torch.tensor([100.0, 1000.0]), torch.tensor([0.3, 0.95]))",
    "Categorical": "D.Categorical(torch.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]))",
    "CategoricalLogits": "D.Categorical(logits=torch.tensor([0.5, -1.0, 2.0]))",
    "OneHotCategorical": "D.OneHotCategorical(torch.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]))",
    "OneHotCategoricalStraightThrough": (
        "D.OneHotCategoricalStraightThrough(torch.tensor([0.1, 0.2, 0.7]))"
    ),
    "Multinomial": "D.Multinomial(6, torch.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]))",
    "NegativeBinomial": "D.NegativeBinomial(torch.tensor([3.0, 5.0]), torch.tensor([0.3, 0.6]))",
    "LogNormal": "D.LogNormal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))",
    "HalfNormal": "D.HalfNormal(torch.tensor([1.0, 2.0]))",
    "HalfCauchy": "D.HalfCauchy(torch.tensor([1.0, 2.0]))",
    "Gumbel": "D.Gumbel(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))",
    "Pareto": "D.Pareto(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))",
    "Weibull": "D.Weibull(torch.tensor([1.0, 2.0]), torch.tensor([1.5, 3.0]))",
    "Kumaraswamy": "D.Kumaraswamy(torch.tensor([1.5, 2.0]), torch.tensor([2.0, 3.0]))",
    "LogisticNormal": "D.LogisticNormal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))",
    "InverseGamma": "D.InverseGamma(torch.tensor([3.0, 4.0]), torch.tensor([1.0, 2.0]))",
    "StudentT": "D.StudentT(torch.tensor([3.0, 5.0]), torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))",
    "FisherSnedecor": "D.FisherSnedecor(torch.tensor([3.0, 5.0]), torch.tensor([6.0, 7.0]))",
    "VonMises": "D.VonMises(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 4.0]))",
    "GeneralizedPareto": (
        "D.GeneralizedPareto(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]), "
        "torch.tensor([0.2, -0.1]))"
    ),
    "ContinuousBernoulli": "D.ContinuousBernoulli(torch.tensor([0.3, 0.8, 0.5]))",
    "RelaxedBernoulli": "D.RelaxedBernoulli(torch.tensor(2.2), torch.tensor([0.3, 0.8]))",
    "RelaxedOneHotCategorical": (
        "D.RelaxedOneHotCategorical(torch.tensor(2.2), torch.tensor([0.1, 0.2, 0.7]))"
    ),
    "MultivariateNormal": (
        "D.MultivariateNormal(torch.tensor([0.0, 1.0]), torch.tensor([[2.0, 0.5], [0.5, 1.0]]))"
    ),
    "MultivariateNormalPrecision": (
        "D.MultivariateNormal(torch.zeros(2, 2), precision_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))"
    ),
    "LowRankMultivariateNormal": (
        "D.LowRankMultivariateNormal(torch.tensor([0.0, 1.0]), torch.tensor([[1.0], [0.5]]), "
        "torch.tensor([1.0, 2.0]))"
    ),
    "LKJCholesky": "D.LKJCholesky(3, torch.tensor(2.0))",
    "Wishart": "D.Wishart(torch.tensor(4.0), torch.tensor([[2.0, 0.5], [0.5, 1.0]]))",
    "MixtureSameFamily": (
        "D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])), "
        "D.Normal(torch.tensor([-1.0, 1.0]), torch.tensor([1.0, 0.5])))"
    ),
    "Independent": "D.Independent(D.Normal(torch.tensor([[0.0, 1.0]]), torch.tensor([[1.0, 2.0]])), 1)",
    "Float32Normal": "D.Normal(torch.tensor([0.0, 1.5], dtype=torch.float32), 2.0)",
    "Float32Gamma": "D.Gamma(torch.tensor([0.3, 2.5], dtype=torch.float32), 1.0)",
    "Float32Dirichlet": "D.Dirichlet(torch.tensor([0.3, 2.5, 1.0], dtype=torch.float32))",
}

# what is asked of every distribution (the value scored is a fixed draw of it)
METHODS = {
    "shapes": "(tuple(d.batch_shape), tuple(d.event_shape), d.has_rsample, d.has_enumerate_support)",
    "repr": "repr(d)",
    "support": "repr(d.support)",
    "sample": "d.sample((3,))",
    "sample_then_rand": "(d.sample((2,)), torch.rand(2, dtype=torch.float64))",
    "rsample": "d.rsample((2,))",
    "log_prob": "d.log_prob(d.sample((2,)))",
    "mean": "d.mean",
    "mode": "d.mode",
    "variance": "d.variance",
    "stddev": "d.stddev",
    "entropy": "d.entropy()",
    "perplexity": "d.perplexity()",
    "cdf": "d.cdf(d.sample((2,)))",
    "icdf": "d.icdf(torch.full(d._extended_shape((2,)), 0.3))",
    "enumerate_support": "d.enumerate_support()",
    "enumerate_support_unexpanded": "d.enumerate_support(expand=False)",
    "expand": "(tuple(d.expand((4,) + tuple(d.batch_shape)).batch_shape), d.expand((4,) + tuple(d.batch_shape)).sample().shape)",
}

# for each first member of a KL pair, the second members (space-separated) PyTorch
# registers it with
_KL_PAIRS = {
    "Bernoulli": "Bernoulli Poisson",
    "Beta": "Beta ContinuousBernoulli Exponential Gamma Normal Pareto Uniform",
    "Binomial": "Binomial",
    "Categorical": "Categorical",
    "Cauchy": "Cauchy",
    "ContinuousBernoulli": "ContinuousBernoulli Exponential Normal Pareto Uniform",
    "Dirichlet": "Dirichlet",
    "Exponential": "Beta ContinuousBernoulli Exponential Gamma Gumbel Normal Pareto Uniform",
    "Gamma": "Beta ContinuousBernoulli Exponential Gamma Gumbel Normal Pareto Uniform",
    "Geometric": "Geometric",
    "Gumbel": "Beta ContinuousBernoulli Exponential Gamma Gumbel Normal Pareto Uniform",
    "HalfNormal": "HalfNormal",
    "Independent": "Independent",
    "Laplace": "Beta ContinuousBernoulli Exponential Gamma Laplace Normal Pareto Uniform",
    "LowRankMultivariateNormal": "LowRankMultivariateNormal MultivariateNormal",
    "MultivariateNormal": "LowRankMultivariateNormal MultivariateNormal",
    "Normal": "Beta ContinuousBernoulli Exponential Gamma Gumbel Laplace Normal Pareto Uniform",
    "OneHotCategorical": "OneHotCategorical",
    "Pareto": "Beta ContinuousBernoulli Exponential Gamma Normal Pareto Uniform",
    "Poisson": "Bernoulli Binomial Poisson",
    "Uniform": "Beta ContinuousBernoulli Exponential Gamma Gumbel Normal Pareto Uniform",
}

# second members of KL pairs, with parameters that differ from the first
_KL_Q = {
    "Bernoulli": "D.Bernoulli(torch.tensor([0.5, 0.1]))",
    "Beta": "D.Beta(torch.tensor([1.5, 0.7]), torch.tensor([2.5, 1.0]))",
    "Binomial": "D.Binomial(10, torch.tensor([0.6, 0.1]))",
    "Categorical": "D.Categorical(torch.tensor([[0.3, 0.3, 0.4], [0.1, 0.1, 0.8]]))",
    "Cauchy": "D.Cauchy(torch.tensor([1.0, -1.0]), torch.tensor([0.5, 1.0]))",
    "ContinuousBernoulli": "D.ContinuousBernoulli(torch.tensor([0.6, 0.2]))",
    "Dirichlet": "D.Dirichlet(torch.tensor([[1.0, 1.0, 1.0], [2.0, 0.5, 3.0]]))",
    "Exponential": "D.Exponential(torch.tensor([1.5, 0.7]))",
    "Gamma": "D.Gamma(torch.tensor([1.5, 0.7]), torch.tensor([2.0, 1.0]))",
    "Geometric": "D.Geometric(torch.tensor([0.5, 0.1]))",
    "Gumbel": "D.Gumbel(torch.tensor([1.0, -1.0]), torch.tensor([0.5, 1.0]))",
    "HalfNormal": "D.HalfNormal(torch.tensor([0.5, 3.0]))",
    "Independent": "D.Independent(D.Normal(torch.tensor([[1.0, 0.0]]), torch.tensor([[2.0, 1.0]])), 1)",
    "Laplace": "D.Laplace(torch.tensor([1.0, -1.0]), torch.tensor([0.5, 1.0]))",
    "LowRankMultivariateNormal": (
        "D.LowRankMultivariateNormal(torch.tensor([1.0, 0.0]), torch.tensor([[0.3], [1.0]]), "
        "torch.tensor([0.5, 1.0]))"
    ),
    "MultivariateNormal": (
        "D.MultivariateNormal(torch.tensor([1.0, -1.0]), torch.tensor([[1.0, -0.3], [-0.3, 2.0]]))"
    ),
    "Normal": "D.Normal(torch.tensor([1.0, -1.0]), torch.tensor([0.5, 1.0]))",
    "OneHotCategorical": "D.OneHotCategorical(torch.tensor([[0.3, 0.3, 0.4], [0.1, 0.1, 0.8]]))",
    "Pareto": "D.Pareto(torch.tensor([0.5, 1.0]), torch.tensor([2.5, 1.5]))",
    "Poisson": "D.Poisson(torch.tensor([1.5, 0.7]))",
    "Uniform": "D.Uniform(torch.tensor([-1.0, 0.0]), torch.tensor([2.0, 4.0]))",
}

# first members where the table's ones above are not of the right shape (batch of 2)
_KL_P = {
    "Beta": "D.Beta(torch.tensor([0.5, 2.0]), torch.tensor([1.5, 3.0]))",
    "ContinuousBernoulli": "D.ContinuousBernoulli(torch.tensor([0.3, 0.8]))",
    "Gamma": "D.Gamma(torch.tensor([0.5, 2.0]), torch.tensor([1.0, 3.0]))",
    "Poisson": "D.Poisson(torch.tensor([0.5, 4.0]))",
    "Uniform": "D.Uniform(torch.tensor([0.2, 0.1]), torch.tensor([0.5, 0.9]))",
}

KL = {
    f"{p}||{q}": f"D.kl_divergence({_KL_P.get(p, DISTRIBUTIONS[p])}, {_KL_Q[q]})"
    for p, qs in _KL_PAIRS.items()
    for q in qs.split()
}
KL.update(
    {
        "expfamily_bregman(Poisson)": "D.kl.kl_divergence.__module__ and "
        "D.kl._kl_expfamily_expfamily(D.Poisson(torch.tensor([2.0])), D.Poisson(torch.tensor([3.0])))",
        "lognormal||lognormal": "D.kl_divergence(D.LogNormal(0.0, 1.0), D.LogNormal(1.0, 2.0))",
        "missing": "D.kl_divergence(D.VonMises(torch.tensor(0.0), torch.tensor(1.0)), D.Normal(0.0, 1.0))",
        "binomial_count": "D.kl_divergence(D.Binomial(5, torch.tensor(0.3)), D.Binomial(10, torch.tensor(0.3)))",
        "mvn_events": "D.kl_divergence(D.MultivariateNormal(torch.zeros(2), torch.eye(2)), D.MultivariateNormal(torch.zeros(3), torch.eye(3)))",
    }
)

_X = "torch.tensor([-1.5, -0.2, 0.0, 0.7, 2.0])"
_POS = "torch.tensor([0.1, 0.5, 1.0, 2.5])"
_UNIT = "torch.tensor([0.05, 0.3, 0.5, 0.9])"
_VEC = "torch.tensor([[0.3, -0.7, 1.2], [0.0, 0.5, -0.5]])"
_SQUARE = "torch.tensor([[0.5, 0.3], [-0.4, 0.2]])"
_T = "torch.distributions.transforms"

# the transforms without parameters, by their class names, with inputs in their domains
_PARAMETER_FREE = {
    **dict.fromkeys(("Exp", "Sigmoid", "Softplus", "Tanh", "Abs"), _X),
    **dict.fromkeys(("CorrCholesky", "Softmax", "StickBreaking"), _VEC),
    **dict.fromkeys(("LowerCholesky", "PositiveDefinite"), _SQUARE),
}


def _qualified(expr: str) -> str:
    """``expr`` with its transform names (``...Transform``, ``identity_transform``) taken
    from torch.distributions.transforms, so that the tables name them bare."""
    return re.sub(r"\b(\w*Transform|identity_transform)\b", rf"{_T}.\1", expr)


# the transforms with parameters or built from others, by their inputs
_BUILT = {
    _POS: {"Power": "PowerTransform(torch.tensor(2.5))", "InverseExp": "ExpTransform().inv"},
    _X: {
        "Affine": "AffineTransform(1.0, torch.tensor(-2.0))",
        "Compose": "ComposeTransform([ExpTransform(), AffineTransform(1.0, 3.0)])",
        "CumulativeDistribution": "CumulativeDistributionTransform(D.Normal(0.0, 1.0))",
        "Identity": "identity_transform",
    },
    _VEC: {
        "AffineEvent": "AffineTransform(torch.zeros(3), torch.tensor([1.0, 2.0, 3.0]), event_dim=1)",
        "Independent": "IndependentTransform(ExpTransform(), 1)",
        "Reshape": "ReshapeTransform((3,), (3, 1))",
        "Cat": "CatTransform([ExpTransform(), AffineTransform(0.0, 2.0)], dim=1, lengths=[1, 2])",
        "Stack": "StackTransform([ExpTransform(), SigmoidTransform(), TanhTransform()], dim=1)",
    },
}
TRANSFORMS = {name: (_qualified(f"{name}Transform()"), x) for name, x in _PARAMETER_FREE.items()}
TRANSFORMS.update(
    {name: (_qualified(expr), x) for x, exprs in _BUILT.items() for name, expr in exprs.items()}
)

TRANSFORM_METHODS = {
    "forward": "t(x)",
    "inverse": "t.inv(t(x))",
    "log_abs_det_jacobian": "t.log_abs_det_jacobian(x, t(x))",
    "repr": "repr(t)",
    "domain": "(repr(t.domain), t.domain.event_dim)",
    "codomain": "(repr(t.codomain), t.codomain.event_dim)",
    "bijective": "t.bijective",
    "sign": "t.sign",
    "forward_shape": "tuple(t.forward_shape(x.shape))",
    "inverse_shape": "tuple(t.inverse_shape(t(x).shape))",
    "event_dim": "t.event_dim",
}

_C = "torch.distributions.constraints"
CONSTRAINTS = {
    "real": f"{_C}.real.check(torch.tensor([1.0, float('nan'), float('inf')]))",
    "positive": f"{_C}.positive.check(torch.tensor([1.0, 0.0, -1.0]))",
    "nonnegative": f"{_C}.nonnegative.check(torch.tensor([1.0, 0.0, -1.0]))",
    "unit_interval": f"{_C}.unit_interval.check(torch.tensor([0.0, 0.5, 1.0, 1.5]))",
    "half_open": f"{_C}.half_open_interval(0.0, 1.0).check(torch.tensor([0.0, 1.0]))",
    "boolean": f"{_C}.boolean.check(torch.tensor([0.0, 1.0, 0.5]))",
    "nonnegative_integer": f"{_C}.nonnegative_integer.check(torch.tensor([0.0, 2.0, 1.5, -1.0]))",
    "positive_integer": f"{_C}.positive_integer.check(torch.tensor([0.0, 2.0]))",
    "integer_interval": f"{_C}.integer_interval(1, 3).check(torch.tensor([0.0, 1.0, 3.0, 2.5]))",
    "greater_than": f"{_C}.greater_than(2.0).check(torch.tensor([2.0, 3.0]))",
    "greater_than_eq": f"{_C}.greater_than_eq(2.0).check(torch.tensor([2.0, 1.0]))",
    "less_than": f"{_C}.less_than(2.0).check(torch.tensor([2.0, 1.0]))",
    "simplex": f"{_C}.simplex.check(torch.tensor([[0.2, 0.8], [0.5, 0.6], [-0.1, 1.1]]))",
    "one_hot": f"{_C}.one_hot.check(torch.tensor([[0.0, 1.0], [1.0, 1.0]]))",
    "multinomial": f"{_C}.multinomial(3).check(torch.tensor([[1.0, 2.0], [2.0, 2.0]]))",
    "lower_triangular": f"{_C}.lower_triangular.check(torch.tensor([[[1.0, 0.0], [1.0, 1.0]], [[1.0, 1.0], [0.0, 1.0]]]))",
    "lower_cholesky": f"{_C}.lower_cholesky.check(torch.tensor([[[1.0, 0.0], [1.0, 1.0]], [[1.0, 0.0], [1.0, -1.0]]]))",
    "corr_cholesky": f"{_C}.corr_cholesky.check(torch.tensor([[1.0, 0.0], [0.6, 0.8]]))",
    "square": f"{_C}.square.check(torch.zeros(2, 2, 3))",
    "symmetric": f"{_C}.symmetric.check(torch.tensor([[[1.0, 2.0], [2.0, 1.0]], [[1.0, 2.0], [0.0, 1.0]]]))",
    "positive_definite": f"{_C}.positive_definite.check(torch.tensor([[[2.0, 0.5], [0.5, 1.0]], [[1.0, 2.0], [2.0, 1.0]]]))",
    "positive_semidefinite": f"{_C}.positive_semidefinite.check(torch.tensor([[[1.0, 1.0], [1.0, 1.0]], [[1.0, 2.0], [2.0, 1.0]]]))",
    "real_vector": f"{_C}.real_vector.check(torch.tensor([[1.0, float('nan')], [1.0, 2.0]]))",
    "independent": f"{_C}.independent({_C}.positive, 1).check(torch.tensor([[1.0, 2.0], [1.0, -2.0]]))",
    "cat": f"{_C}.cat([{_C}.positive, {_C}.real], dim=0, lengths=[1, 2]).check(torch.tensor([-1.0, -1.0, 2.0]))",
    "stack": f"{_C}.stack([{_C}.positive, {_C}.real], dim=0).check(torch.tensor([-1.0, -1.0]))",
    "mixture": f"{_C}.MixtureSameFamilyConstraint({_C}.positive).check(torch.tensor([1.0, -1.0]))",
    "dependent": f"{_C}.dependent.check(torch.tensor(1.0))",
    "dependent_event_dim": f"{_C}.dependent.event_dim",
    "reprs": (
        f"[repr(c) for c in ({_C}.real, {_C}.positive, {_C}.unit_interval, {_C}.simplex, "
        f"{_C}.real_vector, {_C}.integer_interval(0, 3), {_C}.less_than(1.0), "
        f"{_C}.half_open_interval(0.0, 1.0), {_C}.nonnegative_integer, {_C}.corr_cholesky, "
        f"{_C}.positive_definite, {_C}.cat([{_C}.real]), {_C}.stack([{_C}.real]), "
        f"{_C}.MixtureSameFamilyConstraint({_C}.real), {_C}.multinomial(2), {_C}.one_hot, "
        f"{_C}.dependent, {_C}.boolean)]"
    ),
    "event_dims": f"[c.event_dim for c in ({_C}.real, {_C}.simplex, {_C}.lower_cholesky, {_C}.independent({_C}.simplex, 2), {_C}.stack([{_C}.real], dim=-1))]",
    "is_discrete": f"[c.is_discrete for c in ({_C}.real, {_C}.boolean, {_C}.nonnegative_integer, {_C}.independent({_C}.boolean, 1))]",
    "independent_dims": f"{_C}.independent({_C}.real, 2).check(torch.tensor([1.0]))",
}

_R = "D.constraint_registry"
for _name in (
    "real", "positive", "nonnegative", "unit_interval", "simplex", "real_vector",
    "lower_cholesky", "positive_definite", "corr_cholesky", "greater_than(1.5)",
    "less_than(2.0)", "interval(-1.0, 3.0)", "half_open_interval(0.0, 1.0)",
    "independent(torch.distributions.constraints.positive, 1)",
    "cat([torch.distributions.constraints.positive, torch.distributions.constraints.real], lengths=[1, 2])",
    "stack([torch.distributions.constraints.positive, torch.distributions.constraints.unit_interval])",
    "greater_than_eq(0.5)", "positive_semidefinite", "boolean",
):  # fmt: skip
    for _registry in ("biject_to", "transform_to"):
        CONSTRAINTS[f"{_registry}({_name})"] = f"repr(D.{_registry}({_C}.{_name}))"

VALIDATION = {
    "normal_scale": "D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, -1.0]))",
    "normal_nan": "D.Normal(float('nan'), 1.0)",
    "uniform_bounds": "D.Uniform(torch.tensor([2.0]), torch.tensor([1.0]))",
    "bernoulli_both": "D.Bernoulli(probs=torch.tensor(0.5), logits=torch.tensor(0.0))",
    "bernoulli_none": "D.Bernoulli()",
    "bernoulli_probs": "D.Bernoulli(torch.tensor([1.5]))",
    "categorical_scalar": "D.Categorical(torch.tensor(1.0))",
    "categorical_probs": "D.Categorical(torch.tensor([-0.1, 1.1]))",
    "dirichlet_scalar": "D.Dirichlet(torch.tensor(1.0))",
    "geometric_zero": "D.Geometric(torch.tensor([0.0, 0.5]))",
    "mvn_two": "D.MultivariateNormal(torch.zeros(2), torch.eye(2), scale_tril=torch.eye(2))",
    "mvn_loc": "D.MultivariateNormal(torch.tensor(0.0), torch.eye(2))",
    "mvn_cov": "D.MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]]))",
    "multinomial_count": "D.Multinomial(torch.tensor(3), torch.tensor([0.5, 0.5]))",
    "lkj_dim": "D.LKJCholesky(1)",
    "wishart_df": "D.Wishart(torch.tensor(0.5), torch.eye(2))",
    "independent_ndims": "D.Independent(D.Normal(torch.zeros(2), 1.0), 2)",
    "transformed_list": "D.TransformedDistribution(D.Normal(0.0, 1.0), 'exp')",
    "log_prob_type": "D.Normal(0.0, 1.0).log_prob(1.0)",
    "log_prob_event": "D.Dirichlet(torch.ones(3)).log_prob(torch.ones(2) / 2)",
    "log_prob_batch": "D.Normal(torch.zeros(3), 1.0).log_prob(torch.zeros(2))",
    "log_prob_support": "D.Exponential(torch.tensor([1.0, 2.0])).log_prob(torch.tensor([1.0, -1.0]))",
    "log_prob_support_integer": "D.Poisson(torch.tensor(2.0)).log_prob(torch.tensor(1.5))",
    "cdf_support": "D.Uniform(0.0, 1.0).cdf(torch.tensor(2.0))",
    "off_validation": "D.Normal(torch.tensor(0.0), torch.tensor(-1.0), validate_args=False).scale",
    "off_log_prob": "D.Exponential(torch.tensor(1.0), validate_args=False).log_prob(torch.tensor(-1.0))",
    "set_default": "D.Distribution.set_default_validate_args(3)",
    "custom_init_expand": "type('MyNormal', (D.Normal,), {'__init__': lambda self: D.Normal.__init__(self, 0.0, 1.0)})().expand((2,))",
    "mode_missing": "D.Distribution().mode",
    "rsample_missing": "D.Poisson(torch.tensor(1.0)).rsample()",
    "enumerate_inhomogeneous": "D.Binomial(torch.tensor([2.0, 3.0]), torch.tensor([0.5, 0.5])).enumerate_support()",
    "mixture_type": "D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(torch.zeros(2), 1.0))",
    "mixture_count": "D.MixtureSameFamily(D.Categorical(torch.ones(3)), D.Normal(torch.zeros(2), 1.0))",
    "broadcast_all": "D.utils.broadcast_all(torch.zeros(2), 'a')",
    "transform_cache": "torch.distributions.transforms.ExpTransform(cache_size=2)",
    "registry_type": "D.constraint_registry.ConstraintRegistry().register(3, lambda c: None)",
    "biject_missing": "D.biject_to(torch.distributions.constraints.boolean)",
    "lowrank_factor": "D.LowRankMultivariateNormal(torch.zeros(2), torch.ones(3, 1), torch.ones(2))",
    "sample_n": "D.Normal(torch.zeros(2), 1.0).sample_n(3)",
}

UTILS = {
    "broadcast_numbers": "D.utils.broadcast_all(1.0, 2)",
    "broadcast_mixed": "D.utils.broadcast_all(torch.zeros(2, 1, dtype=torch.float64), 3.0, torch.ones(3))",
    "logits_to_probs": "D.utils.logits_to_probs(torch.tensor([[0.5, -1.0, 2.0]]))",
    "logits_to_probs_binary": "D.utils.logits_to_probs(torch.tensor([0.5, -1.0]), is_binary=True)",
    "probs_to_logits": "D.utils.probs_to_logits(torch.tensor([0.0, 0.2, 0.8]))",
    "probs_to_logits_binary": "D.utils.probs_to_logits(torch.tensor([0.0, 0.2, 1.0]), is_binary=True)",
    "clamp_probs": "D.utils.clamp_probs(torch.tensor([0.0, 0.5, 1.0]))",
    "tril_to_vec": "D.utils.tril_matrix_to_vec(torch.arange(9.0).reshape(3, 3))",
    "tril_to_vec_diag": "D.utils.tril_matrix_to_vec(torch.arange(9.0).reshape(3, 3), diag=-1)",
    "vec_to_tril": "D.utils.vec_to_tril_matrix(torch.arange(1.0, 7.0))",
    "vec_to_tril_diag": "D.utils.vec_to_tril_matrix(torch.arange(1.0, 4.0), diag=-1)",
    "vec_to_tril_bad": "D.utils.vec_to_tril_matrix(torch.arange(1.0, 5.0))",
    "tril_to_vec_bad": "D.utils.tril_matrix_to_vec(torch.zeros(2, 2), diag=5)",
}

# reparameterised gradients of draws (with the seed fixed) and of log-probabilities
GRADIENTS = {
    "normal_rsample": ("D.Normal(p[0], p[1]).rsample((3,)).sum()", "[[0.5, 1.5], [1.0, 2.0]]"),
    "gamma_rsample": (
        "D.Gamma(p[0], p[1]).rsample((3,)).sum()",
        "[[0.5, 2.0, 9.0], [1.0, 3.0, 0.5]]",
    ),
    "gamma_rsample_large": (
        "D.Gamma(p[0], p[1]).rsample().sum()",
        "[[12.0, 20.0, 0.3], [1.0, 1.0, 1.0]]",
    ),
    "beta_rsample": (
        "D.Beta(p[0], p[1]).rsample((3,)).sum()",
        "[[0.5, 2.0, 8.0], [1.5, 3.0, 9.0]]",
    ),
    "dirichlet_rsample": (
        "(D.Dirichlet(p).rsample((2,)) * torch.tensor([1.0, 2.0, 3.0])).sum()",
        "[[0.5, 2.0, 1.0], [7.0, 8.0, 0.3]]",
    ),
    "chi2_rsample": ("D.Chi2(p[0]).rsample((2,)).sum()", "[[1.0, 3.0]]"),
    "studentt_rsample": ("D.StudentT(p[0]).rsample((2,)).sum()", "[[3.0, 5.0]]"),
    "exponential_rsample": ("D.Exponential(p[0]).rsample((2,)).sum()", "[[0.5, 2.0]]"),
    "laplace_rsample": ("D.Laplace(p[0], p[1]).rsample((2,)).sum()", "[[0.0, 1.0], [1.0, 2.0]]"),
    "mvn_rsample": (
        "D.MultivariateNormal(p[0], scale_tril=torch.tril(p[1:]) + torch.eye(2)).rsample((2,)).sum()",
        "[[0.0, 1.0], [1.0, 0.0], [0.5, 1.0]]",
    ),
    "normal_log_prob": (
        "D.Normal(p[0], p[1]).log_prob(torch.tensor([0.3, -1.0])).sum()",
        "[[0.5, 1.5], [1.0, 2.0]]",
    ),
    "gamma_log_prob": (
        "D.Gamma(p[0], p[1]).log_prob(torch.tensor([0.3, 1.0])).sum()",
        "[[0.5, 2.0], [1.0, 3.0]]",
    ),
    "beta_log_prob": (
        "D.Beta(p[0], p[1]).log_prob(torch.tensor([0.3, 0.6])).sum()",
        "[[0.5, 2.0], [1.5, 3.0]]",
    ),
    "entropy_expfamily": (
        "D.Gamma(p[0], p[1]).entropy().sum() + D.Bernoulli(p[1] / 4).entropy().sum()",
        "[[0.5, 2.0], [1.0, 3.0]]",
    ),
}


def _value(torch, v):
    """A JSON-able description of ``v``."""
    if isinstance(v, torch.Tensor):
        values = (
            v.detach().double().reshape(-1).tolist()
            if v.dtype != torch.bool
            else v.reshape(-1).tolist()
        )
        return {
            "tensor": [_number(x) for x in values],
            "shape": list(v.shape),
            "dtype": str(v.dtype),
            "grad_fn": type(v.grad_fn).__name__ if v.grad_fn is not None else None,
        }
    if isinstance(v, (tuple, list)):
        return [_value(torch, x) for x in v]
    if isinstance(v, torch.Size):
        return list(v)
    if isinstance(v, float):
        return _number(v)
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    return repr(v)


def _number(x):
    if isinstance(x, bool):
        return x
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)
    return x


def outcome(torch, code: str, names: dict | None = None):
    """Evaluate ``code`` after seeding; describe the result or the exception."""
    scope = {"torch": torch, "D": torch.distributions, **(names or {})}
    torch.manual_seed(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return {"value": _value(torch, eval(code, scope))}
    except Exception as error:  # noqa: BLE001 (the exception is the recorded outcome)
        return {"error": type(error).__name__, "message": str(error)}


def gradient_outcome(torch, code: str, params: str):
    """The value of ``code`` (a scalar of the float64 tensor ``p``) and its gradient."""
    p = torch.tensor(eval(params), dtype=torch.float64, requires_grad=True)
    torch.manual_seed(0)
    try:
        value = eval(code, {"torch": torch, "D": torch.distributions, "p": p})
        (grad,) = torch.autograd.grad(value, p)
        return {"value": _value(torch, value.detach()), "grad": _value(torch, grad)}
    except Exception as error:  # noqa: BLE001
        return {"error": type(error).__name__, "message": str(error)}


def record_all(torch) -> dict:
    """Every outcome, grouped (both interpreters call this)."""
    torch.set_default_dtype(torch.float64)
    try:
        groups = {}
        for name, ctor in DISTRIBUTIONS.items():
            groups[f"dist:{name}"] = {
                method: outcome(torch, f"(lambda d: {code})({ctor})")
                for method, code in METHODS.items()
            }
        groups["kl"] = {name: outcome(torch, code) for name, code in KL.items()}
        for name, (ctor, x) in TRANSFORMS.items():
            groups[f"transform:{name}"] = {
                method: outcome(torch, f"(lambda t, x: {code})({ctor}, {x})")
                for method, code in TRANSFORM_METHODS.items()
            }
        groups["constraints"] = {name: outcome(torch, code) for name, code in CONSTRAINTS.items()}
        groups["validation"] = {name: outcome(torch, code) for name, code in VALIDATION.items()}
        groups["utils"] = {name: outcome(torch, code) for name, code in UTILS.items()}
        groups["gradients"] = {
            name: gradient_outcome(torch, code, params)
            for name, (code, params) in GRADIENTS.items()
        }
        return groups
    finally:
        torch.set_default_dtype(torch.float32)
