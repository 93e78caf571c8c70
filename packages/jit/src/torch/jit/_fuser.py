"""Fuser settings of torch.jit: which fusion the optimiser applies.

This project has one fuser: chains of elementwise ops become one generated C++ kernel
(:mod:`torch.jit._passes.fusion`). The settings PyTorch exposes for its several fusers
are accepted; ``fuser("fuser0")`` and friends select whether fusion runs.
"""

from __future__ import annotations

import contextlib

__all__ = [
    "fuser",
    "optimized_execution",
    "set_fusion_strategy",
    "strict_fusion",
    "enable_onednn_fusion",
    "onednn_fusion_enabled",
    "fusion_enabled",
]

_settings = {"fusion": True, "optimized": True, "onednn": False}
_strategy: list[tuple[str, int]] = [("STATIC", 2), ("DYNAMIC", 10)]

_FUSERS = {"fuser0": True, "fuser1": True, "fuser2": True, "fuser3": True, "none": False}


def fusion_enabled() -> bool:
    return _settings["fusion"] and _settings["optimized"]


@contextlib.contextmanager
def fuser(name: str):
    """Select a fuser for the block: ``"none"`` turns fusion off; ``"fuser0"`` ...
    ``"fuser3"`` (PyTorch's legacy, NNC, nvFuser and oneDNN fusers) all select this
    project's elementwise fuser."""
    if name not in _FUSERS:
        raise Exception(f"unrecognized fuser option (name: {name})")
    previous = _settings["fusion"]
    _settings["fusion"] = _FUSERS[name]
    try:
        yield
    finally:
        _settings["fusion"] = previous


@contextlib.contextmanager
def optimized_execution(should_optimize: bool):
    """Turn graph optimisation (fusion) on or off within the block."""
    previous = _settings["optimized"]
    _settings["optimized"] = should_optimize
    try:
        yield
    finally:
        _settings["optimized"] = previous


def set_fusion_strategy(strategy: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Record PyTorch's specialisation strategy (``[("STATIC", 2), ("DYNAMIC", 10)]``);
    returns the previous one. This fuser specialises on dtype only."""
    global _strategy
    for kind, depth in strategy:
        if kind not in ("STATIC", "DYNAMIC") or not isinstance(depth, int):
            raise RuntimeError(f"invalid fusion strategy entry {(kind, depth)!r}")
    previous, _strategy = _strategy, list(strategy)
    return previous


class strict_fusion:  # noqa: N801 - PyTorch's name
    """A marker for scripted code that must fuse completely; accepted and checked by
    nothing here (eager code runs unchanged)."""

    def __enter__(self) -> strict_fusion:
        return self

    def __exit__(self, *exc) -> None:
        return None


def enable_onednn_fusion(enabled: bool) -> None:
    """Record the oneDNN fusion switch (there is no oneDNN fuser here)."""
    _settings["onednn"] = bool(enabled)


def onednn_fusion_enabled() -> bool:
    return _settings["onednn"]
