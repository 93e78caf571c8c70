"""``map_location``: where each loaded storage goes.

A checkpoint tags every storage with the device it was saved from ("cpu", "cuda:0").
The tag is remapped by ``map_location`` (a device, a string, a dict from tag to tag, or a
function of the storage and its tag) and the storage restored there. Only the CPU
exists without a device backend, so any other destination raises, as PyTorch does
without CUDA; ``torch._interface.backends.register_backend`` adds the restorer of a
backend's device type ("cuda" included).
"""

from __future__ import annotations

from .._device import device
from .._storage import TypedStorage, UntypedStorage

__all__ = [
    "check_map_location",
    "restore",
    "register_package",
    "location_tag",
    "default_restore_location",
    "validate_cuda_device",
    "validate_hpu_device",
]


def check_map_location(map_location) -> None:
    if map_location is None or isinstance(map_location, (str, device, dict)):
        return
    if not callable(map_location):
        raise TypeError(
            f"map_location must be a str, a torch.device, a dict or a function, got "
            f"{type(map_location).__name__}"
        )


_CPU_ONLY_ADVICE = (
    "If you are running on a CPU-only machine, please use torch.load with "
    "map_location=torch.device('cpu') to map your storages to the CPU."
)


def validate_cuda_device(location) -> int:
    """The CUDA device index named by ``location``; without CUDA this raises the error
    that tells a CPU-only user to pass ``map_location``."""
    from ..cuda import _runtime

    runtime = _runtime.get()
    if runtime is None:
        raise RuntimeError(
            "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() "
            f"is False. {_CPU_ONLY_ADVICE}"
        )
    index = device(location).index
    index = 0 if index is None else index
    count = runtime.device_count()
    if index >= count:
        raise RuntimeError(
            f"Attempting to deserialize object on CUDA device {index} but "
            f"torch.cuda.device_count() is {count}. Please use torch.load with map_location "
            "to map your storages to an existing device."
        )
    return index


def validate_hpu_device(location) -> int:
    """As :func:`validate_cuda_device`, for Habana HPUs (never available here)."""
    raise RuntimeError(f"The HPU device module is not registered. {_CPU_ONLY_ADVICE}")


def _typename(storage) -> str:
    name = f"{type(storage).__module__}.{type(storage).__qualname__}"
    return name.replace("torch._storage.", "torch.storage.")


def _cpu_tag(storage):
    device = getattr(storage, "device", None)
    return "cpu" if device is not None and device.type == "cpu" else None


def _cpu_restore(storage, location: str):
    return storage if location == "cpu" or location.startswith("cpu:") else None


def _cuda_tag(storage):
    device = getattr(storage, "device", None)
    return str(device) if device is not None and device.type == "cuda" else None


def _accelerator_restore(storage, location: str):
    # devices PyTorch knows but this build lacks: its error, naming the device
    kind = location.split(":", 1)[0]
    if kind == "cuda":
        validate_cuda_device(location)  # raises without CUDA; else the cuda backend restores
    if kind == "hpu":
        validate_hpu_device(location)
    if kind in ("xpu", "mps", "mtia"):
        raise RuntimeError(
            f"Attempting to deserialize object on a {kind.upper()} device but "
            f"torch.{kind}.is_available() is False. {_CPU_ONLY_ADVICE}"
        )
    return None


# (priority, tagger, deserializer), lowest priority first, as register_package keeps it
_packages: list[tuple[int, object, object]] = [
    (10, _cpu_tag, _cpu_restore),
    (20, _cuda_tag, _accelerator_restore),
]


def register_package(priority: int, tagger, deserializer) -> None:
    """Teach saving and loading a new storage location.

    Args:
        priority (int): lower numbers are asked first (the CPU's is 10, CUDA's 20).
        tagger (callable): ``tagger(storage)`` returns the location string to save for
            ``storage``, or None when the storage is not its kind.
        deserializer (callable): ``deserializer(storage, location)`` returns ``storage``
            moved to ``location``, or None when ``location`` is not its kind.
    """
    if not isinstance(priority, int) or isinstance(priority, bool):
        raise TypeError(f"register_package: priority must be an int, got {priority!r}")
    for name, function in (("tagger", tagger), ("deserializer", deserializer)):
        if not callable(function):
            raise TypeError(f"register_package: {name} must be callable, got {function!r}")
    _packages.append((priority, tagger, deserializer))
    _packages.sort(key=lambda package: package[0])


def location_tag(storage) -> str:
    """The location string :func:`torch.save` records for ``storage`` ("cpu")."""
    for _, tagger, _ in _packages:
        tag = tagger(storage)
        if tag:
            return tag
    raise RuntimeError(f"don't know how to determine data location of {_typename(storage)}")


def default_restore_location(storage, location: str):
    """``storage`` moved to ``location`` by the first registered package that knows the
    location; unknown locations raise RuntimeError."""
    for _, _, deserializer in _packages:
        result = deserializer(storage, location)
        if result is not None:
            return result
    raise RuntimeError(
        f"don't know how to restore data location of {_typename(storage)} (tagged with {location})"
    )


def _to_location(storage: UntypedStorage, tag) -> UntypedStorage:
    result = default_restore_location(storage, str(tag))
    if isinstance(result, TypedStorage):
        return result._untyped
    return result


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
