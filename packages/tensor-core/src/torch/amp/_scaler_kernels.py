"""The two ops gradient scaling is built on (``torch._amp_*``), as PyTorch has them."""

from __future__ import annotations

import math

import numpy as np

from .._grad_mode import no_grad

__all__ = ["_amp_foreach_non_finite_check_and_unscale_", "_amp_update_scale_"]


def _amp_foreach_non_finite_check_and_unscale_(self, found_inf, inv_scale) -> None:
    """Multiply each tensor of ``self`` in place by ``inv_scale`` (a one-element tensor),
    and set ``found_inf`` (a one-element float tensor) to 1 if any of them holds an inf or
    a NaN. Every tensor is multiplied, whether or not one is non-finite."""
    if inv_scale.numel() != 1:
        raise RuntimeError("inv_scale must be a 1-element tensor.")
    if found_inf.numel() != 1:
        raise RuntimeError("found_inf must be a 1-element tensor.")
    with no_grad():
        for tensor in self:
            if not np.isfinite(tensor.detach().numpy()).all():
                found_inf.fill_(1.0)
            tensor.mul_(inv_scale.reshape(()))


def _amp_update_scale_(
    self, growth_tracker, found_inf, scale_growth_factor, scale_backoff_factor, growth_interval
):
    """Update the loss scale ``self`` (a one-element float tensor) in place after a step:
    back it off when ``found_inf`` is nonzero, grow it after ``growth_interval`` steps in
    a row without infs (``growth_tracker`` counts them, in place). Returns ``self``."""
    with no_grad():
        if float(found_inf.reshape(-1)[0]):
            self.mul_(scale_backoff_factor)
            growth_tracker.fill_(0)
            return self
        successful = int(growth_tracker.reshape(-1)[0]) + 1
        if successful == growth_interval:
            grown = float(self.reshape(-1)[0]) * scale_growth_factor
            if math.isfinite(np.float32(grown)):
                self.fill_(grown)
            growth_tracker.fill_(0)
        else:
            growth_tracker.fill_(successful)
    return self
