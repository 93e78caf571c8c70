"""Derivatives of core's fused nn ops (``torch._ops.nn_fused``). Without ``create_graph``
core's backward ops compute them directly on arrays; with it, the formulas use recorded
core ops (or re-run the op's composite) so that higher-order gradients follow."""

from __future__ import annotations

import numpy as np

import torch
from torch._interface import ops

from ._entry import Derivative


def _fn(name: str):
    return ops[name].function


# ------------------------------------------------------------------------- linear


def _linear(which):
    def formula(grad, inputs, saved):
        x, weight, _ = inputs
        if not torch.is_grad_enabled():
            return _fn("_linear_backward")(grad, x, weight, which)
        rows = grad.reshape(-1, grad.shape[-1])
        if which == "input":
            return (rows @ weight).reshape(x.shape)
        if which == "weight":
            return rows.t() @ x.reshape(-1, x.shape[-1])
        return rows.sum(0)

    return formula


# --------------------------------------------------------------------------- relu


def _relu(grad, inputs, saved, result):
    if not torch.is_grad_enabled():
        return _fn("_relu_backward")(grad, result)
    return torch.where(result > 0, grad, 0.0)


# ------------------------------------------------------- layer norm and batch norm


def _recorded_norm_grad(grad, x, weight, dims, param_dims, eps, which):
    """Layer and batch norm's gradients in recorded ops: ``x`` normalised over ``dims``
    (statistics recomputed from it), ``weight`` already broadcastable to ``x``, the
    weight and bias gradients summed over ``param_dims``."""
    mean = x.mean(dims, keepdim=True)
    centred = x - mean
    rstd = torch.rsqrt((centred * centred).mean(dims, keepdim=True) + eps)
    x_hat = centred * rstd
    if which == "weight":
        return (grad * x_hat).sum(param_dims)
    if which == "bias":
        return grad.sum(param_dims)
    g = grad * weight if weight is not None else grad
    return rstd * (g - g.mean(dims, keepdim=True) - x_hat * (g * x_hat).mean(dims, keepdim=True))


def _layer_norm(which):
    def formula(grad, inputs, saved):
        x, weight, _ = inputs
        if not torch.is_grad_enabled():
            return _fn("_layer_norm_backward")(
                grad, x, weight, saved.mean, saved.rstd, saved.normalized_shape, which
            )
        # create_graph: the same formulas in recorded ops, the statistics recomputed
        # from x so that they are differentiated too
        dims = tuple(range(x.dim() - len(saved.normalized_shape), x.dim()))
        leading = tuple(range(x.dim() - len(dims)))
        return _recorded_norm_grad(grad, x, weight, dims, leading, saved.eps, which)

    return formula


def _batch_norm(which):
    def formula(grad, inputs, saved):
        x, weight, _ = inputs
        if not torch.is_grad_enabled():
            return _fn("_batch_norm_backward")(grad, x, weight, saved.mean, saved.invstd, which)
        # create_graph: recorded ops, the batch statistics recomputed from x
        dims = (0,) + tuple(range(2, x.dim()))
        shape = (1, x.shape[1]) + (1,) * (x.dim() - 2)
        weight = weight.reshape(shape) if weight is not None else None
        return _recorded_norm_grad(grad, x, weight, dims, dims, saved.eps, which)

    return formula


# ------------------------------------------------------------------------- losses


def _mse(sign: float):
    def formula(grad, inputs, saved):
        reduction = saved.reduction
        if not torch.is_grad_enabled():
            result = _fn("_mse_loss_backward")(grad, saved.diff, reduction)
            return result if sign > 0 else -result
        x, target = inputs
        scale = 2.0 / max(x.numel(), 1) if reduction == "mean" else 2.0
        return sign * scale * (x - target) * grad

    return formula


def _class(saved) -> tuple:
    """What the class-index losses' backward kernels take after the reduction and the
    input's shape or log-probabilities."""
    return saved.safe_target, saved.weights, saved.denominator


def _cross_entropy(grad, inputs, saved):
    if not torch.is_grad_enabled():
        return _fn("_cross_entropy_backward")(
            grad, saved.reduction, saved.log_probs, *_class(saved)
        )
    x, target = inputs
    weights = torch.from_numpy(saved.weights)
    one_hot = torch.from_numpy(np.eye(x.shape[1], dtype=saved.weights.dtype)[saved.safe_target])
    difference = torch.softmax(x, 1) - one_hot
    if saved.reduction == "mean":
        scale = weights * (grad / float(saved.denominator))
    else:
        scale = weights * grad
    return difference * scale.unsqueeze(1)


