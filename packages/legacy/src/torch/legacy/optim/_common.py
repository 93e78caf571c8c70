"""What every Lua-style optimizer shares: reading ``config`` and ``state``."""

from __future__ import annotations


def config_and_state(config, state):
    """Lua's convention: ``config`` holds the hyper-parameters, ``state`` what the
    algorithm keeps between calls; without a ``state`` table the ``config`` one is used
    for both."""
    config = {} if config is None else config
    state = config if state is None else state
    return config, state


def with_weight_decay(dfdx, x, config):
    """``dfdx + weightDecay * x`` (or with the per-element ``weightDecays``), without
    changing the caller's gradient tensor."""
    decay = config.get("weightDecay", 0)
    decays = config.get("weightDecays")
    if decay != 0:
        return dfdx.add(x, alpha=decay)
    if decays is not None:
        return dfdx.addcmul(decays, x)
    return dfdx
