"""Sparse COO tensors against outputs recorded from real PyTorch (golden/sparse.json,
written by tools/golden/record_sparse.py), plus properties against NumPy."""

import numpy as np
import pytest
import sparse_cases

import torch


@pytest.fixture(scope="module")
def cases(golden):
    return golden("sparse")


# cases that record gradients need torch-autograd (absent from core's own test session)
_GRADIENT_WORDS = ("requires_grad=True", "requires_grad_(", "backward(", ".grad")


def _names():
    return [
        pytest.param(
            name,
            marks=[pytest.mark.autograd] if any(w in code for w in _GRADIENT_WORDS) else [],
        )
        for name, code in sparse_cases.CASES.items()
    ]


def _compare(name, ours, expected):
    if isinstance(expected, list):
        assert isinstance(ours, list) and len(ours) == len(expected)
        for a, b in zip(ours, expected):
            _compare(name, a, b)
    elif isinstance(expected, dict) and expected.get("sparse"):
        assert isinstance(ours, dict) and ours.get("sparse"), ours
        keys = ("size", "dtype", "dense")
        if not name.endswith("~"):
            keys += ("repr", "nnz", "coalesced")
        assert {k: ours[k] for k in keys} == {k: expected[k] for k in keys}
    else:
        assert ours == expected


@pytest.mark.parametrize("name", _names())
def test_matches_pytorch(cases, name):
    recorded = cases[name]
    assert recorded["code"] == sparse_cases.CASES[name], "re-record: tools/golden/record_sparse.py"
    ours = sparse_cases.outcome(torch, recorded["code"])
    if "error" in recorded:
        assert ours.get("error") == recorded["error"], ours
        if name.endswith("!"):
            assert ours["message"] == recorded["message"]
    else:
        assert "error" not in ours, ours
        _compare(name, ours["value"], recorded["value"])


def _random_sparse(rng, shape, nnz, dense_shape=()):
    indices = np.stack([rng.integers(0, n, nnz) for n in shape])
    values = rng.standard_normal((nnz,) + dense_shape)
    return indices, values


def _numpy_dense(indices, values, shape):
    dense = np.zeros(shape + values.shape[1:])
    np.add.at(dense, tuple(indices), values)
    return dense


@pytest.mark.parametrize("seed", range(5))
def test_to_dense_and_coalesce_match_numpy(seed):
    rng = np.random.default_rng(seed)
    shape, dense_shape = (4, 5), ((), (2,))[seed % 2]
    indices, values = _random_sparse(rng, shape, 12, dense_shape)
    s = torch.sparse_coo_tensor(torch.tensor(indices), torch.tensor(values), shape + dense_shape)
    expected = _numpy_dense(indices, values, shape)
    np.testing.assert_allclose(s.to_dense().numpy(), expected)
    c = s.coalesce()
    flat = np.ravel_multi_index(tuple(c.indices().numpy()), shape)
    assert c.is_coalesced() and np.all(np.diff(flat) > 0)
    np.testing.assert_allclose(c.to_dense().numpy(), expected)


@pytest.mark.parametrize("seed", range(5))
def test_mm_and_sum_match_numpy(seed):
    rng = np.random.default_rng(seed)
    indices, values = _random_sparse(rng, (6, 4), 9)
    s = torch.sparse_coo_tensor(torch.tensor(indices), torch.tensor(values), (6, 4))
    dense = rng.standard_normal((4, 3))
    expected = _numpy_dense(indices, values, (6, 4))
    np.testing.assert_allclose(torch.sparse.mm(s, torch.tensor(dense)).numpy(), expected @ dense)
    np.testing.assert_allclose(torch.sparse.sum(s).item(), expected.sum())
    np.testing.assert_allclose(torch.sparse.sum(s, 1).to_dense().numpy(), expected.sum(1))
    np.testing.assert_allclose((s + s.t().t()).to_dense().numpy(), 2 * expected)


def test_to_sparse_round_trip_keeps_values_and_order():
    x = torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]])
    s = x.to_sparse()
    assert s.indices().tolist() == [[0, 1, 1], [1, 0, 2]]
    assert s.to_dense().tolist() == x.tolist()


def test_in_place_add_and_mul():
    s = torch.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3,))
    s.mul_(2)
    s.add_(torch.sparse_coo_tensor([[2]], [5.0], (3,)))
    assert s.to_dense().tolist() == [2.0, 4.0, 5.0]


@pytest.mark.autograd
def test_leaf_gradient_is_sparse_with_the_same_pattern():
    s = torch.sparse_coo_tensor([[0, 0, 1]], [1.0, 2.0, 3.0], (2,), requires_grad=True)
    (s.to_dense() * torch.tensor([10.0, 20.0])).sum().backward()
    assert s.grad.is_sparse and s.grad._indices().tolist() == [[0, 0, 1]]
    assert s.grad._values().tolist() == [10.0, 10.0, 20.0]


def test_dense_ops_reject_sparse_tensors_with_not_implemented():
    s = torch.sparse_coo_tensor([[0]], [1.0], (2,))
    for op in (torch.exp, torch.sigmoid, lambda x: x[0], lambda x: torch.cat([x, x])):
        with pytest.raises(NotImplementedError, match="sparse"):
            op(s)


def test_dense_functions_take_sparse_through_their_kernels_only():
    # the dense path never sees the sparse kernels: plain tensors still work as before
    a = torch.ones(2, 2)
    assert torch.add(a, a).tolist() == [[2.0, 2.0]] * 2
    assert torch.mm(a, a).tolist() == [[2.0, 2.0]] * 2
    assert torch.t(torch.arange(4).view(2, 2)).tolist() == [[0, 2], [1, 3]]
