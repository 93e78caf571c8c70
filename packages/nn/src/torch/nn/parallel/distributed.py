"""``torch.nn.parallel.distributed``: the module path under which PyTorch defines
:class:`DistributedDataParallel` (libraries import it from here). The class ships in
torch-distributed, which depends on torch-nn: it is imported on first use, so this module
imports without it."""

__all__ = ["DistributedDataParallel"]  # noqa: F822 (resolved by __getattr__)


def __getattr__(name: str):
    if name == "DistributedDataParallel":
        from torch.nn import parallel

        return parallel.DistributedDataParallel
    raise AttributeError(f"module 'torch.nn.parallel.distributed' has no attribute '{name}'")
