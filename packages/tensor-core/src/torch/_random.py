"""``torch.Generator``, the global random state, and every random function.

Numbers come from the MT19937 kernel and are transformed as PyTorch's CPU kernels
transform them, so the same seed gives the same numbers as real PyTorch for ``rand``,
``randn`` (to the last bit for float64 and for fewer than 16 float32 numbers; within an
ulp otherwise), ``randint``, ``randperm``, ``normal``, ``bernoulli``, ``geometric_``,
``exponential_`` (the C library's log1p, as PyTorch), and for float32/float16/bfloat16
``cauchy_`` and ``log_normal_``, whose float64 values use NumPy's vectorised
tan/exp/sin/cos where PyTorch calls the C library's, so a few differ in the last bits.
In-place fills visit a non-contiguous tensor in PyTorch's (TensorIterator's) order, the
smallest stride fastest, and ``normal_`` takes PyTorch's one-at-a-time path off
contiguous tensors. ``get_rng_state`` uses
PyTorch's 5056-byte layout, so states move between the two frameworks.
"""

from __future__ import annotations

import math
import os
import warnings

import numpy as np

from . import _dtype
from ._creation import _finish, _parse_size
from ._creation_layout import is_sparse_layout, refuse_sparse, sparse_like
from ._device import device as _device_cls
from ._native import kernels, special
from ._ops._dispatch import defop
from ._tensor import Tensor, make

__all__ = [
    "Generator",
    "default_generator",
    "manual_seed",
    "seed",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
    "rand",
    "randn",
    "randint",
    "randperm",
    "normal",
    "bernoulli",
    "multinomial",
    "rand_like",
    "randn_like",
    "randint_like",
]

DEFAULT_SEED = 67280421310721  # PyTorch's seed for a fresh CPU generator
_UINT64 = 1 << 64
_STATE_WORDS = 624

# PyTorch's CPUGeneratorImplState, byte for byte (5056 bytes)
_STATE_LAYOUT = np.dtype(
    [
        ("initial_seed", "<u8"),
        ("left", "<i4"),
        ("seeded", "<i4"),
        ("next", "<u8"),
        ("state", "<u8", (_STATE_WORDS,)),
        ("normal_x", "<f8"),
        ("normal_y", "<f8"),
        ("normal_rho", "<f8"),
        ("normal_is_valid", "<i4"),
        ("pad0", "<i4"),
        ("next_float_normal", "<f4"),
        ("float_normal_valid", "u1"),
        ("pad1", "u1", (3,)),
    ]
)


