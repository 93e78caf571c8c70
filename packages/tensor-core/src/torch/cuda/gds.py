"""torch.cuda.gds: GPUDirect Storage (cuFile) reads and writes between files and device
memory. Not supported by this project: without CUDA the calls fail as in PyTorch's CPU
build, with a runtime they raise ``NotImplementedError``."""

from __future__ import annotations

import os as _os

from . import _state

__all__ = ["gds_register_buffer", "gds_deregister_buffer", "GdsFile"]

_NOT_BUILT = "GPUDirect Storage (cuFile) is not supported by this project"


def _unavailable(binding: str) -> Exception:
    if _state.runtime() is None:  # PyTorch's builds without cuFile say so
        return RuntimeError(f"torch._C.{binding} is not supported on this platform")
    return NotImplementedError(_NOT_BUILT)


def gds_register_buffer(s) -> None:
    """Register the CUDA storage ``s`` with cuFile."""
    raise _unavailable("_gds_register_buffer")


def gds_deregister_buffer(s) -> None:
    """Deregister a storage registered with :func:`gds_register_buffer`."""
    raise _unavailable("_gds_deregister_buffer")


class GdsFile:
    """A file opened for GPUDirect Storage transfers (``load_storage``/``save_storage``)."""

    def __init__(self, filename: str, flags: int):
        self.filename = filename
        self.flags = flags
        # the file is opened first, as in PyTorch, so a missing file reports that
        _os.close(_os.open(filename, flags | getattr(_os, "O_DIRECT", 0)))
        raise _unavailable("_gds_register_handle")
