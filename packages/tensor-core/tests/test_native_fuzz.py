"""Every torch._C entry point called with hostile arguments: wrong sizes, overflowing
products of sizes, negative and huge integers, wrong dtypes, non-contiguous, read-only,
broadcast and empty arrays, and things that are not arrays at all. Each call must give a
result or raise a Python exception; a crash (or a sanitizer report under ``nox -s
sanitize``) fails the run.

The default run is short (``TORCH_NATIVE_FUZZ_EXAMPLES``, 15 examples per entry point);
the sanitize session runs many more. ``test_every_entry_point_is_fuzzed`` fails when a
new entry point has no strategy here.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import torch
from torch import _C

EXAMPLES = int(os.environ.get("TORCH_NATIVE_FUZZ_EXAMPLES", "15"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)

# What a rejected argument may raise (pybind11 maps std::invalid_argument to ValueError,
# std::out_of_range to IndexError, std::bad_alloc to MemoryError, overflow_error to
# OverflowError; a failed conversion of an argument is a TypeError).
REJECTED = (TypeError, ValueError, RuntimeError, IndexError, MemoryError, OverflowError)

# Huge integers are chosen so that no allocation they size can succeed (even 2**40
# float32 elements are 4 TiB): a rejection or a MemoryError, never a real attempt.
HUGE = [2**40, 2**48, 2**53, 2**62, 2**63 - 1, -(2**63), -(2**62), -(2**31), -1]
INTS = st.one_of(st.integers(-2, 6), st.integers(-2, 6), st.sampled_from(HUGE))
THREADS = st.one_of(st.integers(-1, 4), st.sampled_from([2**31 - 1, -(2**31), 2**31, 2**63]))
FLOATS = st.one_of(st.floats(-2, 2), st.sampled_from([float("nan"), float("inf"), -1e308]))
NON_ARRAYS = st.sampled_from(
    [None, 0, -1, 2**63, 1.5, "abc", b"x", [1.0, 2.0], [[1.0]], (1,), {}, object()]
)
DTYPES = [np.float32, np.float64, np.int64, np.int32, np.uint32, np.bool_, np.float16]
ODD_DTYPES = [np.complex64, np.uint8, np.dtype(">f4"), object]
LAYOUTS = [
    "plain",
    "plain",
    "readonly",
    "transposed",
    "reversed",
    "strided",
    "broadcast",
    "fortran",
    "empty",
]


def _values(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.kind == "O":
        return np.full(shape, None, dtype=object)
    if dtype.kind in "iu":
        return rng.integers(-2, 6, size=shape).astype(dtype)
    values = rng.standard_normal(shape)
    if values.size and rng.random() < 0.2:
        values.flat[0] = np.nan
    return values.astype(dtype)


def _layout(a: np.ndarray, layout: str) -> np.ndarray:
    if layout == "readonly":
        a = a.copy()
        a.setflags(write=False)
    elif layout == "transposed" and a.ndim >= 2:
        a = np.ascontiguousarray(np.swapaxes(a, -1, -2)).swapaxes(-1, -2)
    elif layout == "reversed" and a.ndim >= 1:
        a = a[::-1]
    elif layout == "strided" and a.ndim >= 1:
        a = np.repeat(a, 2, axis=-1)[..., ::2]
    elif layout == "broadcast" and a.ndim >= 1:
        a = np.broadcast_to(a[..., :1], a.shape) if a.shape[-1] else a
    elif layout == "fortran":
        a = np.asfortranarray(a)
    elif layout == "empty":
        a = a[..., :0] if a.ndim else a.reshape(1)[:0]
    return a


@st.composite
def arrays(draw, shape=None, dtype=None):
    """An array of the given shape (else a random small one) and dtype (else a random
    one), in a random layout."""
    if shape is None:
        shape = tuple(draw(st.lists(st.integers(0, 4), max_size=5)))
    if dtype is None:
        dtype = draw(st.sampled_from(DTYPES + ODD_DTYPES))
    elif draw(st.integers(0, 9)) == 0:  # sometimes another dtype than the kernel's
        dtype = draw(st.sampled_from(DTYPES + ODD_DTYPES))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return _layout(_values(rng, shape, dtype), draw(st.sampled_from(LAYOUTS)))


def hostile(plausible):
    """Mostly the plausible value, sometimes any array, integer or non-array."""
    return st.one_of(plausible, plausible, plausible, plausible, arrays(), NON_ARRAYS, INTS)


def size_lists(n: int):
    """A list of n sizes (sometimes of another length, or not a list)."""
    small = st.lists(st.one_of(st.integers(0, 3), INTS), min_size=n, max_size=n)
    return hostile(st.one_of(small, st.lists(INTS, max_size=n + 1)))


FLOAT = st.sampled_from([np.float32, np.float64])


@st.composite
def shaped(draw, shapes: dict, dtype=None):
    """Arrays of the shapes in ``shapes`` (name -> shape, None: absent), one float dtype,
    each sometimes replaced by something hostile."""
    dtype = dtype if dtype is not None else draw(FLOAT)
    out = {}
    for name, shape in shapes.items():
        if shape is None:
            out[name] = None
            continue
        if draw(st.integers(0, 5)) == 0:  # a neighbouring shape
            shape = tuple(max(0, s + draw(st.integers(-1, 1))) for s in shape)
        out[name] = draw(hostile(arrays(shape, dtype)))
    return out


DIMS = st.fixed_dictionaries(
    {"T": st.integers(0, 3), "B": st.integers(0, 3), "H": st.integers(0, 3)}
)

# ------------------------------------------------------------------ per entry point


@st.composite
def elementwise_args(draw, name):
    shape = tuple(draw(st.lists(st.integers(0, 5), max_size=3)))
    dtype = draw(FLOAT)
    a = draw(hostile(arrays(shape, dtype)))
    if name == "binary":
        op = draw(st.sampled_from(["add", "sub", "mul", "div", "pow", ""]))
        b = draw(hostile(arrays(shape, dtype)))
        # no out, an operand itself (in place), or another array (maybe hostile)
        out = draw(st.sampled_from([None, a, b, "other"]))
        if isinstance(out, str):
            out = draw(hostile(arrays(shape, dtype)))
        return (op, a, b, draw(THREADS), out)
    if name == "fill":
        return (a, draw(st.one_of(st.floats(), INTS, NON_ARRAYS)), draw(THREADS))
    if name == "unary":
        return (draw(st.sampled_from(["exp", "sigmoid", "log"])), a, draw(THREADS))
    if name == "sum_all":
        return (a, draw(THREADS))
    if name == "special":
        names = ["erf", "erfc", "erfinv", "lgamma", "log1p", "digamma", "trigamma", "x"]
        return (draw(st.sampled_from(names)), a)
    return (a,)  # cascade_sum


@st.composite
def conv_args(draw, name):
    n, c, g, co = (
        draw(st.integers(0, 2)),
        draw(st.integers(1, 2)),
        draw(st.integers(1, 2)),
        draw(st.integers(1, 2)),
    )
    spatial = [draw(st.integers(1, 4)) for _ in range(3)]
    kernel = [draw(st.integers(1, 3)) for _ in range(3)]
    dilation = [draw(st.integers(1, 2)) for _ in range(3)]
    pads = [[draw(st.integers(0, 1)) for _ in range(3)] for _ in range(2)]
    out = [
        s + pads[0][i] + pads[1][i] - dilation[i] * (kernel[i] - 1) for i, s in enumerate(spatial)
    ]
    arrays_ = draw(
        shaped(
            {
                "x": (n, c * g, *spatial),
                "w": (co * g, c, *kernel),
                "bias": (co * g,) if draw(st.booleans()) else None,
                "grad": (n, co * g, *[max(o, 0) for o in out]),
            }
        )
    )
    lists = [draw(st.one_of(st.just(v), size_lists(3))) for v in (dilation, *pads)]
    groups = draw(st.one_of(st.just(g), INTS))
    if name == "conv_forward":
        return (arrays_["x"], arrays_["w"], arrays_["bias"], *lists, groups, draw(THREADS))
    return (arrays_["x"], arrays_["grad"], arrays_["w"], *lists, groups, draw(THREADS))


@st.composite
def indexing_args(draw, name):
    o, d, i, n = (draw(st.integers(0, 3)) for _ in range(4))
    dtype = draw(st.sampled_from([np.float32, np.float64, np.int64, np.int32]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    index_shape = (n,) if name == "index_accumulate" else (o, n, i)
    index = rng.integers(-1 if draw(st.booleans()) else 0, d + 1, size=index_shape)
    if index.size and draw(st.booleans()):
        index.flat[0] = draw(st.sampled_from(HUGE + [d, d - 1]))
    index = draw(hostile(st.just(index.astype(np.int64))))
    big = draw(hostile(arrays((o, d, i), dtype)))
    src = draw(hostile(arrays((o, n, i), dtype)))
    if name == "index_accumulate":
        return (big, index, src, draw(FLOATS), draw(THREADS))
    if name == "scatter_accumulate":
        return (big, index, src, draw(THREADS))
    return (big, index, draw(THREADS))  # gather_along


@st.composite
def blas_args(draw, name):
    if name == "blas_load":
        return (draw(st.one_of(st.sampled_from(["", "/nonexistent/libx.so", "/"]), NON_ARRAYS)),)
    m, k, n = (draw(st.integers(0, 4)) for _ in range(3))
    batch = () if draw(st.booleans()) else (draw(st.integers(0, 2)),)
    a = draw(shaped({"a": (*batch, m, k), "b": (*batch, k, n), "out": (*batch, m, n)}))
    return (a["a"], a["b"], a["out"], draw(THREADS))


@st.composite
def pool_args(draw, name):
    p, h, w = draw(st.integers(0, 2)), draw(st.integers(0, 5)), draw(st.integers(0, 5))
    if name == "max_pool_backward":
        n = draw(st.integers(0, 4))
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        grad = draw(hostile(arrays((p, n), draw(FLOAT))))
        idx = rng.integers(-1 if draw(st.booleans()) else 0, h * w + 1, size=(p, n))
        indices = draw(hostile(st.just(idx.astype(np.int64))))
        return (
            grad,
            indices,
            draw(st.one_of(st.just(p), INTS)),
            draw(st.one_of(st.just(h * w), INTS)),
            draw(THREADS),
        )
    k = [draw(st.integers(1, 3)) for _ in range(2)]
    s = [draw(st.integers(1, 3)) for _ in range(2)]
    pad = [draw(st.integers(0, kk // 2)) for kk in k]
    d = [draw(st.integers(1, 2)) for _ in range(2)]
    outs = [
        (size + 2 * pad[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i, size in enumerate((h, w))
    ]
    x = draw(hostile(arrays((p, h, w), draw(FLOAT))))
    lists = [draw(st.one_of(st.just(v), size_lists(2))) for v in (k, s, pad, d)]
    out_hw = [draw(st.one_of(st.just(max(o, 0)), INTS)) for o in outs]
    return (x, *lists, *out_hw, draw(THREADS))


@st.composite
def norm_args(draw, name):
    """The norm family (norm/bindings.cpp): (rows, cols) matrices, vectors per row or
    column, an epsilon, a flag and a thread count."""
    rows, cols = draw(st.integers(0, 4)), draw(st.integers(0, 5))
    dtype = draw(FLOAT)
    matrix = arrays((rows, cols), dtype)
    per_row, per_col = arrays((rows,), dtype), arrays((cols,), dtype)
    optional_col = st.one_of(st.none(), hostile(per_col))
    threads = draw(THREADS)
    if name == "layer_norm":
        return (
            draw(hostile(matrix)),
            draw(optional_col),
            draw(optional_col),
            draw(FLOATS),
            threads,
        )
    stats = (draw(hostile(matrix)), draw(hostile(matrix)))
    stats += (draw(hostile(per_row)), draw(hostile(per_row)))
    if name == "layer_norm_input_grad":
        return (*stats, draw(optional_col), threads)
    if name == "layer_norm_param_grads":
        return (*stats, threads)
    if name == "softmax_backward":
        return (draw(hostile(matrix)), draw(hostile(matrix)), draw(st.booleans()), threads)
    if name == "relu":
        return (draw(hostile(arrays(None, dtype))), threads)
    if name.startswith("batch_norm"):
        return _batch_norm_args(draw, name, dtype, threads)
    return (draw(hostile(matrix)), threads)  # softmax


def _batch_norm_args(draw, name, dtype, threads):
    n, c, p = draw(st.integers(0, 3)), draw(st.integers(0, 4)), draw(st.integers(0, 5))
    planes = arrays((n, c, p), dtype)
    per_channel = arrays((c,), dtype)
    if name == "batch_norm_stats":
        return (draw(hostile(planes)), threads)
    if name == "batch_norm_apply":
        return (
            draw(hostile(planes)),
            draw(hostile(per_channel)),
            draw(hostile(per_channel)),
            threads,
        )
    return (
        draw(hostile(planes)),
        draw(hostile(planes)),
        draw(hostile(per_channel)),
        draw(hostile(per_channel)),
        draw(st.one_of(st.none(), hostile(per_channel))),
        draw(st.booleans()),
        threads,
    )


def _rnn_shapes(name, t, b, h):
    """The argument shapes of the recurrent kernel ``name``, in its argument order."""
    # both LSTM cell kernels start from the gate pre-activations and the previous cell state
    lstm_cell = {"gates": (b, 4 * h), "c_prev": (b, h)}

    def layer_forward(gates):
        """What every layer's forward kernel starts with, for ``gates`` gates of width h."""
        return {
            "projected": (t, b, gates * h),
            "w_hh_t": (h, gates * h),
            "b_hh": (gates * h,),
            "hs": (t + 1, b, h),
        }

    shapes = {
        "relu_backward": {"grad": (b, h), "result": (b, h)},
        "lstm_cell_forward": {**lstm_cell, "c": (b, h), "h": (b, h), "tanh_c": (b, h)},
        "lstm_cell_backward": {
            **lstm_cell,
            "tanh_c": (b, h),
            "dh": (b, h),
            "dc": (b, h),
            "dz": (b, 4 * h),
        },
        "lstm_layer_forward": {
            **layer_forward(4),
            "cs": (t + 1, b, h),
            "gates": (t, b, 4 * h),
            "tanh_cs": (t, b, h),
        },
        "lstm_layer_backward": {
            "grad": (t + 1, b, h),
            "gates": (t, b, 4 * h),
            "cs": (t + 1, b, h),
            "tanh_cs": (t, b, h),
            "w_hh": (4 * h, h),
            "dz": (t, b, 4 * h),
            "dh0": (b, h),
            "dc0": (b, h),
        },
        "rnn_layer_forward": layer_forward(1),
        "rnn_layer_backward": {
            "grad": (t, b, h),
            "hs": (t + 1, b, h),
            "w_hh": (h, h),
            "dz": (t, b, h),
            "dh0": (b, h),
        },
        "gru_layer_forward": {
            **layer_forward(3),
            "gates": (t, b, 3 * h),
            "hn": (t, b, h),
        },
        "gru_layer_backward": {
            "grad": (t, b, h),
            "hs": (t + 1, b, h),
            "gates": (t, b, 3 * h),
            "hn": (t, b, h),
            "w_hh": (3 * h, h),
            "dgx": (t, b, 3 * h),
            "dgh": (t, b, 3 * h),
            "dh0": (b, h),
        },
    }
    return shapes[name]


