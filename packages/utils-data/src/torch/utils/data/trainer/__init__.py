"""The training loop of early PyTorch (``torch.utils.trainer`` in releases 0.1-0.3):
a :class:`Trainer` that runs a model over batches and calls plugins on a schedule.

It lives here rather than in ``torch.utils.trainer`` because this distribution owns
only the ``torch.utils.data`` namespace; the old import paths map one to one:
``torch.utils.trainer.Trainer`` -> ``torch.utils.data.trainer.Trainer`` (also
``torch.utils.data.Trainer``), ``torch.utils.trainer.plugins`` ->
``torch.utils.data.trainer.plugins``.
"""

from . import plugins
from .trainer import Trainer

__all__ = ["Trainer", "plugins"]
