"""Fused forms of torch.nn's hottest training paths: ``linear``, ``relu``, ``mse_loss``,
``cross_entropy`` (class indices) and a whole LSTM layer. Each is one op recorded as one
graph node and computed directly on NumPy arrays; the composites in ``nn_functional``
record several ops for the same math and stay the reference (and the path for the cases
the fused ops do not take, such as class weights or packed sequences).

Their gradients are ops too (``_linear_backward``, ``_lstm_layer_backward``, ...), so
torch-autograd's formulas stay short; under ``create_graph`` those formulas use the
composites instead, so higher-order gradients still follow.
"""

from __future__ import annotations

import functools
import math
import weakref

import numpy as np

from .. import _blas, _dtype, _grad_mode, _native
from .._tensor import Tensor, make
from ._dispatch import as_array, contiguous, record, register_op

__all__: list[str] = []

_FLOATS = (_dtype.float32, _dtype.float64)
_grad_state = _grad_mode._state


# this family's ops registered under its name
_register = functools.partial(register_op, family="nn_fused")


def _register_with_gradient(forward, backward, signature: str, backward_signature=None, **extra):
    """Register a fused op and the op computing its gradients (not differentiable itself),
    each under the name its signature starts with; ``backward_signature`` defaults to
    ``<name>_backward(Tensor grad, ...) -> Tensor``. Returns the forward op."""
    name = signature.partition("(")[0]
    backward_signature = backward_signature or f"{name}_backward(Tensor grad, ...) -> Tensor"
    op = _register(name, forward, signature, **extra)
    _register(
        backward_signature.partition("(")[0], backward, backward_signature, differentiable=False
    )
    return op


def _register_layer(forward, gradients, arguments: str):
    """Register the fused recurrent layer ``forward`` as op ``_<its name>(<arguments>) ->
    Tensor`` and its gradient op (see :func:`_layer_backward`), which returns the
    gradients of all its inputs."""
    name = f"_{forward.__name__}"
    return _register_with_gradient(
        forward,
        _layer_backward(gradients),
        f"{name}({arguments}) -> Tensor",
        f"{name}_backward(Tensor grad, ...) -> Tensor[]",
    )


#: what the class-index losses save for their backward (``shape`` or ``log_probs``, the
#: input's log-softmax, second)
_CLASS_LOSS_SAVED = ("safe_target", "weights", "denominator")


# Below this many multiply-adds a product runs on one thread: handing rows to the pool
# saves little at these sizes and, on a busy machine, waiting for a descheduled helper
# thread costs far more (measured 37 us vs 500 us for 256x160 @ 160x64 under load).
_ONE_THREAD_WORK = 1 << 22


def _mm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 2-D float product, by the external BLAS when core uses one (as core's
    ``matmul``), else NumPy."""
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
        return _blas.matmul(a, b)  # a device product (cuBLAS through CuPy)
    work = a.shape[0] * a.shape[1] * b.shape[1]
    if work >= _ONE_THREAD_WORK or not (_native.ENABLED and _native._blas_ready()):
        out = _native.blas_matmul(a, b)
        return _blas.matmul(a, b) if out is None else out
    out = np.empty((a.shape[0], b.shape[1]), dtype=a.dtype)
    if a.dtype == b.dtype and a.dtype.char in "fd" and _native.kernels.blas_gemm(a, b, out, 1):
        return out
    return _blas.matmul(a, b)


def _record(op, inputs, result, saved=()):
    """``record``, or None when the installed torch-autograd has no formula for the fused
    op (an older release): the caller then takes the composite."""
    try:
        return record(op, inputs, result, saved)
    except NotImplementedError:
        return None


def _wrap(array: np.ndarray, dtype) -> Tensor:
    return Tensor._from_array(contiguous(array), dtype)


# ------------------------------------------------------------------------- linear


def linear_applies(input, weight, bias) -> bool:
    """Whether :func:`linear` takes these operands (dense float tensors of one dtype, a
    matrix weight and a vector bias of matching sizes); others take the general path,
    which also raises the errors."""
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor)):
        return False
    try:
        x, w = input._np, weight._np
    except Exception:  # sparse layouts have no dense array
        return False
    dtype = input._dtype
    if dtype not in _FLOATS or weight._dtype is not dtype or w.ndim != 2 or x.ndim == 0:
        return False
    if x.shape[-1] != w.shape[1]:
        return False
    if bias is None:
        return True
    return (
        isinstance(bias, Tensor)
        and bias._dtype is dtype
        and bias._np.ndim == 1
        and bias._np.shape[0] == w.shape[0]
    )


def linear(input: Tensor, weight: Tensor, bias=None):
    """``input @ weight.T + bias`` as one op, or None for operands it does not take (see
    :func:`linear_applies`) and when torch-autograd cannot record it."""
    if not linear_applies(input, weight, bias):
        return None
    x, w = input._np, weight._np
    out = _mm(x if x.ndim == 2 else x.reshape(-1, x.shape[-1]), w.T)
    if bias is not None:
        out += bias._np
    if x.ndim == 2 and out.flags.c_contiguous:
        result = make(out, input._dtype)  # a fresh product: no layout checks needed
    else:
        result = _wrap(out.reshape(x.shape[:-1] + (w.shape[0],)), input._dtype)
    return _record(LINEAR, (input, weight, bias), result)


def linear_backward(grad: Tensor, input: Tensor, weight: Tensor, which: str) -> Tensor:
    """The gradient of :func:`linear` for ``which`` of "input", "weight", "bias"."""
    g = grad._np
    rows = g.reshape(-1, g.shape[-1])
    if which == "bias":
        return _wrap(rows.sum(0), grad._dtype)
    if which == "weight":
        x = input._np
        return _wrap(_mm(rows.T, x.reshape(-1, x.shape[-1])), grad._dtype)
    out = _mm(rows, weight._np)
    if out.ndim == input._np.ndim and out.flags.c_contiguous:
        return make(out, grad._dtype)
    return _wrap(out.reshape(input._np.shape), grad._dtype)


LINEAR = _register_with_gradient(
    linear,
    linear_backward,
    "_linear(Tensor input, Tensor weight, Tensor? bias)",
    "_linear_backward(Tensor grad, Tensor input, Tensor weight, str which) -> Tensor",
)


# --------------------------------------------------------------------------- relu


def relu(input: Tensor):
    """``max(input, 0)`` of a float tensor as one op (NaN stays NaN); None for other
    dtypes (the caller uses the general path)."""
    if input._dtype not in _FLOATS:
        return None
    x = input._np
    native = _native.ENABLED and isinstance(x, np.ndarray)
    if native and x.flags.c_contiguous and x.size >= _NATIVE_RELU_FROM:
        # one vectorised (and, on large arrays, threaded) pass; NumPy's is 4x slower
        result = make(_native.kernels.relu(x), input._dtype)
    else:
        # np.asarray: a 0-d input gives a NumPy scalar, and tensors hold arrays
        result = Tensor._from_array(as_array(np.maximum(x, 0)), input._dtype)
    return _record(RELU, (input,), result)


# Below this many elements NumPy's maximum costs no more than the native call.
_NATIVE_RELU_FROM = 1024


def relu_backward(grad: Tensor, result: Tensor) -> Tensor:
    """``grad`` where the relu's result is positive, else 0."""
    g, y = grad._np, result._np
    host = isinstance(g, np.ndarray) and isinstance(y, np.ndarray)
    if _native.ENABLED and host and g.dtype == y.dtype and g.shape == y.shape:
        # one vectorised pass (np.where with a scalar branches per element here)
        out = _native.kernels.relu_backward(contiguous(g), contiguous(y))
        return make(out.reshape(g.shape), grad._dtype)  # ascontiguousarray makes 0-d 1-d
    return make(as_array(np.where(y > 0, g, g.dtype.type(0))), grad._dtype)


