"""Learning-rate schedulers: each adjusts ``group["lr"]`` of an optimizer's parameter
groups once per ``scheduler.step()`` (call it after ``optimizer.step()``)."""

from __future__ import annotations

import math
import types
import warnings
import weakref
from bisect import bisect_right
from collections import Counter
from functools import partial, wraps

from .optimizer import Optimizer

__all__ = [
    "LRScheduler",
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ConstantLR",
    "LinearLR",
    "ExponentialLR",
    "PolynomialLR",
    "CosineAnnealingLR",
    "CosineAnnealingWarmRestarts",
    "CyclicLR",
    "OneCycleLR",
    "ReduceLROnPlateau",
    "SequentialLR",
    "ChainedScheduler",
]

EPOCH_DEPRECATION_WARNING = _EPOCH_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated "
    "where possible. Please use `scheduler.step()` to step the scheduler. During the "
    "deprecation, if epoch is different from None, the closed form is used instead of "
    "the new chainable form, where available. Please open an issue if you are unable to "
    "replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose."
)
_ADJUST_DOCS = (
    " See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)
_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 "
    "and later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
    "value of the learning rate schedule." + _ADJUST_DOCS
)
_OVERRIDDEN_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    "`lr_scheduler.step()`." + _ADJUST_DOCS
)


def _lrs(optimizer) -> list:
    return [group["lr"] for group in optimizer.param_groups]


def _scaled(optimizer, factor) -> list:
    """Every group's current rate times ``factor`` (the chainable schedulers' step)."""
    return [group["lr"] * factor for group in optimizer.param_groups]


def _per_group(name: str, optimizer, value) -> list:
    """``value`` repeated for every group, or checked to have one entry per group."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. {name} has "
                f"{len(value)} values, param_groups has {len(optimizer.param_groups)}."
            )
        return list(value)
    return [value] * len(optimizer.param_groups)


def _check_optimizer(optimizer) -> None:
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")


def _track_step_calls(optimizer) -> None:
    """Wrap ``optimizer.step`` (once) so that it records that it was called."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    method = optimizer.step.__func__
    ref = weakref.ref(optimizer)

    @wraps(method)
    def wrapper(*args, **kwargs):
        opt = ref()
        opt._opt_called = True
        return method(opt, *args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper


class LRScheduler:
    """Base of the schedulers: subclasses define :meth:`get_lr` (the chainable rule,
    from the current rates) and optionally ``_get_closed_form_lr`` (from the epoch).

    Args:
        optimizer (Optimizer): the optimizer whose rates are scheduled.
        last_epoch (int): index of the last epoch, ``-1`` to start afresh (resuming
            needs ``initial_lr`` in every group). Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        >>> for _ in range(4):
        ...     opt.step()
        ...     sched.step()
        >>> sched.get_last_lr()
        [0.25]
    """

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer, last_epoch: int = -1) -> None:
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when "
                        "resuming scheduler with last_epoch >= 0.\n"
                        "This typically happens when:\n"
                        "1. You're trying to resume training from a checkpoint but haven't "
                        "properly loaded the optimizer state\n"
                        "2. You're using last_epoch >= 0 for a fresh training run "
                        "(not recommended)"
                    )
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _track_step_calls(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict:
        """Every attribute except the optimizer."""
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore the attributes saved by :meth:`state_dict`."""
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list:
        """The rates set by the last :meth:`step`, one per parameter group."""
        return self._last_lr

    def get_lr(self) -> list:
        """The next rates (called by :meth:`step`; use :meth:`get_last_lr` to read)."""
        raise NotImplementedError

    def _warn_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn(
                "To get the last learning rate computed by the scheduler, please use "
                "`get_last_lr()`.",
                UserWarning,
                stacklevel=3,
            )

    def step(self, epoch=None) -> None:
        """Advance one epoch (``epoch``, deprecated, jumps to that epoch instead)."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(_OVERRIDDEN_WARNING, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(_ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(_EPOCH_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None) -> None:
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed = getattr(self, "_get_closed_form_lr", None)
                values = closed() if closed is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = _lrs(self.optimizer)


_LRScheduler = LRScheduler


class _LambdaState:
    """state_dict support for schedulers holding user functions: only callable objects'
    attributes are saved (plain functions and lambdas cannot be)."""

    def state_dict(self) -> dict:
        return _state_with_parts(self, "lr_lambdas", _function_attributes)

    def load_state_dict(self, state_dict: dict) -> None:
        _load_state_with_parts(self, state_dict, "lr_lambdas", _restore_function_attributes)


def _function_attributes(fn):
    return None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()


def _restore_function_attributes(fn, attributes) -> None:
    if attributes is not None:
        fn.__dict__.update(attributes)


def _state_with_parts(scheduler, parts: str, save) -> dict:
    """The scheduler's attributes but its optimizer, the list attribute ``parts`` saved
    item by item with ``save``."""
    state = {k: v for k, v in scheduler.__dict__.items() if k not in ("optimizer", parts)}
    state[parts] = [save(part) for part in getattr(scheduler, parts)]
    return state


def _load_state_with_parts(scheduler, state_dict: dict, parts: str, load) -> None:
    """Restore what :func:`_state_with_parts` saved; ``load(part, saved)`` restores each
    item of ``parts`` in place."""
    state_dict = dict(state_dict)
    saved = state_dict.pop(parts)
    scheduler.__dict__.update(state_dict)
    for part, data in zip(getattr(scheduler, parts), saved):
        load(part, data)


def _lambdas(optimizer, lr_lambda) -> list:
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(
            f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}"
        )
    return list(lr_lambda)


