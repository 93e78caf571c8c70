"""Collectives of picklable Python objects, and ``monitored_barrier``.

Objects travel as pickled bytes in uint8 tensors: first every rank's byte count, then
the bytes padded to the longest. Unpickling runs code chosen by whoever pickled, so
these calls are for groups whose ranks trust each other (as in PyTorch).
"""

from __future__ import annotations

import pickle
import time
from datetime import timedelta

import numpy as np

import torch

from ._collectives import all_gather, broadcast, gather, scatter
from ._store import DistBackendError
from .distributed_c10d import GroupMember, _resolve, get_rank

__all__ = [
    "all_gather_object",
    "broadcast_object_list",
    "gather_object",
    "scatter_object_list",
    "monitored_barrier",
]


def _on(group, collective, *args, **kwargs) -> None:
    """Run ``collective`` on CPU tensors, or, for a group without a CPU backend (nccl),
    on copies on its device, copied back afterwards."""
    device = _resolve(group)._internal_device()
    if device.type == "cpu":
        collective(*args, group=group, **kwargs)
        return
    pairs = []

    def moved(value):
        if isinstance(value, torch.Tensor):
            pairs.append((value, value.to(device)))
            return pairs[-1][1]
        if isinstance(value, list):
            return [moved(item) for item in value]
        return value

    collective(*[moved(a) for a in args], group=group, **kwargs)
    for host, on_device in pairs:
        host.copy_(on_device.cpu())


def _to_tensor(obj) -> torch.Tensor:
    return torch.from_numpy(np.frombuffer(bytearray(pickle.dumps(obj)), dtype=np.uint8))


def _from_tensor(tensor: torch.Tensor, size: int):
    return pickle.loads(tensor[:size].numpy().tobytes())


def _sizes(local: int, group) -> list[int]:
    """Every rank's byte count."""
    pg = _resolve(group)
    sizes = [torch.zeros(1, dtype=torch.int64) for _ in range(pg.size())]
    _on(group, all_gather, sizes, torch.tensor([local], dtype=torch.int64))
    return [int(s.item()) for s in sizes]


def all_gather_object(object_list: list, obj, group=None) -> None:
    """Fill ``object_list[r]`` with rank r's ``obj`` on every rank."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    data = _to_tensor(obj)
    sizes = _sizes(data.numel(), group)
    longest = max(sizes)
    padded = torch.zeros(longest, dtype=torch.uint8)
    padded[: data.numel()] = data
    blocks = [torch.empty(longest, dtype=torch.uint8) for _ in sizes]
    _on(group, all_gather, blocks, padded)
    for i, (block, size) in enumerate(zip(blocks, sizes)):
        object_list[i] = _from_tensor(block, size)


def gather_object(obj, object_gather_list=None, dst=None, group=None, group_dst=None) -> None:
    """Collect every rank's ``obj`` into ``object_gather_list`` on rank ``dst``."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    pg = _resolve(group)
    data = _to_tensor(obj)
    sizes = _sizes(data.numel(), group)
    longest = max(sizes)
    padded = torch.zeros(longest, dtype=torch.uint8)
    padded[: data.numel()] = data
    root_global = dst if group_dst is None else pg._global_ranks[group_dst]
    root_global = 0 if root_global is None else root_global
    is_root = get_rank() == root_global
    blocks = [torch.empty(longest, dtype=torch.uint8) for _ in sizes] if is_root else None
    _on(group, gather, padded, blocks, dst=root_global)
    if is_root:
        for i, (block, size) in enumerate(zip(blocks, sizes)):
            object_gather_list[i] = _from_tensor(block, size)


