"""Training on uneven inputs: ranks that run out of data keep answering the
collectives of the ranks still training, until every rank is done.

:class:`Join` is the context manager; DistributedDataParallel is its
:class:`Joinable` (``ddp.join()`` gives the usual form).
"""

from __future__ import annotations

import torch

from .. import _collectives
from ..distributed_c10d import _resolve

__all__ = ["Join", "Joinable"]


class Joinable:
    """What :class:`Join` needs of a participant: ``_join_shadow()`` runs the collectives
    of one training iteration with neutral values, ``_join_group`` is its group."""

    def _join_shadow(self) -> None:
        raise NotImplementedError

    _join_group = None


class Join:
    """Context manager for uneven inputs across ranks.

    Inside it, every iteration of a rank that still has inputs announces itself with
    an all-reduce of 1 (``notify_join_context``, called by the participants' forward);
    a rank that left the loop all-reduces 0 and shadows that iteration's collectives,
    until the sum is 0 (everyone has left).

    Args:
        joinables (list): the participants (e.g. the DDP model).
        enable (bool): False makes it a no-op. Default: True.
        throw_on_early_termination (bool): raise on every rank as soon as one runs
            out of inputs, instead of shadowing. Default: False.
    """

    _active: Join | None = None

    def __init__(self, joinables, enable: bool = True, throw_on_early_termination: bool = False):
        self.joinables = list(joinables)
        self.enable = enable
        self.throw = throw_on_early_termination

    def __enter__(self):
        if self.enable:
            Join._active = self
        return self

    def _group(self):
        return self.joinables[0]._join_group if self.joinables else None

    @staticmethod
    def notify_join_context(joinable) -> None:
        """Called by a participant at the start of each iteration inside the context."""
        join = Join._active
        if join is None or not join.enable:
            return
        flag = torch.ones(1, device=_resolve(join._group())._internal_device())
        _collectives.all_reduce(flag, group=join._group())
        world = joinable._join_world_size()
        if join.throw and int(flag.item()) < world:
            raise RuntimeError("Detected at least one rank that exhausted inputs. "
                               "Throwing across all ranks.")  # fmt: skip

    def __exit__(self, kind, value, traceback):
        Join._active = None
        if not self.enable or kind is not None:
            return False
        while True:
            flag = torch.zeros(1, device=_resolve(self._group())._internal_device())
            _collectives.all_reduce(flag, group=self._group())
            if int(flag.item()) == 0:
                return False
            if self.throw:
                raise RuntimeError("Detected at least one rank that exhausted inputs. "
                                   "Throwing across all ranks.")  # fmt: skip
            for joinable in self.joinables:
                joinable._join_shadow()
