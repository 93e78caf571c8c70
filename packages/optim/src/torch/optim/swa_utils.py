"""Stochastic Weight Averaging and exponential moving averages of a model's weights.

:class:`AveragedModel` keeps a running average of another model's parameters (and
optionally buffers), :class:`SWALR` anneals each group's learning rate to a constant SWA
rate, and :func:`update_bn` recomputes batch-norm statistics for the averaged weights.

This is the one module of torch-optim that needs torch-nn (``AveragedModel`` is an
``nn.Module``): it imports ``torch.nn`` itself, so ``import torch.optim`` works without
torch-nn, and importing this module without it says which distribution to install.
"""

from __future__ import annotations

import itertools
import math
from copy import deepcopy

import torch

try:
    from torch.nn import BatchNorm1d, BatchNorm2d, BatchNorm3d, Module, SyncBatchNorm
except ImportError as missing:  # torch-nn is not installed
    raise ModuleNotFoundError(
        "torch.optim.swa_utils needs torch.nn (AveragedModel is an nn.Module): install the "
        "torch-nn distribution (pip install torch-nn)",
        name="torch.nn",
    ) from missing

from .lr_scheduler import LRScheduler, _per_group

# every batch-norm layer of torch-nn (the lazy ones subclass these) through public names
_BATCH_NORMS = (BatchNorm1d, BatchNorm2d, BatchNorm3d, SyncBatchNorm)

__all__ = [
    "AveragedModel",
    "update_bn",
    "SWALR",
    "get_ema_multi_avg_fn",
    "get_swa_multi_avg_fn",
    "get_ema_avg_fn",
    "get_swa_avg_fn",
]


def _check_decay(decay) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        )


def _is_float_or_complex(t) -> bool:
    return torch.is_floating_point(t) or torch.is_complex(t)


