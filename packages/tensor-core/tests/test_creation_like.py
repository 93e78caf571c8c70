"""zeros_like / ones_like / empty_like / full_like with memory_format (strides are
compared with PyTorch in test_expressions' api_gaps group)."""

import pytest

import torch

LIKE = [
    lambda x, **k: torch.zeros_like(x, **k),
    lambda x, **k: torch.ones_like(x, **k),
    lambda x, **k: torch.empty_like(x, **k),
    lambda x, **k: torch.full_like(x, 3, **k),
]


@pytest.mark.parametrize("like", LIKE)
def test_preserve_format_keeps_dim_order(like):
    x = torch.zeros(2, 3, 4, 5).permute(0, 2, 3, 1)
    assert like(x).stride() == (60, 5, 1, 20)
    assert like(x, memory_format=torch.preserve_format).stride() == (60, 5, 1, 20)
    assert like(x, memory_format=torch.contiguous_format).is_contiguous()


@pytest.mark.parametrize("like", LIKE)
def test_channels_last_needs_rank_four(like):
    assert like(torch.zeros(2, 3, 4, 5), memory_format=torch.channels_last).stride() == (
        60,
        1,
        15,
        3,
    )
    with pytest.raises(RuntimeError, match="required rank 4"):
        like(torch.zeros(2, 3), memory_format=torch.channels_last)


def test_bad_memory_format_is_a_type_error():
    with pytest.raises(TypeError, match="memory_format"):
        torch.zeros_like(torch.zeros(2), memory_format="channels_last")


@pytest.mark.autograd
def test_requires_grad_and_dtype():
    y = torch.ones_like(torch.zeros(2, dtype=torch.int32), dtype=torch.float64, requires_grad=True)
    assert y.requires_grad and y.dtype is torch.float64