class Generator:
    """A source of pseudo-random numbers for the random functions' ``generator=``.

    Args:
        device (str or torch.device): only ``"cpu"`` for now. Default: ``"cpu"``.

    Examples::

        >>> g = torch.Generator().manual_seed(0)
        >>> torch.rand(2, generator=g)
        tensor([0.4963, 0.7682])
    """

    def __init__(self, device="cpu") -> None:
        self.device = _device_cls(device)
        if self.device.type != "cpu":
            raise RuntimeError(f"Generator: device type '{self.device.type}' is not available")
        self._engine = kernels.MT19937(DEFAULT_SEED)
        self._initial_seed = DEFAULT_SEED

    def manual_seed(self, seed) -> Generator:
        seed = int(seed)
        if not -(1 << 63) <= seed < _UINT64:
            raise RuntimeError("Overflow when unpacking long long")
        seed %= _UINT64  # negative seeds wrap to uint64, as in PyTorch
        self._engine.seed(seed)
        self._initial_seed = seed
        return self

    def seed(self) -> int:
        """Seed from the OS's entropy source and return the seed."""
        new_seed = int.from_bytes(os.urandom(8), "little") & ((1 << 63) - 1)
        self.manual_seed(new_seed)
        return new_seed

    def initial_seed(self) -> int:
        return self._initial_seed

    def get_state(self) -> Tensor:
        """The generator's state as a ``torch.uint8`` tensor in PyTorch's layout."""
        key, pos = self._engine.get_state()
        state = np.zeros((), dtype=_STATE_LAYOUT)
        state["initial_seed"] = self._initial_seed
        state["seeded"] = 1
        # PyTorch counts words left before the next twist (1 = twist now) and the index
        # of the next word; NumPy's position 624 means "twist now".
        state["left"] = 1 if pos >= _STATE_WORDS else _STATE_WORDS - pos + 1
        state["next"] = 0 if pos >= _STATE_WORDS else pos
        state["state"] = key.astype(np.uint64)
        cached = self._engine.cached_normal
        if cached is not None:
            # written so that PyTorch's reader (rho * sin(2 pi x)) restores it exactly
            state["normal_is_valid"] = 1
            state["normal_y"] = state["normal_rho"] = cached
            state["normal_x"] = 0.25
        raw = np.frombuffer(state.tobytes(), dtype=np.uint8).copy()
        return Tensor._from_array(raw, _dtype.uint8)

    def set_state(self, new_state: Tensor) -> Generator:
        """Restore a state from :meth:`get_state` (or from real PyTorch's)."""
        if not isinstance(new_state, Tensor) or new_state.dtype is not _dtype.uint8:
            raise TypeError(
                "expected a torch.ByteTensor, but got "
                f"{getattr(new_state, 'type', lambda: type(new_state).__name__)()}"
            )
        raw = np.ascontiguousarray(new_state._np).reshape(-1)
        if raw.size != _STATE_LAYOUT.itemsize:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {_STATE_LAYOUT.itemsize} but found "
                f"the input RNG state size to be {raw.size}"
            )
        state = raw.view(_STATE_LAYOUT)[0]
        left, position = int(state["left"]), int(state["next"])
        if not 1 <= left <= _STATE_WORDS + 1 or position > _STATE_WORDS:
            raise RuntimeError("The RNG state is corrupt: its position is out of range")
        pos = _STATE_WORDS if left == 1 else position
        self._engine.set_state((state["state"] & 0xFFFFFFFF).astype(np.uint32), pos)
        self._engine.cached_normal = (
            float(state["normal_rho"] * math.sin(2.0 * math.pi * state["normal_x"]))
            if state["normal_is_valid"]
            else None
        )
        self._initial_seed = int(state["initial_seed"])
        return self

    # draws used by the functions below ------------------------------------------

    def _fill_uniform(self, out: np.ndarray, low: float, high: float) -> None:
        self._engine.fill_uniform(out, low, high)

    def _fill_normal(self, out: np.ndarray, mean: float, std: float) -> None:
        self._engine.fill_normal(out, mean, std)

    def _u32(self, n: int) -> np.ndarray:
        return self._engine.random_raw(n).astype(np.uint64)

    def _u64(self, n: int) -> np.ndarray:
        raw = self._engine.random_raw(2 * n).astype(np.uint64)
        return (raw[0::2] << np.uint64(32)) | raw[1::2]

    def _uniform53(self, n: int) -> np.ndarray:
        return (self._u64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0**-53


default_generator = Generator()


def _gen(generator) -> Generator:
    return default_generator if generator is None else generator


@defop("manual_seed")
def manual_seed(seed) -> Generator:
    """Seed the default generator; returns it.

    Examples::

        >>> torch.rand(3)
        tensor([0.4963, 0.7682, 0.0885])
    """
    return default_generator.manual_seed(seed)


@defop("seed")
def seed() -> int:
    """Seed the default generator non-deterministically and return the seed."""
    return default_generator.seed()


@defop("initial_seed")
def initial_seed() -> int:
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


@defop("get_rng_state")
def get_rng_state() -> Tensor:
    """The default generator's state (a ``torch.uint8`` tensor, PyTorch's layout)."""
    return default_generator.get_state()


@defop("set_rng_state")
def set_rng_state(new_state: Tensor) -> None:
    """Restore the default generator's state from :func:`get_rng_state`."""
    default_generator.set_state(new_state)


# ------------------------------------------------------------------- array fillers


def _complex_parts(dtype):
    """The real dtype whose pairs make up ``dtype``'s elements, or None when not complex.
    PyTorch fills a complex tensor by filling its real view (``view_as_real``)."""
    if dtype is _dtype.complex64:
        return _dtype.float32
    if dtype is _dtype.complex128:
        return _dtype.float64
    return None


def _as_complex(parts: np.ndarray, dtype) -> np.ndarray:
    return np.ascontiguousarray(parts).view(dtype.np_dtype)[..., 0]


def uniform_array(shape, dtype, generator, low=0.0, high=1.0) -> np.ndarray:
    """A C-contiguous array of ``shape`` filled as ``Tensor.uniform_`` fills it."""
    parts = _complex_parts(dtype)
    if parts is not None:
        return _as_complex(uniform_array((*shape, 2), parts, generator, low, high), dtype)
    _check_uniform_bounds(dtype, low, high)
    gen = _gen(generator)
    if dtype in (_dtype.float32, _dtype.float64):
        out = np.empty(shape, dtype=dtype.np_dtype)
        gen._fill_uniform(out, low, high)
        return out
    if dtype in (_dtype.float16, _dtype.bfloat16):
        # reduced precision: a float32 draw between the bounds rounded to the dtype
        bounds = np.array([low, high], dtype=dtype.np_dtype).astype(np.float32)
        out = np.empty(shape, dtype=np.float32)
        gen._fill_uniform(out, float(bounds[0]), float(bounds[1]))
        return out.astype(dtype.np_dtype)
    raise AssertionError(dtype)


def _check_uniform_bounds(dtype, low, high) -> None:
    """PyTorch's checks on ``uniform_``'s bounds, in its order: a floating dtype, both
    bounds finite numbers of the dtype, a span the dtype holds, then ``low <= high``."""
    if not dtype.is_floating_point:
        raise NotImplementedError(
            f"\"check_uniform_bounds\" not implemented for '{dtype._legacy[:-6]}'"
        )
    limit = _FLOAT_MAX[dtype.name]
    for name, value in (("from", low), ("to", high)):
        if not -limit <= value <= limit:
            raise RuntimeError(f"{name} is out of bounds for {_CPP_TYPE_NAMES[dtype.name]}")
    if high - low > limit:
        raise RuntimeError(
            f"uniform_ expects to-from <= std::numeric_limits<{dtype._legacy[:-6]}>::max(), "
            f"but found to={high:g} and from={low:g} which result in to-from to exceed the limit"
        )
    if low > high:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={low:g} > to={high:g}"
        )