class LambdaLR(_LambdaState, LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)``.

    Args:
        optimizer (Optimizer): the optimizer.
        lr_lambda (callable or list): a function of the epoch, or one per group.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 0.5**epoch)
        >>> opt.step(); sched.step(); sched.get_last_lr()
        [0.5]
    """

    def __init__(self, optimizer, lr_lambda, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        return [base * fn(self.last_epoch) for fn, base in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LambdaState, LRScheduler):
    """``lr *= lr_lambda(epoch)`` at every step after the first.

    Args:
        optimizer (Optimizer): the optimizer.
        lr_lambda (callable or list): the factor as a function of the epoch.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda epoch: 0.5)
        >>> opt.step(); sched.step(); sched.get_last_lr()
        [0.5]
    """

    def __init__(self, optimizer, lr_lambda, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self._is_initial:
            return _lrs(self.optimizer)
        groups = self.optimizer.param_groups
        return [g["lr"] * fn(self.last_epoch) for fn, g in zip(self.lr_lambdas, groups)]


class StepLR(LRScheduler):
    """Multiply the rate by ``gamma`` every ``step_size`` epochs.

    Args:
        optimizer (Optimizer): the optimizer.
        step_size (int): epochs between decays.
        gamma (float): decay factor. Default: ``0.1``.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
        >>> opt.step(); sched.step(); sched.get_last_lr()
        [0.5]
    """

    def __init__(self, optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _lrs(self.optimizer)
        return _scaled(self.optimizer, self.gamma)

    def _get_closed_form_lr(self) -> list:
        return [b * self.gamma ** (self.last_epoch // self.step_size) for b in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the rate by ``gamma`` at each milestone epoch.

    Args:
        optimizer (Optimizer): the optimizer.
        milestones (list): epoch indices (a repeated one decays repeatedly).
        gamma (float): decay factor. Default: ``0.1``.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[1], gamma=0.5)
        >>> opt.step(); sched.step(); sched.get_last_lr()
        [0.5]
    """

    def __init__(self, optimizer, milestones, gamma: float = 0.1, last_epoch: int = -1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch not in self.milestones:
            return _lrs(self.optimizer)
        factor = self.gamma ** self.milestones[self.last_epoch]
        return _scaled(self.optimizer, factor)

    def _get_closed_form_lr(self) -> list:
        milestones = sorted(self.milestones.elements())
        count = bisect_right(milestones, self.last_epoch)
        return [b * self.gamma**count for b in self.base_lrs]


class ConstantLR(LRScheduler):
    """Multiply the rate by ``factor`` until epoch ``total_iters``, then restore it.

    Args:
        optimizer (Optimizer): the optimizer.
        factor (float): the multiplier, in (0, 1]. Default: ``1/3``.
        total_iters (int): epochs at the reduced rate. Default: ``5``.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=1)
        >>> sched.get_last_lr()
        [0.5]
    """

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch == 0:
            return _scaled(self.optimizer, self.factor)
        if self.last_epoch != self.total_iters:
            return _lrs(self.optimizer)
        return _scaled(self.optimizer, 1.0 / self.factor)

    def _get_closed_form_lr(self) -> list:
        done = self.last_epoch >= self.total_iters
        return [b * (self.factor + done * (1 - self.factor)) for b in self.base_lrs]


class LinearLR(LRScheduler):
    """Change the rate's multiplier linearly from ``start_factor`` to ``end_factor`` over
    ``total_iters`` epochs.

    Args:
        optimizer (Optimizer): the optimizer.
        start_factor (float): the first multiplier, in (0, 1]. Default: ``1/3``.
        end_factor (float): the last multiplier, in [0, 1]. Default: ``1.0``.
        total_iters (int): epochs of the ramp. Default: ``5``.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=2)
        >>> sched.get_last_lr()
        [0.5]
    """

    def __init__(
        self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1
    ):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or "
                "equal to 1."
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch == 0:
            return _scaled(self.optimizer, self.start_factor)
        if self._is_initial or self.last_epoch > self.total_iters:
            return _lrs(self.optimizer)
        span = self.end_factor - self.start_factor
        ratio = 1.0 + span / (self.total_iters * self.start_factor + (self.last_epoch - 1) * span)
        return _scaled(self.optimizer, ratio)

    def _get_closed_form_lr(self) -> list:
        span = self.end_factor - self.start_factor
        done = min(self.total_iters, self.last_epoch)
        return [b * (self.start_factor + span * done / self.total_iters) for b in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the rate by ``gamma`` every epoch.

    Args:
        optimizer (Optimizer): the optimizer.
        gamma (float): decay factor.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> opt.step(); sched.step(); sched.get_last_lr()
        [0.5]
    """

    def __init__(self, optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self._is_initial:
            return _lrs(self.optimizer)
        return _scaled(self.optimizer, self.gamma)

    def _get_closed_form_lr(self) -> list:
        return [b * self.gamma**self.last_epoch for b in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the rate to zero over ``total_iters`` epochs as ``(1 - t / total) ** power``.

    Args:
        optimizer (Optimizer): the optimizer.
        total_iters (int): epochs of the decay. Default: ``5``.
        power (float): the polynomial's power. Default: ``1.0``.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=2)
        >>> opt.step(); sched.step(); sched.get_last_lr()
        [0.5]
    """

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self._is_initial or self.last_epoch > self.total_iters:
            return _lrs(self.optimizer)
        now = 1.0 - self.last_epoch / self.total_iters
        before = 1.0 - (self.last_epoch - 1) / self.total_iters
        factor = (now / before) ** self.power
        return _scaled(self.optimizer, factor)

    def _get_closed_form_lr(self) -> list:
        left = 1.0 - min(self.total_iters, self.last_epoch) / self.total_iters
        return [b * left**self.power for b in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Anneal the rate from its initial value to ``eta_min`` along half a cosine period
    of ``T_max`` epochs (chainable form: it follows outside changes of the rate).

    Args:
        optimizer (Optimizer): the optimizer.
        T_max (int): epochs of half a period.
        eta_min (float): the lowest rate. Default: ``0``.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=2)
        >>> opt.step(); sched.step(); [round(lr, 6) for lr in sched.get_last_lr()]
        [0.5]
    """

    def __init__(self, optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1):  # noqa: N803
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        groups = self.optimizer.param_groups
        t, period, low = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return _lrs(self.optimizer)
        if self._step_count == 1 and t > 0:
            return [
                low + (b - low) * (1 + math.cos(t * math.pi / period)) / 2 for b in self.base_lrs
            ]
        if (t - 1 - period) % (2 * period) == 0:
            return [
                g["lr"] + (b - low) * (1 - math.cos(math.pi / period)) / 2
                for b, g in zip(self.base_lrs, groups)
            ]
        ratio = (1 + math.cos(math.pi * t / period)) / (1 + math.cos(math.pi * (t - 1) / period))
        return [ratio * (g["lr"] - low) + low for g in groups]

    def _get_closed_form_lr(self) -> list:
        t, low = self.last_epoch, self.eta_min
        return [
            low + (b - low) * (1 + math.cos(math.pi * t / self.T_max)) / 2 for b in self.base_lrs
        ]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every ``T_i`` epochs, the period growing by ``T_mult``
    after each restart (SGDR).

    Args:
        optimizer (Optimizer): the optimizer.
        T_0 (int): epochs of the first period.
        T_mult (int): growth factor of the period. Default: ``1``.
        eta_min (float): the lowest rate. Default: ``0``.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2)
        >>> lrs = []
        >>> for _ in range(3):
        ...     opt.step(); sched.step(); lrs.append(round(sched.get_last_lr()[0], 6))
        >>> lrs
        [0.5, 1.0, 0.5]
    """

    def __init__(self, optimizer, T_0: int, T_mult: int = 1, eta_min=0.0, last_epoch=-1):  # noqa: N803
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(
                f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}"
            )
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        phase = (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
        return [self.eta_min + (b - self.eta_min) * phase for b in self.base_lrs]

    def step(self, epoch=None) -> None:
        """Advance one epoch, or jump to ``epoch`` (fractional epochs allowed)."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            self._jump(epoch)
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = _lrs(self.optimizer)

    def _jump(self, epoch) -> None:
        if epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        if epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult**n


def _set_momentum(group, use_beta1: bool, value) -> None:
    if use_beta1:
        group["betas"] = (value, *group["betas"][1:])
    else:
        group["momentum"] = value


def _init_momentum(scheduler, optimizer, base_momentum, max_momentum, last_epoch):
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError(
            "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
        )
    scheduler.use_beta1 = "betas" in optimizer.defaults
    bases = _per_group("base_momentum", optimizer, base_momentum)
    tops = _per_group("max_momentum", optimizer, max_momentum)
    if last_epoch == -1:
        for top, base, group in zip(tops, bases, optimizer.param_groups):
            _set_momentum(group, scheduler.use_beta1, top)
            group["max_momentum"] = top
            group["base_momentum"] = base
    return bases, tops


class CyclicLR(LRScheduler):
    """Cycle the rate between ``base_lr`` and ``max_lr`` (triangular waves, optionally
    shrinking), stepped every batch; momentum cycles inversely.

    Args:
        optimizer (Optimizer): the optimizer.
        base_lr (float or list): the lower rate. max_lr (float or list): the upper rate.
        step_size_up (int): iterations of the rising half. Default: ``2000``.
        step_size_down (int): iterations of the falling half. Default: ``step_size_up``.
        mode (str): ``"triangular"``, ``"triangular2"`` or ``"exp_range"``.
            Default: ``"triangular"``.
        gamma (float): base of ``exp_range``'s scaling. Default: ``1.0``.
        scale_fn (callable): custom amplitude scaling (overrides ``mode``).
        scale_mode (str): ``"cycle"`` or ``"iterations"``, the argument of ``scale_fn``.
            Default: ``"cycle"``.
        cycle_momentum (bool): cycle momentum (or beta1) too. Default: ``True``.
        base_momentum (float): the lower momentum. Default: ``0.8``.
        max_momentum (float): the upper momentum. Default: ``0.9``.
        last_epoch (int): the last batch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=0.1, momentum=0.9)
        >>> sched = torch.optim.lr_scheduler.CyclicLR(opt, 0.1, 1.0, step_size_up=2)
        >>> opt.step(); sched.step(); [round(lr, 6) for lr in sched.get_last_lr()]
        [0.55]
    """

    def __init__(
        self,
        optimizer,
        base_lr,
        max_lr,
        step_size_up=2000,
        step_size_down=None,
        mode="triangular",
        gamma=1.0,
        scale_fn=None,
        scale_mode="cycle",
        cycle_momentum=True,
        base_momentum=0.8,
        max_momentum=0.9,
        last_epoch=-1,
    ):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["lr"] = lr
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.base_momentums, self.max_momentums = _init_momentum(
                self, optimizer, base_momentum, max_momentum, last_epoch
            )
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref, self.scale_mode = _triangular, "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref, self.scale_mode = _triangular2, "cycle"
        else:
            self._scale_fn_ref, self.scale_mode = partial(_exp_range, self.gamma), "iterations"

    def scale_fn(self, x) -> float:
        """The amplitude scaling at cycle (or iteration) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    def get_lr(self) -> list:
        self._warn_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [b + (m - b) * scale_factor * scale for b, m in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            pairs = zip(self.base_momentums, self.max_momentums, self.optimizer.param_groups)
            for base, top, group in pairs:
                _set_momentum(group, self.use_beta1, top - (top - base) * scale_factor * scale)
        return lrs

    def state_dict(self) -> dict:
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        state_dict = dict(state_dict)
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


def _triangular(x) -> float:
    return 1.0


def _triangular2(x) -> float:
    return 1 / (2.0 ** (x - 1))


def _exp_range(gamma, x) -> float:
    return gamma**x


class OneCycleLR(LRScheduler):
    """The 1cycle policy: the rate rises from ``max_lr / div_factor`` to ``max_lr`` over
    ``pct_start`` of the steps, then anneals to ``initial_lr / final_div_factor``;
    momentum moves inversely. Stepped every batch.

    Args:
        optimizer (Optimizer): the optimizer.
        max_lr (float or list): the peak rate.
        total_steps (int): steps of the cycle (or give ``epochs`` and
            ``steps_per_epoch``).
        pct_start (float): fraction of the cycle spent rising. Default: ``0.3``.
        anneal_strategy (str): ``"cos"`` or ``"linear"``. Default: ``"cos"``.
        cycle_momentum (bool): cycle momentum (or beta1) too. Default: ``True``.
        base_momentum (float): the lower momentum. Default: ``0.85``.
        max_momentum (float): the upper momentum. Default: ``0.95``.
        div_factor (float): ``initial_lr = max_lr / div_factor``. Default: ``25``.
        final_div_factor (float): ``min_lr = initial_lr / final_div_factor``.
            Default: ``1e4``.
        three_phase (bool): come back down symmetrically before the final annealing.
            Default: ``False``.
        last_epoch (int): the last batch index. Default: ``-1``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=0.1, momentum=0.9)
        >>> sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10)
        >>> [round(lr, 6) for lr in sched.get_last_lr()]
        [0.04]
    """

    def __init__(
        self,
        optimizer,
        max_lr,
        total_steps=None,
        epochs=None,
        steps_per_epoch=None,
        pct_start=0.3,
        anneal_strategy="cos",
        cycle_momentum=True,
        base_momentum=0.85,
        max_momentum=0.95,
        div_factor=25.0,
        final_div_factor=1e4,
        three_phase=False,
        last_epoch=-1,
    ):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        self.total_steps = _total_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = _phases(self.total_steps, pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for top, group in zip(max_lrs, optimizer.param_groups):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            _init_momentum(self, optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    def _anneal_func(self, start, end, pct):
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list:
        self._warn_outside_step()
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(
                f"Tried to step {step_num} times. The specified number of total steps is "
                f"{self.total_steps}"
            )
        lrs = []
        for group in self.optimizer.param_groups:
            phase, pct = self._phase_at(step_num)
            lrs.append(self._anneal_func(group[phase["start_lr"]], group[phase["end_lr"]], pct))
            if self.cycle_momentum:
                momentum = self._anneal_func(
                    group[phase["start_momentum"]], group[phase["end_momentum"]], pct
                )
                _set_momentum(group, self.use_beta1, momentum)
        return lrs

    def _phase_at(self, step_num):
        start_step = 0.0
        last = len(self._schedule_phases) - 1
        for i, phase in enumerate(self._schedule_phases):
            end_step = phase["end_step"]
            if step_num <= end_step or i == last:
                return phase, (step_num - start_step) / (end_step - start_step)
            start_step = end_step
        raise AssertionError("unreachable")


def _total_steps(total_steps, epochs, steps_per_epoch) -> int:
    if total_steps is not None:
        if total_steps <= 0 or not isinstance(total_steps, int):
            raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
        return total_steps
    if epochs is not None and steps_per_epoch is not None:
        if not isinstance(epochs, int) or epochs <= 0:
            raise ValueError(f"Expected positive integer epochs, but got {epochs}")
        if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
            raise ValueError(
                f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}"
            )
        return epochs * steps_per_epoch
    raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")


def _phase(end_step, start_lr, end_lr, start_momentum, end_momentum) -> dict:
    return dict(
        end_step=end_step,
        start_lr=start_lr,
        end_lr=end_lr,
        start_momentum=start_momentum,
        end_momentum=end_momentum,
    )


def _phases(total: int, pct_start: float, three_phase: bool) -> list:
    rise = float(pct_start * total) - 1
    if three_phase:
        return [
            _phase(rise, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
            _phase(
                float(2 * pct_start * total) - 2,
                "max_lr",
                "initial_lr",
                "base_momentum",
                "max_momentum",
            ),
            _phase(total - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"),
        ]
    return [
        _phase(rise, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
        _phase(total - 1, "max_lr", "min_lr", "base_momentum", "max_momentum"),
    ]


class ReduceLROnPlateau(LRScheduler):
    """Multiply the rate by ``factor`` when a metric has stopped improving for
    ``patience`` epochs: ``scheduler.step(metric)``.

    Args:
        optimizer (Optimizer): the optimizer.
        mode (str): ``"min"`` (lower is better) or ``"max"``. Default: ``"min"``.
        factor (float): the multiplier, < 1. Default: ``0.1``.
        patience (int): epochs without improvement tolerated. Default: ``10``.
        threshold (float): the least change that counts as improvement.
            Default: ``1e-4``.
        threshold_mode (str): ``"rel"`` or ``"abs"``. Default: ``"rel"``.
        cooldown (int): epochs to wait after a reduction. Default: ``0``.
        min_lr (float or list): lower bound on the rate(s). Default: ``0``.
        eps (float): reductions smaller than this are skipped. Default: ``1e-8``.

    Examples::

        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0, factor=0.5)
        >>> for loss in (1.0, 1.0, 1.0):
        ...     sched.step(loss)
        >>> sched.get_last_lr()
        [0.25]
    """

    def __init__(
        self,
        optimizer,
        mode="min",
        factor=0.1,
        patience=10,
        threshold=1e-4,
        threshold_mode="rel",
        cooldown=0,
        min_lr=0,
        eps=1e-8,
    ):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(
                    f"expected {len(optimizer.param_groups)} min_lrs, got {len(min_lr)}"
                )
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = _lrs(optimizer)
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _reset(self) -> None:
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def _init_is_better(self, mode, threshold, threshold_mode) -> None:
        if mode not in ("min", "max"):
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode

    def is_better(self, a, best) -> bool:
        """Whether metric ``a`` improves on ``best`` by more than the threshold."""
        if self.mode == "min":
            if self.threshold_mode == "rel":
                return a < best * (1.0 - self.threshold)
            return a < best - self.threshold
        if self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    _is_better = is_better

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def step(self, metrics, epoch=None) -> None:
        """Record this epoch's ``metrics`` and reduce the rates if it has plateaued."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(_EPOCH_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self.is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = _lrs(self.optimizer)

    def _reduce_lr(self) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` ({len(groups)}) differs "
                    f"from when `ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), "
                    "usually due to a new param group being added to the optimizer. Please "
                    "modify the `min_lrs` field to match the length of the `optimizer` "
                    "param groups."
                )
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, min_lr in zip(groups, self.min_lrs):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, min_lr)
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)


def _check_children(owner: str, optimizer, schedulers) -> None:
    for index, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{owner} at index {index} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(
                f"{owner} does not support `ReduceLROnPlateau` scheduler as it requires "
                "additional kwargs to be specified when calling `step`, but got one at index "
                f"{index} in the given schedulers sequence."
            )
        if optimizer != scheduler.optimizer:
            raise ValueError(
                f"{owner} expects all schedulers to belong to the same optimizer, but got "
                f"scheduler {type(scheduler).__name__} at index {index} has "
                f"{scheduler.optimizer}, which is different from {type(optimizer).__name__}."
            )


class _Composite(LRScheduler):
    """state_dict support for schedulers made of schedulers."""

    def state_dict(self) -> dict:
        return _state_with_parts(self, "_schedulers", lambda child: child.state_dict())

    def load_state_dict(self, state_dict: dict) -> None:
        _load_state_with_parts(
            self, state_dict, "_schedulers", lambda child, saved: child.load_state_dict(saved)
        )


class SequentialLR(_Composite):
    """Hand over from one scheduler to the next at the milestone epochs.

    Args:
        optimizer (Optimizer): the optimizer all schedulers share.
        schedulers (list): the schedulers, in order.
        milestones (list): the epochs at which the next scheduler takes over.
        last_epoch (int): the last epoch index. Default: ``-1``.

    Examples::

        >>> from torch.optim import lr_scheduler
        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> warm = lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2)
        >>> decay = lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> sched = lr_scheduler.SequentialLR(opt, [warm, decay], milestones=[2])
        >>> lrs = []
        >>> for _ in range(4):
        ...     opt.step(); sched.step(); lrs.append(sched.get_last_lr()[0])
        >>> lrs
        [0.5, 1.0, 0.5, 0.25]
    """

    def __init__(self, optimizer, schedulers, milestones, last_epoch: int = -1) -> None:
        owner = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{owner} expects at least one scheduler, but got no scheduler.")
        _check_children(owner, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                "than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to "
                f"{len(milestones)}"
            )
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        self._undo_steps(self)
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def _undo_steps(self, scheduler) -> None:
        """Step every scheduler back by the epoch its construction consumed."""
        if hasattr(scheduler, "_schedulers"):
            for child in scheduler._schedulers:
                self._undo_steps(child)
        elif hasattr(scheduler, "last_epoch"):
            scheduler.last_epoch -= 1

    recursive_undo = _undo_steps

    def step(self) -> None:
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(_Composite):
    """Step several schedulers together, each applying its change in turn.

    Args:
        schedulers (sequence): the schedulers (of one optimizer).
        optimizer (Optimizer, optional): that optimizer. Default: the first scheduler's.

    Examples::

        >>> from torch.optim import lr_scheduler
        >>> opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
        >>> a = lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2)
        >>> b = lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> sched = lr_scheduler.ChainedScheduler([a, b])
        >>> opt.step(); sched.step(); sched.get_last_lr()
        [0.25]
    """

    def __init__(self, schedulers, optimizer=None) -> None:
        owner = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(
                f"{owner} expects at least one scheduler to be chained, but got no scheduler."
            )
        optimizer = optimizer or schedulers[0].optimizer
        _check_children(owner, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _lrs(schedulers[-1].optimizer)

    def step(self) -> None:
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = _lrs(self._schedulers[-1].optimizer)
