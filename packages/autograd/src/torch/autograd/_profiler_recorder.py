"""The recorder behind the profilers: an op-call interceptor (``torch._interface.calls``)
that times every op call of the threads it runs in, and the ``record_function`` blocks.

It is active only between a profile's start and stop: the rest of the time the op
bindings are the plain functions."""

from __future__ import annotations

import threading
import time
import traceback

import torch

from .profiler_util import EventList, FunctionEvent

__all__ = ["Recorder", "current"]

_active: Recorder | None = None
_lock = threading.Lock()

# frames of these files are the profiler's or torch's, not the user's (stack traces)
_INTERNAL = ("/torch/", "\\torch\\")


def current() -> Recorder | None:
    """The recorder of the running profile, or None."""
    return _active


class _Open:
    """An event being timed: its start, name and what was recorded of its call."""

    __slots__ = ("name", "start", "children", "shapes", "stack", "annotation", "id")

    def __init__(self, name, start, shapes, stack, annotation, id) -> None:
        self.name, self.start, self.shapes = name, start, shapes
        self.stack, self.annotation, self.id = stack, annotation, id
        self.children: list[FunctionEvent] = []


class Recorder:
    """Collects the events of one profile (``record_shapes``, ``profile_memory``,
    ``with_stack`` as in the profilers)."""

    registry_functions = True  # nn's and autograd's calls of core ops are ops too
    order = 0  # outermost (calls.PROFILER_ORDER): sees each call as the user made it

    def __init__(self, record_shapes=False, profile_memory=False, with_stack=False) -> None:
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.events: list[FunctionEvent] = []
        self._local = threading.local()
        self._next_id = 0
        self._origin = time.perf_counter_ns()

    # ------------------------------------------------------------------- lifecycle

    def start(self) -> None:
        global _active
        with _lock:
            if _active is not None:
                raise RuntimeError("Profiler is already enabled on this thread")
            _active = self
        from torch._interface import calls

        calls.activate(self)

    def stop(self) -> EventList:
        global _active
        from torch._interface import calls

        calls.deactivate(self)
        with _lock:
            _active = None
        events = sorted(self.events, key=lambda event: (event.time_range.start, event.id))
        self.events = []  # core may keep this recorder's wrappers cached a while
        return EventList(events, profile_memory=self.profile_memory, with_stack=self.with_stack)

    # -------------------------------------------------------------------- recording

    def wants(self, op_name: str) -> bool:
        return True

    def __call__(self, op_name, function, args, kwargs):
        opened = self.open("aten::" + op_name, args)
        try:
            result = function(*args, **kwargs)
        except BaseException:
            self.close(opened)
            raise
        self.close(opened, self._allocated(result, args) if self.profile_memory else 0)
        return result

    def _stack(self) -> list:
        return getattr(self._local, "stack", None) or self._new_stack()

    def _new_stack(self) -> list:
        self._local.stack = []
        return self._local.stack

    def open(self, name: str, args=(), annotation: bool = False) -> _Open:
        """Start timing an event (an op call, or a ``record_function`` block)."""
        shapes = _shapes(args) if self.record_shapes and not annotation else None
        stack = _user_stack() if self.with_stack else None
        self._next_id += 1
        opened = _Open(name, time.perf_counter_ns(), shapes, stack, annotation, self._next_id)
        self._stack().append(opened)
        return opened

    def close(self, opened: _Open, memory: int = 0) -> FunctionEvent:
        """Stop timing ``opened`` (and any event left open inside it)."""
        end = time.perf_counter_ns()
        stack = self._stack()
        while stack and stack[-1] is not opened:
            stack.pop()  # an op that raised left its event open
        if stack:
            stack.pop()
        event = FunctionEvent(
            id=opened.id,
            name=opened.name,
            thread=threading.get_ident() & 0xFFFFFFFF,
            start_us=(opened.start - self._origin) / 1e3,
            end_us=(end - self._origin) / 1e3,
            input_shapes=opened.shapes,
            stack=opened.stack,
            cpu_memory_usage=memory + sum(c.cpu_memory_usage for c in opened.children),
            is_user_annotation=opened.annotation,
        )
        for child in opened.children:
            event.append_cpu_child(child)
        if stack:
            stack[-1].children.append(event)
        self.events.append(event)
        return event

    @staticmethod
    def _allocated(result, args) -> int:
        """Bytes of the new tensors among ``result`` (not views, not the arguments): what
        the op allocated, as far as it shows."""
        inputs = {id(a) for a in args}
        results = result if isinstance(result, (tuple, list)) else (result,)
        return sum(
            t.nbytes
            for t in results
            if isinstance(t, torch.Tensor) and t._base is None and id(t) not in inputs
        )


def _shapes(args) -> list:
    shapes = []
    for value in args:
        if isinstance(value, torch.Tensor):
            shapes.append(list(value.shape))
        elif isinstance(value, (list, tuple)) and value and isinstance(value[0], torch.Tensor):
            shapes.append([list(t.shape) for t in value if isinstance(t, torch.Tensor)])
        else:
            shapes.append([])
    return shapes


def _user_stack() -> list:
    """The caller's frames, innermost first, as ``file(line): function``."""
    frames = traceback.extract_stack()[:-3]
    return [
        f"{frame.filename}({frame.lineno}): {frame.name}"
        for frame in reversed(frames)
        if not any(part in frame.filename for part in _INTERNAL)
    ]
