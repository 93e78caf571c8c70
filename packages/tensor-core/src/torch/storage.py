"""The storage classes under PyTorch's module path ``torch.storage`` (they are also
``torch.TypedStorage`` and ``torch.UntypedStorage``)."""

from ._storage import TypedStorage, UntypedStorage

__all__ = ["TypedStorage", "UntypedStorage"]