RELU = _register_with_gradient(
    relu,
    relu_backward,
    "_relu(Tensor self) -> Tensor",
    "_relu_backward(Tensor grad, Tensor result) -> Tensor",
)


# --------------------------------------------------------------------- layer norm


def layer_norm(input: Tensor, shape: tuple, weight, bias, eps: float):
    """Layer normalisation over the trailing ``shape`` dims as one op computed by the
    native row kernel (norm/kernels.inc), saving the rows' mean and 1/std; None when it
    does not apply (no native kernels, other dtypes, parameters of another dtype or
    shape), and the caller takes the composite."""
    if not _native.ENABLED or input._dtype not in _FLOATS or not shape:
        return None
    if not _native.on_host(input._np):
        return None  # a device tensor: the composite's ops run on the device
    for parameter in (weight, bias):
        if parameter is not None and (
            not isinstance(parameter, Tensor)
            or parameter._dtype is not input._dtype
            or tuple(parameter._np.shape) != shape
        ):
            return None
    x = input._np
    cols = math.prod(shape)
    if cols == 0 or x.size == 0:
        return None
    rows = contiguous(x).reshape(-1, cols)
    out, mean, rstd = _native.kernels.layer_norm(
        rows, _flat_or_none(weight), _flat_or_none(bias), float(eps)
    )
    result = make(out.reshape(x.shape), input._dtype)
    return _record(LAYER_NORM, (input, weight, bias), result, (mean, rstd, shape, eps))


def _flat_or_none(parameter):
    return None if parameter is None else contiguous(parameter._np).reshape(-1)


def layer_norm_backward(grad, input, weight, mean, rstd, shape, which: str) -> Tensor:
    """The gradient of :func:`layer_norm` for ``which`` of "input", "weight", "bias"."""
    cols = math.prod(shape)
    g = contiguous(grad._np, input._np.dtype).reshape(-1, cols)
    x = contiguous(input._np).reshape(-1, cols)
    if which == "input":
        out = _native.kernels.layer_norm_input_grad(g, x, mean, rstd, _flat_or_none(weight))
        return make(out.reshape(input._np.shape), grad._dtype)
    grad_weight, grad_bias = _native.kernels.layer_norm_param_grads(g, x, mean, rstd)
    return make((grad_weight if which == "weight" else grad_bias).reshape(shape), grad._dtype)


LAYER_NORM = _register_with_gradient(
    layer_norm,
    layer_norm_backward,
    "_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight, Tensor? bias, float eps)",
    "_layer_norm_backward(Tensor grad, Tensor input, Tensor? weight, Array mean, Array rstd, "
    "int[] normalized_shape, str which) -> Tensor",
    saved=("mean", "rstd", "normalized_shape", "eps"),
)


# --------------------------------------------------------------------- batch norm


def batch_norm(input: Tensor, running_mean, running_var, weight, bias, momentum, eps):
    """Training-mode batch normalisation (batch statistics) over all dims but 1 as one op:
    the native kernels compute the statistics in double precision and apply
    ``x * scale + shift`` per channel; the running statistics are updated in place as the
    composite does. None when it does not apply (no native kernels, other dtypes,
    parameters of another dtype or size), and the caller takes the composite."""
    x = input._np
    if not _native.ENABLED or input._dtype not in _FLOATS or x.ndim < 2 or x.size == 0:
        return None
    if not _native.on_host(x):
        return None  # a device tensor: the composite's ops run on the device
    channels = x.shape[1]
    for parameter in (weight, bias, running_mean, running_var):
        if parameter is not None and (
            not isinstance(parameter, Tensor)
            or parameter._dtype is not input._dtype
            or parameter._np.shape != (channels,)
        ):
            return None
    planes = contiguous(x).reshape(x.shape[0], channels, -1)
    mean64, var64 = _native.kernels.batch_norm_stats(planes)
    invstd64 = 1 / np.sqrt(var64 + eps)
    dtype = x.dtype
    scale64 = invstd64 if weight is None else invstd64 * weight._np
    shift64 = -mean64 * scale64
    if bias is not None:
        shift64 = shift64 + bias._np
    out = _native.kernels.batch_norm_apply(
        planes, scale64.astype(dtype), contiguous(shift64, dtype)
    )
    mean, invstd = mean64.astype(dtype), invstd64.astype(dtype)
    if running_mean is not None:
        count = planes.shape[0] * planes.shape[2]
        _update_running(running_mean, running_var, mean, var64, count, momentum, dtype)
    result = make(out.reshape(x.shape), input._dtype)
    return _record(BATCH_NORM, (input, weight, bias), result, (mean, invstd, eps))


def _update_running(running_mean, running_var, mean, var64, count, momentum, dtype):
    """The running statistics as the composite updates them (in-place tensor ops, so the
    version counters move), the variance unbiased."""
    previous = _grad_state.enabled
    _grad_state.enabled = False
    try:
        running_mean.mul_(1 - momentum).add_(make(mean * dtype.type(momentum), running_mean._dtype))
        unbiased = (var64 * (count / max(count - 1, 1))).astype(dtype)
        running_var.mul_(1 - momentum).add_(
            make(unbiased * dtype.type(momentum), running_var._dtype)
        )
    finally:
        _grad_state.enabled = previous


class _BatchNormSums:
    """The per-channel sums of the last batch-norm backward. The engine asks for a node's
    input, weight and bias gradients in turn, with the same gradient and input, and each
    needs the same two reductions over the whole batch: the later ones reuse them (one
    pass over the batch instead of three). Weak references, so nothing is kept alive;
    the tensors' versions, so an in-place change in between is seen."""

    __slots__ = ("key", "sums")

    def __init__(self) -> None:
        self.key = self.sums = None

    @staticmethod
    def _key(grad, input, mean, invstd):
        return (grad._np, input._np, mean, invstd), (grad._version, input._version)

    def find(self, grad, input, mean, invstd):
        if self.key is None:
            return None
        refs, versions = self.key
        arrays, now = self._key(grad, input, mean, invstd)
        if now != versions or any(ref() is not array for ref, array in zip(refs, arrays)):
            return None
        return self.sums

    def keep(self, grad, input, mean, invstd, sums) -> None:
        arrays, versions = self._key(grad, input, mean, invstd)
        try:
            self.key = (tuple(weakref.ref(array) for array in arrays), versions)
        except TypeError:  # statistics passed as something other than arrays
            self.key = None
        self.sums = sums


