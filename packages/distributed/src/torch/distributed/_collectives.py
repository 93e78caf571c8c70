"""The tensor collectives and point-to-point calls of ``torch.distributed``.

Each function checks its arguments as PyTorch does, picks the group's backend for the
tensors' device (``_mpi_group`` for CPU tensors, whose NumPy views it passes; ``_nccl``
for CUDA tensors, passed as they are) and calls it.
``src``/``dst`` are global ranks (``group_src``/``group_dst``: ranks in the group).
With ``async_op=True`` they return a :class:`Work`; else they wait and return None.
"""

from __future__ import annotations

import torch

from ._reduce_op import ReduceOp, as_red_op
from ._work import Work
from .distributed_c10d import GroupMember, _resolve, _warn_non_member

__all__ = [
    "all_reduce",
    "reduce",
    "broadcast",
    "all_gather",
    "all_gather_into_tensor",
    "gather",
    "scatter",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "all_to_all",
    "all_to_all_single",
    "barrier",
    "send",
    "recv",
    "isend",
    "irecv",
    "batch_isend_irecv",
    "P2POp",
]


# ------------------------------------------------------------------------------ helpers
def _check_tensor(tensor, name: str) -> None:
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(
            f"Invalid function argument. Expected parameter `{name}` of type torch.Tensor\n"
            f"             but got {type(tensor)} instead."
        )


def _check_tensor_list(tensors, name: str) -> None:
    if not isinstance(tensors, list) or not all(isinstance(t, torch.Tensor) for t in tensors):
        raise TypeError(
            f"Invalid function argument. Expected parameter `{name}` of type "
            "List[torch.Tensor]\n             but got "
            f"{type(tensors)} with elements of type "
            f"{[type(t) for t in tensors] if isinstance(tensors, list) else '?'}."
        )


def _impl(pg, tensor):
    """The group's backend for ``tensor``'s device type."""
    impl = pg._impls.get(tensor.device.type)
    if impl is None:
        raise RuntimeError(f"No backend type associated with device type {tensor.device.type}")
    return impl


def _backend(pg, tensor):
    """The group's backend for ``tensor``'s device type (checked to be contiguous)."""
    impl = _impl(pg, tensor)
    if not tensor.is_contiguous():
        raise ValueError("Tensors must be contiguous")
    return impl


def _through_contiguous(impl, tensor, start) -> Work:
    """An in-place collective on a non-contiguous CPU tensor: ``start`` runs it on a
    contiguous copy, which is copied back once it finished (the nccl backend takes
    contiguous tensors only, as PyTorch's)."""
    if tensor.device.type != "cpu":
        raise ValueError("Tensors must be contiguous")
    staged = tensor.detach().contiguous()
    return _then(start(staged), lambda: _copy_into(tensor, staged), [tensor])


def _copy_into(target, source) -> None:
    with torch.no_grad():
        target.copy_(source)


def _buffers(impl, *tensors) -> list:
    """What ``impl`` takes for each tensor (None stays None)."""
    for tensor in tensors:
        if tensor is not None and not tensor.is_contiguous():
            raise ValueError("Tensors must be contiguous")
    return [None if t is None else impl.buffer(t) for t in tensors]


def _copy_blocks(targets, whole) -> None:
    """Copy block r of ``whole`` (one block per target, dim 0) into ``targets[r]``."""
    with torch.no_grad():
        for target, block in zip(targets, whole):
            target.copy_(block.view(target.shape))


def _stacked(tensors, shape):
    """The tensors, reshaped to ``shape``, stacked along a new dim 0."""
    return torch.stack([t.detach().reshape(shape) for t in tensors])


def _group_or_none(group, what: str):
    """The group, or None when this rank is not in it (PyTorch warns and skips)."""
    if group is GroupMember.NON_GROUP_MEMBER:
        _warn_non_member(what)
        return None
    return _resolve(group)


def _checked_group(group, what: str, **arguments):
    """Check a collective's tensor arguments, in order (a name ending in ``_list`` holds
    a list of tensors), then give its group, or None when this rank is not in it."""
    for name, value in arguments.items():
        (_check_tensor_list if name.endswith("_list") else _check_tensor)(value, name)
    return _group_or_none(group, what)


