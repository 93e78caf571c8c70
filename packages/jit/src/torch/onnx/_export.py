"""The ONNX exporter: a traced graph of :mod:`torch.jit._ir` -> an ONNX model.

Not built yet: its operator coverage arrives in a later release of torch-jit. The
entry point checks its arguments and says so.
"""

from __future__ import annotations

__all__ = ["export"]


def export(model, args=(), f=None, **options):
    """Export ``model`` run on ``args`` to ONNX (see :func:`torch.onnx.export`)."""
    raise NotImplementedError(
        "torch.onnx.export is not built yet in this version of torch-jit: the graph IR "
        "(torch.jit.trace) exists, its translation to ONNX operators does not"
    )
