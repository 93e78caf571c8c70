"""The launchers: torchrun (python -m torch.distributed.run) with the gloo backend, and
mpiexec with the mpi backend."""

import os
import pathlib
import shutil
import subprocess
import sys

import dist_cases
import pytest

WORKER = str(pathlib.Path(__file__).with_name("launch_worker.py"))


def _torchrun(*args, timeout=90):
    command = [sys.executable, "-m", "torch.distributed.run", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def test_torchrun_sets_the_environment(needs_mpi):
    port = dist_cases.free_port()
    done = _torchrun("--nproc-per-node=2", f"--master-port={port}", WORKER)
    assert done.returncode == 0, done.stderr
    lines = sorted(line for line in done.stdout.split("\n") if line.strip())
    assert lines == [f"0 3 0 0 2 2 127.0.0.1 {port}", f"1 3 1 1 2 2 127.0.0.1 {port}"]


def test_torchrun_reports_the_failing_rank(needs_mpi):
    done = _torchrun("--standalone", "--nproc_per_node", "2", WORKER, "raise")
    assert done.returncode == 1
    assert "launch_worker.py FAILED" in done.stderr
    assert "rank      : 1 (local_rank: 1)" in done.stderr
    assert "ValueError: worker 1 gives up" in done.stderr.split("Root Cause")[1]


def test_torchrun_stops_the_others_when_one_dies(needs_mpi):
    done = _torchrun("--standalone", "--nproc-per-node=2", WORKER, "die")
    assert done.returncode == 1
    assert "exitcode  : 9" in done.stderr


def test_torchrun_rejects_bad_options():
    done = _torchrun("--nnodes=2", "--node-rank=3", WORKER)
    assert done.returncode != 0 and "--node-rank must be in [0, 2)" in done.stderr


def test_mpiexec_with_the_mpi_backend(needs_mpi, tmp_path):
    mpiexec = shutil.which("mpiexec", path=os.path.dirname(sys.executable)) or shutil.which(
        "mpiexec"
    )
    if mpiexec is None:
        pytest.skip("no mpiexec (the mpich wheel installs one)")
    env = dict(os.environ, CASE_BACKEND="mpi", WORKER_OUT=str(tmp_path))
    done = subprocess.run([mpiexec, "-n", "2", sys.executable, WORKER], env=env,
                          capture_output=True, text=True, timeout=90)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [(tmp_path / f"{rank}.txt").read_text() for rank in range(2)]
    assert [line.split()[:2] for line in lines] == [["0", "3"], ["1", "3"]]
