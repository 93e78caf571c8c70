"""Multi-process cases, run the same way under this project and under real PyTorch
(tools/golden/record_distributed.py records the latter's results as goldens).

    python dist_cases.py CASE OUT_DIR        # one rank; RANK, WORLD_SIZE, MASTER_* from env

Each case is a function of (rank, world) that returns a JSON-able dict; ``run_job``
starts ``world`` such processes and collects each rank's dict (or its failure).
"""

from __future__ import annotations

import json
import os
import pathlib
import socket
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
OPS = ["SUM", "PRODUCT", "MIN", "MAX", "AVG", "BAND", "BOR", "BXOR"]
DTYPES = ["float32", "float64", "int32", "int64", "uint8", "bool", "bfloat16", "float16"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_job(case: str, world: int, tmp_path, python: str = sys.executable, timeout: float = 60,
            env: dict | None = None) -> list[dict]:  # fmt: skip
    """Run ``case`` on ``world`` processes; per rank: {"rc", "result", "stderr"}."""
    port = free_port()
    procs = []
    for rank in range(world):
        rank_env = dict(os.environ, RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world),
                        MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), **(env or {}))  # fmt: skip
        rank_env.pop("TORCHELASTIC_USE_AGENT_STORE", None)
        command = [python, str(HERE / "dist_cases.py"), case, str(tmp_path)]
        procs.append(subprocess.Popen(command, env=rank_env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))  # fmt: skip
    results = []
    for rank, proc in enumerate(procs):
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
            raise
        path = pathlib.Path(tmp_path) / f"{case}-{rank}.json"
        result = json.loads(path.read_text()) if path.exists() else None
        results.append({"rc": proc.returncode, "result": result, "stderr": err})
    return results


def run_mpiexec(case: str, world: int, tmp_path, timeout: float = 120,
                env: dict | None = None) -> list[dict]:  # fmt: skip
    """Run ``case`` under ``mpiexec -n world`` with the ``mpi`` backend."""
    import shutil

    mpiexec = shutil.which("mpiexec", path=os.path.dirname(sys.executable))
    mpiexec = mpiexec or shutil.which("mpiexec")
    env = dict(os.environ, CASE_BACKEND="mpi", **(env or {}))
    command = [mpiexec, "-n", str(world), sys.executable, str(HERE / "dist_cases.py"), case]
    done = subprocess.run(
        [*command, str(tmp_path)], env=env, capture_output=True, text=True, timeout=timeout
    )
    results = []
    for rank in range(world):
        path = pathlib.Path(tmp_path) / f"{case}-{rank}.json"
        result = json.loads(path.read_text()) if path.exists() else None
        results.append({"rc": done.returncode, "result": result, "stderr": done.stderr})
    return results


# ------------------------------------------------------------------------------ cases
def _outcome(fn):
    try:
        return fn()
    except Exception as error:  # the error's type is what both implementations share
        return f"error: {type(error).__name__}"


def _device() -> str:
    """Where the cases put their tensors: ``cuda`` for the nccl backend (each rank on
    the device of its LOCAL_RANK), else the CPU."""
    return "cuda" if os.environ.get("CASE_BACKEND") == "nccl" else "cpu"


def _values(torch, rank: int, dtype: str):
    dt = getattr(torch, dtype)
    if dtype == "bool":
        return torch.tensor([rank % 2 == 0, True, False, rank == 1], device=_device())
    return torch.tensor([rank + 1, 2 * rank + 3, 7 - rank, 5], dtype=dt, device=_device())


def _as_list(tensor):
    if tensor.dtype.is_floating_point:
        return [round(float(v), 4) for v in tensor.float().reshape(-1).tolist()]
    return tensor.reshape(-1).tolist()


def case_reduce_ops(rank: int, world: int) -> dict:
    """all_reduce of every ReduceOp over every dtype."""
    import torch
    import torch.distributed as dist

    out = {}
    for op in OPS:
        for dtype in DTYPES:

            def run(op=op, dtype=dtype):
                t = _values(torch, rank, dtype)
                dist.all_reduce(t, op=getattr(dist.ReduceOp, op))
                return _as_list(t)

            out[f"{op}/{dtype}"] = _outcome(run)
    return out


