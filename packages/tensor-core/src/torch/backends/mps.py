"""torch.backends.mps: Apple's Metal Performance Shaders, not built here."""

from __future__ import annotations

__all__ = [
    "is_built",
    "is_available",
    "is_macos13_or_newer",
    "is_macos_or_newer",
    "get_name",
    "get_core_count",
]


def is_built() -> bool:
    """Whether this build has the MPS backend (``False``)."""
    return False


def is_available() -> bool:
    """Whether an MPS device can be used (``False``)."""
    return False


def is_macos_or_newer(major: int, minor: int) -> bool:
    """Needs the MPS backend: raises ``RuntimeError`` here, as PyTorch builds without it do."""
    raise RuntimeError("Cannot execute isOnMacOSorNewer() without MPS backend.")


def is_macos13_or_newer(minor: int = 0) -> bool:
    """Needs the MPS backend: raises ``RuntimeError`` here."""
    return is_macos_or_newer(13, minor)


def get_name() -> str:
    """The Metal device's name; needs the MPS backend."""
    raise AttributeError("module 'torch._C' has no attribute '_mps_get_name'")


def get_core_count() -> int:
    """The Metal device's GPU core count; needs the MPS backend."""
    raise AttributeError("module 'torch._C' has no attribute '_mps_get_core_count'")
