"""torch.cuda: the CUDA device API. No CUDA backend is built yet, so every query says
so and nothing that would need a GPU pretends to work."""

from __future__ import annotations

__all__ = ["is_available", "device_count", "current_device", "manual_seed", "manual_seed_all"]


def is_available() -> bool:
    """Whether a CUDA device can be used (always ``False``: the CUDA backend is not built).

    Examples::

        >>> import torch
        >>> torch.cuda.is_available()
        False
    """
    return False


def device_count() -> int:
    """Number of usable CUDA devices (0)."""
    return 0


def current_device() -> int:
    raise RuntimeError("Torch not compiled with CUDA enabled")


def manual_seed(seed: int) -> None:
    """Seed the CUDA generators; silently does nothing without CUDA, as in PyTorch."""


def manual_seed_all(seed: int) -> None:
    """Seed every CUDA device's generator; silently does nothing without CUDA."""
