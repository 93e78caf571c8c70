"""The library calls of a CUDA device that core's kernels reach for device arrays
(``torch._native.device_library(array)``): special functions, and cuDNN's convolution,
softmax and pooling where it exists.

A core op whose host form is a native kernel (``torch._C``) takes its array-generic
NumPy form on a device (NEP 13/18, run by the array module), except where a library call
does it better or where NumPy has no such function:

- ``special(name, array)``: ``erf``, ``erfc``, ``erfinv``, ``lgamma``, ``digamma``,
  ``trigamma``, ``log1p`` (``cupyx.scipy.special`` on CuPy);
- ``cudnn``: the cuDNN kernels (:class:`Cudnn`), or None where there is no cuDNN (the
  simulated devices, a CuPy without cuDNN, ``torch.backends.cudnn.enabled = False``):
  then the array-generic composites run instead (what CI tests).

Only the CuPy library talks to the GPU; it is imported lazily, and has not run on a GPU
in this project yet (see docs/backends.md).
"""

from __future__ import annotations

import numpy as np

__all__ = ["SimulatedLibrary", "CupyLibrary", "Cudnn"]


class SimulatedLibrary:
    """The simulated device's library: its "device kernels" are the host's native
    kernels run on the device buffer (simulated device memory is host memory), so a
    special function is computed as ``cupyx.scipy.special`` would be, without a copy.
    There is no cuDNN: convolution, pooling, softmax and batch norm take their
    array-generic composites, which is what CI tests of the CUDA kernels."""

    cudnn = None

    def __init__(self, wrap=None) -> None:
        #: how a host-memory result becomes the device's array (no copy: the memory is
        #: the device's); strict arrays by default
        self._wrap = wrap

    def _on_device(self, values, index):
        if self._wrap is not None:
            return self._wrap(values, index)
        from ._strict import DeviceArray

        return DeviceArray(values, index)

    def random(self, kind: str, shape: tuple, np_dtype, generator, index: int, params):
        """Draws of ``kind`` made by the device's generator straight into its memory:
        the generator's engine (MT19937, as on the CPU) fills the device buffer, so a
        simulated device gives the CPU's numbers for the same seed."""
        from torch import _dtype
        from torch._random import host_draws

        dtype = _dtype.from_numpy_dtype(np.dtype(np_dtype))
        values = host_draws(kind, shape, dtype, generator, params)
        return self._on_device(np.ascontiguousarray(values), index)

    def special(self, name: str, array):
        from torch._native import special

        host = array._host if hasattr(array, "_host") else np.asarray(array)
        return self._on_device(special(name, host), array.index)


class CupyLibrary:
    """Library calls of real CUDA devices through CuPy (imported on first use)."""

    # our special function name -> cupyx.scipy.special's
    _SPECIAL = {
        "erf": "erf",
        "erfc": "erfc",
        "erfinv": "erfinv",
        "lgamma": "gammaln",
        "digamma": "digamma",
    }

    def __init__(self, cupy) -> None:
        self.cupy = cupy
        self._cudnn = None
        self._cudnn_probed = False

    def random(self, kind: str, shape: tuple, np_dtype, generator, index: int, params):
        """Draws of ``kind`` made on device ``index`` by cuRAND (CuPy's ``RandomState``),
        seeded from the device's ``torch.Generator`` (its seed; the stream of numbers is
        cuRAND's, not PyTorch's Philox, and ``get_rng_state`` does not capture it)."""
        cupy = self.cupy
        dtype = np.dtype(np_dtype)
        with cupy.cuda.Device(index):
            state = self._random_state(index, generator)
            if kind == "uniform":
                low, high = params
                work = dtype if dtype.char in "fd" else np.float64
                values = state.uniform(low, high, shape, dtype=work)
            elif kind == "normal":
                mean, std = params
                work = dtype if dtype.char in "fd" else np.float64
                values = state.normal(mean, std, shape, dtype=work)
            elif kind == "integers":
                values = state.randint(params[0], params[1], shape, dtype=np.int64)
            elif kind == "bernoulli":
                values = state.random_sample(shape) < params[0]
            else:
                raise ValueError(f"unknown kind of random draws: {kind!r}")
            return cupy.ascontiguousarray(values.astype(dtype, copy=False))

    def _random_state(self, index: int, generator):
        """The cuRAND state of device ``index``, made again when its seed changes."""
        states = self.__dict__.setdefault("_states", {})
        seed = generator.initial_seed()
        state = states.get(index)
        if state is None or state[0] != seed:
            state = states[index] = (seed, self.cupy.random.RandomState(seed))
        return state[1]

    def special(self, name: str, array):
        if name == "log1p":
            return self.cupy.log1p(array)
        import cupyx.scipy.special as functions

        if name == "trigamma":
            return functions.polygamma(1, array)
        return getattr(functions, self._SPECIAL[name])(array)

    @property
    def cudnn(self):
        """The cuDNN kernels, or None (no cuDNN, or ``torch.backends.cudnn.enabled`` off)."""
        from torch.backends import cudnn as flags

        if not flags.enabled:
            return None
        if not self._cudnn_probed:
            self._cudnn_probed = True
            try:
                import cupyx.cudnn  # noqa: F401 - fails without the cuDNN library
                from cupy.cuda import cudnn  # noqa: F401

                self._cudnn = Cudnn(self.cupy)
            except Exception:  # noqa: BLE001 - no cuDNN: the composites run
                self._cudnn = None
        return self._cudnn


