"""``torch.device``: a device type and an optional index."""

from __future__ import annotations

__all__ = ["device", "get_default_device"]

_BUILT_IN_TYPES = ("cpu", "cuda", "meta")
_KNOWN_TYPES = list(_BUILT_IN_TYPES)  # grows with torch._interface.backends
# every device type PyTorch's parser knows, for its error message
_ALL_TYPES = (
    "cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, "
    "vulkan, mps, meta, hpu, mtia, privateuseone"
)
# PyTorch parses each of them into a device whether or not its backend exists (kornia asks
# torch.is_autocast_enabled("mps")); using a device without a backend fails later
_PARSED_TYPES = frozenset(_ALL_TYPES.split(", "))


class device:
    """Where a tensor's storage lives: ``torch.device("cpu")``, ``torch.device("cuda", 0)``
    or ``torch.device("cuda:1")``.

    Examples::

        >>> torch.device("cuda:1")
        device(type='cuda', index=1)
        >>> torch.device("cpu").type
        'cpu'
    """

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):
        if isinstance(type, device):
            if index is not None:
                raise RuntimeError("device(): pass either a device or a type and an index")
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int) and not isinstance(type, bool):
            # a bare ordinal means an accelerator index, as in PyTorch
            type, index = "cuda", type
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid argument: {type!r}")
        name, sep, ordinal = type.partition(":")
        if sep:
            if index is not None:
                raise RuntimeError(
                    f"type (string) must not include an index because index was "
                    f"passed explicitly: {type}"
                )
            if not ordinal.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(ordinal)
        if name not in _KNOWN_TYPES and name not in _PARSED_TYPES:
            raise RuntimeError(
                f"Expected one of {_ALL_TYPES} device type at start of device string: {type}"
            )
        if index is not None and (not isinstance(index, int) or index < 0):
            raise RuntimeError(f"Device index must not be negative, got {index}")
        self.type = name
        self.index = index

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))


CPU = device("cpu")


def get_default_device() -> device:
    """The device new tensors are made on when none is given: the CPU (this project has
    no ``torch.set_default_device``).

    Examples::

        >>> torch.get_default_device()
        device(type='cpu')
    """
    return CPU


def add_device_type(name: str) -> None:
    """Let ``torch.device`` parse a device type a backend registered."""
    if name not in _KNOWN_TYPES:
        _KNOWN_TYPES.append(name)


def remove_device_type(name: str) -> None:
    if name in _KNOWN_TYPES and name not in _BUILT_IN_TYPES:
        _KNOWN_TYPES.remove(name)
