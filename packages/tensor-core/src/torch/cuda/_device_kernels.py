"""The per-op kernels of a cuda backend whose arrays the host kernels cannot read (CuPy's).

Core's ops are written over NumPy, and many call native host kernels (``torch._C``) or
convert to NumPy on the way; neither works on device memory. Until an op has a CUDA
kernel of its own, the backend registers a *host round trip* for it
(``ops[name].kernels["cuda"]``): its tensor arguments are copied to the host with
``.cpu()``, the CPU op runs, and its tensor results are copied back with ``.to(device)``.
The copies are recorded for autograd like any ``.to()``, so gradients are right; it is
slow, and an in-place op writes its result back into the device tensor.

Library kernels replace the round trip where they exist: the matrix products run
``xp.matmul`` on the backend's array module (cuBLAS through CuPy). Simulated devices can
run with these same kernels (``SimulatedRuntime(n, host_kernels=False)``), which is how CI
tests them without a GPU.
"""

from __future__ import annotations

from torch._interface import backends, ops

__all__ = ["install", "uninstall", "LIBRARY_KERNELS"]

# ops that are plumbing or handle devices themselves (never round-tripped)
_SKIP = {"_to_device", "_to_copy", "to", "cpu", "cuda", "copy_"}


def _move(value, device):
    """Tensors in ``value`` (a tensor, or a list/tuple of them) moved to ``device``."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (list, tuple)) and any(isinstance(v, torch.Tensor) for v in value):
        return type(value)(_move(v, device) for v in value)
    return value


def host_round_trip(op):
    """A kernel running ``op``'s CPU function on host copies of its tensor arguments."""
    function = op.function

    def kernel(*args, **kwargs):
        import torch

        local = backends._local
        device = local.device
        depth, local.depth = local.depth, 0  # the host op dispatches as a CPU op
        try:
            host_args = [_move(a, "cpu") for a in args]
            host_kwargs = {k: _move(v, "cpu") for k, v in kwargs.items()}
            result = function(*host_args, **host_kwargs)
            if op.inplace and args and isinstance(args[0], torch.Tensor):
                with torch.no_grad():
                    args[0].copy_(host_args[0].to(device))
                return args[0]
            return _move(result, device)
        finally:
            local.depth = depth

    kernel.__wrapped_op__ = op
    return kernel


def _matmul(input, other):
    """``input @ other`` by the array module's product (cuBLAS on CuPy), recorded."""
    from torch._interface.tensors import wrap
    from torch._ops._dispatch import record

    if input.dtype != other.dtype or input.dim() == 0 or other.dim() == 0:
        return host_round_trip(ops["matmul"])(input, other)
    xp = backends.get_backend("cuda").array_module
    result = xp.matmul(input._np, other._np)
    return record(ops["matmul"], (input, other), wrap(xp.ascontiguousarray(result), input._dtype))


#: op name -> the library kernel that replaces its host round trip
LIBRARY_KERNELS = {"matmul": _matmul}

_installed: list[str] = []


def install() -> None:
    """Register a cuda kernel for every op (its library kernel, else a round trip)."""
    for op in ops.everything():
        if op.name in _SKIP or op.function is None or "cuda" in op.kernels:
            continue
        kernel = LIBRARY_KERNELS.get(op.name) or host_round_trip(op)
        op.kernels["cuda"] = kernel
        _installed.append(op.name)


def uninstall() -> None:
    for name in _installed:
        op = ops.lookup(name)
        if op is not None:
            op.kernels.pop("cuda", None)
    _installed.clear()
