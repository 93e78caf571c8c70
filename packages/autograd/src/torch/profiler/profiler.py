"""``torch.profiler.profile``: the profiler with activities, a schedule of steps and a
callback for each finished trace (built on ``torch.autograd.profiler``'s recorder)."""

from __future__ import annotations

import enum
import gzip
import os
import socket
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from torch.autograd import profiler as _autograd_profiler
from torch.autograd._profiler_kinds import ProfilerActivity
from torch.autograd.profiler_util import EventList

__all__ = [
    "ProfilerActivity",
    "ProfilerAction",
    "schedule",
    "tensorboard_trace_handler",
    "supported_activities",
    "profile",
]


class ProfilerAction(enum.Enum):
    """What the profiler does during a step (what a schedule returns)."""

    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3
    DEVICE_STOPPED = 4


def supported_activities() -> set:
    """The activities that record something here: ``{ProfilerActivity.CPU}``."""
    return {ProfilerActivity.CPU}


def schedule(
    *,
    wait: int,
    warmup: int,
    active: int,
    repeat: int = 0,
    skip_first: int = 0,
    skip_first_wait: int = 0,
) -> Callable[[int], ProfilerAction]:
    """A schedule for :class:`profile`: after ``skip_first`` steps, cycles of ``wait``
    idle steps, ``warmup`` steps, then ``active`` recorded steps (the last one saves the
    trace), ``repeat`` times (0: forever). ``skip_first_wait`` skips the first cycle's
    wait."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError("Invalid profiler schedule arguments")
    if warmup == 0:
        warnings.warn(
            "Profiler won't be using warmup, this can skew profiler results", stacklevel=2
        )

    def schedule_fn(step: int) -> ProfilerAction:
        if step < 0:
            raise AssertionError(f"Invalid step number: {step}")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait != 0:
            step += wait
        cycle = wait + warmup + active
        if repeat > 0 and step / cycle >= repeat:
            return ProfilerAction.NONE
        position = step % cycle
        if position < wait:
            return ProfilerAction.NONE
        if position < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if position < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return schedule_fn


def _always_record(step: int) -> ProfilerAction:
    return ProfilerAction.RECORD


def tensorboard_trace_handler(
    dir_name: str,
    worker_name: str | None = None,
    use_gzip: bool = False,
    use_python_export: bool = False,
):
    """An ``on_trace_ready`` callback writing each trace into ``dir_name`` as
    ``<worker_name>.<time in ns>.pt.trace.json`` (``.gz`` with ``use_gzip``), the files
    TensorBoard's profiler plugin reads. ``worker_name`` defaults to ``<host>_<pid>``."""

    def handler(prof) -> None:
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        path = os.path.join(dir_name, f"{worker}.{time.time_ns()}.pt.trace.json")
        if use_gzip:
            prof.export_chrome_trace(path)
            with open(path, "rb") as source, gzip.open(path + ".gz", "wb") as target:
                target.write(source.read())
            os.remove(path)
        else:
            prof.export_chrome_trace(path)

    return handler


class _KinetoProfile:
    """One recording: start it, stop it, read its events."""

    def __init__(
        self,
        *,
        activities: Iterable[ProfilerActivity] | None = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_flops: bool = False,
        with_modules: bool = False,
        experimental_config=None,
        execution_trace_observer=None,
        acc_events: bool = False,
        custom_trace_id_callback=None,
    ) -> None:
        self.activities = set(activities) if activities else supported_activities()
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        self.profiler: _autograd_profiler.profile | None = None
        self._metadata: dict[str, str] = {}

    def start_trace(self) -> None:
        self.profiler = _autograd_profiler.profile(
            record_shapes=self.record_shapes,
            profile_memory=self.profile_memory,
            with_stack=self.with_stack,
        )
        self.profiler._start_trace()

    def stop_trace(self) -> None:
        if self.profiler is not None:
            self.profiler._stop_trace()

    def prepare_trace(self) -> None:
        """Warm-up: nothing to prepare for CPU timing."""

    def events(self) -> EventList:
        """The events of the last finished recording."""
        if self.profiler is None or self.profiler.function_events is None:
            raise AssertionError("events() called before the profiler recorded anything")
        return self.profiler.function_events

    def key_averages(
        self, group_by_input_shape: bool = False, group_by_stack_n: int = 0, **_
    ) -> EventList:
        """The events averaged per name (see ``EventList.key_averages``)."""
        return self.events().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path: str) -> None:
        """Write the last recording as a Chrome trace (JSON; ``.gz`` paths compressed)."""
        if path.endswith(".gz"):
            plain = path[:-3]
            self.events().export_chrome_trace(plain)
            with open(plain, "rb") as source, gzip.open(path, "wb") as target:
                target.write(source.read())
            os.remove(plain)
        else:
            self.events().export_chrome_trace(path)

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        self.events().export_stacks(path, metric)

    def add_metadata(self, key: str, value: str) -> None:
        """Keep a key-value pair with the trace."""
        self._metadata[key] = value

    def add_metadata_json(self, key: str, value: str) -> None:
        self._metadata[key] = value