def normal_array(shape, dtype, generator, mean=0.0, std=1.0, one_at_a_time=False) -> np.ndarray:
    """A C-contiguous array of ``shape`` filled as ``Tensor.normal_`` fills a contiguous
    tensor, or with ``one_at_a_time`` as it fills a non-contiguous one: PyTorch takes its
    16-at-a-time path only for contiguous tensors of 16 elements or more."""
    if not std >= 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    parts = _complex_parts(dtype)
    if parts is not None:
        # each part has variance std**2 / 2, so the complex values have variance std**2
        pairs = normal_array((*shape, 2), parts, generator, mean, std / math.sqrt(2), one_at_a_time)
        return _as_complex(pairs, dtype)
    gen = _gen(generator)
    if not dtype.is_floating_point:
        raise NotImplementedError(
            f"\"normal_kernel_cpu\" not implemented for '{dtype._legacy[:-6]}'"
        )
    native = dtype if dtype in (_dtype.float32, _dtype.float64) else _dtype.float32
    out = np.empty(shape, dtype=native.np_dtype)
    if one_at_a_time:
        # the engine's path for fewer than 16 numbers is the one-at-a-time sampler (whose
        # cached normal carries over between calls), so chunks of 15 give its sequence
        flat = out.reshape(-1)
        for start in range(0, flat.size, 15):
            gen._fill_normal(flat[start : start + 15], float(mean), float(std))
    else:
        gen._fill_normal(out, float(mean), float(std))
    return out.astype(dtype.np_dtype, copy=False)


def integer_array(shape, low: int, high: int, dtype, generator) -> np.ndarray:
    """Integers uniform on [low, high): a 32-bit draw modulo the range, or a 64-bit one
    for ranges of 2**32 or more, as PyTorch does."""
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    gen = _gen(generator)
    span = high - low
    count = math.prod(shape)
    draws = gen._u64(count) if span >= 1 << 32 else gen._u32(count)
    values = (draws % np.uint64(span)).astype(object if span >= 1 << 63 else np.int64) + low
    return np.asarray(values).astype(dtype.np_dtype).reshape(shape)


_FLOAT_MAX = {
    "float16": 65504.0,
    "bfloat16": 3.3895313892515355e38,
    "float32": float(np.finfo(np.float32).max),
    "float64": float(np.finfo(np.float64).max),
}
_MANTISSA_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}


def _check_random_bounds(dtype, low: int, high: int) -> None:
    """PyTorch's checks on ``random_``'s bounds (after ``low < high``): both ``low`` and
    ``high - 1`` values of the dtype; for floating dtypes a warning beyond the integers
    the dtype holds exactly."""
    if dtype.is_complex:
        raise RuntimeError(
            "check_random_bounds handles only integral, floating-point and boolean types"
        )
    name = _CPP_TYPE_NAMES[dtype.name]
    if dtype.is_floating_point:
        lowest, highest = -_FLOAT_MAX[dtype.name], _FLOAT_MAX[dtype.name]
    elif dtype is _dtype.bool_:
        lowest, highest = 0, 1
    else:
        info = np.iinfo(dtype.np_dtype)
        lowest, highest = int(info.min), int(info.max)
    for label, value in (("from", low), ("to - 1", high - 1)):
        if not lowest <= value <= highest:
            raise RuntimeError(f"{label} is out of bounds for {name}")
    if dtype.is_floating_point:
        digits = _MANTISSA_DIGITS[dtype.name]
        for label, value in (("from", low), ("to - 1", high - 1)):
            if not -(1 << digits) <= value <= 1 << digits:
                warnings.warn(
                    f"{label} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {name} can support discrete uniform distribution only "
                    "within this range. This warning will become an error in version 1.7 "
                    "release, please fix the code in advance",
                    UserWarning,
                    stacklevel=3,
                )


def _default_random_range(dtype) -> int:
    """``random_()`` without bounds: [0, 2**mantissa] for floats, [0, max] for integers."""
    if dtype.is_floating_point:
        digits = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}[dtype.name]
        return (1 << digits) + 1
    if dtype is _dtype.bool_:
        return 2
    return int(np.iinfo(dtype.np_dtype).max) + 1


# ------------------------------------------------------------------ tensor makers


_shape = _parse_size


def _check_cpu(device):
    """The resolved non-CPU device a random factory fills on, or None for the CPU."""
    from ._interface.backends import dispatch_device, resolve

    return dispatch_device() if device is None else resolve(device)


def _device_draws(device, kind: str, shape: tuple, dtype, generator, *params):
    """Draws made on ``device`` (a resolved non-CPU device) by its generator, in its
    memory: ``kind`` is "uniform" (low, high), "normal" (mean, std), "integers" (low,
    high) or "bernoulli" (p). The device's library makes them (``torch.cuda``'s: cuRAND
    through CuPy, or the simulated device's generator writing into its memory)."""
    from ._interface.backends import get_backend

    backend = get_backend(device.type)
    generator = _gen(_device_gen(generator, device))
    library = getattr(backend, "library", None)
    if library is None:  # a backend without a random library: host draws, handed over
        return backend.adopt(host_draws(kind, tuple(shape), dtype, generator, params), device.index)
    return library.random(kind, tuple(shape), dtype.np_dtype, generator, device.index, params)


