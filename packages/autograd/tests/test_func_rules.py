"""torch.func's machinery beyond the goldens: the loop fallback (warned once per op, same
values as a loop), which families have batching and JVP rules, the errors of ops without
a JVP rule, wrappers after their level exits, and nothing left interposed afterwards."""

import warnings

import pytest

import torch
import torch.autograd.forward_ad as fwAD  # noqa: N812 - PyTorch's spelling
from torch._interface import calls
from torch.autograd._transforms import _interpose, jvp_rules
from torch.func import _batching_rules, _vmap, grad, jacfwd, jvp, vmap

X = torch.arange(1.0, 13.0, dtype=torch.float64).reshape(3, 2, 2) / 7


def test_fallback_loops_and_warns_once_per_op():
    _vmap._FALLBACK_WARNED.discard("trace")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = vmap(torch.trace)(X)
        vmap(torch.trace)(X)
    messages = [str(w.message) for w in caught]
    assert sum("'trace'" in m for m in messages) == 1, messages
    torch.testing.assert_close(first, torch.stack([torch.trace(m) for m in X]))


def test_fallback_keeps_gradients():
    w = X.clone().requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        vmap(torch.trace)(w).sum().backward()
    torch.testing.assert_close(w.grad, torch.eye(2, dtype=torch.float64).expand(3, 2, 2))


@pytest.mark.parametrize(
    "name", ["add", "__mul__", "sum", "softmax", "reshape", "__getitem__", "matmul", "cat"]
)
def test_families_have_batching_rules(name):
    assert name in _batching_rules.RULES


@pytest.mark.parametrize("name", ["sin", "add", "matmul", "sum", "softmax", "__getitem__", "cat"])
def test_families_have_jvp_rules(name):
    assert name in jvp_rules.RULES


def test_jvp_without_rule_on_batched_tangents_names_the_op():
    with pytest.raises(
        RuntimeError, match="Trying to use forward AD with linalg_det that does not"
    ):
        jacfwd(torch.linalg.det)(X[0])


def test_generic_jvp_rule_on_plain_tensors():
    # no explicit rule for det: the JVP comes from its reverse-mode formula
    m = X[0] + torch.eye(2, dtype=torch.float64)
    t = torch.ones(2, 2, dtype=torch.float64)
    _, tangent = jvp(torch.linalg.det, (m,), (t,))
    expected = torch.trace(torch.linalg.det(m) * torch.linalg.inv(m) @ t)
    torch.testing.assert_close(tangent, expected)


def test_dual_tensor_after_its_level_is_its_primal():
    with fwAD.dual_level():
        dual = fwAD.make_dual(X, torch.ones_like(X))
    assert fwAD.unpack_dual(dual).tangent is None
    torch.testing.assert_close(dual * 2, X * 2)


def test_inplace_into_unbatched_from_batched_raises():
    with pytest.raises(RuntimeError, match="vmap: add_"):
        vmap(lambda a: torch.zeros(2, 2, dtype=torch.float64).add_(a))(X)


def test_nothing_stays_interposed():
    vmap(torch.sin)(X)
    assert _interpose._depth[0] == 0
    assert not calls.active()
    assert not hasattr(torch.sin, "__intercepted__")


def test_randomness_different_draws_per_example():
    torch.manual_seed(0)
    draws = vmap(lambda a: torch.rand_like(a), randomness="different")(X)
    assert not torch.equal(draws[0], draws[1])
    same = vmap(lambda a: torch.rand_like(a), randomness="same")(X)
    assert torch.equal(same[0], same[1])


def test_grad_keeps_the_graph_of_inputs_that_require_grad():
    x = torch.ones(3, dtype=torch.float64)
    g = grad(lambda a: (a * a).sum())(x)
    assert not g.requires_grad
    w = x.clone().requires_grad_()
    g = grad(lambda a: (a * a * a).sum())(w)
    assert g.requires_grad
    (second,) = torch.autograd.grad(g.sum(), w)
    torch.testing.assert_close(second, 6 * w.detach())


@pytest.mark.parametrize(
    "x", [[1.0, 2.0, 3.0], [1.0, 0.0, 3.0], [0.0, 0.0, 2.0]], ids=["plain", "one-zero", "zeros"]
)
def test_prod_jvp_is_the_product_of_the_others_with_zeros_exact(x):
    x = torch.tensor(x, dtype=torch.float64)
    others = torch.stack([torch.cat([x[:i], x[i + 1 :]]).prod() for i in range(3)])
    torch.testing.assert_close(jacfwd(torch.prod)(x), others)
    # along a dim: row r's product depends on row r only, through the others of the row
    rows = torch.stack([x, x.flip(0)])
    jacobian = jacfwd(lambda t: t.prod(1))(rows)  # (2, 2, 3)
    torch.testing.assert_close(jacobian[0, 0], others)
    torch.testing.assert_close(jacobian[1, 1], others.flip(0))
    assert not jacobian[0, 1].any() and not jacobian[1, 0].any()
    # second order (jacfwd of jacrev: batched tangents)
    hessian = torch.func.hessian(torch.prod)(x)
    for i in range(3):
        for j in range(3):
            rest = [x[k] for k in range(3) if k not in (i, j)]
            want = 0.0 if i == j else float(torch.stack(rest).prod()) if rest else 1.0
            assert hessian[i, j].item() == want


def test_flip_is_batched_along_the_example_dims():
    batch = torch.arange(8.0).reshape(2, 2, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a batching rule: no per-example loop
        out = vmap(lambda t: torch.flip(t, (0, 1)))(batch)
    torch.testing.assert_close(out, torch.stack([t.flip(0, 1) for t in batch]))
