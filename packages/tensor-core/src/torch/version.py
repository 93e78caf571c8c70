"""Version of the torch-core distribution (each sibling wheel keeps its own), and the
build facts PyTorch's ``torch.version`` carries: ``cuda`` (the CUDA version of the active
runtime, ``None`` without one), ``hip``/``rocm``/``xpu`` (``None``: never built), ``debug``
and ``git_version``."""

__version__ = "0.5.0"

__all__ = ["__version__", "cuda", "debug", "git_version", "hip", "rocm", "xpu"]  # noqa: F822

debug = False
git_version = "Unknown"  # what PyTorch reports for a build without git information
hip = None
rocm = None
xpu = None


def __getattr__(name):
    if name == "cuda":
        # asked of the runtime on each access: torch.version is imported with torch, the
        # CUDA runtime only when needed
        from torch.cuda import _runtime

        rt = _runtime.get()
        query = getattr(rt, "cuda_version", None) if rt is not None else None
        return query() if query is not None else None
    raise AttributeError(f"module 'torch.version' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | {"cuda"})
