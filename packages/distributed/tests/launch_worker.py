"""A worker for the launcher tests: joins the group, all-reduces, and fails on request.

torchrun ... launch_worker.py [ok|raise|die]
"""

import datetime
import os
import sys

import torch
import torch.distributed as dist

backend = os.environ.get("CASE_BACKEND", "gloo")
dist.init_process_group(backend, timeout=datetime.timedelta(seconds=20))
rank = dist.get_rank()
t = torch.ones(1) * (rank + 1)
dist.all_reduce(t)
keys = ["RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"]
line = " ".join(map(str, [rank, int(t.item()), *(os.environ.get(k, "-") for k in keys)]))
# one write per line: print's separate newline lets the two ranks' output interleave
os.write(1, (line + "\n").encode())
if os.environ.get("WORKER_OUT"):  # mpiexec may interleave the ranks' stdout: a file each
    with open(os.path.join(os.environ["WORKER_OUT"], f"{rank}.txt"), "w") as out:
        out.write(line)
mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
if mode == "raise" and rank == 1:
    raise ValueError("worker 1 gives up")
if mode == "die" and rank == 1:
    os._exit(9)
dist.barrier()
dist.destroy_process_group()
