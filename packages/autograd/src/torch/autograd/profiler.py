"""``torch.autograd.profiler``: time the ops of a block of code.

:class:`profile` records every op call (``aten::add``, ``aten::mm``, ...) and every
:class:`record_function` block run while it is active, in every thread; the events come
from an interceptor of core's op bindings (``torch._interface.calls``), which exists only
while a profile runs. Times are wall-clock CPU times (there are no device kernels to
time); memory is the size of the tensors each op returned that are new (not views).
"""

from __future__ import annotations

import functools
import warnings

from ._profiler_kinds import ProfilerActivity, kineto_available  # noqa: F401 - as PyTorch's
from ._profiler_recorder import Recorder, current
from .profiler_util import EventList, FunctionEvent, FunctionEventAvg

__all__ = [
    "profile",
    "record_function",
    "emit_itt",
    "emit_nvtx",
    "load_nvprof",
    "EnforceUnique",
    "EventList",
    "FunctionEvent",
    "FunctionEventAvg",
]


class profile:  # noqa: N801 - PyTorch's name
    """Record the op calls of a ``with`` block.

    Args:
        enabled (bool): when False, the block runs unprofiled. Default: True.
        use_cuda (bool): deprecated; there are no CUDA kernels to time. Default: False.
        use_device (str, optional): a device whose kernels to time; only None works here.
        record_shapes (bool): keep the shapes of each op's arguments
            (``key_averages(group_by_input_shape=True)``). Default: False.
        with_flops (bool): accepted; no FLOP estimates are made. Default: False.
        profile_memory (bool): keep the bytes of the new tensors each op returned (the
            ``CPU Mem`` columns). Default: False.
        with_stack (bool): keep the caller's source location of each op. Default: False.
        with_modules (bool): accepted; module hierarchy is not recorded. Default: False.
        use_kineto (bool): accepted for PyTorch's signature. Default: False.
        use_cpu (bool): record CPU ops (must be True: there is nothing else). Default: True.

    Examples::

        >>> from torch.autograd import profiler
        >>> a = torch.ones(4, 4)
        >>> with profiler.profile() as prof:
        ...     b = torch.mm(a, a) + 1
        >>> sorted(e.key for e in prof.key_averages())
        ['aten::add', 'aten::mm']
    """

    def __init__(
        self,
        enabled: bool = True,
        *,
        use_cuda: bool = False,
        use_device=None,
        record_shapes: bool = False,
        with_flops: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_modules: bool = False,
        use_kineto: bool = False,
        use_cpu: bool = True,
        experimental_config=None,
        acc_events: bool = False,
        custom_trace_id_callback=None,
        post_processing_timeout_s=None,
        activity_filters=None,
    ) -> None:
        self.enabled = enabled
        if not enabled:
            return
        if use_cuda:
            warnings.warn(
                "The attribute `use_cuda` will be deprecated soon, please use "
                "``use_device = 'cuda'`` instead.",
                FutureWarning,
                stacklevel=2,
            )
            use_device = "cuda"
        if use_device is not None and use_device != "cpu":
            raise RuntimeError(f"{use_device} is not available to the profiler: no such device")
        if not use_cpu:
            raise ValueError("profile(use_cpu=False) records nothing: the CPU is the only device")
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops, self.with_modules = with_flops, with_modules
        self.function_events: EventList | None = None
        self.entered = False
        self._recorder: Recorder | None = None

    # ---------------------------------------------------------------- the block

    def __enter__(self):
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._start_trace()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if not self.enabled:
            return False
        self._stop_trace()
        return False

    def _start_trace(self) -> None:
        self._recorder = Recorder(self.record_shapes, self.profile_memory, self.with_stack)
        self._recorder.start()

    def _stop_trace(self) -> None:
        if self._recorder is not None:
            self.function_events = self._recorder.stop()
            self._recorder = None

    # ---------------------------------------------------------------- the results

    def _events(self) -> EventList:
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")
        return self.function_events

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0, **_):
        """The events averaged per name (see :meth:`EventList.key_averages`)."""
        return self._events().key_averages(group_by_input_shape, group_by_stack_n)

    def table(self, sort_by=None, row_limit: int = 100, header=None, **kwargs) -> str:
        """The table of every event (not averaged; see :meth:`EventList.table`)."""
        return self._events().table(sort_by=sort_by, row_limit=row_limit, header=header, **kwargs)

    def total_average(self):
        return self._events().total_average()

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace JSON file."""
        self._events().export_chrome_trace(path)

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        if not self.with_stack:
            raise AssertionError("export_stacks() requires with_stack=True")
        self._events().export_stacks(path, metric)

    @property
    def self_cpu_time_total(self) -> float:
        """The total of every event's own time, in microseconds."""
        return self._events().self_cpu_time_total

    def __str__(self) -> str:
        return self.table() if self.function_events is not None else "<unfinished profile>"


class record_function:  # noqa: N801 - PyTorch's name
    """Mark a block (``with``) or a function (decorator) as one event named ``name`` in
    the running profile; outside a profile it does nothing.

    Args:
        name (str): the event's name.
        args (str, optional): accepted for PyTorch's signature.

    Examples::

        >>> from torch.autograd import profiler
        >>> with profiler.profile() as prof:
        ...     with profiler.record_function("block"):
        ...         y = torch.ones(2) * 3
        >>> [e.name for e in prof.function_events]
        ['block', 'aten::ones', 'aten::mul']
    """

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name, self.args = name, args
        self._opened = None
        self._recorder = None

    def __enter__(self):
        recorder = current()
        if recorder is not None:
            self._recorder = recorder
            self._opened = recorder.open(self.name, annotation=True)
        return self

    def __exit__(self, *exc):
        if self._opened is not None:
            self._recorder.close(self._opened)
            self._opened = self._recorder = None
        return False

    def __call__(self, function):
        @functools.wraps(function)
        def wrapped(*args, **kwargs):
            with record_function(self.name, self.args):
                return function(*args, **kwargs)

        return wrapped


class emit_nvtx:  # noqa: N801 - PyTorch's name
    """NVTX ranges for NVIDIA's profilers: a no-op here (no CUDA), usable as a context."""

    def __init__(self, enabled: bool = True, record_shapes: bool = False) -> None:
        self.enabled, self.record_shapes = enabled, record_shapes

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class emit_itt(emit_nvtx):  # noqa: N801 - PyTorch's name
    """ITT ranges for Intel VTune: a no-op here, usable as a context."""


def load_nvprof(path):
    """Not built: nvprof traces come from CUDA runs, which this project has none of."""
    raise NotImplementedError("load_nvprof: reading nvprof traces is not supported here")


class EnforceUnique:
    """Raise if the same key is seen twice."""

    def __init__(self) -> None:
        self.seen: set = set()

    def see(self, *key) -> None:
        if key in self.seen:
            raise RuntimeError("duplicate key: " + str(key))
        self.seen.add(key)