def _root(pg, global_rank, group_rank, name: str) -> int:
    """The root's rank in ``pg``, from a global rank or a group rank."""
    if group_rank is not None:
        if global_rank is not None and global_rank != pg._global_ranks[group_rank]:
            raise ValueError(f"Can not specify both {name} and group_{name}")
        if not 0 <= group_rank < pg.size():
            raise ValueError(f"Group rank {group_rank} is not part of group {pg}")
        return group_rank
    if global_rank is None:
        raise ValueError(f"Must specify either {name} or group_{name}")
    if global_rank not in pg._global_ranks:
        raise ValueError(f"Global rank {global_rank} is not part of group {pg}")
    return pg._global_ranks.index(global_rank)


def _done(work: Work, async_op: bool):
    if async_op:
        return work
    work.wait()
    return None


def _same_dtype(tensors, what: str) -> None:
    dtypes = {t.dtype for t in tensors}
    if len(dtypes) > 1:
        raise ValueError(
            f"{what}: tensors must all have the same type, got {sorted(map(str, dtypes))}"
        )


# ------------------------------------------------------------------------- collectives
def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op: bool = False):
    """Reduce ``tensor`` over the group with ``op``; every rank gets the result in place.

    Examples::

        >>> import torch, torch.distributed as dist
        >>> dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
        >>> t = torch.arange(3.0)
        >>> dist.all_reduce(t, op=dist.ReduceOp.MAX)
        >>> t
        tensor([0., 1., 2.])
        >>> dist.destroy_process_group()
    """
    pg = _checked_group(group, "all_reduce", tensor=tensor)
    if pg is None:
        return None
    op = as_red_op(op)
    impl = _impl(pg, tensor)
    if not tensor.is_contiguous():
        work = _through_contiguous(impl, tensor, lambda t: impl.all_reduce(impl.buffer(t), op))
        return _done(work, async_op)
    if not async_op:  # the common case: no work handle, reduced in the tensor's memory
        impl.all_reduce_and_wait(impl.buffer(tensor), op)
        return None
    work = impl.all_reduce(impl.buffer(tensor), op)
    work._result = [tensor]
    return work


def reduce(tensor, dst=None, op=ReduceOp.SUM, group=None, async_op: bool = False,
           group_dst=None):  # fmt: skip
    """Reduce ``tensor`` over the group into rank ``dst``'s ``tensor``."""
    pg = _checked_group(group, "reduce", tensor=tensor)
    if pg is None:
        return None
    root = _root(pg, dst, group_dst, "dst")
    op = as_red_op(op)
    impl = _impl(pg, tensor)
    if not tensor.is_contiguous():
        work = _through_contiguous(impl, tensor, lambda t: impl.reduce(impl.buffer(t), root, op))
        return _done(work, async_op)
    return _done(impl.reduce(impl.buffer(tensor), root, op), async_op)


def broadcast(tensor, src=None, group=None, async_op: bool = False, group_src=None):
    """Copy rank ``src``'s ``tensor`` into every rank's ``tensor``."""
    pg = _checked_group(group, "broadcast", tensor=tensor)
    if pg is None:
        return None
    root = _root(pg, src, group_src, "src")
    impl = _impl(pg, tensor)
    if not tensor.is_contiguous():
        work = _through_contiguous(impl, tensor, lambda t: impl.broadcast(impl.buffer(t), root))
        return _done(work, async_op)
    work = impl.broadcast(impl.buffer(tensor), root)
    work._result = [tensor]
    return _done(work, async_op)


def all_gather(tensor_list, tensor, group=None, async_op: bool = False):
    """Fill ``tensor_list[r]`` with rank r's ``tensor`` on every rank."""
    pg = _checked_group(group, "all_gather", tensor_list=tensor_list, tensor=tensor)
    if pg is None:
        return None
    _check_list_length(tensor_list, pg, "all_gather", "tensor_list")
    impl = _backend(pg, tensor)
    output = torch.empty((pg.size(), *tensor.shape), dtype=tensor.dtype, device=tensor.device)
    work = impl.all_gather(*_buffers(impl, output, tensor))
    return _done(_then(work, lambda: _copy_blocks(tensor_list, output), tensor_list), async_op)