def broadcast_object_list(object_list: list, src=None, group=None, device=None,
                          group_src=None) -> None:  # fmt: skip
    """Replace ``object_list``'s items on every rank by those of rank ``src``."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    pg = _resolve(group)
    root_global = src if group_src is None else pg._global_ranks[group_src]
    root_global = 0 if root_global is None else root_global
    is_root = get_rank() == root_global
    count = len(object_list)
    datas = [_to_tensor(o) for o in object_list] if is_root else []
    sizes = torch.tensor([d.numel() for d in datas] if is_root else [0] * count)
    _on(group, broadcast, sizes, src=root_global)
    payload = (
        torch.cat(datas) if is_root and datas else torch.empty(int(sizes.sum()), dtype=torch.uint8)
    )
    _on(group, broadcast, payload, src=root_global)
    if not is_root:
        at = 0
        for i, size in enumerate(sizes.tolist()):
            object_list[i] = _from_tensor(payload[at : at + size], size)
            at += size


def scatter_object_list(scatter_object_output_list: list, scatter_object_input_list=None,
                        src=None, group=None, group_src=None) -> None:  # fmt: skip
    """Rank ``src`` sends ``scatter_object_input_list[r]`` to rank r, which finds it in
    ``scatter_object_output_list[0]``."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    if not isinstance(scatter_object_output_list, list) or not scatter_object_output_list:
        raise ValueError(
            "Expected argument scatter_object_output_list to be a list of size at least 1."
        )
    pg = _resolve(group)
    root_global = src if group_src is None else pg._global_ranks[group_src]
    root_global = 0 if root_global is None else root_global
    is_root = get_rank() == root_global
    if is_root:
        datas = [_to_tensor(o) for o in scatter_object_input_list]
        longest = max(d.numel() for d in datas)
        lengths = torch.tensor([longest], dtype=torch.int64)
    else:
        lengths = torch.zeros(1, dtype=torch.int64)
    _on(group, broadcast, lengths, src=root_global)
    longest = int(lengths.item())
    if is_root:
        blocks = [torch.zeros(longest, dtype=torch.uint8) for _ in datas]
        for block, d in zip(blocks, datas):
            block[: d.numel()] = d
        sizes = [torch.tensor([d.numel()], dtype=torch.int64) for d in datas]
    else:
        blocks = sizes = None
    mine = torch.empty(longest, dtype=torch.uint8)
    my_size = torch.zeros(1, dtype=torch.int64)
    _on(group, scatter, my_size, sizes, src=root_global)
    _on(group, scatter, mine, blocks, src=root_global)
    scatter_object_output_list[0] = _from_tensor(mine, int(my_size.item()))


def monitored_barrier(group=None, timeout: timedelta | None = None,
                      wait_all_ranks: bool = False) -> None:  # fmt: skip
    """A barrier through the store that names the ranks that did not reach it: rank 0
    waits for each other rank (up to ``timeout``) and raises naming the first missing
    one (every missing one with ``wait_all_ranks``); the others wait for rank 0's
    release and raise if it does not come.
    """
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    pg = _resolve(group)
    impl = pg._impl
    seconds = impl.timeout if timeout is None else timeout.total_seconds()
    impl._enter("monitored_barrier")
    key = f"monitored_barrier/{impl.seq}"
    me = pg._global_ranks[impl.rank]
    if impl.rank != 0:
        impl.store.set(f"{key}/arrived/{impl.rank}", "1")
        if not impl.store._wait([f"{key}/release"], seconds):
            raise DistBackendError(
                f"[Rank {me}] monitored_barrier: rank {pg._global_ranks[0]} did not release "
                f"the barrier within {int(seconds * 1000)} ms"
            )
        return
    deadline = time.monotonic() + seconds
    missing = []
    for group_rank in range(1, impl.size):
        left = max(deadline - time.monotonic(), 0.0)
        if not impl.store._wait([f"{key}/arrived/{group_rank}"], left):
            missing.append(pg._global_ranks[group_rank])
            if not wait_all_ranks:
                break
    if missing:
        if wait_all_ranks:
            raise DistBackendError(
                f"Ranks {', '.join(map(str, missing))} failed to pass monitoredBarrier in "
                f"{int(seconds * 1000)} ms"
            )
        raise DistBackendError(
            f"Rank {missing[0]} failed to pass monitoredBarrier in {int(seconds * 1000)} ms"
        )
    impl.store.set(f"{key}/release", "1")
