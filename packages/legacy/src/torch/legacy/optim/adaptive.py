"""Methods with a step size per element: ``adagrad``, ``adadelta``, ``rmsprop`` and
``rprop``."""

from __future__ import annotations

import torch

from ._common import config_and_state, with_weight_decay

__all__ = ["adagrad", "adadelta", "rmsprop", "rprop"]


def adagrad(opfunc, x, config=None, state=None):
    """One AdaGrad step: each element's step is divided by the root of the sum of its
    squared gradients (plus ``1e-10``).

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the point (changed in place).
        config (dict, optional): ``learningRate`` (``1e-3``), ``learningRateDecay``
            (``0``), ``weightDecay`` (``0``).
        state (dict, optional): ``evalCounter`` and the sums ``paramVariance``.

    Returns:
        ``(x, [f(x)])``.

    Examples::

        >>> optim.adagrad(lambda x: (float(x @ x), 2 * x), torch.tensor([3.0]),
        ...               {"learningRate": 0.5})[0]
        tensor([2.5000])
    """
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 1e-3)
    lrd = config.get("learningRateDecay", 0)
    nevals = state.setdefault("evalCounter", 0)

    fx, dfdx = opfunc(x)
    dfdx = with_weight_decay(dfdx, x, config)
    clr = lr / (1 + nevals * lrd)
    if "paramVariance" not in state:
        state["paramVariance"] = torch.zeros_like(dfdx)
    state["paramVariance"].addcmul_(dfdx, dfdx)
    state["paramStd"] = state["paramVariance"].sqrt()
    x.addcdiv_(dfdx, state["paramStd"].add(1e-10), value=-clr)
    state["evalCounter"] = nevals + 1
    return x, [fx]


def adadelta(opfunc, x, config=None, state=None):
    """One AdaDelta step (Zeiler 2012): the step is the gradient scaled by
    ``RMS(past steps) / RMS(past gradients)``, with no learning rate.

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the point (changed in place).
        config (dict, optional): ``rho`` (``0.9``), ``eps`` (``1e-6``),
            ``weightDecay`` (``0``).
        state (dict, optional): ``paramVariance``, ``accDelta``, ``evalCounter``.

    Returns:
        ``(x, [f(x)])``.

    Examples::

        >>> x, (fx,) = optim.adadelta(lambda x: (float(x @ x), 2 * x), torch.tensor([1.0]))
        >>> fx, bool(x < 1)
        (1.0, True)
    """
    config, state = config_and_state(config, state)
    rho = config.get("rho", 0.9)
    eps = config.get("eps", 1e-6)
    state.setdefault("evalCounter", 0)

    fx, dfdx = opfunc(x)
    dfdx = with_weight_decay(dfdx, x, config)
    if "paramVariance" not in state:
        state["paramVariance"] = torch.zeros_like(dfdx)
        state["accDelta"] = torch.zeros_like(dfdx)
    variance, acc_delta = state["paramVariance"], state["accDelta"]
    variance.mul_(rho).addcmul_(dfdx, dfdx, value=1 - rho)
    state["paramStd"] = variance.add(eps).sqrt()
    delta = acc_delta.add(eps).sqrt().div_(state["paramStd"]).mul_(dfdx)
    x.sub_(delta)
    acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
    state["delta"] = delta
    state["evalCounter"] += 1
    return x, [fx]


def rmsprop(opfunc, x, config=None, state=None):
    """One RMSprop step: the gradient divided by the root of a leaky mean of squared
    gradients, ``m = alpha m + (1 - alpha) g^2``, ``x -= lr g / (sqrt(m) + epsilon)``.

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the point (changed in place).
        config (dict, optional): ``learningRate`` (``1e-2``), ``alpha`` (``0.99``),
            ``epsilon`` (``1e-8``), ``weightDecay`` (``0``), ``initialMean`` (``0``: the
            first value of ``m``).
        state (dict, optional): ``m`` and ``tmp``.

    Returns:
        ``(x, [f(x)])``.

    Examples::

        >>> quadratic = lambda x: (float(x @ x), 2 * x)
        >>> x, _ = optim.rmsprop(quadratic, torch.tensor([1.0]))
        >>> round(float(x), 4)  # m starts at 0: a large first step
        0.9
        >>> x, _ = optim.rmsprop(quadratic, torch.tensor([1.0]), {"initialMean": 4.0})
        >>> round(float(x), 4)
        0.99
    """
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 1e-2)
    alpha = config.get("alpha", 0.99)
    epsilon = config.get("epsilon", 1e-8)

    fx, dfdx = opfunc(x)
    dfdx = with_weight_decay(dfdx, x, config)
    if "m" not in state:
        state["m"] = torch.full_like(dfdx, config.get("initialMean", 0))
    state["m"].mul_(alpha).addcmul_(dfdx, dfdx, value=1 - alpha)
    state["tmp"] = state["m"].sqrt().add_(epsilon)
    x.addcdiv_(dfdx, state["tmp"], value=-lr)
    return x, [fx]


def rprop(opfunc, x, config=None, state=None):
    """``niter`` steps of resilient backpropagation: each element moves by its own step
    size against the sign of its gradient; the step grows by ``etaplus`` while the sign
    holds and shrinks by ``etaminus`` when it flips (that element then waits one step).

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the point (changed in place).
        config (dict, optional): ``stepsize`` (``0.1``), ``etaplus`` (``1.2``),
            ``etaminus`` (``0.5``), ``stepsizemax`` (``50``), ``stepsizemin``
            (``1e-6``), ``niter`` (``1``).
        state (dict, optional): ``delta`` (the last gradient) and ``stepsize``.

    Returns:
        ``(x, [f(x) before each step])``.

    Examples::

        >>> optim.rprop(lambda x: (float(x @ x), 2 * x), torch.tensor([1.0, -1.0]))[0]
        tensor([ 0.9000, -0.9000])
    """
    config, state = config_and_state(config, state)
    stepsize = config.get("stepsize", 0.1)
    etaplus = config.get("etaplus", 1.2)
    etaminus = config.get("etaminus", 0.5)
    stepsizemax = config.get("stepsizemax", 50)
    stepsizemin = config.get("stepsizemin", 1e-6)
    history = []
    for _ in range(config.get("niter", 1)):
        fx, dfdx = opfunc(x)
        if "delta" not in state:
            state["delta"] = torch.zeros_like(dfdx)
            state["stepsize"] = torch.full_like(dfdx, stepsize)
        agreement = (dfdx * state["delta"]).sign()
        factor = torch.where(
            agreement > 0,
            torch.full_like(dfdx, etaplus),
            torch.where(agreement < 0, torch.full_like(dfdx, etaminus), torch.ones_like(dfdx)),
        )
        state["stepsize"].mul_(factor).clamp_(stepsizemin, stepsizemax)
        # after a sign flip the element does not move, and the next step starts afresh
        grad = dfdx.masked_fill(agreement < 0, 0)
        x.addcmul_(grad.sign(), state["stepsize"], value=-1)
        state["delta"] = grad.clone()
        history.append(fx)
    return x, history
