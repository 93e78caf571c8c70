"""The gradient reducer of DistributedDataParallel: buckets, hooks and the order in
which buckets are reduced.

Parameters are grouped into buckets of about ``bucket_cap_mb`` (the first one smaller,
so communication starts early), in reverse registration order, which is roughly the
order backward produces their gradients. A hook after each parameter's gradient
accumulation marks it ready; a bucket whose parameters are all ready is handed to the
communication hook, always in bucket order, so every rank issues the same collectives
in the same order. When the last bucket is launched, all of them are awaited and the
averaged gradients written back to ``param.grad``.
"""

from __future__ import annotations

import torch

from ._work import Future

__all__ = ["GradBucket", "Reducer"]

# PyTorch's default size of the first bucket
_FIRST_BUCKET_BYTES = 1024 * 1024


class GradBucket:
    """What a communication hook receives: one bucket's flat gradient buffer and the
    parameters whose gradients it holds."""

    def __init__(self, index: int, params: list, buffer: torch.Tensor, is_last: bool) -> None:
        self._index = index
        self._params = params
        self._buffer = buffer
        self._is_last = is_last
        self._offsets = []
        at = 0
        for p in params:
            self._offsets.append((at, p.numel()))
            at += p.numel()

    def index(self) -> int:
        """The bucket's position (0 is reduced first)."""
        return self._index

    def buffer(self) -> torch.Tensor:
        """The flat 1-D gradient buffer."""
        return self._buffer

    def set_buffer(self, buffer: torch.Tensor) -> None:
        """Replace the bucket's contents by ``buffer`` (same size)."""
        self._buffer.copy_(buffer)

    def gradients(self) -> list[torch.Tensor]:
        """The gradients of ``parameters()``, as views of the buffer."""
        return [
            self._buffer[a : a + n].view(p.shape) for (a, n), p in zip(self._offsets, self._params)
        ]

    def parameters(self) -> list[torch.Tensor]:
        """The parameters whose gradients the bucket holds."""
        return list(self._params)

    def is_last(self) -> bool:
        """Whether this is the last bucket of the iteration."""
        return self._is_last


def _assign_buckets(params: list, cap_bytes: int) -> list[list]:
    """Buckets of parameters (reverse order, one dtype per bucket)."""
    buckets, open_by_dtype = [], {}
    limit = min(_FIRST_BUCKET_BYTES, cap_bytes)
    for param in reversed(params):
        size = param.numel() * param.element_size()
        current = open_by_dtype.get(param.dtype)
        if current is None or current[1] + size > limit and current[0]:
            current = [[], 0]
            open_by_dtype[param.dtype] = current
            buckets.append(current[0])
            if len(buckets) > 1:
                limit = cap_bytes
        current[0].append(param)
        current[1] += size
    return buckets


class Reducer:
    """Holds the buckets and the per-iteration state of gradient reduction."""

    def __init__(self, params: list, cap_bytes: int, hook, state, gradient_as_bucket_view: bool):
        self.params = params
        self.buckets_params = _assign_buckets(params, cap_bytes)
        # a bucket lives on its parameters' device (a CUDA module's on its GPU)
        self.buffers = [torch.zeros(sum(p.numel() for p in ps), dtype=ps[0].dtype,
                                    device=ps[0].device) for ps in self.buckets_params]  # fmt: skip
        self.bucket_of = {}
        for index, ps in enumerate(self.buckets_params):
            for p in ps:
                self.bucket_of[id(p)] = index
        self.hook, self.state = hook, state
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.enabled = True
        # gradient_as_bucket_view: the bucket views last given to param.grad
        self.views: dict[int, torch.Tensor] = {}
        self._hook_handles = [self._watch(p) for p in params]
        self._reset()

    def _watch(self, param):
        accumulate = param.view_as(param).grad_fn.next_functions[0][0]
        handle = accumulate.register_hook(lambda *_: self._mark_ready(param))
        return accumulate, handle  # the node must stay alive for the hook to fire

    def _reset(self) -> None:
        self.pending = [len(ps) for ps in self.buckets_params]
        self.ready = [False] * len(self.buckets_params)
        self.ready_params: set[int] = set()
        self.next_launch = 0
        self.futures: list[Future | None] = [None] * len(self.buckets_params)
        self.in_progress = False

    # -- during backward -------------------------------------------------------------
    def prepare(self, unused: list) -> None:
        """Start an iteration; ``unused``: parameters the forward did not use (their
        gradients count as zero)."""
        self._reset()
        self.in_progress = True
        self._unused = unused

    def _mark_ready(self, param) -> None:
        if not (self.enabled and self.in_progress):
            return
        if self._unused:
            unused, self._unused = self._unused, []
            for p in unused:
                self._mark_ready(p)
        if id(param) in self.ready_params:
            return
        self.ready_params.add(id(param))
        index = self.bucket_of[id(param)]
        self.pending[index] -= 1
        if self.pending[index] == 0:
            self.ready[index] = True
            self._launch_ready()

    def _launch_ready(self) -> None:
        while self.next_launch < len(self.ready) and self.ready[self.next_launch]:
            index = self.next_launch
            self.next_launch += 1
            self.futures[index] = self._launch(index)
        if self.next_launch == len(self.ready):
            self._finish()

    def _launch(self, index: int) -> Future:
        params, buffer = self.buckets_params[index], self.buffers[index]
        if not self.gradient_as_bucket_view or not self._grads_are_views(index):
            at = 0
            with torch.no_grad():
                for p in params:
                    n = p.numel()
                    if p.grad is None:
                        buffer[at : at + n].zero_()
                    else:
                        buffer[at : at + n].copy_(p.grad.reshape(-1))
                    at += n
        bucket = GradBucket(index, params, buffer, index == len(self.buffers) - 1)
        return self.hook(self.state, bucket)

    def _grads_are_views(self, index: int) -> bool:
        return all(self.views.get(id(p)) is p.grad for p in self.buckets_params[index])

    def _finish(self) -> None:
        """Wait for every bucket and write the reduced gradients to ``param.grad``."""
        self.in_progress = False
        with torch.no_grad():
            for index, future in enumerate(self.futures):
                result = future.wait()
                buffer = self.buffers[index]
                if result is not buffer:
                    buffer.copy_(result)
                self._write_grads(index)

    def _write_grads(self, index: int) -> None:
        at = 0
        buffer = self.buffers[index]
        for p in self.buckets_params[index]:
            n = p.numel()
            view = buffer[at : at + n].view(p.shape)
            at += n
            if self.gradient_as_bucket_view:
                p.grad = view
                self.views[id(p)] = view
            elif p.grad is None:
                p.grad = view.clone()
            else:
                p.grad.copy_(view)

    def unfinished(self) -> list[int]:
        """Indices of the parameters whose gradients were not reduced last iteration."""
        if not self.in_progress:
            return []
        return [i for i, p in enumerate(self.params) if id(p) not in self.ready_params]

    def reduce_zeros(self) -> None:
        """Shadow one iteration's reductions with zero gradients (a rank that ran out of
        inputs under ``join()``)."""
        for index, params in enumerate(self.buckets_params):
            self.buffers[index].zero_()
            bucket = GradBucket(index, params, self.buffers[index], index == len(self.buffers) - 1)
            self.hook(self.state, bucket).wait()
