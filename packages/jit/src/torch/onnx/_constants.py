"""Opset bounds of the exporter."""

from __future__ import annotations

__all__ = ["MIN_OPSET", "DEFAULT_OPSET", "max_opset", "producer_version"]

#: the oldest opset the exporter writes (Squeeze/Unsqueeze/ReduceSum take axes as inputs)
MIN_OPSET = 13
#: the opset used when none is given (PyTorch 2.13's default)
DEFAULT_OPSET = 20


def max_opset() -> int:
    """The newest opset the installed ``onnx`` knows."""
    import onnx

    return onnx.defs.onnx_opset_version()


def producer_version() -> str:
    import torch

    return str(getattr(torch, "__version__", "unknown"))
