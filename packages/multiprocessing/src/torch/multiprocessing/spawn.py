"""Start ``nprocs`` processes running one function and wait for them, re-raising in the
parent the first failure: a child's exception with its traceback, or its exit code or
signal."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import tempfile
import time
import traceback
import warnings

__all__ = [
    "ProcessContext",
    "SpawnContext",
    "ProcessException",
    "ProcessExitedException",
    "ProcessRaisedException",
    "spawn",
    "start_processes",
]


class ProcessException(Exception):  # noqa: N818 - PyTorch's name
    """A child process started by :func:`start_processes` failed.

    Args:
        msg (str): the message.
        error_index (int): the failing process's index (its first argument).
        error_pid (int): its process id.
    """

    def __init__(self, msg: str, error_index: int, error_pid: int):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = error_pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A child raised an exception; the message holds its traceback."""


class ProcessExitedException(ProcessException):
    """A child ended with a non-zero exit code or was killed by a signal.

    Args:
        msg (str): the message.
        error_index (int): the failing process's index.
        error_pid (int): its process id.
        exit_code (int): its exit code (minus the signal number when killed).
        signal_name (str, optional): the name of the signal that killed it.
    """

    def __init__(
        self,
        msg: str,
        error_index: int,
        error_pid: int,
        exit_code: int,
        signal_name: str | None = None,
    ):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return (
            type(self),
            (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name),
        )


def _run_child(fn, index: int, args: tuple, error_path: str) -> None:
    """The body of every child: run ``fn(index, *args)``; on an exception, leave its
    formatted traceback in ``error_path`` for the parent and exit with code 1."""
    try:
        fn(index, *args)
    except KeyboardInterrupt:
        pass  # the parent is stopping us
    except Exception:
        with open(error_path, "w") as error_file:
            error_file.write(traceback.format_exc())
        sys.exit(1)


class ProcessContext:
    """The processes started by :func:`start_processes`; :meth:`join` waits for them.

    Args:
        processes (list): the ``multiprocessing.Process`` objects, by index.
        error_files (list): per process, the file where it writes a traceback.
    """

    def __init__(self, processes: list, error_files: list):
        self.processes = processes
        self.error_files = error_files
        self.sentinels = {process.sentinel: index for index, process in enumerate(processes)}

    def pids(self) -> list[int]:
        return [int(process.pid) for process in self.processes]

    def join(self, timeout: float | None = None, grace_period: float | None = None) -> bool:
        """Wait for the processes; ``True`` once all exited cleanly, ``False`` when
        ``timeout`` passed with some still running. When one fails, the others are
        terminated (SIGTERM, then SIGKILL after ``grace_period`` seconds) and its error
        is raised as :class:`ProcessRaisedException` or :class:`ProcessExitedException`.
        """
        if not self.sentinels:
            return True
        ready = multiprocessing.connection.wait(list(self.sentinels), timeout=timeout)
        failed = None
        for sentinel in ready:
            index = self.sentinels.pop(sentinel)
            process = self.processes[index]
            process.join()
            if process.exitcode != 0 and failed is None:
                failed = index
        if failed is None:
            return not self.sentinels
        self._stop_others(grace_period)
        self._raise(failed)

    def _stop_others(self, grace_period: float | None) -> None:
        alive = [p for p in self.processes if p.is_alive()]
        for process in alive:
            process.terminate()
        deadline = time.monotonic() + (grace_period if grace_period is not None else 30.0)
        for process in alive:
            process.join(max(deadline - time.monotonic(), 0))
            if process.is_alive():
                process.kill()
                process.join()
        self.sentinels.clear()

    def _raise(self, index: int) -> None:
        process = self.processes[index]
        code = process.exitcode
        path = self.error_files[index]
        text = ""
        if os.path.exists(path):
            with open(path) as error_file:
                text = error_file.read()
        self._remove_error_files()
        if text:
            raise ProcessRaisedException(
                f"\n\n-- Process {index} terminated with the following error:\n{text}",
                index,
                process.pid,
            )
        if code < 0:
            name = signal.Signals(-code).name
            raise ProcessExitedException(
                f"process {index} terminated with signal {name}",
                index,
                process.pid,
                code,
                name,
            )
        raise ProcessExitedException(
            f"process {index} terminated with exit code {code}", index, process.pid, code
        )

    def _remove_error_files(self) -> None:
        for path in self.error_files:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


class SpawnContext(ProcessContext):
    """The name of :class:`ProcessContext` before PyTorch 1.4 (warns when made)."""

    def __init__(self, processes: list, error_files: list):
        warnings.warn("SpawnContext is renamed to ProcessContext since 1.4 release.", stacklevel=2)
        super().__init__(processes, error_files)


def start_processes(
    fn,
    args: tuple = (),
    nprocs: int = 1,
    join: bool = True,
    daemon: bool = False,
    start_method: str = "spawn",
) -> ProcessContext | None:
    """Run ``fn(i, *args)`` in ``nprocs`` new processes, ``i`` being the process index.

    Args:
        fn (callable): the function each process runs; with the ``spawn`` start method
            it must be importable (defined at module level).
        args (tuple): the arguments after the index. Default: ``()``.
        nprocs (int): how many processes. Default: ``1``.
        join (bool): wait for all of them (and raise the first failure). Default:
            ``True``.
        daemon (bool): start them as daemon processes. Default: ``False``.
        start_method (str): ``"spawn"``, ``"fork"`` or ``"forkserver"``.
            Default: ``"spawn"``.

    Returns:
        The processes' :class:`ProcessContext` when ``join`` is false, else ``None``.
    """
    context = multiprocessing.get_context(start_method)
    processes, error_files = [], []
    for index in range(nprocs):
        handle, path = tempfile.mkstemp(prefix="torch-mp-error-")
        os.close(handle)
        os.unlink(path)  # the child creates it only when it has a traceback to report
        process = context.Process(target=_run_child, args=(fn, index, args, path), daemon=daemon)
        process.start()
        processes.append(process)
        error_files.append(path)
    process_context = ProcessContext(processes, error_files)
    if not join:
        return process_context
    while not process_context.join():
        pass
    return None


def spawn(
    fn,
    args: tuple = (),
    nprocs: int = 1,
    join: bool = True,
    daemon: bool = False,
    start_method: str = "spawn",
) -> ProcessContext | None:
    """:func:`start_processes` with the ``spawn`` start method (others work but warn:
    call :func:`start_processes` for them).

    Args:
        fn (callable): the function each process runs as ``fn(i, *args)``.
        args (tuple): the arguments after the index. Default: ``()``.
        nprocs (int): how many processes. Default: ``1``.
        join (bool): wait for all of them. Default: ``True``.
        daemon (bool): start them as daemon processes. Default: ``False``.
        start_method (str): the start method. Default: ``"spawn"``.

    Returns:
        The processes' :class:`ProcessContext` when ``join`` is false, else ``None``.
    """
    if start_method != "spawn":
        warnings.warn(
            f"spawn() is meant for start_method='spawn' (got: {start_method}); use "
            "torch.multiprocessing.start_processes(...) for other start methods.",
            FutureWarning,
            stacklevel=2,
        )
    return start_processes(fn, args, nprocs, join, daemon, start_method)
