"""Whether an ONNX export is running (``torch.onnx.is_in_onnx_export``)."""

from __future__ import annotations

import contextlib

__all__ = ["is_in_onnx_export", "exporting"]

_exporting = [False]


def is_in_onnx_export() -> bool:
    """True while :func:`torch.onnx.export` runs the model (so that code can take a path
    that exports well).

        >>> torch.onnx.is_in_onnx_export()
        False
    """
    return _exporting[0]


@contextlib.contextmanager
def exporting():
    previous = _exporting[0]
    _exporting[0] = True
    try:
        yield
    finally:
        _exporting[0] = previous