def case_collectives(rank: int, world: int) -> dict:
    """One call of each collective, with rank-dependent inputs."""
    import torch
    import torch.distributed as dist

    last = world - 1
    dev = _device()
    base = torch.arange(4.0, device=dev) + 10 * rank
    out = {"rank": dist.get_rank(), "world": dist.get_world_size(),
           "backend": str(dist.get_backend())}  # fmt: skip

    def reduce():
        t = base.clone()
        dist.reduce(t, dst=last)
        return _as_list(t) if rank == last else "not root"

    def broadcast():
        t = base.clone()
        dist.broadcast(t, src=1)
        return _as_list(t)

    def all_gather():
        parts = [torch.zeros(4, device=dev) for _ in range(world)]
        dist.all_gather(parts, base)
        return [_as_list(p) for p in parts]

    def all_gather_into_tensor():
        flat = torch.zeros(4 * world, device=dev)
        dist.all_gather_into_tensor(flat, base)
        return _as_list(flat)

    def all_gather_into_tensor_2d():
        rows = torch.zeros(2 * world, 2, device=dev)
        dist.all_gather_into_tensor(rows, base.view(2, 2))
        return _as_list(rows)

    def gather():
        parts = [torch.zeros(4, device=dev) for _ in range(world)] if rank == 0 else None
        dist.gather(base, parts, dst=0)
        return [_as_list(p) for p in parts] if rank == 0 else "not root"

    def scatter():
        t = torch.zeros(2, device=dev)
        chunks = None
        if rank == 1:
            chunks = [torch.tensor([r, 100.0 + r], device=dev) for r in range(world)]
        dist.scatter(t, chunks, src=1)
        return _as_list(t)

    def reduce_scatter():
        t = torch.zeros(2, device=dev)
        dist.reduce_scatter(t, [torch.tensor([r, rank + 1.0], device=dev) for r in range(world)])
        return _as_list(t)

    def reduce_scatter_tensor():
        t = torch.zeros(2, device=dev)
        dist.reduce_scatter_tensor(t, torch.arange(2.0 * world, device=dev) * (rank + 1))
        return _as_list(t)

    def all_to_all():
        outs = [torch.zeros(2, device=dev) for _ in range(world)]
        dist.all_to_all(outs, [torch.tensor([rank, 10.0 * r], device=dev) for r in range(world)])
        return [_as_list(o) for o in outs]

    def all_to_all_single():
        even = torch.zeros(world, device=dev)
        dist.all_to_all_single(even, torch.arange(float(world), device=dev) + 100 * rank)
        # rank r sends r+1 rows to rank 0 and one row to each other rank
        send = [rank + 1] + [1] * (world - 1)
        recv = [r + 1 for r in range(world)] if rank == 0 else [1] * world
        uneven = torch.zeros(sum(recv), 2, device=dev)
        rows = torch.arange(float(sum(send) * 2), device=dev).view(-1, 2) + 1000 * rank
        dist.all_to_all_single(uneven, rows, recv, send)
        return [_as_list(even), _as_list(uneven)]

    def point_to_point():
        right, left = (rank + 1) % world, (rank - 1) % world
        got = torch.zeros(2, device=dev)
        if rank % 2 == 0:
            dist.send(base[:2].clone(), right)
            sender = dist.recv(got, left)
        else:
            sender = dist.recv(got, left)
            dist.send(base[:2].clone(), right)
        got2 = torch.zeros(2, device=dev)
        works = [dist.isend(base[2:].clone(), right), dist.irecv(got2, left)]
        for w in works:
            w.wait()
        done = all(w.is_completed() for w in works)
        return [sender, _as_list(got), _as_list(got2), done]

    def async_all_reduce():
        t = torch.ones(3, device=dev) * (rank + 1)
        work = dist.all_reduce(t, async_op=True)
        work.wait()
        return [_as_list(t), work.is_completed()]

    def objects():
        gathered = [None] * world
        dist.all_gather_object(gathered, {"rank": rank, "sq": [rank] * rank})
        listed = [f"from {rank}", rank] if rank == 0 else [None, None]
        dist.broadcast_object_list(listed, src=0)
        at_root = [None] * world if rank == 0 else None
        dist.gather_object(("g", rank), at_root, dst=0)
        mine = [None]
        dist.scatter_object_list(
            mine, [{"to": r} for r in range(world)] if rank == 0 else None, src=0
        )
        return [gathered, listed, at_root, mine]

    def subgroup():
        evens = dist.new_group([r for r in range(world) if r % 2 == 0])
        t = torch.tensor([rank + 1.0], device=dev)
        if rank % 2 == 0:
            dist.all_reduce(t, group=evens)
            return [_as_list(t), dist.get_rank(evens), dist.get_world_size(evens)]
        return [_as_list(t), dist.get_rank(evens), dist.get_world_size(evens)]

    def barriers():
        dist.barrier()
        dist.monitored_barrier()
        return "ok"

    for name, fn in list(locals().items()):
        if callable(fn) and name not in ("torch", "dist", "base", "dev"):
            out[name] = _outcome(fn)
    return out


