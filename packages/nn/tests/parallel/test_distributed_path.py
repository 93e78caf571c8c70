"""torch.nn.parallel.distributed: PyTorch's module path of DistributedDataParallel
(lightning imports it from there); the class comes from torch-distributed on first use."""

import importlib.util

import pytest


def test_module_imports_and_resolves_ddp():
    import torch.nn.parallel.distributed as distributed

    try:
        installed = importlib.util.find_spec("torch.distributed.ddp") is not None
    except ModuleNotFoundError:  # torch-distributed absent: the sibling finder says so
        installed = False
    if not installed:
        with pytest.raises(ImportError, match="pip install torch-distributed"):
            distributed.DistributedDataParallel  # noqa: B018
    else:
        from torch.distributed.ddp import DistributedDataParallel

        assert distributed.DistributedDataParallel is DistributedDataParallel
    with pytest.raises(AttributeError, match="has no attribute 'other'"):
        distributed.other  # noqa: B018
