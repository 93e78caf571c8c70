"""Bench cases of torch.multiprocessing (issue 9): a 100 MB tensor through a Queue to a
child process that reads it and answers, and how much private memory the child needs for
it (a copy of the data would show there; mapped shared memory does not)."""

from __future__ import annotations

import statistics
import time

import torch
import torch.multiprocessing as mp

_ELEMENTS = 25_000_000  # 100 MB of float32


def _anon_kb() -> int:
    # private (anonymous) resident memory: a copy of the data would land here
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    return 0


def _reader(queue, answers) -> None:
    while (tensor := queue.get()) is not None:
        before = _anon_kb()
        total = float(tensor.sum())  # reads every element
        answers.put((total, _anon_kb() - before))
        del tensor


def multiprocessing_cases(rounds: int = 7) -> dict:
    # spawn, not fork: a child forked after PyTorch's intra-op thread pool ran hangs in its
    # first parallel op (seen with PyTorch 2.13: the reader blocked in tensor.sum())
    context = mp.get_context("spawn")
    queue, answers = context.Queue(), context.Queue()
    reader = context.Process(target=_reader, args=(queue, answers), daemon=True)
    reader.start()
    results = {}
    for label, pre_shared in (("", False), (", already shared", True)):
        times, growth = [], []
        for round_ in range(rounds):
            tensor = torch.full((_ELEMENTS,), float(round_))
            if pre_shared:
                tensor.share_memory_()
            start = time.perf_counter()
            queue.put(tensor)
            _, child_growth = answers.get()
            times.append(time.perf_counter() - start)
            growth.append(child_growth)
            del tensor
        results[f"mp Queue 100 MB tensor{label}"] = statistics.median(times) * 1e6
        results[f"mp Queue 100 MB{label}: child KB"] = float(statistics.median(growth))
    queue.put(None)
    reader.join(30)
    return results


if __name__ == "__main__":
    import json

    print(json.dumps(multiprocessing_cases()))
