"""``torch.utils.trainer``: the import path of the Trainer in PyTorch's alpha releases
(0.1-0.3), kept so that their scripts run unchanged. The code lives in
:mod:`torch.utils.data.trainer`; this package re-exports it, and the old module paths
(``torch.utils.trainer.trainer``, ``torch.utils.trainer.plugins.monitor``, ...) name the
same module objects.

Examples::

    >>> from torch.utils.trainer import Trainer
    >>> from torch.utils.trainer.plugins import LossMonitor
    >>> Trainer.__module__, LossMonitor.__module__
    ('torch.utils.data.trainer.trainer', 'torch.utils.data.trainer.plugins.loss')
"""

import sys as _sys

from torch.utils.data.trainer import plugins, trainer
from torch.utils.data.trainer.plugins import (
    accuracy,
    logger,
    loss,
    monitor,
    plugin,
    progress,
    time,
)
from torch.utils.data.trainer.trainer import Trainer

__all__ = ["Trainer", "plugins"]

# the old dotted paths resolve to the modules themselves (one module object per path pair,
# so isinstance checks and monkeypatching see the same classes)
_sys.modules[__name__ + ".trainer"] = trainer
_sys.modules[__name__ + ".plugins"] = plugins
for _module in (accuracy, logger, loss, monitor, plugin, progress, time):
    _sys.modules[f"{__name__}.plugins.{_module.__name__.rsplit('.', 1)[1]}"] = _module
del _module, accuracy, logger, loss, monitor, plugin, progress, time
