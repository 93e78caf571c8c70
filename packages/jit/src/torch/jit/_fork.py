"""``torch.jit.fork`` / ``wait``: asynchronous calls of scripted code.

The interpreter runs forked work at once, on the caller's thread (as PyTorch's eager
``fork`` does): the :class:`Future` it returns is already complete. Code written for
inter-op parallelism keeps its meaning; it just does not overlap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["Future", "fork", "wait"]

T = TypeVar("T")


class Future(Generic[T]):
    """The result of :func:`fork`: :meth:`wait` gives the value (or raises what the
    forked call raised)."""

    def __init__(self) -> None:
        self._done = False
        self._value: Any = None
        self._error: BaseException | None = None
        self._callbacks: list[Callable[[Future], None]] = []

    def done(self) -> bool:
        return self._done

    def set_result(self, result: T) -> None:
        if self._done:
            raise RuntimeError("Future can only be marked completed once.")
        self._value, self._done = result, True
        self._run_callbacks()

    def set_exception(self, error: BaseException) -> None:
        if self._done:
            raise RuntimeError("Future can only be marked completed once.")
        self._error, self._done = error, True
        self._run_callbacks()

    def wait(self) -> T:
        if not self._done:
            raise RuntimeError("this Future is not complete and nothing will complete it")
        return self.value()

    def value(self) -> T:
        if self._error is not None:
            raise self._error
        return self._value

    def then(self, callback: Callable[[Future], Any]) -> Future:
        chained: Future = Future()

        def run(done: Future) -> None:
            try:
                chained.set_result(callback(done))
            except Exception as error:  # the chained future carries it
                chained.set_exception(error)

        self.add_done_callback(run)
        return chained

    def add_done_callback(self, callback: Callable[[Future], None]) -> None:
        if self._done:
            callback(self)
        else:
            self._callbacks.append(callback)

    def _run_callbacks(self) -> None:
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)


Future.__module__ = "torch.jit"


def fork(func: Callable[..., T], *args, **kwargs) -> Future[T]:
    """Start ``func(*args, **kwargs)`` and return a :class:`Future` of its result.

    >>> future = torch.jit.fork(lambda a, b: a + b, 1, 2)
    >>> torch.jit.wait(future)
    3
    """
    future: Future[T] = Future()
    try:
        future.set_result(func(*args, **kwargs))
    except Exception as error:
        future.set_exception(error)
    return future


def wait(future: Future[T]) -> T:
    """The value of a :class:`Future` from :func:`fork`."""
    return future.wait()
