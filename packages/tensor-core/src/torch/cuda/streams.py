"""torch.cuda.streams: CUDA streams and events.

The CUDA runtime makes the objects (``torch.cuda.Stream(...)`` returns the runtime's
stream); without one, constructing either fails as PyTorch's CPU build does.
"""

from __future__ import annotations

from . import _state
from ._facade import RuntimeFacade as _RuntimeFacade
from ._facade import dummy_base_error as _dummy_base_error

__all__ = ["Stream", "ExternalStream", "Event"]


class Stream(metaclass=_RuntimeFacade):
    """A CUDA stream: a queue of work that runs in order on one device.

    Args:
        device (torch.device or int, optional): the device (default: the current one).
        priority (int, optional): lower numbers run first; 0 is the default priority.

    The runtime's stream objects offer ``query()``, ``synchronize()``,
    ``wait_event(event)``, ``wait_stream(stream)`` and ``record_event(event=None)``.
    """

    _runtime_class = "Stream"

    def __new__(cls, device=None, priority=0, **kwargs):
        rt = _state.runtime()
        if rt is None:
            raise RuntimeError("torch.cuda.Stream requires CUDA support")
        index = _state.device_index(device, optional=True)
        return rt.Stream(device=index, priority=priority, **kwargs)


class ExternalStream(Stream):
    """A stream made elsewhere (a raw ``cudaStream_t`` given as an int pointer)."""

    _runtime_class = "ExternalStream"

    def __new__(cls, stream_ptr, device=None, **kwargs):
        import torch

        with torch.cuda.device(device):
            rt = _state.lazy_init()
            make = _state.runtime_method(rt, "ExternalStream")
            return make(stream_ptr, device=_state.device_index(device, optional=True), **kwargs)


class Event(metaclass=_RuntimeFacade):
    """A CUDA event: a marker recorded on a stream, to wait on or to time work with.

    Args:
        enable_timing (bool, optional): whether ``elapsed_time`` may be asked (default False).
        blocking (bool, optional): whether ``synchronize()`` blocks the thread (default False).
        interprocess (bool, optional): whether other processes may share it (default False).
        external (bool, optional): whether it is recorded or waited on by external code.

    The runtime's event objects offer ``record(stream=None)``, ``wait(stream=None)``,
    ``query()``, ``synchronize()`` and ``elapsed_time(end_event)`` (milliseconds).
    """

    _runtime_class = "Event"

    def __new__(cls, enable_timing=False, blocking=False, interprocess=False, external=False):
        rt = _state.runtime()
        if rt is None:
            raise _dummy_base_error("Event")
        options = {"enable_timing": enable_timing, "blocking": blocking}
        if interprocess:
            options["interprocess"] = True
        if external:
            options["external"] = True
        return rt.Event(**options)

    @classmethod
    def from_ipc_handle(cls, device, handle):
        """The event another process shared through its IPC handle."""
        rt = _state.runtime()
        if rt is None:  # PyTorch's placeholder base class has no such method
            raise AttributeError("'super' object has no attribute 'from_ipc_handle'")
        return _state.runtime_method(rt, "event_from_ipc_handle")(
            _state.device_index(device), handle
        )