def host_draws(kind: str, shape: tuple, dtype, generator, params) -> np.ndarray:
    """The draws :func:`_device_draws` asks for, made on the host by ``generator``."""
    if kind == "uniform":
        return uniform_array(shape, dtype, generator, *params)
    if kind == "normal":
        return normal_array(shape, dtype, generator, *params)
    if kind == "integers":
        return integer_array(shape, params[0], params[1], dtype, generator)
    if kind == "bernoulli":
        draws = generator._uniform53(math.prod(shape)).reshape(shape)
        return (draws < params[0]).astype(dtype.np_dtype)
    raise ValueError(f"unknown kind of random draws: {kind!r}")


def _device_of(tensor: Tensor):
    """The resolved device of a tensor on a non-CPU device, else None."""
    return None if type(tensor._np) is np.ndarray else tensor._device


def _new_drawn(device, kind, shape, dtype, generator, requires_grad, *params) -> Tensor:
    """A new tensor of ``kind`` draws made on ``device``."""
    result = make(_device_draws(device, kind, shape, dtype, generator, *params), dtype)
    return result.requires_grad_(True) if requires_grad else result


def _device_gen(generator, device):
    """``generator``, or the default generator of ``device`` (a resolved device or None)."""
    if generator is not None or device is None:
        return generator
    from ._interface.backends import get_backend

    return get_backend(device.type).default_generator(device.index)


def _float_random(name: str, kind: str, draw_array, doc: str):
    """``rand`` and ``randn``: one signature and one set of checks; the CPU draws come from
    ``draw_array(shape, dtype, generator)``, another device makes ``kind`` draws itself."""

    def random(
        *size, generator=None, dtype=None, layout=None, device=None, requires_grad=False
    ) -> Tensor:
        if layout is not None and is_sparse_layout(layout, name, size):
            raise refuse_sparse(name)
        device = _check_cpu(device)
        generator = _device_gen(generator, device)
        dtype = dtype or _dtype.get_default_dtype()
        shape = _shape(size, name)
        if device is not None:
            return _new_drawn(device, kind, shape, dtype, generator, requires_grad, 0.0, 1.0)
        return _finish(draw_array(shape, dtype, generator), dtype, requires_grad, device)

    random.__name__ = random.__qualname__ = name
    random.__doc__ = doc
    return defop(name)(random)


rand = _float_random(
    "rand",
    "uniform",
    uniform_array,
    """Uniform random numbers on [0, 1); same seed, same numbers as PyTorch's CPU.

    Examples::

        >>> torch.rand(2, 2)
        tensor([[0.4963, 0.7682],
                [0.0885, 0.1320]])
    """,
)
randn = _float_random(
    "randn",
    "normal",
    normal_array,
    """Standard normal random numbers.

    Examples::

        >>> torch.randn(3)
        tensor([ 1.5410, -0.2934, -2.1788])
    """,
)


@defop("randint")
def randint(
    low=0,
    high=None,
    size=None,
    *,
    generator=None,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
) -> Tensor:
    """Random integers on [``low``, ``high``); ``randint(high, size)`` starts at 0.

    Examples::

        >>> torch.randint(0, 10, (5,))
        tensor([4, 9, 3, 0, 3])
    """
    if layout is not None:
        given = tuple(a for a in (low, high, size) if a is not None)
        if is_sparse_layout(layout, "randint", given):
            raise refuse_sparse("randint")
    device = _check_cpu(device)
    generator = _device_gen(generator, device)
    if size is None:
        if high is None or not isinstance(high, (tuple, list)):
            raise TypeError("randint() missing required argument 'size'")
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    dtype = dtype or _dtype.int64
    if device is not None:
        _check_random_bounds(dtype, int(low), int(high))
        shape = _shape((size,), "randint")
        bounds = (int(low), int(high))
        return _new_drawn(device, "integers", shape, dtype, generator, requires_grad, *bounds)
    array = integer_array(_shape((size,), "randint"), int(low), int(high), dtype, generator)
    return _finish(array, dtype, requires_grad, device)


@defop("randperm")
def randperm(
    n: int, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False
) -> Tensor:
    """A random permutation of ``0 .. n-1``.

    Examples::

        >>> torch.randperm(5)
        tensor([4, 0, 1, 3, 2])
    """
    if layout is not None and is_sparse_layout(layout, "randperm", (n,)):
        raise refuse_sparse("randperm")
    device = _check_cpu(device)
    generator = _device_gen(generator, device)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    dtype = dtype or _dtype.int64
    return _finish(
        _gen(generator)._engine.randperm(int(n)).astype(dtype.np_dtype),
        dtype,
        requires_grad,
        device,
    )


