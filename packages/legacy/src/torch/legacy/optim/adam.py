"""Adam and its infinity-norm variant AdaMax (Kingma and Ba, 2014)."""

from __future__ import annotations

import math

import torch

from ._common import config_and_state, with_weight_decay

__all__ = ["adam", "adamax"]


def adam(opfunc, x, config=None, state=None):
    """One Adam step, in Lua Torch's arithmetic: ``epsilon`` is added to ``sqrt(v)``
    before the bias corrections fold into the step size
    ``lr * sqrt(1 - beta2^t) / (1 - beta1^t)``.

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the point (changed in place).
        config (dict, optional): ``learningRate`` (``1e-3``), ``learningRateDecay``
            (``0``), ``beta1`` (``0.9``), ``beta2`` (``0.999``), ``epsilon`` (``1e-8``),
            ``weightDecay`` (``0``).
        state (dict, optional): ``t``, the moments ``m`` and ``v``, and ``denom``.

    Returns:
        ``(x, [f(x)])``.

    Examples::

        >>> x, _ = optim.adam(lambda x: (float(x @ x), 2 * x), torch.tensor([1.0]),
        ...                   {"learningRate": 0.1})
        >>> round(float(x), 4)
        0.9
    """
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 1e-3)
    lrd = config.get("learningRateDecay", 0)
    beta1 = config.get("beta1", 0.9)
    beta2 = config.get("beta2", 0.999)
    epsilon = config.get("epsilon", 1e-8)

    fx, dfdx = opfunc(x)
    dfdx = with_weight_decay(dfdx, x, config)
    if "m" not in state:
        state["t"] = 0
        state["m"] = torch.zeros_like(dfdx)
        state["v"] = torch.zeros_like(dfdx)
    clr = lr / (1 + state["t"] * lrd)
    state["t"] += 1
    t = state["t"]
    state["m"].mul_(beta1).add_(dfdx, alpha=1 - beta1)
    state["v"].mul_(beta2).addcmul_(dfdx, dfdx, value=1 - beta2)
    state["denom"] = state["v"].sqrt().add_(epsilon)
    step_size = clr * math.sqrt(1 - beta2**t) / (1 - beta1**t)
    x.addcdiv_(state["m"], state["denom"], value=-step_size)
    return x, [fx]


def adamax(opfunc, x, config=None, state=None):
    """One AdaMax step: Adam with the second moment replaced by a decaying maximum of
    ``|g|``, ``u = max(beta2 u, |g| + epsilon)``, ``x -= lr / (1 - beta1^t) * m / u``.

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the point (changed in place).
        config (dict, optional): ``learningRate`` (``2e-3``), ``beta1`` (``0.9``),
            ``beta2`` (``0.999``), ``epsilon`` (``1e-38``).
        state (dict, optional): ``t``, ``m`` and ``u``.

    Returns:
        ``(x, [f(x)])``.

    Examples::

        >>> steep = lambda x: (float(100 * x @ x), 200 * x)
        >>> x, _ = optim.adamax(steep, torch.tensor([1.0]))
        >>> round(float(x), 4)  # the first step is learningRate, whatever the gradient's size
        0.998
    """
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 2e-3)
    beta1 = config.get("beta1", 0.9)
    beta2 = config.get("beta2", 0.999)
    epsilon = config.get("epsilon", 1e-38)

    fx, dfdx = opfunc(x)
    if "m" not in state:
        state["t"] = 0
        state["m"] = torch.zeros_like(dfdx)
        state["u"] = torch.zeros_like(dfdx)
    state["t"] += 1
    state["m"].mul_(beta1).add_(dfdx, alpha=1 - beta1)
    state["u"] = torch.maximum(state["u"].mul(beta2), dfdx.abs().add(epsilon))
    step_size = lr / (1 - beta1 ** state["t"])
    x.addcdiv_(state["m"], state["u"], value=-step_size)
    return x, [fx]
