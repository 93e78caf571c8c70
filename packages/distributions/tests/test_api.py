"""Public names against PyTorch 2.13's (golden/public_names.json, recorded by
tools/golden/record_distributions.py), and behaviours of the base classes that the
golden cases do not show."""

from __future__ import annotations

import importlib
import json
import pathlib
import pickle
import warnings

import pytest

import torch
import torch.distributions as D  # noqa: N812
from torch.distributions import constraints, transforms
from torch.distributions.utils import lazy_property

# the package's own public names in PyTorch (imports from elsewhere left out)
NAMES = json.loads((pathlib.Path(__file__).parent / "golden" / "public_names.json").read_text())


@pytest.mark.parametrize("module", sorted(NAMES))
def test_public_names_match_pytorch(module):
    ours = {n for n in dir(importlib.import_module(module)) if not n.startswith("_")}
    assert sorted(set(NAMES[module]) - ours) == []
    exported = set(getattr(importlib.import_module(module), "__all__", ()))
    assert exported <= set(NAMES[module])


def test_validation_default_switch():
    try:
        D.Distribution.set_default_validate_args(False)
        assert D.Normal(0.0, -1.0).scale.item() == -1.0
    finally:
        D.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError, match="constraint GreaterThan"):
        D.Normal(0.0, -1.0)


def test_sample_n_warns_and_samples():
    with pytest.warns(FutureWarning, match="sample_n"):
        assert D.Normal(torch.zeros(2), 1.0).sample_n(3).shape == (3, 2)


def test_expand_shares_parameters():
    d = D.Normal(torch.zeros(2), torch.ones(2))
    e = d.expand((3, 2))
    assert e.batch_shape == (3, 2) and e.loc.data_ptr() == d.loc.data_ptr()
    assert e._validate_args == d._validate_args


def test_lazy_property_is_computed_once_with_grad():
    logits = torch.tensor([0.3, -1.0], requires_grad=True)
    d = D.Bernoulli(logits=logits)
    assert isinstance(type(d).__dict__["probs"], lazy_property)
    with torch.no_grad():
        probs = d.probs  # computed with grad enabled all the same
    assert probs.requires_grad and d.probs is probs


def test_rsample_is_differentiable_and_sample_is_not():
    loc = torch.tensor([0.5], requires_grad=True)
    assert D.Normal(loc, 1.0).rsample().requires_grad
    assert not D.Normal(loc, 1.0).sample().requires_grad
    with pytest.raises(NotImplementedError):
        D.Poisson(torch.tensor(1.0)).rsample()


def test_transform_cache_and_inverse_identity():
    t = transforms.ExpTransform(cache_size=1)
    x = torch.tensor([0.5])
    y = t(x)
    assert t(x) is y and t.inv(y) is x
    assert t.inv.inv is t and t.with_cache(0)._cache_size == 0
    assert transforms.ExpTransform() == transforms.ExpTransform()
    assert transforms.AffineTransform(1.0, 2.0) == transforms.AffineTransform(1.0, 2.0)
    assert transforms.AffineTransform(1.0, 2.0) != transforms.AffineTransform(1.0, 3.0)


def test_transforms_pickle_without_their_inverse():
    t = transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(0.0, 2.0)]
    )
    _ = t.inv
    back = pickle.loads(pickle.dumps(t))
    assert back(torch.tensor([0.0])).item() == 2.0


def test_biject_to_round_trip():
    for constraint in (constraints.positive, constraints.simplex, constraints.corr_cholesky,
                       constraints.interval(-2.0, 3.0), constraints.lower_cholesky):  # fmt: skip
        t = D.transform_to(constraint)
        x = torch.randn(t.inverse_shape(torch.Size([3, 3])) if constraint.event_dim == 2 else (4,))
        y = t(x)
        assert bool(constraint.check(y).all())


def test_register_kl_and_dispatch_to_subclass():
    class MyNormal(D.Normal):
        pass

    p, q = MyNormal(0.0, 1.0), MyNormal(1.0, 1.0)
    assert torch.allclose(D.kl_divergence(p, q), torch.tensor(0.5))

    @D.register_kl(MyNormal, MyNormal)
    def _kl(p, q):
        return torch.tensor(7.0)

    try:
        assert D.kl_divergence(p, q).item() == 7.0
    finally:
        D.kl._KL_REGISTRY.pop((MyNormal, MyNormal))
        D.kl._KL_MEMOIZE.clear()
    with pytest.raises(TypeError, match=r"issubclass\(\) arg 1 must be a class"):
        D.register_kl(3, D.Normal)


def test_register_kl_accepts_any_class():
    # PyTorch checks nothing more: pyro registers KLs for its own Distribution base class
    class Foreign:
        pass

    D.register_kl(Foreign, D.Normal)(lambda p, q: torch.tensor(0.0))
    try:
        assert (Foreign, D.Normal) in D.kl._KL_REGISTRY
    finally:
        D.kl._KL_REGISTRY.pop((Foreign, D.Normal))
        D.kl._KL_MEMOIZE.clear()


def test_ambiguous_kl_warns():
    class A(D.Normal):
        pass

    class B(D.Normal):
        pass

    D.register_kl(A, D.Normal)(lambda p, q: torch.tensor(1.0))
    D.register_kl(D.Normal, B)(lambda p, q: torch.tensor(2.0))
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            D.kl_divergence(A(0.0, 1.0), B(0.0, 1.0))
        assert any("Ambiguous kl_divergence(A, B)" in str(w.message) for w in caught)
    finally:
        D.kl._KL_REGISTRY.pop((A, D.Normal))
        D.kl._KL_REGISTRY.pop((D.Normal, B))
        D.kl._KL_MEMOIZE.clear()


def test_samplers_leave_the_generator_where_pytorch_does():
    # draws after a rejection sampler continue the same stream (golden: sample_then_rand)
    g = torch.Generator().manual_seed(3)
    torch.poisson(torch.tensor([5.0, 20.0]), generator=g)
    state = g.get_state()
    assert torch.equal(state, g.get_state())
