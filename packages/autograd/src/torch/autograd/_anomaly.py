"""The state of anomaly mode and what the engine does differently under it: each node
keeps the stack of the forward call that made it, and each backward result is checked
for NaN."""

from __future__ import annotations

import os
import traceback
import warnings
from dataclasses import dataclass

import torch

__all__ = ["state", "attach_trace", "checked_apply"]


@dataclass(slots=True)
class _State:
    enabled: bool = False
    check_nan: bool = True


state = _State()


# frames inside the torch packages are left out of the traces shown to the user
_PACKAGE_DIRS = tuple(os.path.join(path, "") for path in torch.__path__)


def attach_trace(node) -> None:
    """Remember where in the user's code ``node`` was recorded."""
    frames = [f for f in traceback.extract_stack() if not f.filename.startswith(_PACKAGE_DIRS)]
    node._get_extra().trace = traceback.format_list(frames)


def _warn_trace(node) -> None:
    extra = node._extra
    trace = None if extra is None else extra.trace
    if trace is None:
        message = (
            f"Error detected in {node.name()}. No forward pass information available. "
            "Enable detect anomaly during forward pass for more information."
        )
    else:
        message = (
            f"Error detected in {node.name()}. Traceback of forward call that caused the "
            "error:\n" + "".join(trace)
        )
    warnings.warn(message, UserWarning, stacklevel=4)


def checked_apply(node, grad) -> tuple:
    """``node.apply(grad)``, reporting the forward trace when it fails or (with
    ``check_nan``) returns NaN."""
    try:
        grads = node.apply(grad)
    except Exception:
        _warn_trace(node)
        raise
    if state.check_nan:
        for i, g in enumerate(grads):
            if isinstance(g, torch.Tensor) and bool(torch.isnan(g).any()):
                _warn_trace(node)
                raise RuntimeError(
                    f"Function '{node.name()}' returned nan values in its {i}th output."
                )
    return grads
