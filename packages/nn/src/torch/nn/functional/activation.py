"""Activation functions with PyTorch's signatures, written on public torch ops (those
PyTorch also has as ``torch.<name>``, e.g. ``selu``, ``prelu``, are core's)."""

from __future__ import annotations

import math
import warnings

import torch

from ._common import apply_inplace, core, refuse_complex

__all__ = [
    "threshold", "threshold_", "relu", "relu_", "hardtanh", "hardtanh_", "hardswish",
    "relu6", "elu", "elu_", "selu", "selu_", "celu", "celu_", "leaky_relu", "leaky_relu_",
    "prelu", "rrelu", "rrelu_", "glu", "gelu", "logsigmoid", "hardshrink", "tanhshrink",
    "softsign", "softplus", "softmin", "softmax", "softshrink", "gumbel_softmax",
    "log_softmax", "tanh", "sigmoid", "hardsigmoid", "silu", "mish",
]  # fmt: skip


def threshold(input, threshold: float, value: float, inplace: bool = False):
    """``input`` where it is above ``threshold``, else ``value``.

    Examples::

        >>> F.threshold(torch.tensor([0.5, 2.0]), 1.0, -1.0)
        tensor([-1.,  2.])
    """
    return apply_inplace(core("threshold"), input, inplace, threshold, value)


def threshold_(input, threshold: float, value: float):
    """In-place :func:`threshold`."""
    return globals()["threshold"](input, threshold, value, inplace=True)


def relu(input, inplace: bool = False):
    """``max(input, 0)`` element-wise.

    Examples::

        >>> F.relu(torch.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """
    return apply_inplace(torch.relu, input, inplace)


def relu_(input):
    """In-place :func:`relu`."""
    return relu(input, inplace=True)


def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
    """``input`` clamped to ``[min_val, max_val]``."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return apply_inplace(torch.clamp, input, inplace, min_val, max_val)


def hardtanh_(input, min_val: float = -1.0, max_val: float = 1.0):
    """In-place :func:`hardtanh`."""
    return hardtanh(input, min_val, max_val, inplace=True)


def hardswish(input, inplace: bool = False):
    """``x * relu6(x + 3) / 6``."""
    return apply_inplace(_hardswish, input, inplace)


def _hardswish(input):
    refuse_complex(input, "hardswish_cpu")
    return input * _hardsigmoid(input)


def relu6(input, inplace: bool = False):
    """``min(max(x, 0), 6)``."""
    return apply_inplace(torch.clamp, input, inplace, 0, 6)


def elu(input, alpha: float = 1.0, inplace: bool = False):
    """``x`` above 0, ``alpha * (exp(x) - 1)`` below."""
    return apply_inplace(_elu, input, inplace, alpha)


def _elu(input, alpha: float):
    refuse_complex(input, "elu_cpu")
    return torch.where(input > 0, input, alpha * torch.expm1(input))


def elu_(input, alpha: float = 1.0):
    """In-place :func:`elu`."""
    return elu(input, alpha, inplace=True)


def selu(input, inplace: bool = False):
    """Scaled ELU with the self-normalising constants."""
    return apply_inplace(core("selu"), input, inplace)


def selu_(input):
    """In-place :func:`selu`."""
    return selu(input, inplace=True)


def celu(input, alpha: float = 1.0, inplace: bool = False):
    """``x`` above 0, ``alpha * (exp(x / alpha) - 1)`` below."""
    return apply_inplace(core("celu"), input, inplace, alpha)


def celu_(input, alpha: float = 1.0):
    """In-place :func:`celu`."""
    return celu(input, alpha, inplace=True)


def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False):
    """``x`` above 0, ``negative_slope * x`` below."""
    return apply_inplace(_leaky_relu, input, inplace, negative_slope)


def _leaky_relu(input, negative_slope: float):
    refuse_complex(input, "leaky_relu_cpu")
    return torch.where(input > 0, input, input * negative_slope)


def leaky_relu_(input, negative_slope: float = 0.01):
    """In-place :func:`leaky_relu`."""
    return leaky_relu(input, negative_slope, inplace=True)


def prelu(input, weight):
    """Leaky ReLU whose slope ``weight`` is learned (one value, or one per channel)."""
    return core("prelu")(input, weight)


def rrelu(
    input,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
):
    """Leaky ReLU with a slope drawn uniformly from ``[lower, upper]`` per element when
    training, and their mean otherwise."""
    if training:
        slope = _random_slopes(input, lower, upper)
        return apply_inplace(lambda x: x * slope, input, inplace)
    return apply_inplace(_leaky_relu, input, inplace, (lower + upper) / 2)


def _random_slopes(input, lower: float, upper: float):
    """1 where ``input > 0``; elsewhere slopes drawn from U(lower, upper) in float64, one
    per such element in order (the draws PyTorch makes, so a seed gives its values)."""
    with torch.no_grad():
        negative = input <= 0
        draws = torch.empty(int(negative.sum()), dtype=torch.float64).uniform_(lower, upper)
        slope = torch.ones(tuple(input.shape), dtype=input.dtype)
        slope[negative] = draws.to(input.dtype)
    return slope


def rrelu_(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False):
    """In-place :func:`rrelu`."""
    return rrelu(input, lower, upper, training, inplace=True)


def glu(input, dim: int = -1):
    """``a * sigmoid(b)`` for the halves ``a``, ``b`` of ``input`` along ``dim``."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    if input.shape[dim] % 2:
        raise RuntimeError(
            f"Halving dimension must be even, but dimension {dim % input.dim()}"
            f" is size {input.shape[dim]}"
        )
    a, b = input.chunk(2, dim)
    return a * torch.sigmoid(b)