def case_in_place(rank: int, world: int) -> dict:
    """all_reduce (and reduce, broadcast) work in the tensor's own memory: blocking and
    async calls, every ReduceOp, views into a larger tensor, transposed tensors, a leaf
    that requires grad, the work handles."""
    import torch
    import torch.distributed as dist

    dev = _device()
    out = {}

    def ops(async_op: bool):
        results = {}
        for op in OPS:
            dtype = torch.int64 if op in ("BAND", "BOR", "BXOR") else torch.float32
            t = torch.tensor([rank + 1, 2 * rank + 3, 7 - rank], dtype=dtype, device=dev)
            ptr = t.data_ptr()
            work = dist.all_reduce(t, op=getattr(dist.ReduceOp, op), async_op=async_op)
            if async_op:
                assert work.wait() and work.is_completed() and work.result()[0] is t
            results[op] = [_as_list(t), t.data_ptr() == ptr, work is None]
        return results

    def view_of_larger():
        whole = torch.arange(8.0, device=dev) + 10 * rank
        dist.all_reduce(whole[2:5], op=dist.ReduceOp.MAX)
        return _as_list(whole)

    def transposed():
        t = (torch.arange(6.0, device=dev).view(2, 3) + 10 * rank).t()
        dist.all_reduce(t)
        return [_as_list(t), list(t.stride())]

    def transposed_async_avg():
        t = (torch.arange(6.0, device=dev).view(2, 3) * (rank + 1)).t()
        work = dist.all_reduce(t, op=dist.ReduceOp.AVG, async_op=True)
        work.wait()
        return _as_list(work.result()[0])

    def reduce_broadcast_transposed():
        r = (torch.arange(6.0, device=dev).view(2, 3) + rank).t()
        dist.reduce(r, dst=0)
        b = (torch.arange(6.0, device=dev).view(3, 2) + rank).t()
        dist.broadcast(b, src=1)
        return [_as_list(r) if rank == 0 else "not root", _as_list(b)]

    def leaf_requiring_grad():
        p = torch.full((2,), rank + 1.0, device=dev, requires_grad=True)
        dist.all_reduce(p)
        return [_as_list(p.detach()), p.requires_grad, p.grad_fn is None]

    def half_avg_async():
        t = torch.tensor([rank + 1.0, 0.5], dtype=torch.float16, device=dev)
        dist.all_reduce(t, op=dist.ReduceOp.AVG, async_op=True).wait()
        return _as_list(t)

    def future():
        t = torch.ones(2, device=dev) * (rank + 1)
        got = dist.all_reduce(t, async_op=True).get_future().wait()
        return [_as_list(got[0]), got[0] is t]

    out["blocking"] = ops(async_op=False)
    out["async"] = ops(async_op=True)
    for name, fn in [("view_of_larger", view_of_larger), ("transposed", transposed),
                     ("transposed_async_avg", transposed_async_avg),
                     ("reduce_broadcast_transposed", reduce_broadcast_transposed),
                     ("leaf_requiring_grad", leaf_requiring_grad),
                     ("half_avg_async", half_avg_async), ("future", future)]:  # fmt: skip
        out[name] = _outcome(fn)
    return out


def case_strided(rank: int, world: int) -> dict:
    """Tensors with gaps (every other column): reduced, broadcast and reduced to a root
    as their elements say (PyTorch's gloo reads the memory as if it were contiguous and
    gives rank-dependent results there, so this case has no golden)."""
    import torch
    import torch.distributed as dist

    def strided(offset):
        whole = torch.arange(12.0).view(3, 4) + offset
        return whole, whole[:, ::2]

    out = {}
    whole, part = strided(10 * rank)
    dist.all_reduce(part, op=dist.ReduceOp.SUM, async_op=True).wait()
    out["all_reduce"] = [whole.tolist(), part.tolist()]
    whole, part = strided(rank)
    dist.broadcast(part, src=world - 1)
    out["broadcast"] = whole.tolist()
    whole, part = strided(rank)
    dist.reduce(part, dst=0, op=dist.ReduceOp.MAX)
    out["reduce"] = whole.tolist()
    return out


