"""Bench cases of torch.save / torch.load (issue 8): a 1 GiB state_dict (16 float32
tensors of 64 MiB) saved to a file, loaded, and loaded with mmap=True, with the private
memory the mapped load takes (a read of the data would show there; a mapping does not)."""

from __future__ import annotations

import os
import statistics
import tempfile
import time

import torch

_TENSORS, _ELEMENTS = 16, 1 << 24  # 16 x 64 MiB of float32 = 1 GiB


def _anon_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    return 0


def _median_us(run, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def serialization_cases(rounds: int = 3) -> dict:
    state = {f"layer{i}.weight": torch.ones(_ELEMENTS) for i in range(_TENSORS)}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "state.pt")
        save = _median_us(lambda: torch.save(state, path), rounds)
        load = _median_us(lambda: torch.load(path), rounds)
        mapped = _median_us(lambda: torch.load(path, mmap=True), rounds * 3)
        before = _anon_kb()
        kept = torch.load(path, mmap=True)
        growth = _anon_kb() - before
        del kept
    return {
        "torch.save 1 GiB state_dict to a file": save,
        "torch.load 1 GiB state_dict": load,
        "torch.load 1 GiB state_dict, mmap=True": mapped,
        "mmap=True load: private memory growth (KB)": float(growth),
    }
