"""Copies of a module on several devices (DataParallel's replicas).

Each replica is a shallow copy of every submodule whose parameters are copies of the
original's on the replica's device, recorded for autograd: the gradient that each
replica's parameters receive flows back (and adds up) into the original parameters, as
``torch.cuda.comm.reduce_add`` would sum it. A replica's parameters are plain tensors (not
``Parameter``s, not leaves), so ``replica.parameters()`` is empty, as in PyTorch. Buffers
are copied without history; the replica on the module's own device shares them, so that
in-place buffer updates there (batch-norm statistics) reach the original module.
"""

from __future__ import annotations

import torch

from ..modules.module import Module
from ._devices import cuda, device_index

__all__ = ["replicate"]


def _check_on_devices(network: Module, devices) -> None:
    for tensor in (*network.parameters(), *network.buffers()):
        if tensor.device.type == "cpu":
            raise AssertionError("Broadcast function not implemented for CPU tensors")


def _copies(tensors, devices, detach: bool):
    """``[per device: [copy of each tensor]]``; the copy for a tensor's own device is the
    tensor itself (detached when ``detach``)."""
    result = []
    for index in devices:
        target = cuda(index)
        if detach:
            with torch.no_grad():
                row = [t.to(target).detach() if t is not None else None for t in tensors]
        else:
            row = [t.to(target) if t is not None else None for t in tensors]
        result.append(row)
    return result


def _shallow_copy(module: Module) -> Module:
    replica = module.__new__(type(module))
    state = replica.__dict__
    state.update(module.__dict__)
    state["_parameters"] = {}
    state["_buffers"] = dict(module._buffers)
    state["_modules"] = dict(module._modules)
    state["_is_replica"] = True
    return replica


def replicate(network: Module, devices, detach: bool = False) -> list:
    """``len(devices)`` replicas of ``network`` (on CUDA devices), replica ``i`` on
    ``devices[i]``.

    Args:
        network (Module): the module, its parameters on CUDA devices.
        devices (list of int or torch.device): where the replicas go.
        detach (bool): replicas without autograd history back to ``network``.
            Default: False.
    """
    _check_on_devices(network, devices)
    devices = [device_index(d) for d in devices]
    modules = list(network.modules())
    module_index = {id(m): i for i, m in enumerate(modules)}

    params = list(network.parameters())
    param_index = {id(p): i for i, p in enumerate(params)}
    param_copies = _copies(params, devices, detach)

    buffers = list(network.buffers())
    buffer_index = {id(b): i for i, b in enumerate(buffers)}
    buffer_copies = _copies(buffers, devices, detach=True)

    replicas = [[_shallow_copy(m) for m in modules] for _ in devices]
    for row, replica_row in enumerate(replicas):
        for i, module in enumerate(modules):
            replica = replica_row[i]
            for name, child in module._modules.items():
                if child is not None:
                    replica._modules[name] = replica_row[module_index[id(child)]]
            for name, param in module._parameters.items():
                # a plain attribute: Module.__getattr__ is not reached for it
                value = None if param is None else param_copies[row][param_index[id(param)]]
                replica.__dict__[name] = value
            for name, buffer in module._buffers.items():
                if buffer is not None:
                    replica._buffers[name] = buffer_copies[row][buffer_index[id(buffer)]]
    return [replica_row[0] for replica_row in replicas]