def _nll_loss(grad, inputs, saved):
    if not torch.is_grad_enabled():
        return _fn("_nll_loss_backward")(grad, saved.reduction, saved.shape, *_class(saved))
    # the gradient is linear in grad: a constant -one_hot * weight, scaled by it
    reduction, shape, weights = saved.reduction, saved.shape, saved.weights
    picked = np.zeros(shape, dtype=weights.dtype)
    picked[np.arange(shape[0]), saved.safe_target] = -weights
    if reduction == "mean":
        picked = picked / saved.denominator
    scale = grad.unsqueeze(1) if reduction == "none" else grad
    return torch.from_numpy(picked) * scale


# ---------------------------------------------------------------------- LSTM layer


def _composite_grad(saved, inputs, key, index: int, gradients_of):
    """Under create_graph, the gradient of input ``index`` through the op's step-by-step
    composite (which records every op): ``gradients_of(wanted)`` gives those of all inputs
    that require grad at once, computed once per incoming gradient ``key`` and handed out
    one input at a time."""
    if saved.grad_key is not key or saved.grads is None or saved.grads[index] is None:
        wanted = [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad]
        found = iter(gradients_of(wanted))
        saved.grads = [
            next(found) if isinstance(x, torch.Tensor) and x.requires_grad else None for x in inputs
        ]
        saved.grad_key = key
    result, saved.grads[index] = saved.grads[index], None
    return result


def _recurrent_layer(node_name: str, backward: str, saved_inputs: tuple) -> Derivative:
    """The entry of a fused recurrent layer: one variadic formula for every input, through
    core's ``backward`` kernel (or, under create_graph, the step-by-step composite)."""

    def formula(grad, inputs, saved, index):
        if not torch.is_grad_enabled():
            return _fn(backward)(grad, inputs, saved, index)

        def gradients_of(wanted):
            return torch.autograd.grad(saved.composite(*inputs), wanted, grad, create_graph=True)

        return _composite_grad(saved, inputs, grad, index, gradients_of)

    return Derivative(node_name, (formula,), variadic=True, saved_inputs=saved_inputs)


def _lstm_sequence(index: int):
    """The formula of input ``index`` of core's three-output LSTM layer (``_lstm_sequence``:
    every h_t, the final h, the final c), from the gradients of its outputs."""

    def formula(grads, inputs, saved, outputs):
        if not torch.is_grad_enabled():
            return _fn("_lstm_sequence_backward")(grads, inputs, saved, index)

        def gradients_of(wanted):
            result = saved.sequence_composite(*inputs)
            pairs = [(out, g) for out, g in zip(result, grads) if g is not None]
            return torch.autograd.grad(
                [out for out, _ in pairs],
                wanted,
                [g for _, g in pairs],
                create_graph=True,
                allow_unused=True,
            )

        return _composite_grad(saved, inputs, grads, index, gradients_of)

    return formula


NN_FUSED = {
    "_linear": Derivative(
        "AddmmBackward0",
        (_linear("input"), _linear("weight"), _linear("bias")),
        saved_inputs=(0, 1),
        reads=((1,), (0,), ()),
    ),
    "_relu": Derivative(
        "ReluBackward0", (_relu,), saved_inputs=(), saves_output=True, drops_inputs=True
    ),
    "_layer_norm": Derivative(
        "NativeLayerNormBackward0",
        (_layer_norm("input"), _layer_norm("weight"), _layer_norm("bias")),
        saved_inputs=(0, 1),
    ),
    "_batch_norm": Derivative(
        "NativeBatchNormBackward0",
        (_batch_norm("input"), _batch_norm("weight"), _batch_norm("bias")),
        saved_inputs=(0, 1),
    ),
    "_mse_loss": Derivative("MseLossBackward0", (_mse(1.0), _mse(-1.0)), saved_inputs=(0, 1)),
    "_cross_entropy": Derivative("NllLossBackward0", (_cross_entropy, None), saved_inputs=()),
    "_nll_loss": Derivative("NllLossBackward0", (_nll_loss, None), saved_inputs=()),
    "_lstm_layer": _recurrent_layer("MkldnnRnnLayerBackward0", "_lstm_layer_backward", (0, 3, 4)),
    # PyTorch's node of its fused layer; every input is kept (the composite of double
    # backward reads them all); the outputs are copies of core's saved state, not read
    "_lstm_sequence": Derivative(
        "MkldnnRnnLayerBackward0",
        tuple(_lstm_sequence(index) for index in range(7)),
        saved_inputs=tuple(range(7)),
        outputs=3,
        reads_outputs=False,
    ),
    "_gru_layer": _recurrent_layer("GruLayerBackward0", "_gru_layer_backward", (0, 2, 3)),
    "_rnn_layer": _recurrent_layer("RnnLayerBackward0", "_rnn_layer_backward", (0, 2, 3)),
}
