"""``torch.Generator`` and the global random state, on the MT19937 kernel, so that a seed
gives the same numbers as PyTorch's CPU generator."""

from __future__ import annotations

import os

import numpy as np

from . import _dtype
from ._device import device as _device_cls
from ._native import kernels

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed"]

DEFAULT_SEED = 67280421310721  # PyTorch's seed for a fresh CPU generator
_UINT64 = 1 << 64


class Generator:
    """A source of pseudo-random numbers for the random functions' ``generator=``.

    Args:
        device (str or torch.device): only ``"cpu"`` for now. Default: ``"cpu"``.

    Examples::

        >>> import torch
        >>> g = torch.Generator().manual_seed(0)
        >>> torch.rand(2, generator=g)
        tensor([0.4963, 0.7682])
    """

    def __init__(self, device="cpu") -> None:
        self.device = _device_cls(device)
        if self.device.type != "cpu":
            raise RuntimeError(f"Generator: device type '{self.device.type}' is not available")
        self._engine = kernels.MT19937(DEFAULT_SEED)
        self._initial_seed = DEFAULT_SEED

    def manual_seed(self, seed) -> Generator:
        seed = int(seed)
        if not -(1 << 63) <= seed < _UINT64:
            raise RuntimeError("Overflow when unpacking long long")
        seed %= _UINT64  # negative seeds wrap to uint64, as in PyTorch
        self._engine.seed(seed)
        self._initial_seed = seed
        return self

    def seed(self) -> int:
        """Seed from the OS's entropy source and return the seed."""
        new_seed = int.from_bytes(os.urandom(8), "little") & ((1 << 63) - 1)
        self.manual_seed(new_seed)
        return new_seed

    def initial_seed(self) -> int:
        return self._initial_seed

    def _fill_uniform(self, out: np.ndarray, low: float, high: float) -> None:
        self._engine.fill_uniform(out, low, high)


default_generator = Generator()


def manual_seed(seed) -> Generator:
    """Seed the default generator; returns it.

    Examples::

        >>> import torch
        >>> _ = torch.manual_seed(0)
        >>> torch.rand(3)
        tensor([0.4963, 0.7682, 0.0885])
    """
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator non-deterministically and return the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


def uniform_array(shape, dtype, generator, low=0.0, high=1.0) -> np.ndarray:
    """A C-contiguous array of ``shape`` filled as ``Tensor.uniform_`` fills it."""
    gen = default_generator if generator is None else generator
    if dtype in (_dtype.float32, _dtype.float64):
        out = np.empty(shape, dtype=dtype.np_dtype)
        gen._fill_uniform(out, low, high)
        return out
    raise NotImplementedError(f"uniform numbers of dtype {dtype} are not implemented yet")