@defop("normal", inplace=True)
def normal(
    mean, std=1.0, size=None, *, generator=None, dtype=None, layout=None, out=None
) -> Tensor:
    """Normal random numbers: ``mean`` and ``std`` as numbers (with ``size``) or tensors
    (broadcast together).

    Examples::

        >>> torch.normal(2.0, 3.0, (3,))
        tensor([ 6.6230,  1.1197, -4.5364])
    """
    if layout is not None:
        given = tuple(a for a in (mean, std, size) if a is not None)
        if is_sparse_layout(layout, "normal", given):
            raise refuse_sparse("normal")
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        mean_array = mean._np if isinstance(mean, Tensor) else np.asarray(mean)
        std_array = std._np if isinstance(std, Tensor) else np.asarray(std)
        if np.any(std_array < 0):
            raise RuntimeError("normal expects all elements of std >= 0.0")
        shape = np.broadcast_shapes(mean_array.shape, std_array.shape)
        result_dtype = (mean if isinstance(mean, Tensor) else std).dtype
        noise = normal_array(shape, result_dtype, generator)
        array = (noise * std_array + mean_array).astype(result_dtype.np_dtype)
    else:
        if size is None:
            raise TypeError("normal() missing required argument 'size'")
        result_dtype = dtype or _dtype.get_default_dtype()
        array = normal_array(_shape((size,), "normal"), result_dtype, generator, mean, std)
    if out is not None:
        out._np[...] = array
        out._bump_version()
        return out
    return Tensor._from_array(array, result_dtype)


@defop("bernoulli", method=True, inplace=True)
def bernoulli(input: Tensor, p=None, *, generator=None, out=None) -> Tensor:
    """0/1 draws: 1 with probability ``input`` (elementwise), or with ``p`` if given.

    Examples::

        >>> torch.bernoulli(torch.full((6,), 0.5))
        tensor([1., 0., 1., 1., 1., 0.])
    """
    gen = _gen(generator)
    if p is not None:  # one probability: double-precision draws, as bernoulli_(p)
        draws = gen._uniform53(input._np.size).reshape(input._np.shape)
        array = (draws < p).astype(input._dtype.np_dtype)
    else:
        _check_probabilities(input)
        probs = input._np
        draws = _bernoulli_draws(gen, probs)
        array = (draws < probs).astype(input._dtype.np_dtype)
    if out is not None:
        out._np[...] = array
        out._bump_version()
        return out
    return Tensor._from_array(array, input._dtype)


@defop("multinomial", method=True)
def multinomial(
    input: Tensor, num_samples: int, replacement: bool = False, *, generator=None, out=None
) -> Tensor:
    """Indices drawn from the categorical distributions in the rows of ``input``
    (weights, not necessarily normalised).

    Examples::

        >>> torch.multinomial(torch.tensor([0.0, 10.0, 3.0, 0.0]), 2)
        tensor([1, 2])
    """
    if not input._dtype.is_floating_point:
        raise RuntimeError(
            "multinomial only supports floating-point dtypes for input, got: "
            f"{input._dtype._legacy[:-6]}"
        )
    weights = input._np.astype(np.float64)
    if weights.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    rows = weights.reshape(-1, weights.shape[-1])
    categories = rows.shape[1]
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > categories:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    if not np.all(np.isfinite(rows)) or np.any(rows < 0):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if np.any(rows.sum(axis=1) <= 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    gen = _gen(generator)
    if not replacement or num_samples == 1:
        # the exponential trick: the largest weights / Exp(1) are a sample without
        # replacement
        exp_draws = -np.log1p(-gen._uniform53(rows.size)).reshape(rows.shape)
        keys = (rows / exp_draws).astype(input._dtype.np_dtype)
        samples = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    else:
        cumulative = np.cumsum(rows, axis=1)
        cumulative /= cumulative[:, -1:]
        cumulative[:, -1] = 1.0
        draws = gen._uniform53(rows.shape[0] * num_samples).reshape(rows.shape[0], num_samples)
        samples = np.stack([np.searchsorted(c, d, side="left") for c, d in zip(cumulative, draws)])
    samples = samples.reshape(weights.shape[:-1] + (num_samples,)).astype(np.int64)
    if out is not None:
        out._np[...] = samples
        return out
    return Tensor._from_array(samples, _dtype.int64)


def _uniform24(gen: Generator, n: int) -> np.ndarray:
    return (gen._u32(n) & np.uint64(0xFFFFFF)).astype(np.float32) * np.float32(2.0**-24)


def _empty_like(input: Tensor, dtype, memory_format=None, device=None) -> Tensor:
    """An uninitialised tensor laid out as ``input`` (PyTorch's ``preserve_format``): the
    ``*_like`` functions fill it in place, so a transposed ``input`` gives numbers in
    memory order, as in PyTorch."""
    from ._creation import empty_like

    return empty_like(input, dtype=dtype, device=device, memory_format=memory_format)


def _random_like(input, dtype, memory_format, device, requires_grad, fill) -> Tensor:
    """The ``*_like`` random factories: an empty tensor laid out as ``input`` (on
    ``device``, default ``input``'s), filled in place by ``fill(result, device)``, where
    ``device`` is the resolved non-CPU device whose generator a draw defaults to (None on
    the CPU)."""
    if getattr(input, "is_sparse", False):  # a dense result: only the shape counts
        input = input.to_dense()
    result = _empty_like(input, dtype, memory_format, device)
    on_device = None if type(result._np) is np.ndarray else _check_cpu(result._device)
    result = fill(result, on_device)
    return result.requires_grad_(True) if requires_grad else result


def _float_random_like(name: str, fill_, doc: str):
    """``rand_like`` and ``randn_like``: one signature, one sparse check, and a draw
    ``fill_(result, generator)`` in place (``uniform_`` or ``normal_``)."""

    def random_like(
        input: Tensor,
        *,
        dtype=None,
        layout=None,
        device=None,
        requires_grad=False,
        generator=None,
        memory_format=None,
    ) -> Tensor:
        if sparse_like(input, layout, name, (input,)):
            raise refuse_sparse(name, filling=layout is None)
        return _random_like(
            input,
            dtype,
            memory_format,
            device,
            requires_grad,
            lambda out, on: fill_(out, _device_gen(generator, on)),
        )

    random_like.__name__ = random_like.__qualname__ = name
    random_like.__doc__ = doc
    return defop(name)(random_like)


# the in-place fills are defined further down, so they are looked up at call time
rand_like = _float_random_like(
    "rand_like",
    lambda out, generator: uniform_(out, generator=generator),
    "Uniform random numbers on [0, 1) in the shape (and layout) of ``input``.",
)
randn_like = _float_random_like(
    "randn_like",
    lambda out, generator: normal_(out, generator=generator),
    "Standard normal random numbers in the shape (and layout) of ``input``.",
)


@defop("randint_like")
def randint_like(
    input: Tensor,
    low=0,
    high=None,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    generator=None,
    memory_format=None,
) -> Tensor:
    """Random integers on [``low``, ``high``) in the shape (and layout) of ``input``."""
    given = (input, low) if high is None else (input, low, high)
    if sparse_like(input, layout, "randint_like", given):
        raise refuse_sparse("randint_like", filling=layout is None)
    if high is None:
        low, high = 0, low
    low, high = int(low), int(high)
    return _random_like(
        input,
        dtype,
        memory_format,
        device,
        requires_grad,
        lambda out, on: random_(out, low, high, generator=_device_gen(generator, on)),
    )


# ------------------------------------------------------------- in-place methods


_OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location. Please clone() the tensor before performing the operation."
)