@st.composite
def rnn_args(draw, name):
    dims = draw(DIMS)
    shapes = dict(_rnn_shapes(name, dims["T"], dims["B"], dims["H"]))
    if "b_hh" in shapes and draw(st.booleans()):
        shapes["b_hh"] = None
    args = list(draw(shaped(shapes)).values())
    if name in ("rnn_layer_forward", "rnn_layer_backward"):
        args.append(draw(st.one_of(st.booleans(), NON_ARRAYS)))
    return tuple(args)


@st.composite
def lstm_sequence_args(draw, name):
    dims = draw(DIMS)
    t, b, h, i = dims["T"], dims["B"], dims["H"], draw(st.integers(0, 3))
    if name == "lstm_sequence_forward":
        shapes = {"x": (t, b, i), "h0": (b, h), "c0": (b, h), "w_ih": (4 * h, i),
                  "w_hh": (4 * h, h), "b_ih": (4 * h,), "b_hh": (4 * h,)}  # fmt: skip
    else:
        shapes = {"grad_hs": (t, b, h), "grad_hy": (b, h), "grad_cy": (b, h), "x": (t, b, i),
                  "w_ih": (4 * h, i), "w_hh": (4 * h, h), "hs": (t + 1, b, h),
                  "cs": (t + 1, b, h), "gates": (t, b, 4 * h), "tanh_cs": (t, b, h)}  # fmt: skip
    for optional in ("h0", "c0", "b_ih", "b_hh", "grad_hs", "grad_hy", "grad_cy"):
        if optional in shapes and draw(st.booleans()):
            shapes[optional] = None
    args = list(draw(shaped(shapes)).values())
    if name == "lstm_sequence_forward":
        return (*args, draw(st.one_of(st.booleans(), NON_ARRAYS)))
    flags = st.lists(st.booleans(), min_size=6, max_size=6)
    return (*args, draw(st.one_of(flags, flags, st.lists(st.booleans()), NON_ARRAYS)))


