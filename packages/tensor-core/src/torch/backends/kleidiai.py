"""torch.backends.kleidiai: Arm's KleidiAI micro-kernels, not built here."""

from __future__ import annotations

__all__ = ["is_available"]


def is_available() -> bool:
    """Whether the KleidiAI kernels were built in (``False``)."""
    return False
