"""torch.arange with 0-dim tensor bounds: they count as the numbers they hold."""

import torch


def test_tensor_bounds_keep_their_kind():
    result = torch.arange(torch.tensor(5))
    assert result.dtype == torch.int64 and result.tolist() == [0, 1, 2, 3, 4]
    result = torch.arange(torch.tensor(1.0), 3)
    assert result.dtype == torch.float32 and result.tolist() == [1.0, 2.0]
    assert torch.arange(0, torch.tensor(6), torch.tensor(2)).tolist() == [0, 2, 4]