@st.composite
def small_matmul_args(draw, name):
    m, k, n = (draw(st.integers(0, 5)) for _ in range(3))
    operands = draw(shaped({"a": (m, k), "b": (k, n)}))
    extra = draw(st.lists(st.one_of(arrays(), NON_ARRAYS), max_size=1))  # a wrong count
    return (operands["a"], operands["b"], *extra)


# Optimizer signatures: P params, L a state list, O an optional state list (None or a
# list), D a per-parameter float list, Q a per-parameter bool list, f a float, b a bool,
# i the decay mode, t threads.
OPTIM = {
    "sgd_step": "PLOQffffbbt",
    "rmsprop_step": "PLLOOfffffffbbt",
    "adagrad_step": "PLLDfffbtb",
    "adamax_step": "PLLLDfffffbt",
    "adadelta_step": "PLLLffffffbt",
    "asgd_step": "PLLDDDfbt",
    "adam_step": "PLLLODDffffffbitb",
    "nadam_step": "PLLLDDDffffffbit",
    "radam_step": "PLLLDDDQfffffffbit",
}


@st.composite
def optim_args(draw, name):
    count = draw(st.integers(0, 3))
    dtype = draw(FLOAT)
    sizes = [tuple(draw(st.lists(st.integers(0, 4), max_size=2))) for _ in range(count)]

    def state_list():
        items = [draw(hostile(arrays(s, dtype))) for s in sizes]
        if draw(st.integers(0, 6)) == 0:  # a list of another length
            items = items[:-1] if items else [draw(arrays())]
        return items

    args = []
    for kind in OPTIM[name]:
        if kind in "PL":
            args.append(draw(st.one_of(st.just(state_list()), st.just(state_list()), NON_ARRAYS)))
        elif kind == "O":
            args.append(draw(st.one_of(st.none(), st.just(state_list()), NON_ARRAYS)))
        elif kind in "DQ":
            elem = FLOATS if kind == "D" else st.booleans()
            args.append(draw(hostile(st.lists(elem, min_size=count, max_size=count))))
        elif kind == "f":
            args.append(draw(FLOATS))
        elif kind == "b":
            args.append(draw(st.one_of(st.booleans(), st.booleans(), NON_ARRAYS)))
        elif kind == "i":
            args.append(draw(st.one_of(st.integers(-1, 3), INTS)))
        else:
            args.append(draw(THREADS))
    return tuple(args)


