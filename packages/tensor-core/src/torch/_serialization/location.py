"""``map_location``: where each loaded storage goes.

A checkpoint tags every storage with the device it was saved from ("cpu", "cuda:0").
The tag is remapped by ``map_location`` (a device, a string, a dict from tag to tag, or a
function of the storage and its tag) and the storage restored there. Only the CPU
exists so far, so any other destination raises, as PyTorch does without CUDA.
"""

from __future__ import annotations

from .._device import device
from .._storage import TypedStorage, UntypedStorage

__all__ = ["check_map_location", "restore"]


def check_map_location(map_location) -> None:
    if map_location is None or isinstance(map_location, (str, device, dict)):
        return
    if not callable(map_location):
        raise TypeError(
            f"map_location must be a str, a torch.device, a dict or a function, got "
            f"{type(map_location).__name__}"
        )


def _to_location(storage: UntypedStorage, tag: str) -> UntypedStorage:
    name = str(tag)
    if name == "cpu" or name.startswith("cpu:"):
        return storage
    if name.startswith("cuda"):
        raise RuntimeError(
            "Attempting to deserialize object on a CUDA device but "
            "torch.cuda.is_available() is False. If you are running on a CPU-only machine, "
            "please use torch.load with map_location=torch.device('cpu') to map your "
            "storages to the CPU."
        )
    raise RuntimeError(
        f"don't know how to restore data location of storage (tagged with {name}); only "
        f"'cpu' is available here: pass map_location='cpu'"
    )


def restore(storage: UntypedStorage, tag, map_location) -> UntypedStorage:
    """``storage`` (freshly read, on the CPU) moved where ``map_location`` says."""
    if not isinstance(tag, str):
        raise TypeError(f"a storage location must be a str, got {type(tag).__name__}")
    if map_location is None:
        return _to_location(storage, tag)
    if isinstance(map_location, dict):
        return _to_location(storage, map_location.get(tag, tag))
    if isinstance(map_location, (str, device)):
        return _to_location(storage, str(map_location))
    result = map_location(storage, tag)
    if result is None:
        return _to_location(storage, tag)
    if isinstance(result, TypedStorage):
        return result._untyped
    if not isinstance(result, UntypedStorage):
        raise TypeError(f"map_location returned {type(result).__name__}, not a storage")
    return result
