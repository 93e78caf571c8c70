"""``torch.nn.parallel``: :class:`DataParallel` (on the CPU it runs the wrapped module
directly, as PyTorch does without CUDA devices)."""

from .data_parallel import DataParallel, data_parallel

__all__ = ["DataParallel", "data_parallel"]
