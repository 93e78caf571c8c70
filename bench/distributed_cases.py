"""torch-distributed timings (run by ``nox -s bench``; needs the ``mpi`` extra).

    python bench/distributed_cases.py            # starts its own 2 local processes

1. all_reduce bandwidth from 1 KB to 64 MB: ``torch.distributed.all_reduce`` on a
   float32 tensor against mpi4py's ``Allreduce`` called directly on the same buffer and
   communicator (so the ratio is this package's overhead: argument checks, the
   agreement exchange, polling). The two are timed in alternating rounds; the ratio
   is the median of each round pair's ratio (a slow spell of a shared machine slows
   both calls of a pair alike), "best" the ratio of the fastest rounds.
2. A DistributedDataParallel training step on 2 processes (half the batch each)
   against one process on the whole batch.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import time

SIZES = [1 << 10, 16 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20]
BATCH = 64


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _timed(fn, barrier, repeat: int, rounds: int = 5) -> float:
    """Median over rounds of the mean seconds per call."""
    fn()
    samples = []
    for _ in range(rounds):
        barrier()
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        samples.append((time.perf_counter() - start) / repeat)
    return statistics.median(samples)


def _timed_pair(first, second, barrier, repeat: int, rounds: int = 25) -> tuple[list, list]:
    """Seconds per call of ``first`` and ``second`` in each round, measured in
    alternating rounds (so that a slow spell of a loaded machine hits both alike); which
    one goes first alternates too (the first timing after the other's runs slower)."""
    first()
    second()
    samples: tuple[list, list] = ([], [])
    pair = ((first, samples[0]), (second, samples[1]))
    for round_ in range(rounds):
        for fn, out in pair if round_ % 2 == 0 else pair[::-1]:
            barrier()
            start = time.perf_counter()
            for _ in range(repeat):
                fn()
            out.append((time.perf_counter() - start) / repeat)
    return samples


def bandwidth(rank: int) -> list[dict]:
    from mpi4py import MPI

    import torch
    import torch.distributed as dist

    comm = dist.group.WORLD._impl.comm  # the group's own communicator
    rows = []
    for size in SIZES:
        tensor = torch.ones(size // 4)
        array = tensor.numpy()
        repeat = max(4, min(100, (8 << 20) // size))
        ours, direct = _timed_pair(  # the rounds' times
            lambda t=tensor: dist.all_reduce(t),
            lambda a=array: comm.Allreduce(MPI.IN_PLACE, a),
            comm.Barrier,
            repeat,
        )
        rows.append({"bytes": size, "ours_s": statistics.median(ours),
                     "mpi4py_s": statistics.median(direct),
                     "ratio": statistics.median(a / b for a, b in zip(ours, direct)),
                     "best_ratio": min(ours) / min(direct)})  # fmt: skip
    return rows


def _model():
    import torch
    from torch import nn

    torch.manual_seed(0)
    return nn.Sequential(
        nn.Conv2d(1, 16, 3), nn.ReLU(), nn.Conv2d(16, 32, 3), nn.ReLU(), nn.Flatten(),
        nn.Linear(32 * 24 * 24, 128), nn.ReLU(), nn.Linear(128, 10),
    )  # fmt: skip


def ddp_step(world: int) -> float:
    import torch
    import torch.distributed as dist
    from torch import nn

    model = _model()
    if world > 1:
        model = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(BATCH // world, 1, 28, 28)
    y = torch.randint(0, 10, (BATCH // world,))

    def step():
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()

    barrier = dist.barrier if world > 1 else (lambda: None)
    return _timed(step, barrier, repeat=3)


def worker() -> None:
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    result = {"bandwidth": bandwidth(rank), "ddp_2": ddp_step(2)}
    if rank == 0:
        print(json.dumps(result))
    dist.destroy_process_group()


def main() -> None:
    if os.environ.get("BENCH_WORKER"):
        worker()
        return
    port = _free_port()
    procs = []
    for rank in range(2):
        env = dict(os.environ, BENCH_WORKER="1", RANK=str(rank), WORLD_SIZE="2",
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), OMP_NUM_THREADS="1")  # fmt: skip
        procs.append(subprocess.Popen([sys.executable, __file__], env=env, stdout=subprocess.PIPE,
                                      text=True))  # fmt: skip
    out = procs[0].communicate()[0]
    procs[1].wait()
    result = json.loads(out.strip().splitlines()[-1])
    os.environ["OMP_NUM_THREADS"] = "1"
    one = ddp_step(1)
    # medians of alternating rounds; "ratio": the median of the round pairs' ratios;
    # "best": the ratio of the fastest rounds, which a shared machine disturbs least
    print(f"{'all_reduce (2 processes)':<26}{'ours':>12}{'mpi4py':>12}{'ratio':>8}{'best':>7}"
          f"{'ours GB/s':>11}")  # fmt: skip
    for row in result["bandwidth"]:
        size = row["bytes"]
        label = f"{size >> 20} MB" if size >= 1 << 20 else f"{size >> 10} KB"
        ratio = row["ratio"]
        gbps = size / row["ours_s"] / 1e9
        print(f"{label:<26}{row['ours_s'] * 1e6:10.1f}us{row['mpi4py_s'] * 1e6:10.1f}us"
              f"{ratio:8.2f}{row['best_ratio']:7.2f}{gbps:11.2f}")  # fmt: skip
    print(f"DDP step, batch {BATCH}: 1 process {one * 1e3:.1f} ms, "
          f"2 processes (DDP, {BATCH // 2} each) {result['ddp_2'] * 1e3:.1f} ms, "
          f"speed-up {one / result['ddp_2']:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
