"""``DataParallel``: splits a batch over devices, runs replicas, gathers the outputs.

Only the CPU backend exists so far, so there is one device and the wrapped module runs
on the whole batch; the wrapper keeps PyTorch's attribute layout (``module``,
``device_ids``, ``output_device``, ``dim``) so that checkpoints and scripts that use it
work unchanged.
"""

from __future__ import annotations

import torch

from ..modules.module import Module

__all__ = ["DataParallel", "data_parallel"]


def _cuda_devices() -> int:
    cuda = getattr(torch, "cuda", None)
    if cuda is None or not cuda.is_available():
        return 0
    return cuda.device_count()


class DataParallel(Module):
    """Run ``module`` in parallel over the batch dim ``dim`` of its inputs.

    Args:
        module (Module): the module to run.
        device_ids (list, optional): the devices. Default: all CUDA devices.
        output_device (int, optional): where outputs are gathered.
        dim (int): the batch dim. Default: 0.

    Examples::

        >>> import torch
        >>> from torch import nn
        >>> net = nn.DataParallel(nn.Linear(3, 2))
        >>> net(torch.ones(4, 3)).shape
        torch.Size([4, 2])
        >>> list(net.state_dict())
        ['module.weight', 'module.bias']
    """

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0) -> None:
        super().__init__()
        self.module = module
        self.dim = dim
        if _cuda_devices() == 0:
            self.device_ids = []
            self.output_device = None
            return
        if device_ids is None:
            device_ids = list(range(_cuda_devices()))
        self.device_ids = list(device_ids)
        self.output_device = output_device if output_device is not None else self.device_ids[0]

    def forward(self, *inputs, **kwargs):
        if len(self.device_ids) > 1:
            raise NotImplementedError(
                "DataParallel over several CUDA devices needs the CUDA backend, which "
                "torch-core does not have yet; run on one device"
            )
        return self.module(*inputs, **kwargs)


def data_parallel(
    module, inputs, device_ids=None, output_device=None, dim: int = 0, module_kwargs=None
):  # noqa: E501
    """The functional form of :class:`DataParallel`."""
    if not isinstance(inputs, tuple):
        inputs = (inputs,)
    return DataParallel(module, device_ids, output_device, dim)(*inputs, **(module_kwargs or {}))
