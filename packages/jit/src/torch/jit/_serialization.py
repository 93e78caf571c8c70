"""torch.jit.save / load (filled in by the serialization commit)."""

from __future__ import annotations


def save(m, f, _extra_files=None) -> None:
    raise NotImplementedError("torch.jit.save is not built yet")


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    raise NotImplementedError("torch.jit.load is not built yet")
