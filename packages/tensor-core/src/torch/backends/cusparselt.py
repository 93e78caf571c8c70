"""torch.backends.cusparselt: NVIDIA's cuSPARSELt (2:4 structured sparsity), not built here."""

from __future__ import annotations

__all__ = ["version", "is_available", "get_max_alg_id"]


def version() -> int | None:
    """cuSPARSELt's version, or ``None`` when it is not available (always, here)."""
    return None


def is_available() -> bool:
    """Whether cuSPARSELt can be used (``False``: this project does not bind it)."""
    return False


def get_max_alg_id() -> int | None:
    """The largest cuSPARSELt algorithm id, or ``None`` without cuSPARSELt."""
    return None
