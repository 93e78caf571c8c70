"""Versions, and the build facts PyTorch's ``torch.version`` carries.

``__version__`` (also ``torch.__version__``) is what PyTorch-facing code reads: the
PyTorch release whose public behaviour this project follows, with torch-core's own
release as the local label (``2.13.0+core.0.7.0``, a
:class:`~torch.torch_version.TorchVersion`), since libraries gate features on it.
``core_version`` is the torch-core distribution's release alone (each sibling wheel keeps
its own). ``cuda`` is the CUDA version of the active runtime (``None`` without one);
``hip``/``rocm``/``xpu`` are ``None`` (never built); ``debug``, ``git_version``.
"""

from .torch_version import TorchVersion as _TorchVersion

# the build backend reads torch-core's release from this first assignment
__version__ = "0.7.0"

__all__ = [  # noqa: F822 (cuda: a module attribute computed on access)
    "__version__",
    "core_version",
    "cuda",
    "debug",
    "git_version",
    "hip",
    "pytorch_version",
    "rocm",
    "xpu",
]

#: torch-core's own release (what ``pip show torch-core`` says)
core_version = __version__
#: the PyTorch release whose public behaviour (names, semantics, messages) this follows
pytorch_version = "2.13.0"
__version__ = _TorchVersion(f"{pytorch_version}+core.{core_version}")

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