_batch_norm_sums = _BatchNormSums()


def batch_norm_backward(grad, input, weight, mean, invstd, which: str) -> Tensor:
    """The gradient of :func:`batch_norm` for ``which`` of "input", "weight", "bias"."""
    x = input._np
    sums = None if which == "input" else _batch_norm_sums.find(grad, input, mean, invstd)
    if sums is None:
        planes = contiguous(x).reshape(x.shape[0], x.shape[1], -1)
        g = contiguous(grad._np, x.dtype).reshape(planes.shape)
        w = None if weight is None else contiguous(weight._np)
        grad_x, *sums = _native.kernels.batch_norm_backward(
            g, planes, mean, invstd, w, which == "input"
        )
        _batch_norm_sums.keep(grad, input, mean, invstd, sums)
    sum_g, sum_gx = sums
    if which == "input":
        return make(grad_x.reshape(x.shape), grad._dtype)
    if which == "weight":
        return make((sum_gx * invstd).astype(x.dtype), grad._dtype)
    return make(sum_g.astype(x.dtype), grad._dtype)


BATCH_NORM = _register_with_gradient(
    batch_norm,
    batch_norm_backward,
    "_batch_norm(Tensor input, Tensor? running_mean, Tensor? running_var, Tensor? weight, "
    "Tensor? bias, float momentum, float eps)",
    "_batch_norm_backward(Tensor grad, Tensor input, Tensor? weight, Array mean, "
    "Array invstd, str which) -> Tensor",
    saved=("mean", "invstd", "eps"),
)


# ------------------------------------------------------------------------ softmax


def softmax_forward(x: np.ndarray):
    """Softmax over the last dim of a C-contiguous float array by the native row kernel,
    or None (the caller uses NumPy)."""
    if not _native.ENABLED or x.dtype.char not in "fd" or x.ndim == 0 or x.size == 0:
        return None
    if not isinstance(x, np.ndarray) or not x.flags.c_contiguous:
        return None
    return _native.kernels.softmax(x.reshape(-1, x.shape[-1])).reshape(x.shape)


def softmax_backward(grad: Tensor, result: Tensor, dim: int, log: bool) -> Tensor:
    """The input gradient of softmax (``log``: log-softmax) along ``dim`` from its result:
    one native pass per row when ``dim`` is the last, else NumPy."""
    g, y = grad._np, result._np
    if (
        _native.ENABLED
        and isinstance(g, np.ndarray)
        and isinstance(y, np.ndarray)
        and dim == y.ndim - 1
        and y.size
        and g.dtype == y.dtype
        and y.dtype.char in "fd"
        and g.shape == y.shape
    ):
        cols = y.shape[-1]
        rows_g = contiguous(g).reshape(-1, cols)
        rows_y = contiguous(y).reshape(-1, cols)
        out = _native.kernels.softmax_backward(rows_g, rows_y, log)
        return make(out.reshape(y.shape), grad._dtype)
    if log:
        out = g - np.exp(y) * g.sum(dim, keepdims=True)
    else:
        out = y * (g - (g * y).sum(dim, keepdims=True))
    return _wrap(as_array(out), grad._dtype)


_register(
    "_softmax_backward",
    softmax_backward,
    "_softmax_backward(Tensor grad, Tensor result, int dim, bool log) -> Tensor",
    differentiable=False,
)


# ------------------------------------------------------------------------- losses

_REDUCTIONS = ("mean", "sum", "none")


def mse_loss(input: Tensor, target: Tensor, reduction: str):
    """Mean squared error of same-shape float tensors as one op, or None (the caller
    uses the composite). The loss is computed by the composite's own ops, so its value is
    the composite's to the bit."""
    if (
        reduction not in _REDUCTIONS
        or input._dtype not in _FLOATS
        or target._dtype is not input._dtype
        or input._np.shape != target._np.shape
    ):
        return None
    previous = _grad_state.enabled
    _grad_state.enabled = False
    try:
        diff = input - target
        loss = diff * diff
        if reduction == "mean":
            loss = loss.mean()
        elif reduction == "sum":
            loss = loss.sum()
    finally:
        _grad_state.enabled = previous
    return _record(MSE_LOSS, (input, target), loss, (reduction, diff))


def mse_loss_backward(grad: Tensor, diff: Tensor, reduction: str) -> Tensor:
    """The gradient of :func:`mse_loss` with respect to its input (the target's is its
    negative): ``2 * diff * grad``, divided by the element count for "mean"."""
    d = diff._np
    scale = 2.0 * grad._np.astype(d.dtype)
    if reduction == "mean" and d.size:
        scale = scale / d.dtype.type(d.size)
    return make(as_array(d * scale, d.dtype), diff._dtype)


MSE_LOSS = _register_with_gradient(
    mse_loss,
    mse_loss_backward,
    "_mse_loss(Tensor self, Tensor target, str reduction) -> Tensor",
    "_mse_loss_backward(Tensor grad, Tensor diff, str reduction) -> Tensor",
    saved=("reduction", "diff"),
)


def cross_entropy(input: Tensor, target: Tensor, ignore_index: int, reduction: str):
    """Cross entropy of (N, C) float logits and (N,) int64 class indices, no class
    weights or label smoothing, as one op (log-softmax and the negative log-likelihood
    together); None for anything else (the caller uses the composite)."""
    targets = _class_targets(input, target, ignore_index, reduction)
    if targets is None:
        return None
    safe, weights = targets
    x = input._np
    with np.errstate(all="ignore"):
        shifted = x - np.max(x, axis=1, keepdims=True)
        logp = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    losses = -logp[np.arange(x.shape[0], like=x), safe] * weights
    loss, denominator = _reduce_losses(losses, weights, reduction)
    result = Tensor._from_array(as_array(loss, x.dtype), input._dtype)
    saved = (reduction, logp, safe, weights, denominator)
    return _record(CROSS_ENTROPY, (input, target), result, saved)


def cross_entropy_backward(grad: Tensor, reduction, logp, safe, weights, denominator):
    """``(softmax(input) - one_hot(target)) * weight`` scaled by the output gradient (and
    divided by the counted weight for "mean")."""
    probabilities = np.exp(logp)
    probabilities[np.arange(logp.shape[0], like=logp), safe] -= 1
    scale = _row_scale(grad, weights, reduction, denominator, logp.dtype)
    return make(as_array(probabilities * scale, logp.dtype), grad._dtype)


