"""torch.optim: optimizers that update tensors from their ``.grad``.

Depends on torch-core only: it works on any tensors with gradients, under core's
grad-mode switches. This release provides the :class:`Optimizer` base and :class:`SGD`.
"""

from torch._interface import require_core_api

from ._version import __version__
from .optimizer import Optimizer
from .sgd import SGD

require_core_api(0, 1, "torch-optim")

__all__ = ["Optimizer", "SGD", "__version__"]
