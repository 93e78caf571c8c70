"""The per-op kernels of a cuda backend whose arrays the host cannot read (CuPy's, and the
strict simulated arrays that stand for them in CI: ``torch.cuda._strict``).

Every op runs one of two ways (:func:`device_path`):

- ``"device"``: core's own code, run on the device arrays (no per-op kernel: the
  dispatcher calls the binding). Core's kernels are written against NumPy's protocols
  (NEP 13/18): ``np.tanh(a)``, ``np.concatenate``, ``np.matmul`` on a ``cupy.ndarray``
  run CuPy's kernels (cuBLAS for products) and give device arrays. Where core calls a
  native host kernel (``torch._C``), the call is made only for host arrays
  (``torch._native.on_host``) and a device array takes the op's array-generic NumPy form,
  or a library call of the device (``torch.cuda._device_library``: cuDNN's convolution,
  softmax and average pooling, ``cupyx.scipy.special``). Random numbers are drawn by the
  device's generator in device memory.
- ``"host"``: a host round trip (``ops[name].kernels["cuda"]``), the last resort, for the
  ops in :data:`HOST_ROUND_TRIP` only (each with its reason): tensor arguments copied to
  the host with ``.cpu()``, the CPU binding, results copied back with ``.to(device)``,
  recorded for autograd like any ``.to()``; an in-place op writes its result back into
  the device tensor. The dispatcher takes it inside composites too.

While an op runs, the device of its inputs is current (``Backend.select``), so the arrays
it allocates land there, as on CuPy with ``cupy.cuda.Device(i)``.
"""

from __future__ import annotations

from torch._interface import backends, ops

__all__ = ["install", "uninstall", "HOST_ROUND_TRIP", "device_path", "host_round_trip"]

# ops that are plumbing or handle devices themselves (never given a kernel)
_SKIP = {"_to_device", "_to_copy", "to", "cpu", "cuda", "copy_"}

#: op name -> why it takes the host round trip on a cuda device (the only ops that do).
#: Empty since every op of the op database runs on the device; an op that cannot (code
#: looping on host values, no library call to make instead) is listed here with its reason.
HOST_ROUND_TRIP: dict[str, str] = {}


def _move(value, device):
    """Tensors in ``value`` (a tensor, or a list/tuple of them) moved to ``device``."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (list, tuple)) and any(isinstance(v, torch.Tensor) for v in value):
        moved = [_move(v, device) for v in value]
        return type(value)(*moved) if hasattr(value, "_fields") else type(value)(moved)
    return value


def host_round_trip(op):
    """A kernel running the called binding of ``op`` on host copies of its tensor
    arguments (the dispatcher hands it the binding: ``runs_binding``)."""

    def kernel(binding, *args, **kwargs):
        import torch

        local = backends._local
        device = local.device
        depth, local.depth = local.depth, 0  # the host op dispatches as a CPU op
        try:
            host_args = [_move(a, "cpu") for a in args]
            host_kwargs = {k: _move(v, "cpu") for k, v in kwargs.items()}
            result = binding(*host_args, **host_kwargs)
            if op.inplace and args and isinstance(args[0], torch.Tensor):
                with torch.no_grad():
                    args[0].copy_(host_args[0].to(device))
                return args[0]
            return _move(result, device)
        finally:
            local.depth = depth

    kernel.__wrapped_op__ = op
    kernel.device_path = "host"
    kernel.runs_binding = True
    return kernel


_installed: list[str] = []
_state = {"installed": False}


def device_path(name: str) -> str | None:
    """How op ``name`` runs on a cuda device now: ``"host"`` (a round trip), ``"device"``
    (core's own code on the device arrays), or None (no cuda backend with these kernels
    installed, no such op, or a plumbing op)."""
    op = ops.lookup(name)
    if op is None or name in _SKIP or not _state["installed"]:
        return None
    return getattr(op.kernels.get("cuda"), "device_path", None) or "device"


def install() -> None:
    """Register the host round trips (:data:`HOST_ROUND_TRIP`); every other op runs its
    own code on the device arrays."""
    _state["installed"] = True
    for name in HOST_ROUND_TRIP:
        op = ops.lookup(name)
        if op is None or "cuda" in op.kernels:
            continue
        op.kernels["cuda"] = host_round_trip(op)
        _installed.append(name)


def uninstall() -> None:
    _state["installed"] = False
    for name in _installed:
        op = ops.lookup(name)
        if op is not None:
            op.kernels.pop("cuda", None)
    _installed.clear()
