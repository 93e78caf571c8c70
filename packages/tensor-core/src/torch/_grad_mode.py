"""Grad-mode switches. They live in core so that optim, legacy and data code can use
them without torch-autograd; ``torch.autograd`` re-exports them."""

from __future__ import annotations

import functools
import threading

__all__ = [
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "is_grad_enabled",
    "inference_mode",
    "is_inference_mode_enabled",
]


class _GradState(threading.local):
    # Per thread, as in PyTorch: a no_grad block in one thread does not affect another.
    def __init__(self) -> None:
        self.enabled = True
        self.inference = False


_state = _GradState()


def is_grad_enabled() -> bool:
    """Whether operations on tensors that require grad are being recorded."""
    return _state.enabled


def is_inference_mode_enabled() -> bool:
    """Whether an ``inference_mode`` block is active in this thread."""
    return _state.inference


class _GradModeContext:
    """Base of the switches: a context manager that also decorates functions."""

    def _enter_mode(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _exit_mode(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def __enter__(self):
        self._enter_mode()
        return None

    def __exit__(self, exc_type, exc, tb) -> None:
        self._exit_mode()

    def clone(self):
        return self.__class__()

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return wrapper


class _FixedGradMode(_GradModeContext):
    """A switch to one fixed mode, ``_enabled``; nested uses restore in turn."""

    _enabled: bool

    def __init__(self) -> None:
        self._prev: list[bool] = []

    def _enter_mode(self) -> None:
        self._prev.append(_state.enabled)
        _state.enabled = self._enabled

    def _exit_mode(self) -> None:
        _state.enabled = self._prev.pop()


class no_grad(_FixedGradMode):
    """Context manager and decorator that disables gradient recording.

    Results computed inside have ``requires_grad=False`` even when their inputs
    require grad. Thread local.

    Examples::

        >>> with torch.no_grad():
        ...     torch.is_grad_enabled()
        False
        >>> torch.is_grad_enabled()
        True
    """

    _enabled = False


class enable_grad(_FixedGradMode):
    """Context manager and decorator that enables gradient recording inside ``no_grad``.

    Examples::

        >>> with torch.no_grad(), torch.enable_grad():
        ...     torch.is_grad_enabled()
        True
    """

    _enabled = True


class set_grad_enabled(_GradModeContext):
    """Switch gradient recording on or off.

    Takes effect immediately when called, and also works as a context manager that
    restores the previous mode on exit.

    Args:
        mode (bool): ``True`` to record, ``False`` to stop recording.

    Examples::

        >>> with torch.set_grad_enabled(False):
        ...     torch.is_grad_enabled()
        False
        >>> torch.is_grad_enabled()
        True
    """

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled() expects a bool, got {type(mode).__name__}")
        self._prev = _state.enabled
        self.mode = mode
        _state.enabled = mode

    def _enter_mode(self) -> None:
        _state.enabled = self.mode

    def _exit_mode(self) -> None:
        _state.enabled = self._prev

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_GradModeContext):
    """Like ``no_grad``, for code that will never need gradients.

    Args:
        mode (bool): whether to enable inference mode. Default: ``True``.

    Examples::

        >>> with torch.inference_mode():
        ...     torch.is_inference_mode_enabled(), torch.is_grad_enabled()
        (True, False)
    """

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode
        self._prev: list[tuple[bool, bool]] = []

    def _enter_mode(self) -> None:
        self._prev.append((_state.enabled, _state.inference))
        if self.mode:
            _state.enabled = False
            _state.inference = True

    def _exit_mode(self) -> None:
        _state.enabled, _state.inference = self._prev.pop()

    def clone(self):
        return self.__class__(self.mode)
