"""torch.distributed.constants: the default timeouts at PyTorch's module path (lightning
imports default_pg_timeout from there); values as PyTorch 2.13's CPU build."""

from datetime import timedelta

import torch.distributed.constants as constants


def test_defaults():
    assert constants.default_pg_timeout == timedelta(seconds=1800)
    assert constants.default_pg_nccl_timeout is None
    assert constants.__all__ == ["default_pg_timeout", "default_pg_nccl_timeout"]
