"""Untyped storage: the flat byte buffer that tensors view."""

from __future__ import annotations

import numpy as np

from ._device import CPU, device

__all__ = ["UntypedStorage", "TypedStorage"]


class UntypedStorage:
    """A flat, device-resident block of bytes. On the CPU it is a 1-D ``uint8`` NumPy
    array; tensors are strided views of it."""

    __slots__ = ("_buffer", "device", "__weakref__")

    def __init__(self, nbytes: int = 0, *, device: device = CPU):
        self._buffer = np.zeros(int(nbytes), dtype=np.uint8)
        self.device = device

    @classmethod
    def _wrap(cls, buffer: np.ndarray, dev: device = CPU) -> UntypedStorage:
        storage = cls.__new__(cls)
        storage._buffer = buffer
        storage.device = dev
        return storage

    def nbytes(self) -> int:
        return self._buffer.nbytes

    def size(self) -> int:
        return self._buffer.nbytes

    def __len__(self) -> int:
        return self._buffer.nbytes

    def data_ptr(self) -> int:
        if not self._buffer.nbytes:
            return 0
        host = getattr(self._buffer, "ctypes", None)
        # a CuPy array (the cuda backend) has no ctypes: its device address
        return host.data if host is not None else self._buffer.data.ptr

    def element_size(self) -> int:
        return 1

    # ---------------------------------------------------------- shared memory

    def share_memory_(self) -> UntypedStorage:
        """Move this storage's bytes into shared memory (a no-op when they already are
        there); every tensor viewing it follows. Returns ``self``."""
        from . import _shared_memory

        return _shared_memory.share_storage(self)

    def is_shared(self) -> bool:
        """Whether the bytes live in shared memory (other processes can map them)."""
        from . import _shared_memory

        return _shared_memory.is_shared(self)

    @classmethod
    def _new_shared(cls, size: int, *, device: device = CPU) -> UntypedStorage:
        """A new zero-filled storage of ``size`` bytes created directly in shared memory
        (no copy), with the current sharing strategy."""
        from . import _shared_memory

        return _shared_memory.new_shared_storage(int(size))

    def tolist(self) -> list:
        return self._buffer.tolist()

    def __getitem__(self, index):
        return self._buffer[index].tolist()

    def __setitem__(self, index, value) -> None:
        self._buffer[index] = value

    def __repr__(self) -> str:
        values = "\n".join(f" {v}" for v in self._buffer.tolist())
        return (
            f"{values}\n[torch.storage.UntypedStorage(device={self.device}) of size "
            f"{self.nbytes()}]"
        )


class TypedStorage:
    """A storage seen as elements of one dtype (what ``Tensor.storage()`` returns)."""

    __slots__ = ("_untyped", "dtype")

    @classmethod
    def _wrap(cls, untyped: UntypedStorage, dtype) -> TypedStorage:
        storage = cls.__new__(cls)
        storage._untyped = untyped
        storage.dtype = dtype
        return storage

    def _elements(self) -> np.ndarray:
        usable = self._untyped.nbytes() // self.dtype.itemsize * self.dtype.itemsize
        return self._untyped._buffer[:usable].view(self.dtype.np_dtype)

    def untyped(self) -> UntypedStorage:
        return self._untyped

    @property
    def device(self):
        return self._untyped.device

    def size(self) -> int:
        return self._untyped.nbytes() // self.dtype.itemsize

    __len__ = size

    def nbytes(self) -> int:
        return self._untyped.nbytes()

    def element_size(self) -> int:
        return self.dtype.itemsize

    def data_ptr(self) -> int:
        return self._untyped.data_ptr()

    def share_memory_(self) -> TypedStorage:
        """Move the underlying bytes into shared memory; returns ``self``."""
        self._untyped.share_memory_()
        return self

    def is_shared(self) -> bool:
        return self._untyped.is_shared()

    def _new_shared(self, size: int, *, device=None) -> TypedStorage:
        """A new storage of ``size`` elements of this dtype, created in shared memory."""
        return TypedStorage._wrap(
            UntypedStorage._new_shared(int(size) * self.dtype.itemsize), self.dtype
        )

    def tolist(self) -> list:
        return self._elements().tolist()

    def __getitem__(self, index):
        return self._elements()[index].tolist()

    def __setitem__(self, index, value) -> None:
        self._elements()[index] = value

    def __iter__(self):
        return iter(self.tolist())

    def __repr__(self) -> str:
        values = "\n".join(f" {v}" for v in self.tolist())
        return (
            f"{values}\n[torch.storage.TypedStorage(dtype={self.dtype}, device="
            f"{self.device}) of size {self.size()}]"
        )
