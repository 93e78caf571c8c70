"""``torch.nn.utils.memory_format``: lay out the weights of convolutions in a memory
format (``torch.channels_last`` for 2-D ones, ``torch.channels_last_3d`` for 3-D ones), so
that channels-last inputs meet weights in the same order."""

from __future__ import annotations

import torch

from ..modules.module import _assign_data

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def _convert(module, memory_format, kinds):
    if isinstance(module, kinds):
        # in place, as ``weight.data = ...``: the Parameter object (and its optimizer
        # state, hooks, requires_grad) stays
        _assign_data(module.weight, module.weight.detach().clone(memory_format=memory_format))
    for child in module.children():
        _convert(child, memory_format, kinds)
    return module


def convert_conv2d_weight_memory_format(module, memory_format):
    """Give the weights of every ``Conv2d`` and ``ConvTranspose2d`` in ``module`` (itself
    included) the layout ``memory_format``, in place; returns ``module``.

    Examples::

        >>> conv = torch.nn.Conv2d(3, 4, 3)
        >>> _ = torch.nn.utils.convert_conv2d_weight_memory_format(conv, torch.channels_last)
        >>> conv.weight.stride()
        (27, 1, 9, 3)
    """
    return _convert(module, memory_format, (torch.nn.Conv2d, torch.nn.ConvTranspose2d))


def convert_conv3d_weight_memory_format(module, memory_format):
    """Give the weights of every ``Conv3d`` and ``ConvTranspose3d`` in ``module`` the
    layout ``memory_format`` (``torch.channels_last_3d``), in place; returns ``module``."""
    return _convert(module, memory_format, (torch.nn.Conv3d, torch.nn.ConvTranspose3d))