def _check_list_length(tensors, pg, what: str, name: str) -> None:
    if len(tensors) != pg.size():
        raise ValueError(
            f"{what}: {name} must have one tensor per rank of the group "
            f"({pg.size()}), got {len(tensors)}"
        )


def _then(work: Work, after, result) -> Work:
    """``work`` followed by ``after()`` once it finished."""

    def wait():
        work.wait()
        after()

    return Work(work.is_completed, wait, result)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op: bool = False):
    """Gather every rank's ``input_tensor`` into ``output_tensor``, concatenated along
    dim 0 (or stacked: ``output_tensor`` of shape ``(world_size, *input.shape)``)."""
    pg = _checked_group(
        group, "all_gather_into_tensor", output_tensor=output_tensor, input_tensor=input_tensor
    )
    if pg is None:
        return None
    _check_block_sizes(output_tensor, input_tensor, pg, "all_gather_into_tensor")
    impl = _backend(pg, input_tensor)
    work = impl.all_gather(*_buffers(impl, output_tensor, input_tensor))
    return _done(work, async_op)


def _check_block_sizes(whole, block, pg, what: str) -> None:
    if whole.dtype != block.dtype:
        raise RuntimeError(f"{what}: output and input tensors must have the same dtype, "
                           f"got {whole.dtype} and {block.dtype}")  # fmt: skip
    if whole.numel() != block.numel() * pg.size():
        raise ValueError(
            f"{what}: the output tensor size must equal world_size ({pg.size()}) times "
            f"the input tensor size, got {whole.numel()} and {block.numel()}"
        )


def _root_with_list(pg, root: int, tensors, name: str, role: str) -> bool:
    """Whether this rank is the root of a gather or scatter; the list of blocks ``name``
    must be given on the root (one tensor per rank) and only there."""
    what = name.removesuffix("_list")
    if pg.rank() != root:
        if tensors:
            raise ValueError(f"Argument ``{name}`` must NOT be specified on non-{role} ranks.")
        return False
    if not tensors:
        raise ValueError(f"Argument ``{name}`` must be specified on {role} rank.")
    _check_tensor_list(tensors, name)
    _check_list_length(tensors, pg, what, name)
    return True


def _rooted_list_op(what: str, tensor, blocks, group, root, async_op, at_root, elsewhere):
    """The frame shared by gather and scatter: check the arguments, find the root (``root``
    is ``(name, global rank, group rank)``; rank 0 when neither rank is given, unlike
    reduce and broadcast), then run the backend call of this rank's side:
    ``at_root(group, backend, tensor's buffer, root)`` on the root, with ``blocks`` checked,
    ``elsewhere(backend, tensor's buffer, root)`` on the others. None when this rank is not
    in ``group``."""
    pg = _checked_group(group, what, tensor=tensor)
    if pg is None:
        return None
    root_name, global_root, group_root = root
    if global_root is None and group_root is None:
        global_root = 0
    root_rank = _root(pg, global_root, group_root, root_name)
    impl = _backend(pg, tensor)
    (buffer,) = _buffers(impl, tensor)
    role = "destination" if root_name == "dst" else "source"
    if not _root_with_list(pg, root_rank, blocks, f"{what}_list", role):
        return _done(elsewhere(impl, buffer, root_rank), async_op)
    return _done(at_root(pg, impl, buffer, root_rank), async_op)


def gather(tensor, gather_list=None, dst=None, group=None, async_op: bool = False,
           group_dst=None):  # fmt: skip
    """Collect every rank's ``tensor`` into ``gather_list`` on rank ``dst``."""

    def at_root(pg, impl, source, root):
        output = torch.empty((pg.size(), *tensor.shape), dtype=tensor.dtype, device=tensor.device)
        work = impl.gather(impl.buffer(output), source, root)
        return _then(work, lambda: _copy_blocks(gather_list, output), gather_list)

    return _rooted_list_op(
        "gather", tensor, gather_list, group, ("dst", dst, group_dst), async_op, at_root,
        elsewhere=lambda impl, source, root: impl.gather(None, source, root),
    )  # fmt: skip


