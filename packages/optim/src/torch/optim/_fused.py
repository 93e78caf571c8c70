"""The bridge to torch-core's native optimizer kernels (:mod:`torch._interface.optim`).

An optimizer whose algorithm declares a native kernel updates dense, C-contiguous
float32/float64 CPU tensors with one kernel call per dtype of a parameter group (with or
without ``foreach``: the same arithmetic): one pass over memory, rounding exactly as
PyTorch's single-tensor update does (tests/golden/fused_steps.json checks it bit for
bit). Everything else takes the algorithm's tensor-op reference update, which is also
the whole story on a core without native kernels (a pure build, ``TORCH_NATIVE=0``) and
under ``TORCH_OPTIM_KERNELS=0``.
"""

from __future__ import annotations

import os

import torch
from torch._interface import optim as native_optim

__all__ = ["ENABLED", "enabled", "batches", "sqrt_"]

#: False under ``TORCH_OPTIM_KERNELS=0``: the tensor-op reference updates only
ENABLED = os.environ.get("TORCH_OPTIM_KERNELS", "1") != "0"

_FLOATS = (torch.float32, torch.float64)


def enabled() -> bool:
    """Whether the native kernels serve (turned on, and torch-core has them)."""
    return ENABLED and native_optim.available()


def _flat(tensors) -> list | None:
    """Flat NumPy views of ``tensors`` (the parameter first) when the kernels can serve
    them all: one float dtype, CPU, C-contiguous, as many elements as the parameter."""
    first = tensors[0]
    dtype = first.dtype
    if dtype not in _FLOATS or first.device.type != "cpu":
        return None
    size = first.numel()
    views = []
    for t in tensors:
        sparse = getattr(t, "is_sparse", False)
        if sparse or t.dtype != dtype or t.numel() != size or not t.is_contiguous():
            return None
        # parameters require grad; step runs under no_grad, so writing them is allowed
        array = t.detach().numpy() if t.requires_grad else t.numpy()
        views.append(array.reshape(-1))
    return views


def batches(params, states, names) -> tuple[list, list]:
    """Split the parameters of a group into batches for one kernel call each (one per
    dtype: the kernels update each array on its own, so a batch rounds as one call per
    parameter would, with less overhead) and the indices of those the kernels cannot
    serve.

    Args:
        params: the group's parameters that have a gradient.
        states: their states, in the same order.
        names: the state keys the kernel reads, in its order.

    Returns:
        ``(batches, rest)``: each batch is ``(indices, columns)`` where ``columns`` lists
        the flat arrays of the parameters, of their gradients, then of each state key;
        ``rest`` lists the indices of the other parameters.
    """
    if not enabled():
        return [], range(len(params))
    # a parameter listed twice (PyTorch warns) is updated twice, one call after the other
    single = len({id(p) for p in params}) != len(params)
    grouped: dict = {}
    rest = []
    for i, p in enumerate(params):
        state = states[i]
        views = _flat((p, p.grad, *[state[name] for name in names]))
        if views is None:
            rest.append(i)
            continue
        chosen, rows = grouped.setdefault(i if single else views[0].dtype.char, ([], []))
        chosen.append(i)
        rows.append(views)
    out = [(chosen, [list(column) for column in zip(*rows)]) for chosen, rows in grouped.values()]
    return out, rest


def sqrt_(tensor):
    """``tensor.sqrt_()`` with the kernels' square root (PyTorch's: MKL's VML) when they
    can serve the tensor; returns it."""
    views = _flat((tensor,)) if enabled() else None
    if views is None:
        return tensor.sqrt_()
    native_optim.sqrt_(views[0])
    native_optim.mark_written(tensor)
    return tensor
