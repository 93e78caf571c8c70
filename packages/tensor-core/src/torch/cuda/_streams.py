"""Streams and events of simulated devices.

A simulated kernel finishes as it is issued, so a stream never has pending work. The
classes keep what code can observe of CUDA streams and events: the device and priority of
a stream, its position (how many events were recorded on it), which events a stream
waits for, when an event was recorded (``elapsed_time`` in milliseconds of host time),
and the errors of PyTorch's classes (timing without ``enable_timing``, timing an event
that was never recorded, recording on another device).
"""

from __future__ import annotations

import itertools

from ._runtime import StreamOrdering, recording_stream
from ._simulated import host_time

__all__ = ["simulated_classes"]

_stream_ids = itertools.count(1)


def simulated_classes(runtime):
    """``(Stream, Event)`` classes bound to ``runtime`` (a ``SimulatedRuntime``)."""

    class Stream(StreamOrdering):
        """A queue of work on one simulated device (``device``: default the current)."""

        def __init__(self, device=None, priority: int = 0, **kwargs) -> None:
            from torch import device as device_cls

            index = runtime.index(device)
            self.device = device_cls("cuda", index)
            self.priority = max(-5, min(0, int(priority)))  # CUDA's range of priorities
            self.stream_id = next(_stream_ids)
            self.cuda_stream = 0x1000 + self.stream_id  # a handle-like number, 0: default
            self.position = 0  # events recorded on this stream so far
            self.waits: list = []  # events this stream was told to wait for

        @classmethod
        def _default(cls, rt, index):
            stream = cls(index)
            stream.stream_id, stream.cuda_stream = 0, 0
            return stream

        @property
        def device_index(self) -> int:
            return self.device.index

        @property
        def device_type(self) -> int:
            return 1  # PyTorch's DeviceType.CUDA

        def query(self) -> bool:
            """Whether all work queued so far is done (always: nothing is queued)."""
            return True

        def synchronize(self) -> None:
            """Wait for this stream's work (returns at once)."""

        def wait_event(self, event) -> None:
            """Order the work queued after this call behind ``event``."""
            if event.recorded:
                self.waits.append(event)

        def __eq__(self, other) -> bool:
            return (
                isinstance(other, Stream)
                and other.stream_id == self.stream_id
                and other.device == self.device
            )

        def __hash__(self) -> int:
            return hash((self.stream_id, self.device))

        def __repr__(self) -> str:
            return f"<torch.cuda.Stream device={self.device} cuda_stream={self.cuda_stream:#x}>"

    class Event:
        """A marker in a stream (``enable_timing``: it can be timed against another)."""

        def __init__(
            self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False
        ) -> None:
            self.enable_timing = enable_timing
            self.blocking = blocking
            self.interprocess = interprocess
            self.device = None  # set by the first record
            self.stream = None
            self.position = None
            self.time = None

        @property
        def recorded(self) -> bool:
            return self.stream is not None

        def record(self, stream=None) -> None:
            """Mark the current point of ``stream`` (default: the current stream)."""
            stream = recording_stream(self, stream, runtime)
            stream.position += 1
            self.device, self.stream, self.position = stream.device, stream, stream.position
            self.time = host_time()

        def wait(self, stream=None) -> None:
            """Make ``stream`` (default: the current stream) wait for this event."""
            stream = runtime.current_stream() if stream is None else stream
            stream.wait_event(self)

        def query(self) -> bool:
            """Whether the work before the recorded point is done (always, when simulated)."""
            return True

        def synchronize(self) -> None:
            """Wait until the recorded point is reached (returns at once)."""

        def elapsed_time(self, end_event) -> float:
            """Milliseconds between this event's record and ``end_event``'s."""
            if not (self.enable_timing and end_event.enable_timing):
                raise RuntimeError(
                    "Both events must be created with argument 'enable_timing=True'."
                )
            if not (self.recorded and end_event.recorded):
                raise RuntimeError("Both events must be recorded before calculating elapsed time.")
            return end_event.time - self.time

        def ipc_handle(self):
            raise RuntimeError(
                "simulated CUDA devices have no interprocess event handles: events live in "
                "one process"
            )

        @property
        def cuda_event(self) -> int:
            return id(self)

        def __repr__(self) -> str:
            if not self.recorded:
                return "<torch.cuda.Event uninitialized>"
            return f"<torch.cuda.Event {id(self):#x}>"

    Stream.event_class = Event
    return Stream, Event
