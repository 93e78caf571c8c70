"""A second CPU device, for testing the backend contract (``torch._interface.backends``).

The "twin" device keeps its arrays apart from the host's: they are instances of
:class:`TwinArray` (host memory, tagged with a device index), so a tensor knows it is on
``twin:0`` or ``twin:1``, ops refuse to mix it with CPU tensors, and only ``.to()``,
``.cpu()`` and factories with ``device=`` move data between the two. It counts the
copies and allocations it makes, has a random generator per device, and can carry
native kernels of its own (``ops[name].kernels["twin"]``), so tests can see which path
an op took. The kernels themselves are the CPU's: a ``TwinArray`` is a NumPy array, as a
CuPy array speaks NumPy's protocols.

Use it as a context manager::

    with twin_device() as twin:
        x = torch.ones(3, device="twin")
        assert twin.copies == 0
"""

from __future__ import annotations

import contextlib

import numpy as np

from .._interface import backends, ops

__all__ = ["TwinArray", "TwinBackend", "twin_device"]


class TwinArray(np.ndarray):
    """Host memory that belongs to twin device ``index`` (kept through views and results)."""

    index = 0

    def __array_finalize__(self, obj) -> None:
        self.index = getattr(obj, "index", 0)


class TwinBackend(backends.HostMemoryBackend):
    device_type = "twin"
    array_class = TwinArray

    def __init__(self, count: int = 2) -> None:
        self.count = count
        self.copies = 0  # host <-> device and device <-> device transfers
        self.allocations = 0
        self.kernel_calls: dict[str, int] = {}
        self._generators: dict[int, object] = {}

    def _count_copy(self, kind: str) -> None:
        self.copies += 1

    def empty(self, shape, dtype, index):
        self.allocations += 1
        return self._tag(np.empty(shape, dtype), index)

    def from_host(self, array, index, copy=True):
        if copy:
            self.copies += 1
            array = np.array(array, copy=True, order="C")
        else:
            self.allocations += 1
        return self._tag(np.asarray(array), index)

    def adopt(self, array, index):
        return self._tag(np.asarray(array), index)

    def default_generator(self, index=None):
        from .._random import Generator

        index = 0 if index is None else index
        if index not in self._generators:
            generator = Generator()
            generator.manual_seed(1234 + index)
            self._generators[index] = generator
        return self._generators[index]

    def counting_kernel(self, name: str):
        """A twin kernel for op ``name``: the op's own function, counted."""
        function = ops[name].function

        def kernel(*args, **kwargs):
            self.kernel_calls[name] = self.kernel_calls.get(name, 0) + 1
            return function(*args, **kwargs)

        return kernel


@contextlib.contextmanager
def twin_device(count: int = 2, kernels: tuple[str, ...] = ("mul",)):
    """Register the twin backend for the ``with`` block (with counting twin kernels for
    the ops named in ``kernels``), then remove it and its kernels again."""
    backend = TwinBackend(count)
    backends.register_backend(backend, TwinArray)
    for name in kernels:
        ops[name].kernels["twin"] = backend.counting_kernel(name)
    try:
        yield backend
    finally:
        for name in kernels:
            ops[name].kernels.pop("twin", None)
        backends.unregister_backend("twin")