def _iteration_axes(self: Tensor) -> tuple:
    """The axes of ``self`` from outermost to innermost in the order PyTorch's CPU kernels
    visit its elements (TensorIterator's order): the dimension with the smallest stride
    varies fastest, so a transposed or permuted tensor is filled in memory order and a
    slice with gaps in the order of its strides; equal strides put the smaller size inner.
    Refuses, as PyTorch does, a tensor whose elements share memory (an expanded one)."""
    array = self._np
    if any(stride == 0 and size > 1 for stride, size in zip(array.strides, array.shape)):
        raise RuntimeError(_OVERLAP_MESSAGE)
    if array.flags.c_contiguous:
        return tuple(range(array.ndim))
    return tuple(sorted(range(array.ndim), key=lambda d: (-abs(array.strides[d]), -array.shape[d])))


def _fill_shape(self: Tensor) -> tuple:
    """The shape the draws for ``self`` are made in (C order): ``self``'s shape permuted to
    the order :func:`_iteration_axes` visits it."""
    return tuple(self._np.shape[axis] for axis in _iteration_axes(self))


def _fill(self: Tensor, array: np.ndarray, name: str, others=()) -> Tensor:
    """Write random draws, made in C order for :func:`_fill_shape`, into ``self``. For
    autograd the result is a function of nothing (of ``others`` with a zero gradient): its
    node cuts ``self``'s old history, as PyTorch's ``UniformBackward0``,
    ``BernoulliBackward1``... do."""
    from ._ops._dispatch import check_inplace, record
    from ._ops.pointwise import _snapshot

    recording = check_inplace(self, *others)
    snapshot = _snapshot(self) if recording else None
    self._np.transpose(_iteration_axes(self))[...] = array
    self._bump_version()
    if recording:
        record(_FILL_OPS[name], (snapshot, *others), self)
    return self


def _register_fill_ops() -> dict:
    from ._ops._dispatch import register_op

    signatures = {
        "uniform_": "uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? "
        "generator=None) -> Tensor(a!)",
        "normal_": "normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? "
        "generator=None) -> Tensor(a!)",
        "random_": "random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)",
        "random_.to": "random_.to(Tensor(a!) self, int to, *, Generator? generator=None) "
        "-> Tensor(a!)",
        "random_.from": "random_.from(Tensor(a!) self, int from, int? to, *, Generator? "
        "generator=None) -> Tensor(a!)",
        "exponential_": "exponential_(Tensor(a!) self, float lambd=1, *, Generator? "
        "generator=None) -> Tensor(a!)",
        "geometric_": "geometric_(Tensor(a!) self, float p, *, Generator? generator=None) "
        "-> Tensor(a!)",
        "cauchy_": "cauchy_(Tensor(a!) self, float median=0, float sigma=1, *, Generator? "
        "generator=None) -> Tensor(a!)",
        "log_normal_": "log_normal_(Tensor(a!) self, float mean=1, float std=2, *, Generator? "
        "generator=None) -> Tensor(a!)",
        "bernoulli_.float": "bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? "
        "generator=None) -> Tensor(a!)",
        "bernoulli_.Tensor": "bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? "
        "generator=None) -> Tensor(a!)",
    }
    return {
        name: register_op(
            name,
            globals()[name.split(".")[0]],
            signature,
            "random",
            inplace=True,
            binding=f"Tensor.{name.split('.')[0]}",
        )
        for name, signature in signatures.items()
    }


