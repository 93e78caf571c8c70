"""Untyped storage: the flat byte buffer that tensors view."""

from __future__ import annotations

import numpy as np

from ._device import CPU, device

__all__ = ["UntypedStorage"]


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
        return self._buffer.ctypes.data if self._buffer.nbytes else 0

    def __repr__(self) -> str:
        return f"torch.UntypedStorage(nbytes={self.nbytes()}, device={self.device})"
