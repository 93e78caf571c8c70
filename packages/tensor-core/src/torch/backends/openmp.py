"""torch.backends.openmp: OpenMP. torch._C runs its parallel loops on its own thread pool,
so no OpenMP runtime is used."""

from __future__ import annotations

__all__ = ["is_available"]


def is_available() -> bool:
    """Whether the CPU kernels use OpenMP (``False``: torch._C has its own thread pool)."""
    return False