@defop("uniform_", method=True, public=False)
def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, *, generator=None) -> Tensor:
    """Fill with uniform numbers on [``from_``, ``to``)."""
    device = _device_of(self)
    if device is not None:
        _check_uniform_bounds(self._dtype, from_, to)
        shape = _fill_shape(self)
        draws = _device_draws(device, "uniform", shape, self._dtype, generator, from_, to)
        return _fill(self, draws, "uniform_")
    return _fill(
        self, uniform_array(_fill_shape(self), self._dtype, generator, from_, to), "uniform_"
    )


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator=None) -> Tensor:
    """Fill with normal numbers of ``mean`` and ``std``."""
    shape = _fill_shape(self)
    device = _device_of(self)
    if device is not None:
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
        draws = _device_draws(device, "normal", shape, self._dtype, generator, mean, std)
        return _fill(self, draws, "normal_")
    # PyTorch's 16-at-a-time path is for contiguous tensors only
    contiguous = self._np.flags.c_contiguous
    array = normal_array(shape, self._dtype, generator, mean, std, one_at_a_time=not contiguous)
    return _fill(self, array, "normal_")


@defop("random_", method=True, public=False)
def random_(self: Tensor, from_=None, to=None, *, generator=None) -> Tensor:
    """Fill with integers on [``from_``, ``to``), on [0, ``from_``) given one bound, or on
    the whole range the dtype represents exactly given none."""
    dtype = self._dtype
    if from_ is None:
        if dtype.is_complex:
            raise NotImplementedError(
                f"\"random_kernel_cpu\" not implemented for '{dtype._legacy[:-6]}'"
            )
        low, high, overload = 0, _default_random_range(dtype), "random_"
    else:
        if to is None:
            low, high, overload = 0, int(from_), "random_.to"
        else:
            low, high, overload = int(from_), int(to), "random_.from"
        if low >= high:
            raise RuntimeError(
                f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
            )
        _check_random_bounds(dtype, low, high)
    return _fill(self, integer_array(_fill_shape(self), low, high, dtype, generator), overload)


def _require_floating(self: Tensor, distribution: str, type_name: str) -> None:
    if not self._dtype.is_floating_point:
        raise RuntimeError(
            f"{distribution} distribution is a continuous probability distribution. dtype must "
            f"be a floating point but you specified {type_name}"
        )


@defop("exponential_", method=True, public=False)
def exponential_(self: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    """Fill with exponential numbers of rate ``lambd``."""
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    # PyTorch names the dtype as its tensor type here ("Long"), as its C++ type for cauchy_
    _require_floating(self, "Exponential", self._dtype._legacy[:-6])
    # -1/lambda * log1p(-u) in double, with the C library's log1p as PyTorch's kernel
    # (NumPy's vectorised log1p differs from it in the last bit for some values)
    log1p = special("log1p", -_uniform_f64(self, generator))
    return _fill(self, _from_double((-1.0 / lambd) * log1p, self._dtype), "exponential_")


# C++ names PyTorch's checks print for each dtype
_CPP_TYPE_NAMES = {
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "float32": "float",
    "float64": "double",
    "bool": "bool",
    "uint8": "unsigned char",
    "int8": "signed char",
    "int16": "short int",
    "int32": "int",
    "int64": "long int",
    "complex64": "c10::complex<float>",
    "complex128": "c10::complex<double>",
}


def _from_double(values: np.ndarray, dtype) -> np.ndarray:
    """Round double results to ``dtype`` as PyTorch does: float16/bfloat16 through float32
    (two roundings), overflow to inf without a warning."""
    with np.errstate(over="ignore", invalid="ignore"):
        if dtype in (_dtype.float16, _dtype.bfloat16):
            values = values.astype(np.float32)
        return values.astype(dtype.np_dtype)


def _uniform_f64(self: Tensor, generator) -> np.ndarray:
    """One double-precision uniform draw per element: PyTorch's CPU kernels for these
    distributions transform ``uniform_real_distribution<double>`` samples one by one."""
    shape = _fill_shape(self)
    return _gen(generator)._uniform53(math.prod(shape)).reshape(shape)


@defop("geometric_", method=True, public=False)
def geometric_(self: Tensor, p: float, *, generator=None) -> Tensor:
    """Fill with the number of Bernoulli(``p``) trials up to the first success (1, 2, ...)."""
    p = float(p)  # a bool or 0-dim tensor too, as PyTorch's float argument takes them
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    dtype = self._dtype
    if dtype is _dtype.bool_ or dtype.is_complex:
        raise NotImplementedError(f"\"geometric_cpu\" not implemented for '{dtype._legacy[:-6]}'")
    with np.errstate(divide="ignore"):  # a draw of exactly 0 gives inf, as in PyTorch
        trials = np.ceil(np.log(_uniform_f64(self, generator)) / math.log1p(-p))
    if not dtype.is_floating_point:
        # PyTorch converts the double to a 64-bit integer, then wraps it to the dtype
        trials = _from_double(trials, _dtype.int64)
    return _fill(self, _from_double(trials, dtype), "geometric_")


@defop("cauchy_", method=True, public=False)
def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator=None) -> Tensor:
    """Fill with Cauchy numbers centred on ``median`` with half-width ``sigma``."""
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={float(sigma):g}")
    _require_floating(self, "Cauchy", _CPP_TYPE_NAMES[self._dtype.name])
    # inverse CDF, in double precision for every dtype as PyTorch computes it
    values = median + sigma * np.tan(math.pi * (_uniform_f64(self, generator) - 0.5))
    return _fill(self, _from_double(values, self._dtype), "cauchy_")


