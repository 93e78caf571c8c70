"""Work handles of asynchronous collectives, and the futures they give."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Work", "Future"]


class Future:
    """The result of an asynchronous operation: ``wait()`` blocks for it, ``then()``
    chains a callback (run once the value is there), ``value()`` reads it.

    This is the subset of PyTorch's ``torch.futures.Future`` that communication hooks
    use.
    """

    def __init__(self, wait: Callable[[], object] | None = None) -> None:
        self._wait = wait
        self._done = wait is None
        self._value = None
        self._error: BaseException | None = None
        self._callbacks: list[Callable[[Future], None]] = []

    def done(self) -> bool:
        """Whether the value (or an error) is set."""
        return self._done

    def set_result(self, value) -> None:
        """Complete the future with ``value`` and run the chained callbacks."""
        self._value, self._done = value, True
        for callback in self._callbacks:
            callback(self)
        self._callbacks.clear()

    def set_exception(self, error: BaseException) -> None:
        """Complete the future with an error, raised by ``wait`` and ``value``."""
        self._error, self._done = error, True

    def wait(self):
        """Block until done; the value (or raise the error)."""
        if not self._done:
            try:
                self.set_result(self._wait())
            except BaseException as error:
                self.set_exception(error)
        if self._error is not None:
            raise self._error
        return self._value

    def value(self):
        """The value of a done future."""
        return self.wait()

    def then(self, callback: Callable[[Future], object]) -> Future:
        """A future of ``callback(self)``, computed when this one completes."""
        return Future(lambda: callback(self._waited()))

    def _waited(self) -> Future:
        self.wait()
        return self


class Work:
    """Handle of a collective started with ``async_op=True``.

    ``wait()`` blocks until it finished on this rank (raising the collective's error,
    e.g. a timeout naming the rank that did not join), ``is_completed()`` polls.
    """

    def __init__(self, test: Callable[[], bool], wait: Callable[[], None], result=None) -> None:
        self._test = test
        self._wait_fn = wait
        self._result = result if result is not None else []
        self._completed = False
        self._error: BaseException | None = None

    def is_completed(self) -> bool:
        """Whether the operation finished (without blocking)."""
        if not self._completed and self._error is None:
            try:
                if self._test():
                    self.wait()
            except BaseException as error:
                self._error = error
        return self._completed or self._error is not None

    def is_success(self) -> bool:
        """Whether it finished without an error."""
        return self.is_completed() and self._error is None

    def exception(self) -> BaseException | None:
        """The error it finished with, if any."""
        return self._error

    def wait(self, timeout=None) -> bool:
        """Block until it finished; True (or raise its error)."""
        if self._error is not None:
            raise self._error
        if not self._completed:
            try:
                self._wait_fn()
            except BaseException as error:
                self._error = error
                raise
            self._completed = True
        return True

    def result(self) -> list:
        """The output tensors."""
        self.wait()
        return self._result

    def get_future(self) -> Future:
        """A :class:`Future` of the output tensors."""
        return Future(self.result)

    def synchronize(self) -> None:
        """Same as ``wait`` on the CPU."""
        self.wait()


def completed_work(result=None) -> Work:
    """A handle of an operation that is already done (e.g. on a group of one)."""
    return Work(lambda: True, lambda: None, result)
