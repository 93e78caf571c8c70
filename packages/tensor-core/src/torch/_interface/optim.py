"""torch-core's native optimizer kernels, for torch-optim.

Each kernel updates lists of flat, C-contiguous float32/float64 NumPy arrays in place
(the parameters, their gradients and their state), one pass over memory, rounding as
PyTorch's single-tensor updates do. A caller describes one update by ONE parameter
struct (an immutable ``NamedTuple`` per algorithm: the arrays and the hyper-parameters,
named as the kernel's arguments) and hands it to :func:`run`::

    if optim.available():
        optim.run(optim.SGDStep(params, grads, None, [], 0.0, 0.0, 1.0, -0.1, False, False))

Without native code (a pure build, or ``TORCH_NATIVE=0``) :func:`available` is False and
:func:`run` raises ``RuntimeError``: the caller takes its tensor-op reference path.

NOTE: the structs are NamedTuples rather than frozen dataclasses: one is built per
parameter per step on the optimizers' hot path, and a tuple is built and unpacked into
the kernel's positional arguments without a per-field ``__setattr__``.

The kernels write through NumPy views: :func:`run` (or :func:`mark_written`) then counts
the in-place writes on the tensors' version counters, as PyTorch's in-place ops would.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = [
    "available",
    "run",
    "sqrt_",
    "sqrt_is_pytorchs",
    "mark_written",
    "AdamStep",
    "SGDStep",
    "RMSpropStep",
    "AdagradStep",
    "AdamaxStep",
    "AdadeltaStep",
    "ASGDStep",
    "NAdamStep",
    "RAdamStep",
]

Arrays = list  # of flat C-contiguous float32/float64 NumPy arrays, one per parameter
Floats = list  # of Python floats, one per parameter


class AdamStep(NamedTuple):
    """Adam/AdamW (``decay``: 0 none, 1 L2, 2 decoupled with ``decay_factor``;
    ``exact_sqrt``: correctly rounded roots, as PyTorch's ``fused=True``)."""

    params: Arrays
    grads: Arrays
    exp_avgs: Arrays
    exp_avg_sqs: Arrays
    max_exp_avg_sqs: Arrays | None
    neg_step_sizes: Floats
    bc2_sqrts: Floats
    lerp_weight: float
    beta2: float
    one_minus_beta2: float
    eps: float
    weight_decay: float
    decay_factor: float
    maximize: bool
    decay: int
    threads: int = 0
    exact_sqrt: bool = False
    kernel = "adam_step"


class SGDStep(NamedTuple):
    """SGD (``bufs`` None without momentum; ``first[i]``: buffer ``i`` is new and takes
    the gradient)."""

    params: Arrays
    grads: Arrays
    bufs: Arrays | None
    first: list
    weight_decay: float
    momentum: float
    one_minus_dampening: float
    neg_lr: float
    maximize: bool
    nesterov: bool
    kernel = "sgd_step"


class RMSpropStep(NamedTuple):
    """RMSprop (``grad_avgs`` None unless centered, ``bufs`` None without momentum)."""

    params: Arrays
    grads: Arrays
    square_avgs: Arrays
    grad_avgs: Arrays | None
    bufs: Arrays | None
    alpha: float
    one_minus_alpha: float
    eps: float
    weight_decay: float
    momentum: float
    neg_lr: float
    maximize: bool
    centered: bool
    kernel = "rmsprop_step"


class AdagradStep(NamedTuple):
    """Adagrad on dense gradients (``neg_clrs``: each parameter's decayed rate, negated)."""

    params: Arrays
    grads: Arrays
    state_sums: Arrays
    neg_clrs: Floats
    weight_decay: float
    eps: float
    maximize: bool
    threads: int = 0
    exact_sqrt: bool = False
    kernel = "adagrad_step"


class AdamaxStep(NamedTuple):
    """Adamax."""

    params: Arrays
    grads: Arrays
    exp_avgs: Arrays
    exp_infs: Arrays
    neg_clrs: Floats
    lerp_weight: float
    beta2: float
    eps: float
    weight_decay: float
    maximize: bool
    kernel = "adamax_step"


class AdadeltaStep(NamedTuple):
    """Adadelta."""

    params: Arrays
    grads: Arrays
    square_avgs: Arrays
    acc_deltas: Arrays
    rho: float
    one_minus_rho: float
    eps: float
    weight_decay: float
    neg_lr: float
    maximize: bool
    kernel = "adadelta_step"


class ASGDStep(NamedTuple):
    """ASGD (``mus[i] == 1``: the average copies the parameter)."""

    params: Arrays
    grads: Arrays
    axs: Arrays
    decays: Floats
    neg_etas: Floats
    mus: Floats
    weight_decay: float
    maximize: bool
    kernel = "asgd_step"


class NAdamStep(NamedTuple):
    """NAdam (``decay``: 0 none, 1 L2, 2 decoupled with ``decay_factor``)."""

    params: Arrays
    grads: Arrays
    exp_avgs: Arrays
    exp_avg_sqs: Arrays
    bias_corrections2: Floats
    grad_coefs: Floats
    avg_coefs: Floats
    lerp_weight: float
    beta2: float
    one_minus_beta2: float
    eps: float
    weight_decay: float
    decay_factor: float
    maximize: bool
    decay: int
    kernel = "nadam_step"


class RAdamStep(NamedTuple):
    """RAdam (``rectified[i]``: parameter ``i`` takes the rectified step)."""

    params: Arrays
    grads: Arrays
    exp_avgs: Arrays
    exp_avg_sqs: Arrays
    bias_corrections1: Floats
    bc2_sqrts: Floats
    rectifications: Floats
    rectified: list
    lerp_weight: float
    beta2: float
    one_minus_beta2: float
    eps: float
    weight_decay: float
    decay_factor: float
    lr: float
    maximize: bool
    decay: int
    kernel = "radam_step"


_state: dict[str, Any] = {}


def _native():
    """torch._C with its optimizer kernels, or None (pure core)."""
    if "native" not in _state:
        from .. import _native

        _state["native"] = _native.optim_kernels()
    return _state["native"]


def available() -> bool:
    """Whether torch-core has native optimizer kernels (False on a pure build or under
    ``TORCH_NATIVE=0``)."""
    return _native() is not None


def _require():
    native = _native()
    if native is None:
        raise RuntimeError(
            "torch-core's native optimizer kernels are not available (pure build or "
            "TORCH_NATIVE=0): check torch._interface.optim.available() and take the "
            "tensor-op path instead"
        )
    return native


def run(step: NamedTuple, written=()) -> None:
    """Run the kernel that ``step`` (one of this module's structs) describes, in place,
    then count its writes: ``written`` lists ``(tensor, times)`` pairs (see
    :func:`mark_written`).

    Raises:
        RuntimeError: without native kernels.
        TypeError / ValueError: arrays of a wrong dtype, layout or length (the kernel
            checks every size it is given).
    """
    kernel = _kernels.get(type(step))
    if kernel is None:
        kernel = _kernels[type(step)] = getattr(_require(), type(step).kernel)
    kernel(*step)
    for tensor, times in written:
        for _ in range(times):
            tensor._bump_version()


_kernels: dict = {}  # struct type -> the bound kernel, looked up once


def sqrt_(array) -> None:
    """Square roots of a C-contiguous float32/float64 array, in place, as the kernels
    take them (PyTorch's: MKL's VML when loaded); RuntimeError without native kernels."""
    _require().optim_sqrt_(array)


def sqrt_is_pytorchs() -> bool:
    """Whether the kernels take square roots as PyTorch does (MKL's VML is loaded)."""
    from .. import _native

    return available() and _native.optim_sqrt_is_pytorchs()


def mark_written(tensor, times: int = 1) -> None:
    """Count ``times`` in-place writes on ``tensor``'s version counter (a kernel wrote
    its array), so that autograd's saved-tensor checks see the update."""
    for _ in range(times):
        tensor._bump_version()
