"""Reductions and dim-taking ops on 0-dim tensors: as PyTorch, dim 0 (or -1) names the
tensor's one element (the result is 0-dim); other dims are out of range."""

import pytest

import torch

X = torch.tensor(0.3)


@pytest.mark.parametrize(
    "name", ["sum", "mean", "prod", "amax", "amin", "all", "any", "logsumexp", "nansum",
             "nanmean", "count_nonzero", "flip", "cumsum", "softmax"],
)  # fmt: skip
@pytest.mark.parametrize("dim", [0, -1])
def test_dim_0_of_a_0_dim_tensor_is_its_element(name, dim):
    result = getattr(X, name)(dim)
    assert result.shape == ()


def test_median_and_std_along_dim_0_of_a_0_dim_tensor():
    values, indices = X.median(0)
    assert values.item() == pytest.approx(0.3) and indices.item() == 0
    assert torch.isnan(X.std(0))  # one element: n - 1 = 0


@pytest.mark.autograd
def test_gradient_of_a_sum_along_dim_0_of_a_0_dim_tensor():
    leaf = torch.tensor(2.0, requires_grad=True)
    leaf.sum(0).backward()
    assert leaf.grad.item() == 1.0 and leaf.sum(0, keepdim=True).shape == ()


def test_other_dims_of_a_0_dim_tensor_are_out_of_range():
    with pytest.raises(IndexError, match="Dimension out of range"):
        X.sum(1)
    with pytest.raises(IndexError, match="tensor has no dimensions"):
        X.unbind(0)
