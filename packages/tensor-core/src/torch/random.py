"""torch.random: the default generator's seed and state, and ``fork_rng``.

Examples::

    >>> with torch.random.fork_rng():
    ...     _ = torch.rand(3)  # draws inside do not move the state outside
    >>> torch.rand(1)
    tensor([0.4963])
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Generator as _Iterator

from ._random import (
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)

__all__ = [
    "default_generator",
    "fork_rng",
    "get_rng_state",
    "initial_seed",
    "manual_seed",
    "seed",
    "set_rng_state",
]


@contextlib.contextmanager
def fork_rng(
    devices=None,
    enabled: bool = True,
    _caller: str = "fork_rng",
    _devices_kw: str = "devices",
    device_type: str = "cuda",
) -> _Iterator:
    """Save the CPU generator's state (and that of the ``device_type`` devices in
    ``devices``, default all of them) on entry and restore it on exit, so random draws
    inside the block leave the streams outside untouched.

    Args:
        devices (iterable of int, optional): device indices whose generators to fork.
            Default: every device of ``device_type`` (none without such devices).
        enabled (bool): ``False`` makes the block a no-op. Default: ``True``.
        device_type (str): the accelerator kind (``"cuda"``). Default: ``"cuda"``.
    """
    if not enabled:
        yield
        return
    cpu_state = get_rng_state()
    device_states = _device_states(device_type, devices, _caller, _devices_kw)
    try:
        yield
    finally:
        set_rng_state(cpu_state)
        for index, state in device_states:
            _device_module(device_type).set_rng_state(state, index)


def _device_module(device_type: str):
    import importlib

    return importlib.import_module(f"torch.{device_type}")


def _device_states(device_type, devices, caller: str, devices_kw: str) -> list:
    if device_type == "meta":
        return []
    module = _device_module(device_type)
    if not module.is_available():
        return []
    if devices is None:
        count = module.device_count()
        if count > 1:
            warnings.warn(
                f"fork_rng saves and restores the generators of all {count} "
                f"{device_type.upper()} devices because '{devices_kw}' was not given to "
                f"{caller}; pass the devices you use to make it cheaper.",
                stacklevel=3,
            )
        devices = range(count)
    return [(index, module.get_rng_state(index)) for index in devices]