def scatter(tensor, scatter_list=None, src=None, group=None, async_op: bool = False,
            group_src=None):  # fmt: skip
    """Rank ``src`` sends ``scatter_list[r]`` to rank r's ``tensor``."""

    def at_root(_pg, impl, output, root):
        _same_dtype([tensor, *scatter_list], "scatter")
        source = _stacked(scatter_list, tensor.shape)
        return impl.scatter(output, impl.buffer(source), root)

    return _rooted_list_op(
        "scatter", tensor, scatter_list, group, ("src", src, group_src), async_op, at_root,
        elsewhere=lambda impl, output, root: impl.scatter(output, None, root),
    )  # fmt: skip


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op: bool = False):
    """Reduce ``input_list[r]`` over the ranks into rank r's ``output``."""
    pg = _checked_group(group, "reduce_scatter", output=output, input_list=input_list)
    if pg is None:
        return None
    _check_list_length(input_list, pg, "reduce_scatter", "input_list")
    _same_dtype([output, *input_list], "reduce_scatter")
    impl = _backend(pg, output)
    source = _stacked(input_list, output.shape)
    target, source = _buffers(impl, output, source)
    return _done(impl.reduce_scatter(target, source, as_red_op(op)), async_op)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op: bool = False):
    """Reduce ``input`` (world_size blocks along dim 0) and give block r to rank r."""
    pg = _checked_group(group, "reduce_scatter_tensor", output=output, input=input)
    if pg is None:
        return None
    _check_block_sizes(input, output, pg, "reduce_scatter_tensor")
    impl = _backend(pg, output)
    work = impl.reduce_scatter(*_buffers(impl, output, input), as_red_op(op))
    return _done(work, async_op)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                      group=None, async_op: bool = False):  # fmt: skip
    """Split ``input`` along dim 0 (evenly, or by ``input_split_sizes``), send split r
    to rank r, and concatenate what arrives into ``output``."""
    pg = _checked_group(group, "all_to_all_single", output=output, input=input)
    if pg is None:
        return None
    if output.dtype != input.dtype:
        raise RuntimeError(f"all_to_all_single: output and input must have the same dtype, "
                           f"got {output.dtype} and {input.dtype}")  # fmt: skip
    send = _counts(input, input_split_sizes, pg.size(), "input")
    recv = _counts(output, output_split_sizes, pg.size(), "output")
    impl = _backend(pg, input)
    work = impl.all_to_all(*_buffers(impl, output, input), send, recv)
    return _done(work, async_op)


def _counts(tensor, split_sizes, size: int, name: str) -> list[int]:
    """Element counts per rank of a dim-0 split."""
    rows = tensor.shape[0] if tensor.dim() else 1
    row = tensor.numel() // rows if rows else 0
    if not split_sizes:
        if rows % size:
            raise ValueError(f"all_to_all_single: {name} dim 0 ({rows}) must divide by the "
                             f"world size ({size}) when no split sizes are given")  # fmt: skip
        return [rows // size * row] * size
    if len(split_sizes) != size or sum(split_sizes) != rows:
        raise ValueError(f"all_to_all_single: {name}_split_sizes {list(split_sizes)} must have "
                         f"{size} entries summing to dim 0 ({rows})")  # fmt: skip
    return [int(s) * row for s in split_sizes]


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op: bool = False):
    """Rank r sends ``input_tensor_list[q]`` to rank q, which receives it in
    ``output_tensor_list[r]``."""
    pg = _checked_group(
        group,
        "all_to_all",
        output_tensor_list=output_tensor_list,
        input_tensor_list=input_tensor_list,
    )
    if pg is None:
        return None
    _check_list_length(input_tensor_list, pg, "all_to_all", "input_tensor_list")
    _check_list_length(output_tensor_list, pg, "all_to_all", "output_tensor_list")
    _same_dtype([*input_tensor_list, *output_tensor_list], "all_to_all")
    first = input_tensor_list[0]
    impl = _backend(pg, first)
    source = torch.cat([t.detach().reshape(-1) for t in input_tensor_list])
    send = [t.numel() for t in input_tensor_list]
    recv = [t.numel() for t in output_tensor_list]
    output = torch.empty(sum(recv), dtype=first.dtype, device=first.device)

    def copy_out():
        with torch.no_grad():
            at = 0
            for target in output_tensor_list:
                target.copy_(output[at : at + target.numel()].view(target.shape))
                at += target.numel()

    work = impl.all_to_all(*_buffers(impl, output, source), send, recv, kind="all_to_all")
    return _done(_then(work, copy_out, output_tensor_list), async_op)


