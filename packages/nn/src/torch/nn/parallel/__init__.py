"""``torch.nn.parallel``: :class:`DataParallel` (on the CPU it runs the wrapped module
directly, as PyTorch does without CUDA devices)."""

from .data_parallel import DataParallel, data_parallel

__all__ = ["DataParallel", "data_parallel"]


def __getattr__(name: str):
    # DistributedDataParallel ships in torch-distributed, which depends on torch-nn:
    # imported on first use, so torch.nn works without it.
    if name == "DistributedDataParallel":
        try:
            from torch.distributed.ddp import DistributedDataParallel
        except ImportError as error:
            raise ImportError(
                "torch.nn.parallel.DistributedDataParallel is provided by the "
                "torch-distributed package: pip install torch-distributed"
            ) from error
        return DistributedDataParallel
    raise AttributeError(f"module 'torch.nn.parallel' has no attribute '{name}'")
