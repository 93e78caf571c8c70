"""torch.utils: a namespace shared with sibling distributions (``torch.utils.data`` comes
from torch-utils-data)."""

__path__ = __import__("pkgutil").extend_path(__path__, __name__)

_LAZY_SUBMODULES = ("data", "dlpack", "hooks")


def swap_tensors(t1, t2) -> None:
    """Swap everything two tensors hold, keeping each object's identity (see
    ``torch.utils._swap.swap_tensors``)."""
    from ._swap import swap_tensors as swap

    swap(t1, t2)


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'torch.utils' has no attribute '{name}'")