def _digits_net(torch, nn):
    """The CNN of examples/digits/main.py (two 3x3 convolutions with max pooling, two
    fully connected layers), without its dropout: random masks could not agree between
    one process and several. ``spare`` is a layer forward never uses."""
    functional = nn.functional

    class DigitsNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
            self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
            self.fc1 = nn.Linear(32 * 2 * 2, 64)
            self.fc2 = nn.Linear(64, 10)
            self.spare = nn.Linear(3, 3)

        def forward(self, x):
            x = functional.max_pool2d(functional.relu(self.conv1(x)), 2)
            x = functional.max_pool2d(functional.relu(self.conv2(x)), 2)
            x = functional.relu(self.fc1(torch.flatten(x, 1)))
            return functional.log_softmax(self.fc2(x), dim=1)

    return DigitsNet


_DIGITS = []


def _digits():
    """scikit-learn's digits (images, targets): from the .npz file that DIGITS_FILE
    names (the tests write it once: importing scikit-learn in every rank is slow), else
    from scikit-learn."""
    if not _DIGITS:
        import numpy as np

        path = os.environ.get("DIGITS_FILE")
        if path:
            with np.load(path) as data:
                _DIGITS.append((data["images"], data["target"]))
        else:
            from sklearn.datasets import load_digits

            digits = load_digits()
            _DIGITS.append((digits.images, digits.target))
    return _DIGITS[0]


def _ddp_setup(world: int, unused_branch: bool = False):
    """A model factory and scikit-learn's digits (8x8 images scaled to [0, 1])."""
    import torch
    from torch import nn

    net_class = _digits_net(torch, nn)

    def make():
        torch.manual_seed(0)
        net = net_class()
        if not unused_branch:
            net.spare.requires_grad_(False)
        return net

    images, target = _digits()
    count = 6 * world * 4
    x = torch.tensor(images[:count], dtype=torch.float32).unsqueeze(1) / 16.0
    y = torch.tensor(target[:count], dtype=torch.int64)
    return make, x, y


def _max_diff(a, b) -> float:
    return max(
        float((p.detach().cpu() - q.detach().cpu()).abs().max())
        for p, q in zip(a.parameters(), b.parameters())
    )


def case_ddp(rank: int, world: int) -> dict:
    """DDP on ``world`` ranks, training the digits CNN, against one process on the
    concatenated batches. With the nccl backend the replicas live on each rank's CUDA
    device (``device_ids=[LOCAL_RANK]``); the reference trains on the CPU."""
    import contextlib

    import torch
    import torch.distributed as dist
    from torch import nn
    from torch.distributed.algorithms.ddp_comm_hooks import default_hooks

    dev = _device()
    device_ids = [int(os.environ["LOCAL_RANK"])] if dev == "cuda" else None

    def wrap(module, **ddp_kwargs):
        return nn.parallel.DistributedDataParallel(
            module.to(dev), device_ids=device_ids, **ddp_kwargs
        )

    def train(steps=3, accumulate=1, hook=None, uneven=False, **ddp_kwargs):
        make, x, y = _ddp_setup(world, ddp_kwargs.get("find_unused_parameters", False))
        model = wrap(make(), **ddp_kwargs)
        if hook is not None:
            model.register_comm_hook(None, hook)
        ref = make()
        opt = torch.optim.SGD(model.parameters(), lr=0.2)
        ref_opt = torch.optim.SGD(ref.parameters(), lr=0.2)
        batch = 6
        my_steps = steps - 1 if uneven and rank == world - 1 else steps
        with model.join(enable=uneven):
            for step in range(my_steps):
                opt.zero_grad()
                for micro in range(accumulate):
                    at = ((step * accumulate + micro) * world + rank) * batch
                    last = micro == accumulate - 1
                    with contextlib.nullcontext() if last else model.no_sync():
                        out = model(x[at : at + batch])  # DDP moves the batch to dev
                        loss = nn.functional.nll_loss(out, y[at : at + batch].to(out.device))
                        (loss / accumulate).backward()
                opt.step()
        for step in range(steps):
            ref_opt.zero_grad()
            total = 0
            for micro in range(accumulate):
                at = (step * accumulate + micro) * world * batch
                ranks = world - 1 if uneven and step == steps - 1 else world
                xs, ys = x[at : at + ranks * batch], y[at : at + ranks * batch]
                total = total + nn.functional.nll_loss(ref(xs), ys) * ranks / world
            (total / accumulate).backward()
            ref_opt.step()
        return _max_diff(model.module, ref)

    variants = {
        "default": lambda: train(),
        "small_buckets": lambda: train(bucket_cap_mb=0.0005),
        "grad_as_bucket_view": lambda: train(gradient_as_bucket_view=True),
        "find_unused": lambda: train(find_unused_parameters=True),
        "static_graph": lambda: train(static_graph=True),
        "no_sync": lambda: train(accumulate=2),
        "fp16_hook": lambda: train(hook=default_hooks.fp16_compress_hook),
        "bf16_hook": lambda: train(hook=default_hooks.bf16_compress_hook),
        "join": lambda: train(uneven=True),
    }
    chosen = os.environ.get("DDP_VARIANTS")  # a comma-separated subset (shorter runs)
    names = chosen.split(",") if chosen else list(variants)
    out = {name: variants[name]() for name in names}
    torch.manual_seed(rank)  # different on each rank: construction must broadcast rank 0's
    model = wrap(nn.Linear(3, 2))
    gathered = [None] * world
    dist.all_gather_object(gathered, model.module.weight.detach().cpu().tolist())
    out["same_initial_weights"] = all(g == gathered[0] for g in gathered)
    out["device"] = str(model.module.weight.device)
    return out


