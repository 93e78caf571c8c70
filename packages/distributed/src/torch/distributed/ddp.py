"""DistributedDataParallel: one model replica per process, gradients averaged over the
group while backward runs.

torch-nn's ``torch.nn.parallel`` re-exports :class:`DistributedDataParallel` from here
(lazily, since this package depends on torch-nn and not the other way round).
"""

from __future__ import annotations

import contextlib

import torch
from torch import nn

from . import _collectives
from ._reducer import Reducer
from .algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from .algorithms.join import Join, Joinable
from .distributed_c10d import _resolve

__all__ = ["DistributedDataParallel"]

_UNFINISHED = (
    "Expected to have finished reduction in the prior iteration before starting a new "
    "one: parameters {indices} did not receive a gradient, so the module has parameters "
    "that were not used in producing the loss. Pass find_unused_parameters=True to "
    "torch.nn.parallel.DistributedDataParallel, or make sure every output of forward "
    "takes part in the loss."
)


def _tensors_in(value) -> list:
    """Every tensor of a forward's output (nested lists, tuples and dicts)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _tensors_in(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _tensors_in(item)]
    return []


def _reached_parameters(outputs) -> set[int]:
    """ids of the parameters the outputs' autograd graph leads to."""
    seen, reached = set(), set()
    stack = [t.grad_fn for t in _tensors_in(outputs) if t.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "variable", None)
        if variable is not None:
            reached.add(id(variable))
        stack.extend(child for child, _ in getattr(node, "next_functions", ()))
    return reached


def _moved(value, device):
    """``value`` with every tensor in it (nested lists, tuples, dicts) on ``device``."""
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (list, tuple)):
        return type(value)(_moved(item, device) for item in value)
    if isinstance(value, dict):
        return {key: _moved(item, device) for key, item in value.items()}
    return value


def _coalesced_broadcast(tensors: list, group) -> None:
    """Broadcast ``tensors`` from the group's rank 0, one flat buffer per dtype."""
    pg = _resolve(group)
    src = pg._global_ranks[0]
    by_dtype: dict = {}
    for t in tensors:
        by_dtype.setdefault(t.dtype, []).append(t)
    with torch.no_grad():
        for same in by_dtype.values():
            flat = torch.cat([t.detach().reshape(-1) for t in same])
            _collectives.broadcast(flat, src=src, group=group)
            at = 0
            for t in same:
                t.copy_(flat[at : at + t.numel()].view(t.shape))
                at += t.numel()


