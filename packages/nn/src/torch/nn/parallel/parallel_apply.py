"""Running modules on their devices at the same time, one thread per device (as PyTorch
does): each thread makes its device current (and, when given, its stream), keeps the
caller's grad mode, and hands back its output or the exception it raised."""

from __future__ import annotations

import threading

import torch

from ._devices import NO_ACCELERATOR, device_index, runtime

__all__ = ["parallel_apply"]


def _first_tensor_device(value):
    if isinstance(value, torch.Tensor):
        return value.get_device()
    if isinstance(value, (list, tuple)):
        for item in value:
            found = _first_tensor_device(item)
            if found is not None:
                return found
    if isinstance(value, dict):
        for item in value.values():
            found = _first_tensor_device(item)
            if found is not None:
                return found
    return None


class _ReplicaError:
    """An exception raised in a worker, re-raised in the caller with where it happened."""

    def __init__(self, error: BaseException, where: str) -> None:
        self.error, self.where = error, where

    def reraise(self):
        message = f"Caught {type(self.error).__name__} {self.where}.\nOriginal {self.error}"
        try:
            raised = type(self.error)(message)
        except Exception:  # an exception type whose constructor takes other arguments
            raise self.error from None
        raise raised from self.error


def parallel_apply(modules, inputs, kwargs_tup=None, devices=None) -> list:
    """``[modules[i](*inputs[i], **kwargs_tup[i])]``, each on its device in its thread.

    Args:
        modules (list of Module): one module per device.
        inputs (list): the positional arguments of each (a tuple, or a single value).
        kwargs_tup (list of dict, optional): the keyword arguments of each.
        devices (list of int or torch.device, optional): the devices (default: where each
            input's first tensor is).
    """
    if len(modules) != len(inputs):
        raise AssertionError(
            f"The number of modules {len(modules)} is not equal to the number of inputs "
            f"{len(inputs)}"
        )
    rt = runtime()
    if rt is None:
        raise RuntimeError(NO_ACCELERATOR)
    if kwargs_tup is None:
        kwargs_tup = ({},) * len(modules)
    elif len(kwargs_tup) != len(modules):
        raise AssertionError("kwargs_tup must have one entry per module")
    if devices is None:
        devices = [_first_tensor_device(value) for value in inputs]
    else:
        if len(devices) != len(modules):
            raise AssertionError("devices must have one entry per module")
    devices = [device_index(d, optional=True) for d in devices]
    grad_enabled = torch.is_grad_enabled()
    results: dict[int, object] = {}

    def work(i, module, args, kwargs, device):
        torch.set_grad_enabled(grad_enabled)
        try:
            rt.set_device(device)
            if not isinstance(args, (list, tuple)):
                args = (args,)
            results[i] = module(*args, **kwargs)
        except Exception as error:  # handed to the caller
            results[i] = _ReplicaError(error, f"in replica {i} on device {device}")

    jobs = list(zip(modules, inputs, kwargs_tup, devices))
    if len(jobs) == 1:
        work(0, *jobs[0])
    else:
        threads = [threading.Thread(target=work, args=(i, *job)) for i, job in enumerate(jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    outputs = []
    for i in range(len(jobs)):
        output = results[i]
        if isinstance(output, _ReplicaError):
            output.reraise()
        outputs.append(output)
    return outputs