def get_ema_multi_avg_fn(decay=0.999):
    """An update ``(averaged_list, current_list, num_averaged)`` that moves each averaged
    tensor towards the current one: ``avg = decay * avg + (1 - decay) * current``."""
    _check_decay(decay)

    @torch.no_grad()
    def ema_update(ema_param_list, current_param_list, _num_averaged):
        if _is_float_or_complex(ema_param_list[0]):
            for ema, current in zip(ema_param_list, current_param_list):
                ema.lerp_(current, 1 - decay)
        else:  # integer tensors cannot lerp
            for ema, current in zip(ema_param_list, current_param_list):
                ema.copy_(ema * decay + current * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """An update ``(averaged_list, current_list, num_averaged)`` keeping the equal-weight
    mean of the ``num_averaged + 1`` models seen."""

    @torch.no_grad()
    def swa_update(averaged_param_list, current_param_list, num_averaged):
        if _is_float_or_complex(averaged_param_list[0]):
            for avg, current in zip(averaged_param_list, current_param_list):
                avg.lerp_(current, 1 / (num_averaged + 1))
            return
        for avg, current in zip(averaged_param_list, current_param_list):
            step = current - avg
            if isinstance(num_averaged, torch.Tensor):
                avg.addcdiv_(step, num_averaged + 1)
            else:
                avg.add_(step, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    """A per-tensor update returning ``decay * averaged + (1 - decay) * current``."""
    _check_decay(decay)

    @torch.no_grad()
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """A per-tensor update returning the running mean after one more model:
    ``averaged + (current - averaged) / (num_averaged + 1)``."""

    @torch.no_grad()
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A deep copy of ``model`` whose parameters hold an average of the weights passed to
    :meth:`update_parameters` (SWA's equal-weight mean by default).

    Args:
        model (Module): the model to average.
        device (torch.device, optional): where to keep the copy. Default: ``model``'s.
        avg_fn (callable, optional): per-tensor update ``(averaged, current,
            num_averaged) -> new averaged``.
        multi_avg_fn (callable, optional): in-place update over lists of tensors
            ``(averaged_list, current_list, num_averaged)``; only one of the two may be
            given.
        use_buffers (bool): average the buffers too (else they are copied from ``model``
            at each update). Default: ``False``.

    Examples::

        >>> from torch.optim.swa_utils import AveragedModel
        >>> net = torch.nn.Linear(1, 1, bias=False)
        >>> swa = AveragedModel(net)
        >>> for value in (1.0, 2.0, 6.0):
        ...     with torch.no_grad():
        ...         _ = net.weight.fill_(value)
        ...     swa.update_parameters(net)
        >>> swa.module.weight.item(), swa.n_averaged.item()
        (3.0, 3)
    """

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", torch.tensor(0, dtype=torch.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        """Run the averaged copy."""
        return self.module(*args, **kwargs)

    def _averaged_tensors(self, model):
        """Pairs (ours, model's) of the tensors that are averaged."""
        if self.use_buffers:
            ours = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            ours, theirs = self.parameters(), model.parameters()
        return [(a.detach(), b.detach().to(a.device)) for a, b in zip(ours, theirs)]

    def update_parameters(self, model) -> None:
        """Fold ``model``'s current weights into the average (the first call copies
        them)."""
        pairs = self._averaged_tensors(model)
        if bool(self.n_averaged == 0):
            for averaged, current in pairs:
                averaged.copy_(current)
        elif self.multi_avg_fn is not None or self.avg_fn is None:
            self._update_grouped(pairs)
        else:
            for averaged, current in pairs:
                n_averaged = self.n_averaged.to(averaged.device)
                averaged.copy_(self.avg_fn(averaged, current, n_averaged))
        if not self.use_buffers:  # buffers follow the source model
            for ours, theirs in zip(self.module.buffers(), model.buffers()):
                ours.detach().copy_(theirs.detach().to(ours.device))
        self.n_averaged += 1

    @torch.no_grad()
    def _update_grouped(self, pairs) -> None:
        # the list updates see tensors of one device and dtype at a time, as in PyTorch
        groups: dict = {}
        for averaged, current in pairs:
            groups.setdefault((averaged.device, averaged.dtype), []).append((averaged, current))
        for (device, _), members in groups.items():
            averaged_list = [a for a, _ in members]
            current_list = [c for _, c in members]
            n_averaged = self.n_averaged.to(device)
            if self.multi_avg_fn is not None:
                self.multi_avg_fn(averaged_list, current_list, n_averaged)
            else:  # CPU: PyTorch's per-tensor SWA mean
                swa = get_swa_avg_fn()
                for averaged, current in members:
                    averaged.copy_(swa(averaged, current, n_averaged))


@torch.no_grad()
def update_bn(loader, model, device=None) -> None:
    """Recompute the running statistics of every batch-norm layer of ``model`` as the
    plain mean over one pass of ``loader`` (batches, or tuples/lists whose first item is
    the input), in training mode; ``model``'s mode and momenta are restored.

    Examples::

        >>> from torch.optim.swa_utils import update_bn
        >>> net = torch.nn.BatchNorm1d(1)
        >>> update_bn([torch.tensor([[1.0], [3.0]]), torch.tensor([[5.0], [7.0]])], net)
        >>> net.running_mean
        tensor([4.])
    """
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BATCH_NORMS):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None  # cumulative average over the batches
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each parameter group's learning rate from its current value to ``swa_lr``
    over ``anneal_epochs`` steps (``"cos"`` or ``"linear"``), then keeps it there.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        swa_lr (float or list): the SWA learning rate (one per group, or for all).
        anneal_epochs (int): steps of the annealing. Default: 10.
        anneal_strategy (str): ``"cos"`` or ``"linear"``. Default: ``"cos"``.
        last_epoch (int): index of the last epoch. Default: -1.

    Examples::

        >>> from torch.optim.swa_utils import SWALR
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = SWALR(opt, swa_lr=0.1, anneal_epochs=2, anneal_strategy="linear")
        >>> for _ in range(2):
        ...     opt.step()
        ...     sched.step()
        ...     print(round(sched.get_last_lr()[0], 4))
        0.55
        0.1
    """

    def __init__(
        self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1
    ) -> None:
        swa_lrs = _per_group("swa_lr", optimizer, swa_lr)
        swa_lrs = [v.clone() if isinstance(v, torch.Tensor) else v for v in swa_lrs]
        for value, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = value
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        # the rate before annealing that, at weight alpha, gives the current rate
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        """The next rates: the annealing weight of this step applied to each group's
        pre-annealing rate (recovered from the current one)."""
        self._warn_outside_step()
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        span = max(1, self.anneal_epochs)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / span)))
        groups = self.optimizer.param_groups
        start_lrs = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in groups]
        alpha = self.anneal_func(max(0, min(1, step / span)))
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(groups, start_lrs)]

    def _set_anneal_func(self, anneal_strategy) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict:
        """Every attribute except the optimizer and the annealing function."""
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore the attributes saved by :meth:`state_dict`."""
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
