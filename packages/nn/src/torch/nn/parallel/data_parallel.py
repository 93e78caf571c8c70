"""``DataParallel``: one process, several CUDA devices. Each forward splits the batch
over the devices (:func:`scatter`), runs a replica of the module on each piece in its own
thread (:func:`replicate`, :func:`parallel_apply`) and concatenates the outputs on the
output device (:func:`gather`); backward sends each replica's gradient back to the
original parameters, where they add up.

Without CUDA devices (PyTorch's CPU build) the wrapper runs the module as it is, with
``device_ids == []``, so scripts and checkpoints that use it work unchanged.
"""

from __future__ import annotations

import itertools

import torch

from ..modules.module import Module
from ._devices import cuda, device_index, runtime
from .parallel_apply import parallel_apply
from .replicate import replicate
from .scatter_gather import gather, scatter_kwargs

__all__ = ["DataParallel", "data_parallel"]


class DataParallel(Module):
    """Run ``module`` over the CUDA devices ``device_ids``, splitting the inputs along
    ``dim`` (keyword arguments too; other objects go to every replica as they are).

    The module's parameters and buffers must be on ``device_ids[0]`` before the first
    forward. Buffers updated in place during forward (batch-norm statistics) keep the
    values of the replica on ``device_ids[0]``.

    Args:
        module (Module): the module to run.
        device_ids (list of int or torch.device, optional): the devices. Default: all.
        output_device (int or torch.device, optional): where outputs are gathered.
            Default: ``device_ids[0]``.
        dim (int): the dim the inputs are split along. Default: 0.

    Examples::

        >>> net = nn.DataParallel(nn.Linear(3, 2))
        >>> net(torch.ones(4, 3)).shape
        torch.Size([4, 2])
        >>> list(net.state_dict())
        ['module.weight', 'module.bias']
    """

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0) -> None:
        super().__init__()
        self.module = module
        rt = runtime()
        if rt is None or rt.device_count() == 0:
            self.device_ids = []
            return
        if device_ids is None:
            device_ids = list(range(rt.device_count()))
        if output_device is None:
            output_device = device_ids[0]
        self.dim = dim
        self.device_ids = [device_index(d, True) for d in device_ids]
        self.output_device = device_index(output_device, True)
        self.src_device_obj = cuda(self.device_ids[0])
        if len(self.device_ids) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        for tensor in itertools.chain(self.module.parameters(), self.module.buffers()):
            if tensor.device != self.src_device_obj:
                raise RuntimeError(
                    "module must have its parameters and buffers on device "
                    f"{self.src_device_obj} (device_ids[0]) but found one of them on "
                    f"device: {tensor.device}"
                )
        inputs, module_kwargs = self.scatter(inputs, kwargs, self.device_ids)
        if not inputs and not module_kwargs:  # no inputs at all: one call on one device
            inputs, module_kwargs = ((),), ({},)
        if len(self.device_ids) == 1:
            return self.module(*inputs[0], **module_kwargs[0])
        replicas = self.replicate(self.module, self.device_ids[: len(inputs)])
        outputs = self.parallel_apply(replicas, inputs, module_kwargs)
        return self.gather(outputs, self.output_device)

    def replicate(self, module: Module, device_ids) -> list:
        return replicate(module, device_ids, not torch.is_grad_enabled())

    def scatter(self, inputs, kwargs, device_ids):
        return scatter_kwargs(inputs, kwargs, device_ids, dim=self.dim)

    def parallel_apply(self, replicas, inputs, kwargs) -> list:
        return parallel_apply(replicas, inputs, kwargs, self.device_ids[: len(replicas)])

    def gather(self, outputs, output_device):
        return gather(outputs, output_device, dim=self.dim)


def data_parallel(
    module, inputs, device_ids=None, output_device=None, dim: int = 0, module_kwargs=None
):
    """The functional form of :class:`DataParallel`: one forward of ``module`` over
    ``device_ids`` (no wrapper kept). Without CUDA devices it raises, as PyTorch's CPU
    build does."""
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    rt = runtime()
    if rt is None or rt.device_count() == 0:
        raise RuntimeError("device type could not be determined")
    if device_ids is None:
        device_ids = list(range(rt.device_count()))
    if output_device is None:
        output_device = device_ids[0]
    device_ids = [device_index(d, True) for d in device_ids]
    output_device = device_index(output_device, True)
    source = cuda(device_ids[0])
    for tensor in itertools.chain(module.parameters(), module.buffers()):
        if tensor.device != source:
            raise RuntimeError(
                "module must have its parameters and buffers on device "
                f"{source} (device_ids[0]) but found one of them on device: {tensor.device}"
            )
    inputs, module_kwargs = scatter_kwargs(inputs, module_kwargs, device_ids, dim)
    if not inputs and not module_kwargs:
        inputs, module_kwargs = ((),), ({},)
    if len(device_ids) == 1:
        return module(*inputs[0], **module_kwargs[0])
    used = device_ids[: len(inputs)]
    replicas = replicate(module, used)
    outputs = parallel_apply(replicas, inputs, module_kwargs, used)
    return gather(outputs, output_device, dim)
