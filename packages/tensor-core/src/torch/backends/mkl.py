"""torch.backends.mkl: Intel MKL.

MKL is used when the optional ``mkl`` wheel is installed (``pip install torch-core[mkl]``):
torch._C then sends float matrix products to it (and the optimizer kernels use its
square root), which is what :func:`is_available` reports.
"""

from __future__ import annotations

from . import _UnbuiltVerbose

__all__ = ["is_available", "VERBOSE_OFF", "VERBOSE_ON", "verbose"]

VERBOSE_OFF = 0
VERBOSE_ON = 1


def is_available() -> bool:
    """Whether matrix products run on Intel MKL in this installation (the ``mkl`` wheel is
    installed, the native core is on and ``TORCH_BLAS`` does not choose another library).

    Examples::

        >>> isinstance(torch.backends.mkl.is_available(), bool)
        True
    """
    from .. import _native

    if not _native.ENABLED:
        return False
    path = _native.blas_library_path()
    return path is not None and path == _native._mkl_library_path()


class verbose(_UnbuiltVerbose):  # noqa: N801 - PyTorch's name
    """Context manager for MKL's verbose log. MKL's log is not wired up here, so entering
    with ``VERBOSE_ON`` raises, as PyTorch does when MKL cannot turn it on."""

    _library = "MKL"

    def __init__(self, enable):
        self.enable = enable

    def _level(self) -> int:
        return self.enable
