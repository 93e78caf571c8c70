"""Record golden trajectories of real PyTorch's optimizers and schedulers for
packages/optim/tests (run under real PyTorch only):

    /work/ptref/bin/python tools/golden/record_optim.py
    /work/ptref/bin/python tools/golden/record_optim.py --bitwise   # this CPU's bits only

Writes packages/optim/tests/golden/optim_trajectories.json, lr_schedules.json,
fused_steps.json (digests of larger problems, for the bit-for-bit checks of the fused
native updates) and sparse_adam.json (SparseAdam, SGD and Adagrad on sparse gradients).
With ``--bitwise`` it writes only golden/bitwise/<cpu>.json: this machine's sha256
digests of the fused cases and its exact SparseAdam trajectories. PyTorch's square roots
are Intel MKL's, which dispatch on the CPU (vendor, AVX-512), so PyTorch's last bits
differ between machines; the tests accept any recorded machine's. The cases (option
sets) are defined in packages/optim/tests/cases_optim.py, which the tests read too.
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "optim" / "tests"
sys.path.insert(0, str(TESTS))

import cases_optim  # noqa: E402
import problems  # noqa: E402


def trajectory(name: str, options: dict) -> dict:
    ps, opt = problems.make(torch, name, options)
    points, losses = [], []
    for _ in range(cases_optim.STEPS):
        if name == "LBFGS":
            losses.append(opt.step(lambda: problems.set_grads(ps)))
        else:
            problems.set_grads(ps)
            opt.step()
        points.append(problems.flat(ps))
    return {"trajectory": points, "losses": losses}


def schedules() -> dict:
    out = {}
    for label, build in cases_optim.SCHEDULERS.items():
        opt, sched = build(torch)
        lrs, momenta = [], []
        for epoch in range(cases_optim.EPOCHS):
            opt.step()
            if label.startswith("ReduceLROnPlateau"):
                sched.step(cases_optim.plateau_metric(epoch))
            else:
                sched.step()
            lrs.append(sched.get_last_lr())
            momenta.append(cases_optim.momenta(opt))
        out[label] = {"lrs": lrs, "momenta": momenta}
    return out


def fused() -> dict:
    return {
        f"{label}/{dtype}": problems.fused_digests(
            torch, name, options, dtype, cases_optim.FUSED_SIZES, cases_optim.FUSED_STEPS
        )
        for label, (name, options) in cases_optim.FUSED.items()
        for dtype in ("float32", "float64")
    }


def sparse() -> dict:
    out = {
        label: problems.sparse_trajectory(torch, options, cases_optim.SPARSE_STEPS)
        for label, options in cases_optim.SPARSE.items()
    }
    for label, (name, options) in cases_optim.SPARSE_OTHERS.items():
        out[label] = problems.sparse_trajectory(torch, options, cases_optim.SPARSE_STEPS, name)
    return out


def cpu_key() -> str:
    """The CPU features MKL's dispatch depends on: vendor and widest vector extension."""
    info = pathlib.Path("/proc/cpuinfo")
    text = info.read_text() if info.exists() else ""
    vendor = next(
        (line.split(":")[1].strip() for line in text.splitlines() if line.startswith("vendor_id")),
        "unknown",
    )
    isa = "avx512" if " avx512f" in text else "avx2" if " avx2" in text else "other"
    return f"{vendor}-{isa}"


def bitwise() -> None:
    data = {
        "fused_steps": {
            label: [d["sha256"] for d in digests] for label, digests in fused().items()
        },
        "sparse_adam": {
            label: problems.sparse_trajectory(torch, options, cases_optim.SPARSE_STEPS)
            for label, options in cases_optim.SPARSE.items()
        },
    }
    path = TESTS / "golden" / "bitwise" / f"{cpu_key()}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data, indent=0) + "\n")
    print("wrote", path.relative_to(ROOT))


def main() -> None:
    if "--bitwise" in sys.argv[1:]:
        bitwise()
        return
    golden = TESTS / "golden"
    data = {
        f"{name}/{label}": trajectory(name, options)
        for name, labelled in cases_optim.OPTIMIZERS.items()
        for label, options in labelled.items()
    }
    (golden / "optim_trajectories.json").write_text(json.dumps(data, indent=0) + "\n")
    (golden / "lr_schedules.json").write_text(json.dumps(schedules(), indent=0) + "\n")
    (golden / "fused_steps.json").write_text(json.dumps(fused(), indent=0) + "\n")
    (golden / "sparse_adam.json").write_text(json.dumps(sparse(), indent=0) + "\n")
    print("wrote", len(data), "trajectories,", len(cases_optim.SCHEDULERS), "schedules")


if __name__ == "__main__":
    main()