class Cudnn:
    """cuDNN through ``cupyx.cudnn``: convolution (forward, weight gradient), softmax and
    log-softmax, average pooling. Each returns None for a case it does not take (other
    dtypes, asymmetric padding...), and the caller takes the array-generic composite.

    Max pooling keeps the composite: the op saves the index of each maximum for its
    backward, which cuDNN's pooling does not give. Batch norm keeps the composite too
    (its running statistics and saved values follow PyTorch's op by op)."""

    _FLOATS = ("float16", "float32", "float64")

    def __init__(self, cupy) -> None:
        import cupyx.cudnn as frontend
        from cupy.cuda import cudnn as constants

        self.cupy, self.frontend, self.constants = cupy, frontend, constants

    def _flags(self):
        from torch.backends import cudnn as flags

        return flags

    def _takes(self, *arrays) -> bool:
        dtype = arrays[0].dtype
        return all(a is None or (a.dtype == dtype and a.dtype.name in self._FLOATS) for a in arrays)

    @staticmethod
    def _symmetric(pads):
        """(before, after) pairs as cuDNN's one padding per dim, or None when uneven."""
        if any(before != after for before, after in pads):
            return None
        return tuple(int(before) for before, _ in pads)

    def convolution(self, x, w, bias, stride, pads, dilation, groups):
        """N-d cross-correlation (``x``: (N, C, *spatial), ``w``: (O, C/groups, *k))."""
        pad = self._symmetric(pads)
        if pad is None or not self._takes(x, w, bias) or x.ndim < 4:
            return None
        flags = self._flags()
        cupy = self.cupy
        out_spatial = tuple(
            (x.shape[2 + i] + 2 * pad[i] - dilation[i] * (w.shape[2 + i] - 1) - 1) // stride[i] + 1
            for i in range(x.ndim - 2)
        )
        y = cupy.empty((x.shape[0], w.shape[0]) + out_spatial, dtype=x.dtype)
        self.frontend.convolution_forward(
            cupy.ascontiguousarray(x),
            cupy.ascontiguousarray(w),
            None if bias is None else cupy.ascontiguousarray(bias),
            y,
            pad,
            tuple(stride),
            tuple(dilation),
            groups,
            auto_tune=bool(flags.benchmark),
            tensor_core="auto" if flags.allow_tf32 else "never",
        )
        return y

    def convolution_weight_grad(self, x, grad, w, stride, pads, dilation, groups):
        """The weight gradient of :meth:`convolution` (shaped like ``w``)."""
        pad = self._symmetric(pads)
        if pad is None or not self._takes(x, grad, w) or x.ndim < 4:
            return None
        flags = self._flags()
        gw = self.cupy.empty(w.shape, dtype=w.dtype)
        self.frontend.convolution_backward_filter(
            self.cupy.ascontiguousarray(x),
            self.cupy.ascontiguousarray(grad),
            gw,
            pad,
            tuple(stride),
            tuple(dilation),
            groups,
            deterministic=bool(flags.deterministic),
            auto_tune=bool(flags.benchmark),
            tensor_core="auto" if flags.allow_tf32 else "never",
        )
        return gw

    def softmax(self, x, axis: int, log: bool):
        """Softmax (``log``: log-softmax) of a float array along ``axis``."""
        if not self._takes(x) or x.ndim == 0 or x.size == 0:
            return None
        algorithm = (
            self.constants.CUDNN_SOFTMAX_LOG if log else self.constants.CUDNN_SOFTMAX_ACCURATE
        )
        return self.frontend.softmax_forward(self.cupy.ascontiguousarray(x), axis, algorithm)

    def average_pooling(self, x, kernel, stride, pads):
        """Average pooling counting the padding (``count_include_pad=True``)."""
        pad = self._symmetric(pads)
        if pad is None or not self._takes(x) or x.ndim < 4:
            return None
        out_spatial = tuple(
            (x.shape[2 + i] + 2 * pad[i] - kernel[i]) // stride[i] + 1 for i in range(x.ndim - 2)
        )
        y = self.cupy.empty(x.shape[:2] + out_spatial, dtype=x.dtype)
        mode = self.constants.CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
        self.frontend.pooling_forward(
            self.cupy.ascontiguousarray(x), y, tuple(kernel), tuple(stride), pad, mode
        )
        return y