def barrier(group=None, async_op: bool = False, device_ids=None):
    """Wait until every rank of the group has called it."""
    pg = _group_or_none(group, "barrier")
    if pg is None:
        return None
    impl = pg._impls.get("cpu") or next(iter(pg._impls.values()))
    return _done(impl.barrier(), async_op)


# ------------------------------------------------------------------------ point to point
def _peer(pg, global_rank, group_rank, name: str) -> int:
    peer = _root(pg, global_rank, group_rank, name)
    if peer == pg.rank():
        raise ValueError("Invalid destination rank: should not be the same as the rank of "
                         "the current process.")  # fmt: skip
    return peer


def isend(tensor, dst=None, group=None, tag: int = 0, group_dst=None) -> Work | None:
    """Start sending ``tensor`` to rank ``dst``; a :class:`Work` to wait on."""
    pg = _checked_group(group, "isend", tensor=tensor)
    if pg is None:
        return None
    impl = _backend(pg, tensor)
    return impl.send(impl.buffer(tensor), _peer(pg, dst, group_dst, "dst"), tag)


def irecv(tensor, src=None, group=None, tag: int = 0, group_src=None) -> Work | None:
    """Start receiving into ``tensor`` from rank ``src`` (any rank when None)."""
    pg = _checked_group(group, "irecv", tensor=tensor)
    if pg is None:
        return None
    peer = None if src is None and group_src is None else _peer(pg, src, group_src, "src")
    impl = _backend(pg, tensor)
    work, _ = impl.recv(impl.buffer(tensor), peer, tag)
    return work


def send(tensor, dst=None, group=None, tag: int = 0, group_dst=None) -> None:
    """Send ``tensor`` to rank ``dst`` and wait until it is delivered."""
    work = isend(tensor, dst, group, tag, group_dst)
    if work is not None:
        work.wait()


def recv(tensor, src=None, group=None, tag: int = 0, group_src=None) -> int:
    """Receive into ``tensor`` from rank ``src`` (any rank when None); the sender's
    global rank (-1 when this rank is not in the group)."""
    pg = _checked_group(group, "recv", tensor=tensor)
    if pg is None:
        return -1
    peer = None if src is None and group_src is None else _peer(pg, src, group_src, "src")
    impl = _backend(pg, tensor)
    work, sender = impl.recv(impl.buffer(tensor), peer, tag)
    work.wait()
    return pg._global_ranks[sender[0]]


class P2POp:
    """One send or receive for :func:`batch_isend_irecv`: ``op`` is :func:`isend` or
    :func:`irecv`."""

    def __init__(self, op, tensor, peer=None, group=None, tag: int = 0, group_peer=None):
        if op not in (isend, irecv):
            raise ValueError(
                "Invalid ``op``. Expected ``op`` to be of type "
                "``torch.distributed.isend`` or ``torch.distributed.irecv``."
            )
        self.op, self.tensor, self.peer, self.group, self.tag = op, tensor, peer, group, tag
        self.group_peer = group_peer


def batch_isend_irecv(p2p_op_list: list[P2POp]) -> list[Work]:
    """Start every send and receive of the list; their work handles."""
    works = []
    for p2p in p2p_op_list:
        works.append(p2p.op(p2p.tensor, p2p.peer, p2p.group, p2p.tag, p2p.group_peer))
    return works
