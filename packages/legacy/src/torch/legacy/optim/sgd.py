"""First-order methods with a learning rate: ``sgd``, ``nag`` and ``asgd``."""

from __future__ import annotations

from ._common import config_and_state, with_weight_decay

__all__ = ["sgd", "nag", "asgd"]


def _step(x, direction, clr, rates):
    """``x -= clr * direction``, scaled per element by ``rates`` when given."""
    if rates is None:
        x.add_(direction, alpha=-clr)
    else:
        x.addcmul_(rates, direction, value=-clr)


def sgd(opfunc, x, config=None, state=None):
    """One step of stochastic gradient descent on ``x`` (changed in place).

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the point, a flat parameter vector.
        config (dict, optional): ``learningRate`` (``1e-3``), ``learningRateDecay``
            (``0``: the rate is ``learningRate / (1 + n * learningRateDecay)`` after n
            calls), ``weightDecay`` (``0``) or per-element ``weightDecays``,
            ``momentum`` (``0``), ``dampening`` (defaults to ``momentum``), ``nesterov``
            (``False``), per-element ``learningRates``.
        state (dict, optional): what is kept between calls (``evalCounter``, the
            momentum buffer ``dfdx``); ``config`` when not given.

    Returns:
        ``(x, [f(x)])``: the updated ``x`` and the value before the step.

    Examples::

        >>> x = torch.tensor([1.0, -2.0])
        >>> quadratic = lambda x: (float((x * x).sum()), 2 * x)
        >>> optim.sgd(quadratic, x, {"learningRate": 0.25})
        (tensor([ 0.5000, -1.0000]), [5.0])
    """
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 1e-3)
    lrd = config.get("learningRateDecay", 0)
    momentum = config.get("momentum", 0)
    dampening = config.get("dampening", momentum)
    nesterov = config.get("nesterov", False)
    if nesterov and (momentum <= 0 or dampening != 0):
        raise ValueError("Nesterov momentum requires a momentum and zero dampening")
    nevals = state.setdefault("evalCounter", 0)

    fx, dfdx = opfunc(x)
    dfdx = with_weight_decay(dfdx, x, config)
    if momentum != 0:
        if "dfdx" not in state:
            state["dfdx"] = dfdx.clone()
        else:
            state["dfdx"].mul_(momentum).add_(dfdx, alpha=1 - dampening)
        dfdx = dfdx.add(state["dfdx"], alpha=momentum) if nesterov else state["dfdx"]
    _step(x, dfdx, lr / (1 + nevals * lrd), config.get("learningRates"))
    state["evalCounter"] = nevals + 1
    return x, [fx]


def nag(opfunc, x, config=None, state=None):
    """One step of Nesterov's accelerated gradient in Sutskever et al.'s form (ICML 2013):
    the gradient is taken after moving along the momentum, ``v = m v - lr g(x + m v)``
    and ``x = x + v``.

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the point (changed in place).
        config (dict, optional): ``learningRate`` (``1e-3``), ``learningRateDecay``
            (``0``), ``weightDecay`` (``0``), ``momentum`` (``0.9``, must be positive),
            per-element ``learningRates``.
        state (dict, optional): ``evalCounter`` and the velocity ``dfdx``.

    Returns:
        ``(x, [f])`` with ``f`` the value at the look-ahead point.

    Examples::

        >>> x, state = torch.tensor([1.0]), {}
        >>> for _ in range(200):
        ...     _ = optim.nag(lambda x: (float(x @ x), 2 * x), x, {"learningRate": 0.1}, state)
        >>> abs(float(x)) < 1e-6
        True
    """
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 1e-3)
    lrd = config.get("learningRateDecay", 0)
    momentum = config.get("momentum", 0.9)
    if momentum <= 0:
        raise ValueError("Momentum must be positive for Nesterov Accelerated Gradient")
    nevals = state.setdefault("evalCounter", 0)

    velocity = state.get("dfdx")
    if velocity is not None:
        x.add_(velocity, alpha=momentum)  # look ahead along the momentum
    fx, dfdx = opfunc(x)
    dfdx = with_weight_decay(dfdx, x, config)
    clr = lr / (1 + nevals * lrd)
    rates = config.get("learningRates")
    if velocity is None:
        velocity = state["dfdx"] = dfdx.new_zeros(dfdx.shape)
    else:
        velocity.mul_(momentum)
    step = dfdx if rates is None else rates * dfdx
    x.add_(step, alpha=-clr)
    velocity.add_(step, alpha=-clr)
    state["evalCounter"] = nevals + 1
    return x, [fx]


def asgd(opfunc, x, config=None, state=None):
    """One step of averaged SGD: ``x = (1 - lambda eta_t) x - eta_t df/dx``, and the
    average ``ax`` follows ``x`` with weight ``mu_t`` once ``t > t0``, where
    ``eta_t = eta0 / (1 + lambda eta0 t)^alpha`` and ``mu_t = 1 / max(1, t - t0)``.

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the point (changed in place).
        config (dict, optional): ``eta0`` (``1e-4``), ``lambda`` (``1e-4``), ``alpha``
            (``0.75``), ``t0`` (``1e6``).
        state (dict, optional): ``eta_t``, ``mu_t``, ``t`` and the average ``ax``.

    Returns:
        ``(x, [f(x)], ax)``.

    Examples::

        >>> x, fx, ax = optim.asgd(lambda x: (float(x @ x), 2 * x), torch.ones(2))
        >>> ax is not x and bool((ax == x).all())
        True
    """
    config, state = config_and_state(config, state)
    eta0 = config.get("eta0", 1e-4)
    decay = config.get("lambda", 1e-4)
    alpha = config.get("alpha", 0.75)
    t0 = config.get("t0", 1e6)
    eta = state.setdefault("eta_t", eta0)
    mu = state.setdefault("mu_t", 1)
    t = state.setdefault("t", 0)

    fx, dfdx = opfunc(x)
    x.mul_(1 - decay * eta)
    x.add_(dfdx, alpha=-eta)
    if mu != 1:
        state["ax"].add_(x.sub(state["ax"]), alpha=mu)
    else:
        state["ax"] = x.clone()
    t += 1
    state["t"] = t
    state["eta_t"] = eta0 / (1 + decay * eta0 * t) ** alpha
    state["mu_t"] = 1 / max(1, t - t0)
    return x, [fx], state["ax"]
