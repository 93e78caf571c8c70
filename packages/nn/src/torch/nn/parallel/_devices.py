"""The CUDA devices ``nn.parallel`` works on, read from core's CUDA runtime
(``torch._interface.backends.cuda_runtime``: simulated devices or CuPy's)."""

from __future__ import annotations

import torch
from torch._interface import backends

__all__ = ["runtime", "device_index", "cuda", "NO_ACCELERATOR"]

NO_ACCELERATOR = "Cannot access accelerator device when none is available."


def runtime():
    """The CUDA runtime, or None without CUDA devices."""
    return backends.cuda_runtime()


def device_index(device, optional: bool = False, allow_cpu: bool = False) -> int:
    """``device`` (an int, a string, a ``torch.device``) as a CUDA index (-1: the CPU)."""
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if device.type == "cpu" and allow_cpu:
            return -1
        if device.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        device = device.index
    if device is None:
        if not optional:
            raise ValueError(
                "Expected a torch.device with a specified index or an integer, but got:None"
            )
        rt = runtime()
        return rt.current_device() if rt is not None else 0
    return int(device)


def cuda(index: int) -> torch.device:
    return torch.device("cuda", index)