def gelu(input, approximate: str = "none"):
    """``x * Phi(x)``; ``approximate="tanh"`` uses the tanh formula."""
    refuse_complex(input, "GeluKernelImpl")
    if approximate == "tanh":
        inner = math.sqrt(2 / math.pi) * (input + 0.044715 * input * input * input)
        return 0.5 * input * (1 + torch.tanh(inner))
    if approximate != "none":
        raise RuntimeError("approximate argument must be either none or tanh.")
    return 0.5 * input * (1 + torch.erf(input / math.sqrt(2.0)))


def logsigmoid(input):
    """``log(sigmoid(x))``, computed stably."""
    refuse_complex(input, "log_sigmoid_cpu")
    return -_softplus(-input)


def hardshrink(input, lambd: float = 0.5):
    """``x`` where ``|x| > lambd``, else 0."""
    return core("hardshrink")(input, lambd)


def tanhshrink(input):
    """``x - tanh(x)``."""
    return input - torch.tanh(input)


def softsign(input):
    """``x / (1 + |x|)``."""
    return input / (1 + torch.abs(input))


def softplus(input, beta: float = 1.0, threshold: float = 20.0):
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold``."""
    refuse_complex(input, "softplus_cpu")
    return _softplus(input, beta, threshold)


def _softplus(input, beta: float = 1.0, threshold: float = 20.0):
    # log1p(exp(-|bx|)) + max(bx, 0) = log(1 + exp(bx)) without overflow
    scaled = input * beta
    soft = torch.log1p(torch.exp(-torch.abs(scaled))) + torch.clamp(scaled, min=0)
    return torch.where(scaled > threshold, input, soft / beta)


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    # the implicit choice of old releases, kept (with a warning) for scripts that rely on it
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to "
        "include dim=X as an argument.",
        UserWarning,
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def _cast(input, dtype):
    return input if dtype is None else input.to(dtype)


def softmin(input, dim=None, _stacklevel: int = 3, dtype=None):
    """``softmax(-input, dim)``."""
    dim = _softmax_dim("softmin", input.dim(), _stacklevel) if dim is None else dim
    return torch.softmax(-_cast(input, dtype), dim)


def softmax(input, dim=None, _stacklevel: int = 3, dtype=None):
    """``exp(x) / sum(exp(x))`` along ``dim``.

    Examples::

        >>> F.softmax(torch.tensor([0.0, 0.0]), dim=0)
        tensor([0.5000, 0.5000])
    """
    dim = _softmax_dim("softmax", input.dim(), _stacklevel) if dim is None else dim
    return torch.softmax(_cast(input, dtype), dim)


def log_softmax(input, dim=None, _stacklevel: int = 3, dtype=None):
    """``log(softmax(x))`` along ``dim``, computed stably."""
    dim = _softmax_dim("log_softmax", input.dim(), _stacklevel) if dim is None else dim
    return torch.log_softmax(_cast(input, dtype), dim)


def softshrink(input, lambd: float = 0.5):
    """Shrink ``x`` towards 0 by ``lambd``; 0 inside ``[-lambd, lambd]``."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    refuse_complex(input, "softshrink_check")
    # x * 0 between the bounds: PyTorch keeps the sign of a negative x there
    return torch.where(
        input > lambd, input - lambd, torch.where(input < -lambd, input + lambd, input * 0)
    )


def gumbel_softmax(logits, tau: float = 1.0, hard: bool = False, eps: float = 1e-10, dim: int = -1):
    """A sample of the Gumbel-softmax distribution; with ``hard``, one-hot in the
    forward pass and the soft sample's gradient in the backward pass."""
    gumbels = -torch.empty(logits.shape, dtype=logits.dtype).exponential_().log()
    soft = torch.softmax((logits + gumbels) / tau, dim)
    if not hard:
        return soft
    index = soft.argmax(dim, keepdim=True)
    one_hot = torch.zeros_like(logits).scatter(dim, index, 1.0)
    # NOTE: straight-through: the value of one_hot, the gradient of soft
    return one_hot - soft.detach() + soft


def tanh(input):
    """Hyperbolic tangent."""
    return torch.tanh(input)


def sigmoid(input):
    """``1 / (1 + exp(-x))``."""
    return torch.sigmoid(input)


def hardsigmoid(input, inplace: bool = False):
    """``relu6(x + 3) / 6``."""
    return apply_inplace(_hardsigmoid, input, inplace)


def _hardsigmoid(input):
    refuse_complex(input, "hardsigmoid_cpu")
    return torch.clamp(input + 3, 0, 6) / 6


def silu(input, inplace: bool = False):
    """``x * sigmoid(x)``."""
    return apply_inplace(_silu, input, inplace)


def _silu(input):
    return input * torch.sigmoid(input)


def mish(input, inplace: bool = False):
    """``x * tanh(softplus(x))``."""
    return apply_inplace(_mish, input, inplace)


def _mish(input):
    refuse_complex(input, "mish_cpu")
    return input * torch.tanh(_softplus(input))
