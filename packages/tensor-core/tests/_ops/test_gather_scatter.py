"""Ops of the gather/scatter family (torch._ops.gather_scatter) beyond the goldens:
argument forms PyTorch accepts."""

import pytest

import torch


def test_flip_takes_dims_by_position_varargs_or_keyword():
    x = torch.arange(6.0).view(2, 3)
    expected = [[5.0, 4.0, 3.0], [2.0, 1.0, 0.0]]
    assert torch.flip(x, dims=(0, 1)).tolist() == expected
    assert torch.flip(x, [0, 1]).tolist() == expected
    assert x.flip(0, 1).tolist() == expected
    assert x.flip(dims=[1]).tolist() == [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]
    with pytest.raises(TypeError, match="multiple values for argument 'dims'"):
        torch.flip(x, (0,), dims=(1,))
    with pytest.raises(TypeError, match="missing 1 required positional arguments"):
        torch.flip(x)
