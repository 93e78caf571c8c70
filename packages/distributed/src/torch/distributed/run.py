"""``torchrun`` / ``python -m torch.distributed.run``: start the worker processes of a
job on this machine.

Each worker gets ``RANK``, ``LOCAL_RANK``, ``WORLD_SIZE``, ``LOCAL_WORLD_SIZE``,
``GROUP_RANK``, ``MASTER_ADDR`` and ``MASTER_PORT``, so ``init_process_group()`` with
the default ``env://`` finds the group. The launcher of node 0 serves the job's
:class:`TCPStore` itself (the workers connect to it as clients), so the store outlives
any worker. When a worker fails, the launcher stops the others and exits non-zero,
printing the failing rank's exit code and the end of its error output.

    torchrun --nproc-per-node=2 train.py --epochs 3
    torchrun --nnodes=2 --node-rank=0 --master-addr=10.0.0.1 --master-port=29500 \\
        --nproc-per-node=4 train.py
"""

from __future__ import annotations

import argparse
import collections
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta

__all__ = ["main", "get_args_parser", "parse_args", "run"]

# seconds a worker gets to exit after SIGTERM before it is killed
_STOP_GRACE = 3.0
# lines of a worker's error output kept for the failure report
_TAIL_LINES = 40


def get_args_parser() -> argparse.ArgumentParser:
    """The launcher's command-line parser (dashes or underscores in option names)."""
    parser = argparse.ArgumentParser(
        prog="torchrun", description="Start the worker processes of a distributed job."
    )

    def option(name: str, **kwargs) -> None:
        names = [f"--{name}"]
        if "-" in name:
            names.append(f"--{name.replace('-', '_')}")
        parser.add_argument(*names, **kwargs)

    option("nnodes", default="1", help="number of nodes, or MIN:MAX (fixed size only)")
    option("nproc-per-node", default="1", help="workers per node: an int, 'cpu' or 'auto'")
    option("node-rank", type=int, default=0, help="this node's rank, 0 to nnodes-1")
    option("master-addr", default="127.0.0.1", help="address of node 0")
    option("master-port", type=int, default=29500, help="port of node 0's store")
    option("rdzv-backend", default="static", help="'static' or 'c10d' (node 0 serves the store)")
    option("rdzv-endpoint", default="", help="HOST[:PORT] of the rendezvous (overrides master-*)")
    option("rdzv-id", default="none", help="the job's id")
    option("rdzv-conf", default="", help="accepted for compatibility")
    option("standalone", action="store_true", help="one node, a free local port")
    option("max-restarts", type=int, default=0, help="only 0 (no restarts) is supported")
    option("monitor-interval", type=float, default=0.1, help="seconds between worker checks")
    option("start-method", default="spawn", help="accepted for compatibility")
    option("role", default="default", help="the workers' role name")
    parser.add_argument("-m", "--module", action="store_true", help="run the script as a module")
    option("no-python", action="store_true", help="run the script as an executable")
    parser.add_argument("training_script", help="the script (or module) each worker runs")
    parser.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return parser


def parse_args(args=None) -> argparse.Namespace:
    """The parsed command line (``args``: a list of strings, default ``sys.argv[1:]``)."""
    return get_args_parser().parse_args(args)


def _nproc(value: str) -> int:
    if value in ("cpu", "auto", "gpu"):
        return os.cpu_count() or 1
    count = int(value)
    if count < 1:
        raise ValueError(f"--nproc-per-node must be at least 1, got {count}")
    return count


def _nnodes(value: str) -> int:
    low, _, high = value.partition(":")
    if high and high != low:
        raise ValueError(f"--nnodes={value}: elastic sizes are not supported, give one number")
    return int(low)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("", 0))
        return sock.getsockname()[1]


class _Worker:
    """One worker process and the tail of its error output."""

    def __init__(self, rank: int, local_rank: int, command: list[str], env: dict) -> None:
        self.rank, self.local_rank = rank, local_rank
        self.tail: collections.deque[str] = collections.deque(maxlen=_TAIL_LINES)
        self.process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True,
                                        errors="replace", start_new_session=True)  # fmt: skip
        self.started = time.time()
        self.reader = threading.Thread(target=self._copy_stderr, daemon=True)
        self.reader.start()

    def _copy_stderr(self) -> None:
        for line in self.process.stderr:
            sys.stderr.write(line)
            sys.stderr.flush()
            self.tail.append(line)

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


def _command(args) -> list[str]:
    if args.no_python:
        return [args.training_script, *args.training_script_args]
    if args.module:
        return [sys.executable, "-u", "-m", args.training_script, *args.training_script_args]
    return [sys.executable, "-u", args.training_script, *args.training_script_args]


def _endpoint(args) -> tuple[str, int]:
    if args.standalone:
        return "127.0.0.1", _free_port()
    if args.rdzv_endpoint:
        host, _, port = args.rdzv_endpoint.partition(":")
        return host, int(port or args.master_port)
    return args.master_addr, args.master_port