@st.composite
def path_args(draw, name):
    return (
        draw(st.one_of(st.sampled_from(["", "/nonexistent/libmkl_rt.so", "/", "."]), NON_ARRAYS)),
    )


@st.composite
def no_args(draw, name):
    """Entry points without arguments: called as is, and with stray arguments."""
    return tuple(draw(st.lists(st.one_of(NON_ARRAYS, INTS), max_size=2)))


@st.composite
def stray_args_only(draw, name):
    """Entry points that must not really run here (closing the fork gate for good would
    stall every other thread of the test run): only calls with stray arguments."""
    return tuple(draw(st.lists(st.one_of(NON_ARRAYS, INTS), min_size=1, max_size=2)))


@st.composite
def thread_limit_args(draw, name):
    return (draw(st.one_of(THREADS, NON_ARRAYS)),)


@st.composite
def freed_buffer_args(draw, name):
    # only values it must refuse: valid ones would change the process's malloc settings
    bad = st.one_of(st.sampled_from([-1, -(2**63), 2**31 + 1, 2**63 - 1, 2**64]), NON_ARRAYS)
    return (draw(bad), draw(st.one_of(INTS, NON_ARRAYS)))


@st.composite
def all_c_contiguous_args(draw, name):
    return tuple(draw(st.lists(st.one_of(arrays(), NON_ARRAYS), max_size=4)))


