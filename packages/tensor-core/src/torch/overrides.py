"""``torch.overrides``: :class:`TorchFunctionMode`, a context manager whose
``__torch_function__`` sees the calls of torch functions made inside it.

Here it is built on core's op-call interception (``torch._op_calls``, the mechanism
autocast and the profiler use): inside ``with mode:``, each call of an op of ``torch``,
``torch.linalg``, ``torch.special``, ``torch.fft``, ``torch.nn.functional`` or a
``Tensor`` method goes to ``mode.__torch_function__(func, types, args, kwargs)``, where
``func`` is the plain function. Differences from PyTorch: ``types`` is always ``()``
(no tensor subclass dispatch), Python-level helpers that are not ops (``torch.nn.init``
functions, for one) are not seen, and a namespace first imported inside the ``with``
block (``torch.nn.functional``, say) is seen only from the next mode on.

Examples::

    >>> from torch.overrides import TorchFunctionMode
    >>> class Count(TorchFunctionMode):
    ...     calls = 0
    ...     def __torch_function__(self, func, types, args=(), kwargs=None):
    ...         Count.calls += 1
    ...         return func(*args, **(kwargs or {}))
    >>> with Count():
    ...     _ = torch.add(torch.ones(2), 1)
    >>> Count.calls >= 1
    True
"""

from __future__ import annotations

from . import _op_calls

__all__ = ["TorchFunctionMode"]


class _ModeInterceptor:
    """Hands every intercepted op call to a mode's ``__torch_function__``."""

    def __init__(self, mode: TorchFunctionMode) -> None:
        self.mode = mode

    def wants(self, op_name: str) -> bool:
        return True

    def __call__(self, op_name, function, args, kwargs):
        # the mode is off while its own handler runs (as in PyTorch), so the function it
        # calls runs plainly
        _op_calls.deactivate(self)
        try:
            return self.mode.__torch_function__(function, (), tuple(args), dict(kwargs))
        finally:
            _op_calls.activate(self)


class TorchFunctionMode:
    """Base class of modes: override ``__torch_function__(func, types, args=(),
    kwargs=None)`` and use an instance as a context manager."""

    def __init__(self) -> None:
        self._interceptor = _ModeInterceptor(self)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self):
        interceptor = getattr(self, "_interceptor", None) or _ModeInterceptor(self)
        self._interceptor = interceptor
        _op_calls.activate(interceptor)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _op_calls.deactivate(self._interceptor)
