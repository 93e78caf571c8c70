"""torch.cuda.random: the random number generators of the CUDA devices.

Without a CUDA runtime, seeding does nothing (PyTorch's CPU build queues the call for a
CUDA initialisation that never comes) and reading a state fails.
"""

from __future__ import annotations

import os as _os

from . import _state

__all__ = [
    "get_rng_state",
    "get_rng_state_all",
    "set_rng_state",
    "set_rng_state_all",
    "manual_seed",
    "manual_seed_all",
    "seed",
    "seed_all",
    "initial_seed",
]


def _index(device) -> int:
    index = _state.device_index(device, optional=True)
    return index if index is not None and index >= 0 else _state.current_index()


def get_rng_state(device="cuda"):
    """The random number generator state of ``device`` as a ``torch.ByteTensor``."""
    rt = _state.lazy_init()
    return rt.get_rng_state(_index(device))


def get_rng_state_all() -> list:
    """The generator states of every device (``[]`` without CUDA)."""
    import torch

    return [get_rng_state(i) for i in range(torch.cuda.device_count())]


def set_rng_state(new_state, device="cuda") -> None:
    """Restore ``device``'s generator state from :func:`get_rng_state`'s tensor."""
    rt = _state.runtime()
    if rt is not None:
        rt.set_rng_state(new_state, _index(device))


def set_rng_state_all(new_states) -> None:
    """Restore every device's generator from a list of states."""
    for index, state in enumerate(new_states):
        set_rng_state(state, index)


def manual_seed(seed: int) -> None:
    """Seed the current device's generator (no effect without CUDA).

    Examples::

        >>> import torch
        >>> torch.cuda.manual_seed(0)
    """
    _seed_devices(seed, every_device=False)


def manual_seed_all(seed: int) -> None:
    """Seed every device's generator (no effect without CUDA).

    Examples::

        >>> import torch
        >>> torch.cuda.manual_seed_all(1)
    """
    _seed_devices(seed, every_device=True)


def _seed_devices(seed, every_device: bool) -> None:
    """Seed the current device's generator, or every device's (nothing without CUDA)."""
    seed = int(seed)
    rt = _state.runtime()
    if rt is None:
        return
    indices = range(rt.device_count()) if every_device else (_state.current_index(),)
    for index in indices:
        rt.manual_seed(seed, index)


def seed() -> None:
    """Seed the current device's generator with a random number."""
    rt = _state.runtime()
    if rt is not None:
        rt.seed(_state.current_index())


def seed_all() -> None:
    """Seed every device's generator with one random number."""
    rt = _state.runtime()
    if rt is not None:
        manual_seed_all(int.from_bytes(_os.urandom(8), "little") >> 1)


def __getattr__(name):
    # PyTorch's module also shows these three of torch.cuda's (it imports them)
    if name in ("current_device", "device_count", "is_initialized"):
        import torch

        return getattr(torch.cuda, name)
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(("current_device", "device_count", "is_initialized")))


def initial_seed() -> int:
    """The current device's seed."""
    rt = _state.lazy_init()
    return rt.initial_seed(_state.current_index())