def case_failure(rank: int, world: int) -> dict:
    """Rank 1 dies (FAILURE=die) or stops calling collectives (FAILURE=hang); the
    others report the error of their next all_reduce."""
    import time

    import torch
    import torch.distributed as dist

    t = torch.ones(2, device=_device())
    dist.all_reduce(t)
    mode = os.environ["FAILURE"]
    if rank == 1 and mode == "die":
        os._exit(7)
    if rank == 1 and mode == "hang":
        time.sleep(float(os.environ.get("HANG_SECONDS", "6")))
        os._exit(0)
    start = time.monotonic()
    try:
        dist.all_reduce(t)
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error),
                "seconds": time.monotonic() - start}  # fmt: skip
    return {"error": None}


def case_mismatch(rank: int, world: int) -> dict:
    """Calls that disagree between ranks raise on every rank."""
    import torch
    import torch.distributed as dist

    out = {}
    dev = _device()
    for name, tensor in [
        ("shape", torch.ones(rank + 2, device=dev)),
        ("dtype", torch.ones(2, dtype=torch.float32 if rank else torch.float64, device=dev)),
    ]:
        try:
            dist.all_reduce(tensor)
            out[name] = None
        except RuntimeError as error:
            out[name] = str(error)
    t = torch.ones(2, device=dev)
    dist.all_reduce(t)  # the group stays usable
    out["after"] = t.tolist()
    out["device"] = str(t.device)
    return out


def case_sync_batch_norm(rank: int, world: int) -> dict:
    """SyncBatchNorm on ``world`` ranks (a slice of the batch each) against BatchNorm2d
    on the whole batch: outputs, input gradients, running statistics."""
    import numpy as np

    import torch
    from torch import nn

    gen = np.random.default_rng(3)
    x = torch.tensor(gen.standard_normal((4 * world, 3, 2, 2)).astype(np.float64) * 2 + 1)
    weights = torch.tensor(gen.standard_normal(x.shape))
    whole = nn.BatchNorm2d(3).double()
    whole_x = x.clone().requires_grad_(True)
    whole_out = whole(whole_x)
    (whole_out * weights).sum().backward()
    sync = nn.SyncBatchNorm(3).double()
    rows = slice(4 * rank, 4 * rank + 4)
    mine = x[rows].clone().requires_grad_(True)
    out = sync(mine)
    (out * weights[rows]).sum().backward()

    def diff(a, b):
        return float((a - b).abs().max())

    return {
        "out": diff(out.detach(), whole_out.detach()[rows]),
        "grad": diff(mine.grad, whole_x.grad[rows]),
        "running_mean": diff(sync.running_mean, whole.running_mean),
        "running_var": diff(sync.running_var, whole.running_var),
    }


CASES = {"reduce_ops": case_reduce_ops, "collectives": case_collectives,
         "in_place": case_in_place}  # fmt: skip
# cases run under this project only (no golden)
LOCAL_CASES = {
    "ddp": case_ddp,
    "failure": case_failure,
    "mismatch": case_mismatch,
    "sync_batch_norm": case_sync_batch_norm,
    "strided": case_strided,
}


def main() -> None:
    import datetime

    import torch.distributed as dist

    case, out_dir = sys.argv[1], pathlib.Path(sys.argv[2])
    backend = os.environ.get("CASE_BACKEND", "gloo")
    seconds = float(os.environ.get("CASE_TIMEOUT", "20"))
    if backend == "nccl":  # one CUDA device per process, as torchrun users set it
        import torch

        torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group(backend, timeout=datetime.timedelta(seconds=seconds))
    rank, world = dist.get_rank(), dist.get_world_size()
    result = {**CASES, **LOCAL_CASES}[case](rank, world)
    (out_dir / f"{case}-{rank}.json").write_text(json.dumps(result))
    if case != "failure":
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
