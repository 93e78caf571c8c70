"""torch.optim: optimizers that update tensors from their ``.grad``, and learning-rate
schedulers (:mod:`torch.optim.lr_scheduler`).

Depends on torch-core only: it works on any tensors with gradients, under core's
grad-mode switches.
"""

from torch._interface import require_core_api

from . import lr_scheduler
from ._version import __version__
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam

require_core_api(0, 1, "torch-optim")

__all__ = [
    "ASGD",
    "Adadelta",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "LBFGS",
    "NAdam",
    "Optimizer",
    "RAdam",
    "RMSprop",
    "Rprop",
    "SGD",
    "SparseAdam",
    "lr_scheduler",
    "__version__",
]