def _start_store(host: str, port: int, node_rank: int, world_size: int):
    """Node 0's launcher serves the job's store; the workers connect to it."""
    if node_rank != 0:
        return None
    from ._tcp_store import TCPStore

    return TCPStore(host, port, world_size, True, timedelta(seconds=300), wait_for_workers=False)


def run(args: argparse.Namespace) -> int:
    """Start the workers, watch them, and return the launcher's exit code."""
    if args.max_restarts:
        raise ValueError("--max-restarts: restarting failed workers is not supported")
    nnodes, nproc = _nnodes(args.nnodes), _nproc(args.nproc_per_node)
    if not 0 <= args.node_rank < nnodes:
        raise ValueError(f"--node-rank must be in [0, {nnodes}), got {args.node_rank}")
    host, port = _endpoint(args)
    world_size = nnodes * nproc
    store = _start_store(host, port, args.node_rank, world_size)
    run_id = args.rdzv_id if args.rdzv_id != "none" else uuid.uuid4().hex[:8]
    workers = []
    for local_rank in range(nproc):
        rank = args.node_rank * nproc + local_rank
        env = dict(os.environ)
        env.update({
            "RANK": str(rank), "LOCAL_RANK": str(local_rank), "WORLD_SIZE": str(world_size),
            "LOCAL_WORLD_SIZE": str(nproc), "GROUP_RANK": str(args.node_rank),
            "ROLE_RANK": str(rank), "ROLE_WORLD_SIZE": str(world_size), "ROLE_NAME": args.role,
            "MASTER_ADDR": host, "MASTER_PORT": str(port), "TORCHELASTIC_RUN_ID": run_id,
            "TORCHELASTIC_USE_AGENT_STORE": "True" if store is not None or nnodes > 1 else "False",
            "TORCHELASTIC_RESTART_COUNT": "0", "TORCHELASTIC_MAX_RESTARTS": "0",
        })  # fmt: skip
        if nproc > 1:
            env.setdefault("OMP_NUM_THREADS", "1")
        workers.append(_Worker(rank, local_rank, _command(args), env))
    return _watch(workers, args)


def _watch(workers: list[_Worker], args) -> int:
    """Wait for the workers; on the first failure stop the rest and report it."""
    previous = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}

    def forward(signum, frame):
        for worker in workers:
            worker.stop()
        raise SystemExit(128 + signum)

    for signum in previous:
        signal.signal(signum, forward)
    try:
        while True:
            codes = [w.process.poll() for w in workers]
            failed = [w for w, c in zip(workers, codes) if c not in (None, 0)]
            if failed:
                first = failed[0]
                _stop_all(workers)
                _report(first, workers, args)
                return 1
            if all(c == 0 for c in codes):
                return 0
            time.sleep(args.monitor_interval)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _stop_all(workers: list[_Worker]) -> None:
    for worker in workers:
        worker.stop()
    deadline = time.monotonic() + _STOP_GRACE
    for worker in workers:
        try:
            worker.process.wait(max(deadline - time.monotonic(), 0.01))
        except subprocess.TimeoutExpired:
            os.killpg(worker.process.pid, signal.SIGKILL)
            worker.process.wait()
    for worker in workers:
        worker.reader.join(timeout=1.0)


def _exit_reason(code: int) -> str:
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"{code} (killed by {name})"
    return str(code)


def _report(first: _Worker, workers: list[_Worker], args) -> None:
    """The failure summary on stderr: the first failing rank, then the others."""
    line = "=" * 60
    others = [w for w in workers if w is not first and w.process.returncode not in (0, None)]
    others = [w for w in others if w.process.returncode != -signal.SIGTERM]
    parts = [line, f"{args.training_script} FAILED", "-" * 60, "Failures:"]
    parts += [f"  rank {w.rank}: exitcode {_exit_reason(w.process.returncode)}" for w in others]
    parts += ["  <NO_OTHER_FAILURES>"] if not others else []
    parts += ["-" * 60, "Root Cause (first observed failure):",
              f"  time      : {time.strftime('%Y-%m-%d_%H:%M:%S')}",
              f"  host      : {socket.gethostname()}",
              f"  rank      : {first.rank} (local_rank: {first.local_rank})",
              f"  exitcode  : {_exit_reason(first.process.returncode)} (pid: {first.process.pid})",
              "  error     :"]  # fmt: skip
    parts += ["    " + text.rstrip("\n") for text in first.tail] or ["    <no error output>"]
    parts.append(line)
    sys.stderr.write("\n".join(parts) + "\n")
    sys.stderr.flush()


def main(args=None) -> None:
    """Entry point of ``torchrun`` and ``python -m torch.distributed.run``."""
    sys.exit(run(parse_args(args)))


if __name__ == "__main__":
    main()
