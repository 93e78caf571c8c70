"""``torch.PyTorchFileReader``: the record-level reader of a zip checkpoint, as PyTorch
exposes it (lightning's lazy checkpoint loading reads records with it). Record names are
relative to the archive's top folder (``data.pkl``, ``data/0``), as in PyTorch."""

from __future__ import annotations

import numpy as np

from .sources import open_source
from .zip_reader import ZipReader


class PyTorchFileReader:
    """Read the records of the zip checkpoint at path ``name`` (or a binary file)."""

    def __init__(self, name) -> None:
        self._source, self._file = open_source(name, False)
        self._zip = ZipReader(self._source)  # takes names relative to the top folder

    def get_all_records(self) -> list[str]:
        top = len(self._zip.prefix) + 1
        return [n[top:] for n in self._zip.names()]

    def has_record(self, name: str) -> bool:
        return self._zip.has_record(name)

    def get_record_size(self, name: str) -> int:
        return self._zip.record_size(name)

    def get_record(self, name: str) -> bytes:
        return self._zip.read(name).tobytes()

    def get_storage_from_record(self, name: str, numel: int, dtype):
        """The record's bytes as a 1-D tensor of ``numel`` elements of ``dtype``."""
        import torch

        data = np.frombuffer(bytearray(self.get_record(name)), dtype=np.uint8)
        return torch.from_numpy(data.copy()).view(dtype)[:numel]
