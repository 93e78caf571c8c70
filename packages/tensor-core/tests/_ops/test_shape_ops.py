"""Shape ops (torch._ops.shape_ops) beyond the goldens: argument forms PyTorch accepts."""

import pytest

import torch


def test_tile_takes_dims_as_varargs_a_sequence_or_a_keyword():
    x = torch.arange(6).view(2, 3)
    assert x.tile(2).shape == (2, 6)
    assert x.tile(2, 1).shape == (4, 3)
    assert x.tile((2, 1)).shape == (4, 3)
    assert torch.tile(x, (2,)).shape == (2, 6)
    assert x.tile(0).shape == (2, 0)
    assert x.tile([1, 2, 2]).shape == (1, 4, 6)
    assert x.tile(dims=(2,)).tolist() == [[0, 1, 2, 0, 1, 2], [3, 4, 5, 3, 4, 5]]
    with pytest.raises(TypeError, match="multiple values for argument 'dims'"):
        x.tile((2,), dims=(2,))