def _class_targets(input: Tensor, target, ignore_index: int, reduction: str):
    """(safe targets, weights) of class-index targets the fused losses take, or None;
    raises PyTorch's IndexError for a target out of range."""
    x = input._np
    if (
        reduction not in _REDUCTIONS
        or input._dtype not in _FLOATS
        or x.ndim != 2
        or not isinstance(target, Tensor)
        or target._dtype is not _dtype.int64
        or target._np.ndim != 1
        or target._np.shape[0] != x.shape[0]
        or x.shape[0] == 0
    ):
        return None
    t = target._np
    valid = t != ignore_index
    safe = np.where(valid, t, 0)
    classes = x.shape[1]
    if safe.max() >= classes or safe.min() < 0:
        bad = safe.max() if safe.max() >= classes else safe.min()
        raise IndexError(f"Target {bad} is out of bounds.")
    return safe, valid.astype(x.dtype)


def _reduce_losses(losses: np.ndarray, weights: np.ndarray, reduction: str):
    """(loss, denominator): the per-row losses reduced as the composites reduce them
    ("mean" divides by the counted weight)."""
    dtype = losses.dtype
    if reduction == "none":
        return losses, None
    if reduction == "sum":
        return as_array(losses.sum(dtype=dtype)), None
    denominator = weights.sum(dtype=dtype)
    with np.errstate(all="ignore"):
        return as_array(losses.sum(dtype=dtype) / denominator, dtype), denominator


def _row_scale(grad: Tensor, weights, reduction, denominator, dtype) -> np.ndarray:
    """Each row's factor in the gradient: its weight times the output gradient (divided
    by the counted weight for "mean"), as a column."""
    g = grad._np.astype(dtype)
    if reduction == "mean":
        with np.errstate(all="ignore"):
            g = g / denominator
    return (weights * g)[:, None]


def nll_loss(input: Tensor, target: Tensor, ignore_index: int, reduction: str):
    """Negative log-likelihood of (N, C) float log-probabilities and (N,) int64 class
    indices, no class weights, as one op; None for anything else (the composite)."""
    targets = _class_targets(input, target, ignore_index, reduction)
    if targets is None:
        return None
    safe, weights = targets
    x = input._np
    losses = -x[np.arange(x.shape[0]), safe] * weights
    loss, denominator = _reduce_losses(losses, weights, reduction)
    result = Tensor._from_array(as_array(loss, x.dtype), input._dtype)
    saved = (reduction, x.shape, safe, weights, denominator)
    return _record(NLL_LOSS, (input, target), result, saved)


def nll_loss_backward(grad: Tensor, reduction, shape, safe, weights, denominator):
    """``-one_hot(target) * weight``, scaled by the output gradient."""
    scale = _row_scale(grad, weights, reduction, denominator, weights.dtype)
    out = np.zeros(shape, dtype=weights.dtype, like=scale)  # on the gradient's device
    out[np.arange(shape[0], like=scale), safe] = -scale[:, 0]
    return make(out, grad._dtype)


NLL_LOSS = _register_with_gradient(
    nll_loss,
    nll_loss_backward,
    "_nll_loss(Tensor self, Tensor target, int ignore_index, str reduction) -> Tensor",
    saved=("reduction", "shape", *_CLASS_LOSS_SAVED),
)


CROSS_ENTROPY = _register_with_gradient(
    cross_entropy,
    cross_entropy_backward,
    "_cross_entropy(Tensor self, Tensor target, int ignore_index, str reduction) -> Tensor",
    saved=("reduction", "log_probs", *_CLASS_LOSS_SAVED),
)


# ------------------------------------------------------------- recurrent layers


def _takes_sequence(input, *operands) -> bool:
    """What every fused recurrent layer asks first of its operands (None ones skipped):
    float tensors of ``input``'s dtype, all on the host, and a non-empty (T, B, I)
    input."""
    tensors = [input, *(t for t in operands if t is not None)]
    dtype = input._dtype
    if dtype not in _FLOATS or any(t._dtype is not dtype for t in tensors):
        return False
    if not _native.on_host(*(t._np for t in tensors)):
        return False  # device tensors: the composite's ops (each a device kernel)
    return input._np.ndim == 3 and input._np.shape[0] != 0


class _LayerSaved:
    """What a fused layer's backward keeps besides its saved states: the gradients last
    computed from them and the output gradient they were computed for (see
    :func:`_gradient_once`)."""

    __slots__ = ("grad_key", "grads")

    def __init__(self) -> None:
        self.grad_key = self.grads = None


def _gradient_once(saved: _LayerSaved, key, index: int, compute):
    """The gradient of a fused layer's input number ``index``. One pass back through time
    (``compute()``) gives all of them for the output gradient ``key``: the others are kept
    until their formulas ask, each handed out once."""
    grads = saved.grads
    if saved.grad_key is not key or grads is None or grads[index] is None:
        grads = compute()
        saved.grad_key, saved.grads = key, grads
    result, grads[index] = grads[index], None
    return result


def _layer_backward(gradients):
    """The gradient op of a fused layer whose ``gradients(grad, inputs, saved)`` makes the
    gradients of all its inputs (in the order of the op's arguments) in one pass back
    through time: ``backward(grad, inputs, saved, index)`` hands out number ``index``
    (see :func:`_gradient_once`)."""

    def backward(grad, inputs, saved: _LayerSaved, index: int):
        return _gradient_once(saved, grad, index, lambda: gradients(grad, inputs, saved))

    return backward


def _run_loop(native_name: str, reference, *arrays) -> None:
    """A layer's time loop, ``torch._C.<native_name>`` when the native core is on, else
    its NumPy ``reference`` (the same arguments)."""
    (getattr(_lstm_native(), native_name) if _native.ENABLED else reference)(*arrays)


def _record_states(op, inputs, hs: np.ndarray, saved):
    """Record a one-state layer whose result is every h_t (``hs`` without h0)."""
    return _record(op, inputs, make(hs[1:].copy(), inputs[0]._dtype), saved)


def _projected_steps(x: np.ndarray, w_ih: np.ndarray, b_ih, width: int) -> np.ndarray:
    """``x W_ih^T + b_ih`` for every step of the (T, B, I) input at once: (T, B, width)."""
    steps, batch, features = x.shape
    projected = _mm(x.reshape(steps * batch, features), w_ih.T)
    if b_ih is not None:
        projected += b_ih
    return projected.reshape(steps, batch, width)


def _input_gradients(rows_x, rows_h, x, hs, w_ih, dh0, dtype) -> list:
    """``[dx, dh0, dw_ih, dw_hh]`` of a GRU or RNN layer from the gradients of its gates'
    input part ``rows_x`` and hidden part ``rows_h`` (T * B rows each)."""
    steps, batch, features = x.shape
    hidden = hs.shape[2]
    return [
        make(_mm(rows_x, w_ih).reshape(steps, batch, features), dtype),
        make(dh0, dtype),
        make(_mm(rows_x.T, x.reshape(steps * batch, features)), dtype),
        make(_mm(rows_h.T, hs[:steps].reshape(steps * batch, hidden)), dtype),
    ]