@st.composite
def array_address_args(draw, name):
    return (draw(st.one_of(arrays(), NON_ARRAYS)),)


class _Slotted:
    __slots__ = ("_np", "number")


#: classes the slot-reader factories are handed: with the fields, without, not classes
SLOT_CLASSES = st.sampled_from([torch.Tensor, _Slotted, int, object, type, None, 3, "Tensor"])
SLOT_NAMES = st.sampled_from(["_np", "number", "_grad_fn", "shape", "__dict__", "", 3, None])


@st.composite
def slot_reader_args(draw, name):
    if name == "slot_reader":
        return (draw(SLOT_CLASSES), draw(SLOT_NAMES))
    if name == "history_reader":
        return (draw(SLOT_CLASSES), draw(st.one_of(NON_ARRAYS, SLOT_CLASSES)))
    return (draw(SLOT_CLASSES),)


@st.composite
def pool_throw_args(draw, name):
    return (
        draw(st.one_of(st.integers(-1, 4), INTS)),
        draw(st.one_of(st.integers(-1, 4), INTS)),
        draw(st.sampled_from(["runtime", "bad_alloc", "other"])),
        draw(st.one_of(st.integers(0, 2), INTS)),
    )


def _raises(*args):
    raise KeyError("from the gated function")


@st.composite
def fork_gated_args(draw, name):
    """(function, args): the function wrapped, then the wrapper called with args."""
    function = draw(st.one_of(st.sampled_from([len, abs, _raises, print]), NON_ARRAYS))
    return (function, tuple(draw(st.lists(st.one_of(NON_ARRAYS, INTS), max_size=2))))


