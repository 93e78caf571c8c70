"""torch.legacy.optim: Lua Torch style functional optimizers.

Each algorithm is a function ``x, fx = method(opfunc, x, config, state)``: ``opfunc(x)``
returns ``(f(x), df/dx)``, ``x`` is a flat parameter vector (for a ``torch.legacy.nn``
model, the first result of ``flattenParameters()``) updated in place, ``config`` holds
the hyper-parameters under Lua Torch's names and ``state`` (``config`` when not given)
what the algorithm keeps between calls. ``fx`` is a list of the function values seen.
"""

from .adam import adam, adamax
from .adaptive import adadelta, adagrad, rmsprop, rprop
from .cg import cg
from .lbfgs import lbfgs
from .sgd import asgd, nag, sgd

__all__ = [
    "sgd",
    "nag",
    "asgd",
    "adagrad",
    "adadelta",
    "rmsprop",
    "rprop",
    "adam",
    "adamax",
    "lbfgs",
    "cg",
]
