"""Communication hooks of DistributedDataParallel (``register_comm_hook``)."""

from . import default_hooks

__all__ = ["default_hooks"]