MT_METHODS = [
    "seed",
    "get_state",
    "set_state",
    "random_raw",
    "fill_uniform",
    "fill_normal",
    "randperm",
    "cached_normal",
]


@st.composite
def mt19937_args(draw, name):
    """(seed, method, args): a generator made from the seed, then one method call."""
    seed = draw(st.one_of(st.integers(0, 2**64 - 1), INTS, NON_ARRAYS))
    method = draw(st.sampled_from(MT_METHODS))
    if method == "seed":
        args = (draw(st.one_of(st.integers(0, 2**64 - 1), INTS, NON_ARRAYS)),)
    elif method == "get_state":
        args = ()
    elif method == "set_state":
        key = draw(hostile(arrays((624,), np.uint32)))
        args = (key, draw(st.one_of(st.integers(-1, 625), INTS, NON_ARRAYS)))
    elif method in ("random_raw", "randperm"):
        args = (draw(st.one_of(st.integers(-2, 50), INTS, NON_ARRAYS)),)
    elif method in ("fill_uniform", "fill_normal"):
        shape = tuple(draw(st.lists(st.integers(0, 4), max_size=3)))
        args = (draw(hostile(arrays(shape, draw(FLOAT)))), draw(FLOATS), draw(FLOATS))
    else:
        args = (draw(st.one_of(FLOATS, NON_ARRAYS)),)
    return (seed, method, args)