def _cells_composite(cell, input, h0, *weights) -> Tensor:
    """A one-state layer as its ``cell`` composite applied step by step: every h_t."""
    import torch

    h = h0
    hiddens = []
    for t in range(input.shape[0]):
        h = cell(input[t], h, *weights)
        hiddens.append(h)
    return torch.stack(hiddens)


# ---------------------------------------------------------------------- LSTM layer


def lstm_layer_applies(input, h0, c0, w_ih, w_hh, b_ih, b_hh) -> bool:
    """Whether :func:`lstm_layer` takes these operands: float tensors of one dtype, a
    non-empty (T, B, I) input, (B, H) states, no projection."""
    if not _takes_sequence(input, h0, c0, w_ih, w_hh, b_ih, b_hh):
        return False
    gates, hidden = w_hh._np.shape
    batch = input._np.shape[1]
    return (
        gates == 4 * hidden
        and w_ih._np.shape == (gates, input._np.shape[2])
        and h0._np.shape == (batch, hidden)
        and c0._np.shape == (batch, hidden)
        and (b_ih is None) == (b_hh is None)
    )


class LSTMSaved(_LayerSaved):
    """What the backward of one LSTM layer needs: the states before each step (h and c,
    (T + 1, B, H)), the activated gates (T, B, 4H) and tanh of each new cell state; and
    the gradients last computed from them (every input's formula reads the same pass)."""

    __slots__ = ("hs", "cs", "gates", "tanh_cs", "wanted")

    def __init__(self, hs, cs, gates, tanh_cs, wanted=None):
        super().__init__()
        self.hs, self.cs, self.gates, self.tanh_cs = hs, cs, gates, tanh_cs
        #: which of (dx, dh0, dc0, dw_ih, dw_hh, d_bias) backward computes (see
        #: _wanted_gradients), as the inputs required grad when the op ran
        self.wanted = wanted

    def composite(self, *inputs):
        """The layer recomputed by recorded composites (for double backward)."""
        return lstm_layer_composite(*inputs)

    def sequence_composite(self, *inputs) -> tuple:
        """:func:`lstm_sequence`'s three outputs recomputed so (for double backward)."""
        return lstm_sequence_composite(*inputs)


def _lstm_step_reference(z, c_prev, c, h, tanh_c) -> None:
    """NumPy reference of torch._C.lstm_cell_forward (same arguments)."""
    hidden = z.shape[1] // 4
    z[:, : 2 * hidden] = 1 / (1 + np.exp(-z[:, : 2 * hidden]))
    z[:, 3 * hidden :] = 1 / (1 + np.exp(-z[:, 3 * hidden :]))
    z[:, 2 * hidden : 3 * hidden] = np.tanh(z[:, 2 * hidden : 3 * hidden])
    i, f, g, o = np.split(z, 4, axis=1)
    c[...] = f * c_prev + i * g
    tanh_c[...] = np.tanh(c)
    h[...] = o * tanh_c


def _lstm_step_backward_reference(z, c_prev, tanh_c, dh, dc, dz) -> None:
    """NumPy reference of torch._C.lstm_cell_backward (same arguments)."""
    i, f, g, o = np.split(z, 4, axis=1)
    total = dc + dh * o * (1 - tanh_c * tanh_c)
    dz[...] = np.concatenate(
        [total * g * i * (1 - i), total * c_prev * f * (1 - f), total * i * (1 - g * g),
         dh * tanh_c * o * (1 - o)],
        axis=1,
    )  # fmt: skip
    dc[...] = total * f


_step_blas = {"tried": False}


def _lstm_native():
    """torch._C, its LSTM loops told once to use the external BLAS when core uses one."""
    if not _step_blas["tried"]:
        _step_blas["tried"] = True
        if _native._blas_ready():
            _native.kernels.nn_use_blas(_native.blas_library_path())
    return _native.kernels


def _lstm_loop_reference(projected, w_hh_t, bias_hh, hs, cs, gates, tanh_cs) -> None:
    """NumPy reference of torch._C.lstm_layer_forward (same arguments)."""
    for t in range(projected.shape[0]):
        z = gates[t]
        z[...] = 0 if bias_hh is None else bias_hh
        z += _mm(hs[t], w_hh_t)
        np.add(projected[t], z, out=z)
        _lstm_step_reference(z, cs[t], cs[t + 1], hs[t + 1], tanh_cs[t])


def _lstm_loop_backward_reference(grad, gates, cs, tanh_cs, w_hh, dz, dh0, dc0) -> None:
    """NumPy reference of torch._C.lstm_layer_backward (same arguments)."""
    steps = gates.shape[0]
    dc0[...] = grad[steps]
    dh0[...] = 0
    for t in range(steps - 1, -1, -1):
        dh = grad[t] + dh0
        _lstm_step_backward_reference(gates[t], cs[t], tanh_cs[t], dh, dc0, dz[t])
        dh0[...] = _mm(dz[t], w_hh)


