"""``torch.amp.GradScaler``: loss scaling for training in lower precision."""

from __future__ import annotations

import enum
import warnings
from collections import defaultdict

from .. import _dtype
from .._creation import full
from .._grad_mode import no_grad
from .._tensor import Tensor
from ._scaler_kernels import _amp_foreach_non_finite_check_and_unscale_, _amp_update_scale_

__all__ = ["OptState", "GradScaler"]


class OptState(enum.Enum):
    """Where an optimizer is in the scaler's iteration."""

    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh_optimizer_state() -> dict:
    return {"stage": OptState.READY, "found_inf_per_device": {}}


_MISSING_SCALE_HINT = (
    "This may indicate your script did not use scaler.scale(loss or outputs) earlier in "
    "the iteration."
)


class GradScaler:
    """Scale a loss up before backward so that small gradients survive a lower precision
    dtype, and unscale them before the optimizer steps.

    Each iteration: ``scaler.scale(loss).backward()``, optionally ``scaler.unscale_(opt)``
    (to clip the true gradients), ``scaler.step(opt)`` (skipped when a gradient holds an
    inf or a NaN), ``scaler.update()``. The scale is multiplied by ``backoff_factor`` after
    a skipped step and by ``growth_factor`` after ``growth_interval`` steps in a row
    without one.

    Args:
        device (str): the device type of the gradients. Default: ``"cuda"`` (disabled
            with a warning when CUDA is not available); use ``"cpu"`` on the CPU.
        init_scale (float): the first scale. Default: ``2.0**16``.
        growth_factor (float): factor of growth, > 1. Default: 2.0.
        backoff_factor (float): factor of backoff, < 1. Default: 0.5.
        growth_interval (int): steps without inf/NaN before growing. Default: 2000.
        enabled (bool): when False, every method is a no-op pass-through. Default: True.

    Examples::

        >>> scaler = torch.amp.GradScaler("cpu", init_scale=8.0)
        >>> scaler.scale(torch.tensor(1.5))
        tensor(12.)
    """

    def __init__(
        self,
        device: str = "cuda",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        self._device = device
        self._enabled = enabled
        if self._device == "cuda" and enabled and not _cuda_available():
            warnings.warn(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                stacklevel=2,
            )
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale: Tensor | None = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker: Tensor | None = None
            self._per_optimizer_states = defaultdict(_fresh_optimizer_state)

    # ------------------------------------------------------------------ the iteration

    def scale(self, outputs):
        """``outputs`` (a tensor, or nested lists/tuples of them) times the scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(outputs.device)
            return outputs * self._scale.to(device=outputs.device)
        return self._scale_iterable(outputs)

    def _scale_iterable(self, value):
        if isinstance(value, Tensor):
            return self.scale(value)
        if isinstance(value, (list, tuple)):
            scaled = [self._scale_iterable(item) for item in value]
            return type(value)(scaled) if isinstance(value, tuple) else scaled
        if hasattr(value, "__iter__") and not isinstance(value, (str, bytes)):
            return map(self._scale_iterable, value)
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _lazy_init_scale_growth_tracker(self, device) -> None:
        self._scale = full((), self._init_scale, dtype=_dtype.float32, device=device)
        self._growth_tracker = full(
            (), self._init_growth_tracker, dtype=_dtype.int32, device=device
        )

    def _check_scale_growth_tracker(self, funcname: str):
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  {_MISSING_SCALE_HINT}")
        if self._growth_tracker is None:
            raise AssertionError(
                f"Attempted {funcname} but _growth_tracker is None.  {_MISSING_SCALE_HINT}"
            )
        return self._scale, self._growth_tracker

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16: bool) -> dict:
        """Unscale the gradients of ``optimizer``'s parameters in place; returns the
        found-inf flag of each device."""
        grads = defaultdict(lambda: defaultdict(list))  # device -> dtype -> grads
        with no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    grad = param.grad
                    if grad is None:
                        continue
                    if not allow_fp16 and grad.dtype is _dtype.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    if grad.is_sparse:
                        grad = grad.coalesce()._values()
                    grads[grad.device][grad.dtype].append(grad)
            found_per_device = {}
            for device, by_dtype in grads.items():
                found = found_per_device.setdefault(device, found_inf.to(device))
                for group_grads in by_dtype.values():
                    _amp_foreach_non_finite_check_and_unscale_(
                        group_grads, found, inv_scale.to(device)
                    )
        return found_per_device

    def unscale_(self, optimizer) -> None:
        """Divide the gradients of ``optimizer``'s parameters by the scale, in place (at
        most once per iteration; :meth:`step` does it when not done)."""
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = self._scale.double().reciprocal().float()
        found_inf = full((), 0.0, dtype=_dtype.float32, device=self._scale.device)
        state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        state["stage"] = OptState.UNSCALED

    def _maybe_opt_step(self, optimizer, state, *args, **kwargs):
        if not sum(v.item() for v in state["found_inf_per_device"].values()):
            return optimizer.step(*args, **kwargs)
        return None

    def step(self, optimizer, *args, **kwargs):
        """Unscale the gradients (unless :meth:`unscale_` did) and run
        ``optimizer.step(*args, **kwargs)`` unless one holds an inf or a NaN. Returns what
        the step returned (None when skipped)."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if not state["found_inf_per_device"]:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        result = self._maybe_opt_step(optimizer, state, *args, **kwargs)
        state["stage"] = OptState.STEPPED
        return result

    def update(self, new_scale=None) -> None:
        """Set the scale for the next iteration: ``new_scale`` (a float or a one-element
        tensor) when given, else backed off or grown from this iteration's inf checks."""
        if not self._enabled:
            return
        scale, growth_tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            else:
                reason = (
                    "new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                    "torch.FloatTensor with requires_grad=False."
                )
                if not isinstance(new_scale, Tensor) or new_scale.numel() != 1:
                    raise AssertionError(reason)
                if new_scale.device.type != self._device or new_scale.requires_grad:
                    raise AssertionError(reason)
                self._scale.copy_(new_scale)
        else:
            found_infs = [
                found.to(scale.device)
                for state in self._per_optimizer_states.values()
                for found in state["found_inf_per_device"].values()
            ]
            if not found_infs:
                raise AssertionError("No inf checks were recorded prior to update.")
            combined = found_infs[0]
            for found in found_infs[1:]:
                combined = combined + found
            _amp_update_scale_(
                self._scale,
                self._growth_tracker,
                combined,
                self._growth_factor,
                self._backoff_factor,
                self._growth_interval,
            )
        self._per_optimizer_states = defaultdict(_fresh_optimizer_state)

    # --------------------------------------------------------------- settings and state

    def _get_scale_async(self):
        return self._scale

    def get_scale(self) -> float:
        """The current scale (1.0 when disabled)."""
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = new_interval

    def _get_growth_tracker(self) -> int:
        if not self._enabled:
            return 0
        if self._growth_tracker is None:
            return self._init_growth_tracker
        return self._growth_tracker.item()

    def is_enabled(self) -> bool:
        return self._enabled

    def state_dict(self) -> dict:
        """The scale, the factors, the interval and the growth tracker (empty when
        disabled)."""
        if not self._enabled:
            return {}
        return {
            "scale": self.get_scale(),
            "growth_factor": self._growth_factor,
            "backoff_factor": self._backoff_factor,
            "growth_interval": self._growth_interval,
            "_growth_tracker": self._get_growth_tracker(),
        }

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore what :meth:`state_dict` gave."""
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved from a "
                "disabled instance of GradScaler."
            )
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        if self._enabled:
            if len(self._per_optimizer_states) != 0:
                raise AssertionError(
                    "A GradScaler instance may only be pickled at the beginning of an "
                    "iteration, or at the end after scaler.update()."
                )
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = None
            state["_growth_tracker"] = None
            state["_per_optimizer_states"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        if self._enabled:
            self._per_optimizer_states = defaultdict(_fresh_optimizer_state)


def _cuda_available() -> bool:
    import torch.cuda

    return torch.cuda.is_available()


def _old_name_init(device: str):
    """The ``__init__`` of ``torch.<device>.amp.GradScaler``, the deprecated spelling of
    ``GradScaler(device, ...)``: the same arguments less ``device``, and a FutureWarning."""

    def __init__(  # noqa: N807 - the method it becomes
        self,
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        warnings.warn(
            f"`torch.{device}.amp.GradScaler(args...)` is deprecated. Please use "
            f"`torch.amp.GradScaler('{device}', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        GradScaler.__init__(
            self, device, init_scale, growth_factor, backoff_factor, growth_interval, enabled
        )

    __init__.__qualname__ = "GradScaler.__init__"  # as errors about its arguments name it
    return __init__