STRATEGIES = {
    "binary": elementwise_args,
    "fill": elementwise_args,
    "unary": elementwise_args,
    "sum_all": elementwise_args,
    "cascade_sum": elementwise_args,
    "special": elementwise_args,
    "conv_forward": conv_args,
    "conv_weight_grad": conv_args,
    "index_accumulate": indexing_args,
    "scatter_accumulate": indexing_args,
    "gather_along": indexing_args,
    "blas_gemm": blas_args,
    "blas_load": blas_args,
    "small_matmul": small_matmul_args,
    "max_pool2d_with_indices": pool_args,
    "max_pool_backward": pool_args,
    "relu_backward": rnn_args,
    **{
        name: norm_args
        for name in (
            "layer_norm",
            "layer_norm_input_grad",
            "layer_norm_param_grads",
            "softmax",
            "softmax_backward",
            "relu",
            "batch_norm_stats",
            "batch_norm_apply",
            "batch_norm_backward",
        )
    },
    "lstm_cell_forward": rnn_args,
    "lstm_cell_backward": rnn_args,
    "lstm_layer_forward": rnn_args,
    "lstm_layer_backward": rnn_args,
    "rnn_layer_forward": rnn_args,
    "rnn_layer_backward": rnn_args,
    "gru_layer_forward": rnn_args,
    "gru_layer_backward": rnn_args,
    "lstm_sequence_forward": lstm_sequence_args,
    "lstm_sequence_backward": lstm_sequence_args,
    "nn_use_blas": path_args,
    "optim_vml_load": path_args,
    "optim_vml_loaded": no_args,
    "default_threads": no_args,
    "thread_limit": no_args,
    "install_aligned_numpy_allocator": no_args,
    "aligned_numpy_allocator_active": no_args,
    "cpu_isa": no_args,
    "set_thread_limit": thread_limit_args,
    "keep_freed_buffers": freed_buffer_args,
    "all_c_contiguous": all_c_contiguous_args,
    "array_address": array_address_args,
    "slot_reader": slot_reader_args,
    "history_reader": slot_reader_args,
    "result_history_writer": slot_reader_args,
    "optim_sqrt_": lambda name: st.tuples(hostile(arrays(None, np.float32))),
    "_test_pool_throw": pool_throw_args,
    "MT19937": mt19937_args,
    "fork_gated": fork_gated_args,
    "fork_gate_close": no_args,
    "fork_gate_close_at_exit": stray_args_only,
    "fork_gate_open": no_args,
    "fork_gate_state": no_args,
    **{name: optim_args for name in OPTIM},
}


def _native(value) -> bool:
    """A function or class the extension defines (not a Python name that torch._native
    sets on the module for libraries that reach into ``torch._C``)."""
    if isinstance(value, type):
        return value.__module__ == "torch._C"
    return type(value).__name__ == "builtin_function_or_method"


def entry_points() -> set[str]:
    return {name for name in dir(_C) if not name.startswith("__") and _native(getattr(_C, name))}


def test_every_entry_point_is_fuzzed():
    missing = sorted(entry_points() - set(STRATEGIES))
    assert not missing, f"torch._C entry points without a fuzz strategy: {missing}"


def _call_mt19937(seed, method, args):
    gen = _C.MT19937(seed)
    if method == "cached_normal":
        gen.cached_normal = args[0]
        return gen.cached_normal
    return getattr(gen, method)(*args)


@pytest.mark.parametrize("name", sorted(STRATEGIES))
@FUZZ
@given(data=st.data())
def test_hostile_arguments_raise_python_errors(name, data):
    if name not in entry_points():
        pytest.skip(f"{name} is not in this build of torch._C")
    args = data.draw(STRATEGIES[name](name), label="args")
    limit = _C.thread_limit()
    try:
        if name == "MT19937":
            _call_mt19937(*args)
        elif name == "fork_gated":
            function, call_args = args
            try:
                _C.fork_gated(function)(*call_args)
            except KeyError:  # raised by the gated function itself: passed through
                pass
        elif name == "fork_gate_close":
            _C.fork_gate_close(*args)
            _C.fork_gate_open()  # closing is always paired with opening (as around a fork)
        else:
            getattr(_C, name)(*args)
    except REJECTED:
        pass
    finally:
        _C.set_thread_limit(limit)