def lstm_layer(input, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM layer over a (T, B, I) sequence as one op: returns (T + 1, B, H) holding
    the hidden state after each step and, in the last row, the final cell state (None
    when torch-autograd cannot record it; see :func:`lstm_layer_applies`).

    NOTE: the input projection of all steps is one matrix product (as PyTorch does it);
    natively the whole layer, projection and time loop (``h W_hh^T`` and the pointwise
    gate math per step), is one call. The gates add up as
    ``(b_ih + b_hh + x W_ih^T) + h W_hh^T`` there, as ``(x W_ih^T + b_ih) + (h W_hh^T +
    b_hh)`` in the NumPy reference.
    """
    if not lstm_layer_applies(input, h0, c0, w_ih, w_hh, b_ih, b_hh):
        return None
    inputs = (input, h0, c0, w_ih, w_hh, b_ih, b_hh)
    hs, cs, gates, tanh_cs, packed = _lstm_states(inputs, packed=True)
    result = make(packed, input._dtype)
    saved = LSTMSaved(hs, cs, gates, tanh_cs, _wanted_gradients(inputs))
    return _record(LSTM_LAYER, inputs, result, saved)


def _contiguous(*tensors) -> list:
    """The C-contiguous arrays of tensors (None stays None), as native kernels take them."""
    return [None if t is None else np.ascontiguousarray(t._np) for t in tensors]


def _array_or_none(t):
    return None if t is None else t._np


def _lstm_states(inputs, packed: bool) -> tuple:
    """``(hs, cs, gates, tanh_cs, joined)`` of an LSTM layer over ``inputs`` (input, h0,
    c0, w_ih, w_hh, b_ih, b_hh; the states may be None), natively or by the reference:
    see ``torch._C.lstm_sequence_forward``."""
    if _native.ENABLED:
        return _lstm_native().lstm_sequence_forward(*_contiguous(*inputs), packed=packed)
    return _lstm_forward_reference(*[_array_or_none(t) for t in inputs], packed=packed)


def _lstm_forward_reference(x, h0, c0, w_ih, w_hh, b_ih, b_hh, packed):
    """NumPy reference of torch._C.lstm_sequence_forward (same arguments and results)."""
    steps, batch, _ = x.shape
    hidden = w_hh.shape[1]
    dtype = x.dtype
    projected = _projected_steps(x, w_ih, b_ih, 4 * hidden)
    hs = np.empty((steps + 1, batch, hidden), dtype=dtype)
    cs = np.empty((steps + 1, batch, hidden), dtype=dtype)
    gates = np.empty((steps, batch, 4 * hidden), dtype=dtype)
    tanh_cs = np.empty((steps, batch, hidden), dtype=dtype)
    hs[0] = 0 if h0 is None else h0
    cs[0] = 0 if c0 is None else c0
    _lstm_loop_reference(projected, w_hh.T, b_hh, hs, cs, gates, tanh_cs)
    joined = np.concatenate([hs[1:], cs[steps:]]) if packed else None
    return hs, cs, gates, tanh_cs, joined


def _wanted_gradients(inputs) -> list:
    """Which of (dx, dh0, dc0, dw_ih, dw_hh, d_bias) the backward pass computes: those of
    the inputs that require grad (the bias gradient serves both biases; None inputs, the
    zero initial states of :func:`lstm_sequence`, need none)."""
    input, h0, c0, w_ih, w_hh, b_ih, b_hh = inputs
    wanted = [t is not None and t._requires_grad for t in (input, h0, c0, w_ih, w_hh)]
    wanted.append(b_ih is not None and (b_ih._requires_grad or b_hh._requires_grad))
    return wanted


def _lstm_layer_gradients(grad: Tensor, inputs, saved: LSTMSaved) -> list:
    g = np.ascontiguousarray(grad._np)
    steps = len(g) - 1  # the rows of every h_t, then the final c's
    return _lstm_gradients(inputs, saved, g[:steps], None, g[steps], grad._dtype)


def _lstm_gradients(inputs, saved: LSTMSaved, grad_hs, grad_hy, grad_cy, dtype) -> list:
    """The gradients of the inputs of a whole LSTM layer (None for those not wanted) from
    the C-contiguous arrays of the gradients of its outputs, each None where it has none:
    every h_t (T, B, H), the final h and the final c (B, H)."""
    input, _, _, w_ih, w_hh, _, _ = inputs
    wanted = saved.wanted
    arrays = (saved.hs, saved.cs, saved.gates, saved.tanh_cs)
    if _native.ENABLED:
        x, w_i, w_h = _contiguous(input, w_ih, w_hh)
        found = _lstm_native().lstm_sequence_backward(
            grad_hs, grad_hy, grad_cy, x, w_i, w_h, *arrays, wanted
        )
    else:
        found = _lstm_backward_reference(
            grad_hs, grad_hy, grad_cy, input._np, w_ih._np, w_hh._np, *arrays, wanted
        )
    dx, dh0, dc0, dw_ih, dw_hh, d_bias = found
    wrapped = [None if a is None else make(a, dtype) for a in (dx, dh0, dc0, dw_ih, dw_hh)]
    if d_bias is None:
        return [*wrapped, None, None]
    return [*wrapped, make(d_bias, dtype), make(d_bias.copy(), dtype)]  # a tensor each


def _lstm_backward_reference(
    grad_hs, grad_hy, grad_cy, x, w_ih, w_hh, hs, cs, gates, tanh_cs, wanted
) -> list:
    """NumPy reference of torch._C.lstm_sequence_backward (same arguments and results)."""
    steps, batch, hidden = tanh_cs.shape
    dtype = gates.dtype
    grad = np.zeros((steps + 1, batch, hidden), dtype=dtype)  # the layout of the loop's
    if grad_hs is not None:
        grad[:steps] = grad_hs
    if grad_hy is not None:
        grad[steps - 1] += grad_hy
    if grad_cy is not None:
        grad[steps] = grad_cy
    dz = np.empty((steps, batch, 4 * hidden), dtype=dtype)
    dc = np.empty((batch, hidden), dtype=dtype)
    dh_next = np.empty((batch, hidden), dtype=dtype)
    _lstm_loop_backward_reference(grad, gates, cs, tanh_cs, w_hh, dz, dh_next, dc)
    rows = dz.reshape(steps * batch, 4 * hidden)
    features = x.shape[2]
    found = [
        _mm(rows, w_ih).reshape(steps, batch, features) if wanted[0] else None,
        dh_next if wanted[1] else None,
        dc if wanted[2] else None,
        _mm(rows.T, x.reshape(steps * batch, features)) if wanted[3] else None,
        _mm(rows.T, hs[:steps].reshape(steps * batch, hidden)) if wanted[4] else None,
        rows.sum(0) if wanted[5] else None,
    ]
    return found


def lstm_layer_composite(input, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor:
    """:func:`lstm_layer` by core's ``lstm_cell`` composite, step by step (the reference,
    and what double backward differentiates)."""
    import torch

    from .nn_functional import lstm_cell

    h, c = h0, c0
    hiddens = []
    for t in range(input.shape[0]):
        h, c = lstm_cell(input[t], (h, c), w_ih, w_hh, b_ih, b_hh)
        hiddens.append(h)
    return torch.cat([torch.stack(hiddens), c.unsqueeze(0)])


LSTM_LAYER = _register_layer(
    lstm_layer,
    _lstm_layer_gradients,
    "Tensor input, Tensor h0, Tensor c0, Tensor w_ih, Tensor w_hh, Tensor? b_ih, Tensor? b_hh",
)


# ------------------------------------------------------ LSTM layer, three outputs


def lstm_sequence_applies(input, h0, c0, w_ih, w_hh, b_ih, b_hh) -> bool:
    """Whether :func:`lstm_sequence` takes these operands: as :func:`lstm_layer`, with
    either initial state None (zeros)."""
    tensors = [t for t in (input, h0, c0, w_ih, w_hh, b_ih, b_hh) if t is not None]
    dtype = input._dtype
    if dtype not in _FLOATS or any(t._dtype is not dtype for t in tensors):
        return False
    if not all(isinstance(t._np, np.ndarray) for t in tensors):
        return False  # device arrays: the composite's ops
    x, w = input._np, w_hh._np
    if x.ndim != 3 or x.shape[0] == 0 or w.ndim != 2 or w_ih._np.ndim != 2:
        return False
    gates, hidden = w.shape
    state = (x.shape[1], hidden)
    return (
        gates == 4 * hidden
        and w_ih._np.shape == (gates, x.shape[2])
        and all(t is None or t._np.shape == state for t in (h0, c0))
        and (b_ih is None) == (b_hh is None)
        and all(b is None or b._np.shape == (gates,) for b in (b_ih, b_hh))
    )


def lstm_sequence(input, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM layer over a (T, B, I) sequence as one op with three outputs, as PyTorch's
    fused layer: every h_t (T, B, H), the final h and the final c as (1, B, H) rows of
    ``h_n`` and ``c_n``. ``h0`` and ``c0`` (B, H) may be None (zeros). None where the op
    does not apply (see :func:`lstm_sequence_applies`) or torch-autograd cannot record it.

    NOTE: the outputs are copies of the states backward reads (the node saves none of
    them), so writing into them in place is harmless.
    """
    if not lstm_sequence_applies(input, h0, c0, w_ih, w_hh, b_ih, b_hh):
        return None
    inputs = (input, h0, c0, w_ih, w_hh, b_ih, b_hh)
    hs, cs, gates, tanh_cs, _ = _lstm_states(inputs, packed=False)
    dtype, steps = input._dtype, len(gates)
    outputs = tuple(make(a.copy(), dtype) for a in (hs[1:], hs[steps:], cs[steps:]))
    saved = LSTMSaved(hs, cs, gates, tanh_cs, _wanted_gradients(inputs))
    return _record(LSTM_SEQUENCE, inputs, outputs, saved)


