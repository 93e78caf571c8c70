"""PyTorch's module path ``torch.autograd.grad_mode``: the grad-mode switches, which
torch-core owns (``torch.no_grad`` is ``torch.autograd.grad_mode.no_grad``), and the
engine's multithreading switch."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from torch import enable_grad, inference_mode, no_grad, set_grad_enabled

__all__ = [
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "set_multithreading_enabled",
]


@dataclass(slots=True)
class _EngineSettings:
    multithreading: bool = True
    view_replay: bool = False


_settings = _EngineSettings()


def is_multithreading_enabled() -> bool:
    """Whether backward may run device work on the engine's worker threads (the
    default). The engine here runs every backward on the calling thread, as PyTorch's
    does for CPU tensors, so the switch changes no result."""
    return _settings.multithreading


def is_view_replay_enabled() -> bool:
    """Whether autograd replays views by their view functions instead of ``as_strided``
    (False: PyTorch turns it on only through a private switch)."""
    return _settings.view_replay


class set_multithreading_enabled:  # noqa: N801 - PyTorch's public name
    """Turn the engine's multithreading on or off from construction, restoring the
    previous setting on exit; also a function decorator.

    Examples::

        >>> with torch.autograd.set_multithreading_enabled(False):
        ...     torch.autograd.is_multithreading_enabled()
        False
    """

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError(
                "set_multithreading_enabled(): argument 'enabled' (position 1) must be bool, "
                f"not {type(mode).__name__}"
            )
        self.mode = mode
        self.prev = _settings.multithreading
        _settings.multithreading = mode

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info) -> None:
        _settings.multithreading = self.prev

    def clone(self) -> set_multithreading_enabled:
        return type(self)(self.mode)

    def __call__(self, func):
        _settings.multithreading = self.prev  # decorating sets nothing until the call

        @functools.wraps(func)
        def switched(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return switched
