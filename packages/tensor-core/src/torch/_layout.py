"""``torch.layout`` and ``torch.memory_format`` constants."""

from __future__ import annotations

__all__ = [
    "layout",
    "strided",
    "sparse_coo",
    "memory_format",
    "contiguous_format",
    "preserve_format",
    "channels_last",
    "channels_last_3d",
]


class _NamedConstant:
    """A constant known by its name: shown as ``torch.<name>``, pickled as that global."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name


class layout(_NamedConstant):
    """How a tensor's elements are laid out: ``torch.strided`` (dense) or
    ``torch.sparse_coo``."""

    __slots__ = ()


class memory_format(_NamedConstant):
    """The order in which a new tensor's dims are laid out in memory."""

    __slots__ = ()


strided = layout("strided")
sparse_coo = layout("sparse_coo")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