def lstm_sequence_backward(grads, inputs, saved: LSTMSaved, index: int):
    """The gradient of :func:`lstm_sequence` for its input number ``index`` from the
    gradients of its three outputs (a list, None for an output that got none); one pass
    back through time gives them all, handed out once each (see :func:`_gradient_once`)."""

    def compute():
        arrays = [None if g is None else np.ascontiguousarray(g._np) for g in grads]
        return _lstm_gradients(inputs, saved, *arrays, inputs[3]._dtype)

    return _gradient_once(saved, grads, index, compute)


def lstm_sequence_composite(input, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None) -> tuple:
    """:func:`lstm_sequence` by core's ``lstm_cell`` composite, step by step (the reference,
    and what double backward differentiates)."""
    import torch

    from .nn_functional import lstm_cell

    zeros = input.new_zeros((input.shape[1], w_hh.shape[1]))
    h, c = (zeros if h0 is None else h0), (zeros if c0 is None else c0)
    hiddens = []
    for t in range(input.shape[0]):
        h, c = lstm_cell(input[t], (h, c), w_ih, w_hh, b_ih, b_hh)
        hiddens.append(h)
    return torch.stack(hiddens), h.unsqueeze(0), c.unsqueeze(0)


LSTM_SEQUENCE = _register_with_gradient(
    lstm_sequence,
    lstm_sequence_backward,
    "_lstm_sequence(Tensor input, Tensor? h0, Tensor? c0, Tensor w_ih, Tensor w_hh, "
    "Tensor? b_ih, Tensor? b_hh) -> (Tensor, Tensor, Tensor)",
    "_lstm_sequence_backward(Tensor[] grads, ...) -> Tensor",
)


# ----------------------------------------------------------------------- GRU layer


def gru_layer_applies(input, h0, w_ih, w_hh, b_ih, b_hh) -> bool:
    """Whether :func:`gru_layer` takes these operands: float tensors of one dtype, a
    non-empty (T, B, I) input, a (B, H) state."""
    if not _takes_sequence(input, h0, w_ih, w_hh, b_ih, b_hh):
        return False
    gates, hidden = w_hh._np.shape
    return (
        gates == 3 * hidden
        and w_ih._np.shape == (gates, input._np.shape[2])
        and h0._np.shape == (input._np.shape[1], hidden)
        and (b_ih is None) == (b_hh is None)
    )


class GRUSaved(_LayerSaved):
    """What the backward of one GRU layer needs: the states before each step (h0 first,
    (T + 1, B, H)), the gates r, z, n (T, B, 3H) and the h part of the new gate's input
    (T, B, H); and the gradients last computed from them (as :class:`LSTMSaved`)."""

    __slots__ = ("hs", "gates", "hn")

    def __init__(self, hs, gates, hn):
        super().__init__()
        self.hs, self.gates, self.hn = hs, gates, hn

    def composite(self, *inputs):
        """The layer recomputed by recorded composites (for double backward)."""
        return gru_layer_composite(*inputs)


def _gru_loop_reference(projected, w_hh_t, bias_hh, hs, gates, hn) -> None:
    """NumPy reference of torch._C.gru_layer_forward (same arguments)."""
    hidden = hs.shape[2]
    for t in range(projected.shape[0]):
        gh = _mm(hs[t], w_hh_t) + (0 if bias_hh is None else bias_hh)
        x = projected[t]
        rz = 1 / (1 + np.exp(-(x[:, : 2 * hidden] + gh[:, : 2 * hidden])))
        hn[t] = gh[:, 2 * hidden :]
        n = np.tanh(x[:, 2 * hidden :] + rz[:, :hidden] * hn[t])
        gates[t] = np.concatenate([rz, n], axis=1)
        update = rz[:, hidden:]
        hs[t + 1] = (1 - update) * n + update * hs[t]


def _gru_loop_backward_reference(grad, hs, gates, hn, w_hh, dgx, dgh, dh0) -> None:
    """NumPy reference of torch._C.gru_layer_backward (same arguments)."""
    dh0[...] = 0
    for t in range(gates.shape[0] - 1, -1, -1):
        dh = grad[t] + dh0
        reset, update, n = np.split(gates[t], 3, axis=1)
        dn = dh * (1 - update) * (1 - n * n)
        dz = dh * (hs[t] - n) * update * (1 - update)
        dr = dn * hn[t] * reset * (1 - reset)
        dgx[t] = np.concatenate([dr, dz, dn], axis=1)
        dgh[t] = np.concatenate([dr, dz, dn * reset], axis=1)
        dh0[...] = dh * update + _mm(dgh[t], w_hh)