class profile(_KinetoProfile):  # noqa: N801 - PyTorch's name
    """Profile a block of code step by step.

    Without ``schedule`` every step is recorded and ``on_trace_ready`` runs when the
    block ends; with one, :meth:`step` moves through its actions (idle, warm-up,
    recording) and ``on_trace_ready(prof)`` runs at the end of each recorded window.
    Each recorded step is an event ``ProfilerStep#<n>`` (``ProfilerStep*`` in the
    averages).

    Args:
        activities: :class:`ProfilerActivity` values; default: the supported ones.
        schedule (callable, optional): step number -> :class:`ProfilerAction`
            (:func:`schedule`).
        on_trace_ready (callable, optional): called with the profiler when a trace is
            ready (:func:`tensorboard_trace_handler`).
        record_shapes, profile_memory, with_stack: as in
            ``torch.autograd.profiler.profile``.
        with_flops, with_modules: accepted; not recorded here.

    Examples::

        >>> from torch.profiler import ProfilerActivity, profile
        >>> with profile(activities=[ProfilerActivity.CPU]) as prof:
        ...     y = torch.ones(3).sum()
        >>> [e.key for e in prof.key_averages()]
        ['aten::ones', 'aten::sum']
    """

    def __init__(
        self,
        *,
        activities: Iterable[ProfilerActivity] | None = None,
        schedule: Callable[[int], ProfilerAction] | None = None,
        on_trace_ready: Callable[..., Any] | None = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_flops: bool = False,
        with_modules: bool = False,
        experimental_config=None,
        execution_trace_observer=None,
        acc_events: bool = False,
        use_cuda: bool | None = None,
        custom_trace_id_callback=None,
        post_processing_timeout_s: float | None = None,
    ) -> None:
        if use_cuda is not None:
            warnings.warn(
                "`use_cuda` is deprecated, use `activities` argument instead",
                FutureWarning,
                stacklevel=2,
            )
        super().__init__(
            activities=activities,
            record_shapes=record_shapes,
            profile_memory=profile_memory,
            with_stack=with_stack,
            with_flops=with_flops,
            with_modules=with_modules,
        )
        self.schedule = schedule if schedule is not None else _always_record
        self.record_steps = schedule is not None
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self.step_rec_fn: _autograd_profiler.record_function | None = None
        self._recording = False

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.stop()
        return False

    def start(self) -> None:
        """Begin profiling (the first step's action)."""
        self._begin(self.current_action)
        self._open_step()

    def stop(self) -> None:
        """End profiling; a recording in progress is finished and handed to
        ``on_trace_ready``."""
        self._close_step()
        if self._recording:
            self._finish()

    def step(self) -> None:
        """Mark the end of a step: move to the schedule's next action."""
        self._close_step()
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        recording = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)
        if previous is ProfilerAction.RECORD_AND_SAVE or (
            previous is ProfilerAction.RECORD and self.current_action not in recording
        ):
            if previous is ProfilerAction.RECORD:
                warnings.warn(
                    f"Incorrect schedule: RECORD followed by {self.current_action.name}",
                    stacklevel=2,
                )
            self._finish()
        self._begin(self.current_action)
        self._open_step()

    def _begin(self, action: ProfilerAction) -> None:
        if action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            if not self._recording:
                self.start_trace()
                self._recording = True
        elif action is ProfilerAction.WARMUP:
            self.prepare_trace()

    def _finish(self) -> None:
        self.stop_trace()
        self._recording = False
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def _open_step(self) -> None:
        if self.record_steps and self._recording:
            self.step_rec_fn = _autograd_profiler.record_function(f"ProfilerStep#{self.step_num}")
            self.step_rec_fn.__enter__()

    def _close_step(self) -> None:
        if self.step_rec_fn is not None:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None
