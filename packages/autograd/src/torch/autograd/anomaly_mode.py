"""Anomaly detection: find the forward op whose backward failed or produced NaN."""

from __future__ import annotations

import functools
import warnings

from ._anomaly import state

__all__ = [
    "detect_anomaly",
    "set_detect_anomaly",
    "is_anomaly_enabled",
    "is_anomaly_check_nan_enabled",
    "set_anomaly_enabled",
]


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on."""
    return state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly detection also checks backward results for NaN."""
    return state.check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly detection on or off for the rest of the program (``torch.
    set_anomaly_enabled``; ``set_detect_anomaly`` restores the previous state on
    exit)."""
    for position, (name, value) in enumerate((("enabled", enabled), ("check_nan", check_nan))):
        if not isinstance(value, bool):
            raise TypeError(
                f"set_anomaly_enabled(): argument '{name}' (position {position + 1}) must be "
                f"bool, not {type(value).__name__}"
            )
    state.enabled, state.check_nan = enabled, check_nan


class _AnomalySwitch:
    """Shared machinery: set the mode on entry (or construction), restore on exit, and
    work as a decorator."""

    def _set(self, enabled: bool, check_nan: bool) -> None:
        self._previous = (state.enabled, state.check_nan)
        state.enabled, state.check_nan = bool(enabled), bool(check_nan)

    def __exit__(self, *exc) -> None:
        state.enabled, state.check_nan = self._previous

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._args):
                return fn(*args, **kwargs)

        return wrapper


class detect_anomaly(_AnomalySwitch):  # noqa: N801 - PyTorch's public name
    """Context manager (and decorator) turning anomaly detection on: each graph node keeps
    the traceback of the forward call that made it; when its backward raises or (with
    ``check_nan``) returns NaN, that traceback is shown as a warning and backward raises.

    Args:
        check_nan (bool): raise when a backward formula returns NaN. Default: ``True``.

    Examples::

        >>> import warnings
        >>> x = torch.tensor([0.0], requires_grad=True)
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     with torch.autograd.detect_anomaly():
        ...         y = (x / x).sum()
        ...         y.backward()
        Traceback (most recent call last):
        ...
        RuntimeError: Function 'DivBackward0' returned nan values in its 1th output.
    """

    def __init__(self, check_nan: bool = True) -> None:
        self._args = (check_nan,)
        self.check_nan = check_nan
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and "
            "should only be enabled for debugging.",
            UserWarning,
            stacklevel=2,
        )

    def __enter__(self) -> None:
        self._set(True, self.check_nan)


class set_detect_anomaly(_AnomalySwitch):  # noqa: N801 - PyTorch's public name
    """Turn anomaly detection on or off. Takes effect when called; used as a context
    manager, the previous mode comes back on exit.

    Args:
        mode (bool): on or off.
        check_nan (bool): raise when a backward formula returns NaN. Default: ``True``.

    Examples::

        >>> with torch.autograd.set_detect_anomaly(True):
        ...     torch.autograd.anomaly_mode.is_anomaly_enabled()
        True
        >>> torch.autograd.anomaly_mode.is_anomaly_enabled()
        False
    """

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self._args = (mode, check_nan)
        self._set(mode, check_nan)

    def __enter__(self) -> None:
        return None