def gru_layer(input, h0, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU layer over a (T, B, I) sequence as one op: returns the hidden state after
    each step, (T, B, H) (the last row is the final state); None when it does not apply
    (see :func:`gru_layer_applies`) or torch-autograd cannot record it.

    NOTE: as for the LSTM layer, the input projection of all steps is one product and the
    time loop one native call; ``n = tanh(x_n + r * (h W_hn^T + b_hn))`` as in PyTorch.
    """
    if not gru_layer_applies(input, h0, w_ih, w_hh, b_ih, b_hh):
        return None
    x = input._np
    steps, batch, _ = x.shape
    hidden = w_hh._np.shape[1]
    dtype = x.dtype
    projected = _projected_steps(x, w_ih._np, _array_or_none(b_ih), 3 * hidden)
    bias_hh = None if b_hh is None else contiguous(b_hh._np)
    hs = np.empty((steps + 1, batch, hidden), dtype=dtype)
    gates = np.empty((steps, batch, 3 * hidden), dtype=dtype)
    hn = np.empty((steps, batch, hidden), dtype=dtype)
    hs[0] = h0._np
    w_hh_t = contiguous(w_hh._np.T)
    _run_loop("gru_layer_forward", _gru_loop_reference, projected, w_hh_t, bias_hh, hs, gates, hn)
    inputs = (input, h0, w_ih, w_hh, b_ih, b_hh)
    return _record_states(GRU_LAYER, inputs, hs, GRUSaved(hs, gates, hn))


def _gru_layer_gradients(grad: Tensor, inputs, saved: GRUSaved) -> list:
    input, _, w_ih, w_hh, b_ih, _ = inputs
    g = contiguous(grad._np)
    steps, batch, hidden = saved.hn.shape
    dtype = g.dtype
    dgx = np.empty((steps, batch, 3 * hidden), dtype=dtype)
    dgh = np.empty((steps, batch, 3 * hidden), dtype=dtype)
    dh0 = np.empty((batch, hidden), dtype=dtype)
    w = contiguous(w_hh._np)
    arrays = (g, saved.hs, saved.gates, saved.hn, w, dgx, dgh, dh0)
    _run_loop("gru_layer_backward", _gru_loop_backward_reference, *arrays)
    rows_x = dgx.reshape(steps * batch, 3 * hidden)
    rows_h = dgh.reshape(steps * batch, 3 * hidden)
    dtype_t = grad._dtype
    found = _input_gradients(rows_x, rows_h, input._np, saved.hs, w_ih._np, dh0, dtype_t)
    if b_ih is None:
        return [*found, None, None]
    return [*found, make(rows_x.sum(0), dtype_t), make(rows_h.sum(0), dtype_t)]


def gru_layer_composite(input, h0, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor:
    """:func:`gru_layer` by core's ``gru_cell`` composite, step by step (the reference,
    and what double backward differentiates)."""
    from .nn_functional import gru_cell

    return _cells_composite(gru_cell, input, h0, w_ih, w_hh, b_ih, b_hh)


GRU_LAYER = _register_layer(
    gru_layer,
    _gru_layer_gradients,
    "Tensor input, Tensor h0, Tensor w_ih, Tensor w_hh, Tensor? b_ih, Tensor? b_hh",
)


# -------------------------------------------------------------- RNN (tanh, relu) layer


def rnn_layer_applies(input, h0, w_ih, w_hh, b_ih, b_hh) -> bool:
    """Whether :func:`rnn_layer` takes these operands: float tensors of one dtype, a
    non-empty (T, B, I) input, a (B, H) state."""
    if not _takes_sequence(input, h0, w_ih, w_hh, b_ih, b_hh):
        return False
    hidden = w_hh._np.shape[1]
    return (
        w_hh._np.shape == (hidden, hidden)
        and w_ih._np.shape == (hidden, input._np.shape[2])
        and h0._np.shape == (input._np.shape[1], hidden)
        and (b_ih is None) == (b_hh is None)
    )


class RNNSaved(_LayerSaved):
    """The states of one tanh/relu RNN layer (h0 first, (T + 1, B, H)), its activation,
    and the gradients last computed from them (as :class:`LSTMSaved`)."""

    __slots__ = ("hs", "relu")

    def __init__(self, hs, relu):
        super().__init__()
        self.hs, self.relu = hs, relu

    def composite(self, *inputs):
        """The layer recomputed by recorded composites (for double backward)."""
        return rnn_layer_composite(*inputs, nonlinearity="relu" if self.relu else "tanh")


def _rnn_loop_reference(projected, w_hh_t, bias_hh, hs, relu) -> None:
    """NumPy reference of torch._C.rnn_layer_forward (same arguments)."""
    for t in range(projected.shape[0]):
        z = projected[t] + (_mm(hs[t], w_hh_t) + (0 if bias_hh is None else bias_hh))
        hs[t + 1] = np.where(z < 0, 0, z) if relu else np.tanh(z)


def _rnn_loop_backward_reference(grad, hs, w_hh, dz, dh0, relu) -> None:
    """NumPy reference of torch._C.rnn_layer_backward (same arguments)."""
    dh0[...] = 0
    for t in range(grad.shape[0] - 1, -1, -1):
        dh = grad[t] + dh0
        y = hs[t + 1]
        dz[t] = np.where(y > 0, dh, 0) if relu else dh * (1 - y * y)
        dh0[...] = _mm(dz[t], w_hh)


def rnn_layer(input, h0, w_ih, w_hh, b_ih=None, b_hh=None, nonlinearity: str = "tanh"):
    """One Elman RNN layer (tanh or relu) over a (T, B, I) sequence as one op: returns the
    hidden state after each step, (T, B, H); None when it does not apply (see
    :func:`rnn_layer_applies`) or torch-autograd cannot record it."""
    if nonlinearity not in ("tanh", "relu") or not rnn_layer_applies(
        input, h0, w_ih, w_hh, b_ih, b_hh
    ):
        return None
    x = input._np
    steps, batch, _ = x.shape
    hidden = w_hh._np.shape[1]
    projected = _projected_steps(x, w_ih._np, _array_or_none(b_ih), hidden)
    bias_hh = None if b_hh is None else contiguous(b_hh._np)
    hs = np.empty((steps + 1, batch, hidden), dtype=x.dtype)
    hs[0] = h0._np
    w_hh_t = contiguous(w_hh._np.T)
    relu = nonlinearity == "relu"
    _run_loop("rnn_layer_forward", _rnn_loop_reference, projected, w_hh_t, bias_hh, hs, relu)
    inputs = (input, h0, w_ih, w_hh, b_ih, b_hh)
    return _record_states(RNN_LAYER, inputs, hs, RNNSaved(hs, relu))


def _rnn_layer_gradients(grad: Tensor, inputs, saved: RNNSaved) -> list:
    input, _, w_ih, w_hh, b_ih, _ = inputs
    g = contiguous(grad._np)
    steps, batch, hidden = g.shape
    dz = np.empty_like(g)
    dh0 = np.empty((batch, hidden), dtype=g.dtype)
    w = contiguous(w_hh._np)
    _run_loop(
        "rnn_layer_backward", _rnn_loop_backward_reference, g, saved.hs, w, dz, dh0, saved.relu
    )
    rows = dz.reshape(steps * batch, hidden)
    dtype_t = grad._dtype
    found = _input_gradients(rows, rows, input._np, saved.hs, w_ih._np, dh0, dtype_t)
    if b_ih is None:
        return [*found, None, None]
    d_bias = rows.sum(0)
    return [*found, make(d_bias, dtype_t), make(d_bias.copy(), dtype_t)]  # a tensor each


def rnn_layer_composite(input, h0, w_ih, w_hh, b_ih=None, b_hh=None, nonlinearity="tanh"):
    """:func:`rnn_layer` by core's ``rnn_tanh_cell`` / ``rnn_relu_cell`` composites (the
    reference, and what double backward differentiates)."""
    from . import nn_functional

    cell = nn_functional.rnn_relu_cell if nonlinearity == "relu" else nn_functional.rnn_tanh_cell
    return _cells_composite(cell, input, h0, w_ih, w_hh, b_ih, b_hh)


RNN_LAYER = _register_layer(
    rnn_layer,
    _rnn_layer_gradients,
    "Tensor input, Tensor h0, Tensor w_ih, Tensor w_hh, Tensor? b_ih, Tensor? b_hh, "
    "str nonlinearity",
)
