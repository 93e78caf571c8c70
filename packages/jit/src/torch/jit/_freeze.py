"""freeze / optimize_for_inference (filled in by the passes commit)."""

from __future__ import annotations


def freeze(mod, preserved_attrs=None, optimize_numerics: bool = True):
    raise NotImplementedError("torch.jit.freeze is not built yet")


def run_frozen_optimizations(mod, optimize_numerics: bool = True, preserved_attrs=None):
    raise NotImplementedError("torch.jit.run_frozen_optimizations is not built yet")


def optimize_for_inference(mod, other_methods=None):
    raise NotImplementedError("torch.jit.optimize_for_inference is not built yet")