class DistributedDataParallel(nn.Module, Joinable):
    """Wrap ``module`` so that training it in every process of a group is data parallel:
    each process runs forward and backward on its own batch, and backward leaves
    ``param.grad`` averaged over the group (the gradient of the mean loss over the
    concatenated batches).

    At construction, rank 0's parameters and buffers are copied to every rank; with
    ``broadcast_buffers`` each forward copies rank 0's buffers again.

    Args:
        module (Module): the model, on the CPU or on this process's CUDA device.
        device_ids (list, optional): ``[d]``, the CUDA device of a GPU module (its
            inputs are moved there); None for CPU modules.
        output_device: accepted for GPU modules (outputs stay on the module's device).
        dim (int): unused (kept for signature compatibility). Default: 0.
        broadcast_buffers (bool): sync buffers at each forward. Default: True.
        init_sync (bool): broadcast parameters and buffers at construction. Default: True.
        process_group: the group to average over. Default: the default group.
        bucket_cap_mb (float): bucket size in MiB. Default: 25.
        find_unused_parameters (bool): look up, after each forward, the parameters its
            output does not depend on and count their gradients as zero. Default: False.
        check_reduction (bool): unused.
        gradient_as_bucket_view (bool): ``param.grad`` becomes a view of its bucket
            (saves a copy and memory). Default: False.
        static_graph (bool): the set of used parameters never changes. Default: False.

    Examples::

        >>> import torch, torch.distributed as dist
        >>> from torch import nn
        >>> dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
        >>> model = nn.parallel.DistributedDataParallel(nn.Linear(3, 1))
        >>> model(torch.ones(2, 3)).sum().backward()
        >>> model.module.bias.grad
        tensor([2.])
        >>> dist.destroy_process_group()
    """

    def __init__(
        self,
        module: nn.Module,
        device_ids=None,
        output_device=None,
        dim: int = 0,
        broadcast_buffers: bool = True,
        init_sync: bool = True,
        process_group=None,
        bucket_cap_mb: float | None = None,
        find_unused_parameters: bool = False,
        check_reduction: bool = False,
        gradient_as_bucket_view: bool = False,
        static_graph: bool = False,
        delay_all_reduce_named_params=None,
        param_to_hook_all_reduce=None,
        mixed_precision=None,
        device_mesh=None,
    ) -> None:
        super().__init__()
        params = [p for p in module.parameters() if p.requires_grad]
        if not params:
            raise RuntimeError(
                "DistributedDataParallel is not needed when a module doesn't have any "
                "parameter that requires a gradient."
            )
        self.device = self._module_device(module, device_ids, output_device)
        self.module = module
        self.process_group = _resolve(process_group)
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        self.require_backward_grad_sync = True
        self.bucket_bytes_cap = int((25 if bucket_cap_mb is None else bucket_cap_mb) * 1024 * 1024)
        if init_sync:
            _coalesced_broadcast([*module.parameters(), *module.buffers()], self.process_group)
        self._params = params
        self.reducer = Reducer(params, self.bucket_bytes_cap, allreduce_hook,
                               self.process_group, gradient_as_bucket_view)  # fmt: skip
        self._hook_registered = False

    @staticmethod
    def _module_device(module, device_ids, output_device):
        """The one CUDA device of a GPU module given ``device_ids=[d]``; else None."""
        devices = {p.device for p in module.parameters()}
        types = {d.type for d in devices}
        if (device_ids or output_device is not None) and types == {"cpu"}:
            raise ValueError(
                "DistributedDataParallel device_ids and output_device arguments only work "
                "with single-device/multiple-device GPU modules or CPU modules, but got "
                f"device_ids {device_ids}, output_device {output_device}, and module "
                f"parameters {types}."
            )
        if types == {"cpu"} or not device_ids:
            return None
        if len(device_ids) != 1:
            raise ValueError(
                "device_ids can only be None or contain a single element (one device per "
                f"process), got {list(device_ids)}"
            )
        wanted = torch.device("cuda", device_ids[0]) if isinstance(device_ids[0], int) \
            else torch.device(device_ids[0])  # fmt: skip
        if devices != {wanted}:
            raise ValueError(
                f"DistributedDataParallel: device_ids {list(device_ids)} name {wanted}, but "
                f"the module's parameters are on {sorted(map(str, devices))}; move the "
                "module there first (module.to(device))"
            )
        return wanted

    # -- training --------------------------------------------------------------------
    def forward(self, *inputs, **kwargs):
        Join.notify_join_context(self)
        unfinished = self.reducer.unfinished()
        if unfinished and self.require_backward_grad_sync:
            raise RuntimeError(_UNFINISHED.format(indices=unfinished))
        if self.broadcast_buffers and self.process_group.size() > 1:
            buffers = list(self.module.buffers())
            if buffers:
                _coalesced_broadcast(buffers, self.process_group)
        if self.device is not None:  # inputs go to the module's device, as in PyTorch
            inputs, kwargs = _moved(inputs, self.device), _moved(kwargs, self.device)
        outputs = self.module(*inputs, **kwargs)
        if torch.is_grad_enabled() and self.require_backward_grad_sync:
            unused = []
            if self.find_unused_parameters:
                reached = _reached_parameters(outputs)
                unused = [p for p in self._params if id(p) not in reached]
            self.reducer.prepare(unused)
        return outputs

    @contextlib.contextmanager
    def no_sync(self):
        """Inside this context, backward accumulates gradients locally without
        averaging; the first backward after it averages the accumulated gradients."""
        previous = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        self.reducer.enabled = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = previous
            self.reducer.enabled = True

    def register_comm_hook(self, state, hook) -> None:
        """Reduce buckets with ``hook(state, bucket) -> Future`` instead of averaging
        all-reduce (see ``torch.distributed.algorithms.ddp_comm_hooks``); once only."""
        if self._hook_registered:
            raise RuntimeError("register_comm_hook or register_builtin_comm_hook can only "
                               "be called once.")  # fmt: skip
        if not callable(hook):
            raise TypeError(f"hook must be callable, got {type(hook).__name__}")
        self.reducer.hook, self.reducer.state = hook, state
        self._hook_registered = True

    # -- uneven inputs ---------------------------------------------------------------
    def join(self, divide_by_initial_world_size: bool = True, enable: bool = True,
             throw_on_early_termination: bool = False) -> Join:  # fmt: skip
        """A context manager for inputs of different lengths on different ranks: a rank
        that runs out keeps shadowing the others' gradient averaging (with zero
        gradients) until all are done. Gradients are averaged over the initial world
        size."""
        return Join([self], enable, throw_on_early_termination)

    @property
    def _join_group(self):
        return self.process_group

    def _join_world_size(self) -> int:
        return self.process_group.size()

    def _join_shadow(self) -> None:
        if self.broadcast_buffers and self.process_group.size() > 1:
            buffers = list(self.module.buffers())
            if buffers:
                _coalesced_broadcast(buffers, self.process_group)
        self.reducer.reduce_zeros()
