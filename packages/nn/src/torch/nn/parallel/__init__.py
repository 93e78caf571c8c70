"""``torch.nn.parallel``: single-process multi-GPU work. :class:`DataParallel` and its
parts: :func:`replicate` (copies of a module on several devices), :func:`scatter`
(inputs split over devices), :func:`parallel_apply` (a thread per device) and
:func:`gather` (outputs back on one device). Without CUDA devices ``DataParallel`` runs
the module directly, as PyTorch does."""

from .data_parallel import DataParallel, data_parallel
from .parallel_apply import parallel_apply
from .replicate import replicate
from .scatter_gather import gather, scatter

__all__ = ["DataParallel", "data_parallel", "gather", "parallel_apply", "replicate", "scatter"]


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
