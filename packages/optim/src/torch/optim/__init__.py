"""torch.optim: optimizers that update tensors from their ``.grad``, and learning-rate
schedulers (:mod:`torch.optim.lr_scheduler`).

Depends on torch-core only: it works on any tensors with gradients, under core's
grad-mode switches.
"""

from torch._interface import require_core_api

# checked before the submodules load: they use the interface's optim kernels (0.5)
require_core_api(0, 7, "torch-optim")

from . import lr_scheduler  # noqa: E402
from ._version import __version__  # noqa: E402
from .adadelta import Adadelta  # noqa: E402
from .adafactor import Adafactor  # noqa: E402
from .adagrad import Adagrad  # noqa: E402
from .adam import Adam  # noqa: E402
from .adamax import Adamax  # noqa: E402
from .adamw import AdamW  # noqa: E402
from .asgd import ASGD  # noqa: E402
from .lbfgs import LBFGS  # noqa: E402
from .nadam import NAdam  # noqa: E402
from .optimizer import Optimizer  # noqa: E402
from .radam import RAdam  # noqa: E402
from .rmsprop import RMSprop  # noqa: E402
from .rprop import Rprop  # noqa: E402
from .sgd import SGD  # noqa: E402
from .sparse_adam import SparseAdam  # noqa: E402

__all__ = [
    "ASGD",
    "Adadelta",
    "Adafactor",
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

# As in PyTorch, the modules of the optimizers are not attributes of the package
# (``torch.optim.sgd`` is a slip for ``torch.optim.SGD``): the lookup fails with a hint.
# (each name was bound by the import of its module above)
del adadelta, adagrad, adam, adamax, adamw, asgd, lbfgs, nadam, optimizer  # noqa: F821
del radam, rmsprop, rprop, sgd, sparse_adam  # noqa: F821

_CLASSES_BY_FOLDED_NAME = {name.lower(): name for name in __all__ if name[:1].isupper()}


def __getattr__(name: str):
    """AttributeError for a missing name; one that spells an optimizer in lower case (or
    names its module, ``sparse_adam``) names the class meant. ``swa_utils`` is imported on
    first use: it needs torch-nn, which ``import torch.optim`` must not."""
    if name == "swa_utils":
        import importlib

        return importlib.import_module(".swa_utils", __name__)
    meant = _CLASSES_BY_FOLDED_NAME.get(name.replace("_", "").lower())
    message = f"module 'torch.optim' has no attribute '{name}'"
    if meant is not None:
        message += f". Did you mean torch.optim.{meant}? (the optimizers are classes)"
    raise AttributeError(message)