def _scalar_normals(gen: Generator, n: int) -> np.ndarray:
    """``n`` standard normals as PyTorch's one-at-a-time sampler makes them (not the
    16-at-a-time path ``normal_`` takes for larger tensors): Box-Muller on two double
    draws gives a cosine value now and a sine value kept for the next call, a cache this
    generator shares with ``normal_``/``randn`` and its saved state."""
    engine = gen._engine
    head = []
    if n and engine.cached_normal is not None:
        head, engine.cached_normal = [engine.cached_normal], None
    pairs = (n - len(head) + 1) // 2
    u = gen._uniform53(2 * pairs).reshape(pairs, 2)
    radius = np.sqrt(-2.0 * np.log1p(-u[:, 1]))
    theta = 2.0 * math.pi * u[:, 0]
    values = np.stack([radius * np.cos(theta), radius * np.sin(theta)], axis=1).reshape(-1)
    if (n - len(head)) % 2:  # an odd count leaves the last sine for the next call
        engine.cached_normal = float(values[-1])
        values = values[:-1]
    return np.concatenate([np.asarray(head, dtype=np.float64), values])


@defop("log_normal_", method=True, public=False)
def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator=None) -> Tensor:
    """Fill with numbers whose logarithm is normal with ``mean`` and ``std``."""
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={float(std):g}")
    dtype = self._dtype
    if not dtype.is_floating_point:
        raise NotImplementedError(f"\"log_normal_cpu\" not implemented for '{dtype._legacy[:-6]}'")
    shape = _fill_shape(self)
    normals = _scalar_normals(_gen(generator), math.prod(shape)).reshape(shape)
    # (PyTorch's build fuses this multiply-add: float64 may differ in the last bit)
    with np.errstate(over="ignore"):
        values = np.exp(normals * std + mean)
    return _fill(self, _from_double(values, dtype), "log_normal_")


def bernoulli_(self: Tensor, p=0.5, *, generator=None) -> Tensor:
    """Fill with 0/1 draws that are 1 with probability ``p`` (a number or a tensor)."""
    dtype = self._dtype
    if isinstance(p, Tensor):
        if dtype.is_complex:
            raise NotImplementedError(
                f"\"bernoulli_tensor_cpu_self_\" not implemented for '{dtype._legacy[:-6]}'"
            )
        _check_probabilities(p)
        axes = _iteration_axes(self)
        # p broadcast to self, visited in self's order
        probs = np.broadcast_to(p._np, self._np.shape).transpose(axes)
        draws = _bernoulli_draws(_gen(generator), probs)
        return _fill(self, (draws < probs).astype(dtype.np_dtype), "bernoulli_.Tensor", (p,))
    p = float(p)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    if dtype.is_complex:
        raise NotImplementedError(
            f"\"bernoulli_scalar_cpu_\" not implemented for '{dtype._legacy[:-6]}'"
        )
    shape = _fill_shape(self)
    device = _device_of(self)
    if device is not None:
        draws = _device_draws(device, "bernoulli", shape, dtype, generator, p)
        return _fill(self, draws, "bernoulli_.float")
    draws = _gen(generator)._uniform53(math.prod(shape)).reshape(shape)
    return _fill(self, (draws < p).astype(dtype.np_dtype), "bernoulli_.float")


def _check_probabilities(p: Tensor) -> None:
    """PyTorch's checks on a tensor of probabilities: a floating dtype, values in [0, 1]."""
    if not p._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"bernoulli_tensor_cpu_p_\" not implemented for '{p._dtype._legacy[:-6]}'"
        )
    if not np.all((p._np >= 0) & (p._np <= 1)):  # NaN fails too
        raise RuntimeError(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  "
            "(Could this error message be improved?  If so, please report "
            "an enhancement request to PyTorch.)"
        )


def _bernoulli_draws(gen: Generator, probs: np.ndarray) -> np.ndarray:
    """One uniform draw per probability: double precision for float64 probabilities,
    single precision (24 bits) for the others, as PyTorch's kernel makes them."""
    if probs.dtype == np.float64:
        return gen._uniform53(probs.size).reshape(probs.shape)
    return _uniform24(gen, probs.size).reshape(probs.shape)


_FILL_OPS = _register_fill_ops()

TENSOR_METHODS = {
    "uniform_": uniform_,
    "normal_": normal_,
    "random_": random_,
    "exponential_": exponential_,
    "geometric_": geometric_,
    "cauchy_": cauchy_,
    "log_normal_": log_normal_,
    "bernoulli_": bernoulli_,
    "bernoulli": bernoulli,
    "multinomial": multinomial,
}
