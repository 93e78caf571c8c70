"""``torch.distributed.constants``: the default process-group timeouts, at PyTorch's
module path (lightning imports ``default_pg_timeout`` from here).
``default_pg_nccl_timeout`` is ``None`` as in a PyTorch build without NCCL."""

from .distributed_c10d import default_pg_timeout

__all__ = ["default_pg_timeout", "default_pg_nccl_timeout"]

default_pg_nccl_timeout = None
