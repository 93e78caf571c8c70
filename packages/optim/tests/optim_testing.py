"""Helpers shared by torch-optim's tests (a module of its own: every package has a
``conftest``, and one pytest run over all packages imports only one of them by that name)."""

import contextlib
import json
import pathlib

import cases_optim
import numpy as np
import problems
import pytest

import torch
from torch._interface import get_grad_engine

GOLDEN = pathlib.Path(__file__).parent / "golden"

#: torch-optim depends on torch-core alone: parameters that require grad need torch-autograd
needs_autograd = pytest.mark.skipif(
    not get_grad_engine().available, reason="requires_grad needs torch-autograd"
)

_cache: dict = {}


def load_golden(name: str):
    if name not in _cache:
        _cache[name] = json.loads((GOLDEN / f"{name}.json").read_text())
    return _cache[name]


def bitwise_alternatives(name: str, label: str, primary) -> list:
    """The bit-exact results PyTorch gave for ``label`` of golden ``name`` on each machine
    it was recorded on: ``primary`` (the portable golden file's) and those of
    ``golden/bitwise/<cpu>.json`` (``record_optim.py --bitwise``). Intel MKL's square
    root dispatches on the CPU (vendor, AVX-512), so the last bits of PyTorch's own
    results depend on the machine; ours match PyTorch's on the same machine."""
    alternatives = [primary]
    for path in sorted((GOLDEN / "bitwise").glob("*.json")):
        record = json.loads(path.read_text()).get(name, {})
        if label in record and record[label] not in alternatives:
            alternatives.append(record[label])
    return alternatives


def run_steps(opt, ps, name: str, steps: int) -> tuple[list, list]:
    """``steps`` steps of ``opt`` on the shared problem: the flat parameters after each
    step, and (LBFGS) the losses ``step`` returned."""
    points, losses = [], []
    for _ in range(steps):
        if name == "LBFGS":
            losses.append(opt.step(lambda: problems.set_grads(ps)))
        else:
            problems.set_grads(ps)
            opt.step()
        points.append(problems.flat(ps))
    return points, losses


def check_trajectory(
    name: str, label: str, rtol: float = 1e-5, atol: float = 1e-6, steps: int | None = None
) -> None:
    """Replay a recorded case and compare each of the first ``steps`` steps (default:
    all) with real PyTorch's."""
    case = load_golden("optim_trajectories")[f"{name}/{label}"]
    ps, opt = problems.make(torch, name, cases_optim.OPTIMIZERS[name][label])
    points, losses = run_steps(opt, ps, name, cases_optim.STEPS)
    steps = steps or cases_optim.STEPS
    for step, (got, expected) in enumerate(zip(points[:steps], case["trajectory"][:steps])):
        np.testing.assert_allclose(
            got, expected, rtol=rtol, atol=atol, err_msg=f"{name}/{label} step {step + 1}"
        )
    if losses:
        np.testing.assert_allclose(losses[:steps], case["losses"][:steps], rtol=rtol, atol=atol)


def check_resume(name: str, label: str, split: int = 7) -> None:
    """Saving the state dict, loading it into a fresh optimizer over fresh (copied)
    parameters and continuing gives exactly the uninterrupted trajectory."""
    options = cases_optim.OPTIMIZERS[name][label]
    ps, straight = problems.make(torch, name, options)
    expected, _ = run_steps(straight, ps, name, 2 * split)

    ps, first = problems.make(torch, name, options)
    run_steps(first, ps, name, split)
    saved = first.state_dict()
    fresh = [p.clone() for p in ps]
    options = {k: v for k, v in options.items() if k != "_dtype"}
    second = getattr(torch.optim, name)(fresh, **options)
    second.load_state_dict(saved)
    got, _ = run_steps(second, fresh, name, split)
    np.testing.assert_array_equal(np.array(got), np.array(expected[split:]))


def labels(name: str) -> list:
    return list(cases_optim.OPTIMIZERS[name])


IMPLEMENTATIONS = ("native", "reference")


@contextlib.contextmanager
def implementation(name: str):
    """Run the optimizers through one implementation: ``"native"`` (torch-core's
    kernels where they serve, as by default) or ``"reference"`` (tensor ops only, as
    under ``TORCH_OPTIM_KERNELS=0`` or on a core without native kernels)."""
    from torch.optim import _fused

    saved = _fused.ENABLED
    _fused.ENABLED = name != "reference"
    try:
        yield
    finally:
        _fused.ENABLED = saved


def path_digests(label: str, dtype: str) -> list:
    """The digests of case ``label`` of ``cases_optim``'s PATHS tables."""
    if label in cases_optim.PATHS:
        name, options = cases_optim.PATHS[label]
        return problems.path_digests(name, options, dtype, cases_optim.PATHS_STEPS)
    if label in cases_optim.PATHS_SPARSE:
        name, options = cases_optim.PATHS_SPARSE[label]
        return problems.sparse_path_digests(name, options, dtype, cases_optim.PATHS_STEPS)
    options = cases_optim.PATHS_LBFGS[label]
    return problems.lbfgs_path_digests(options, dtype, cases_optim.PATHS_STEPS)


def path_labels() -> list:
    return [*cases_optim.PATHS, *cases_optim.PATHS_SPARSE, *cases_optim.PATHS_LBFGS]


def record_key(label: str, dtype: str, mode: str) -> str:
    """The key of a trajectory in golden/paths.json. The native kernels take PyTorch's
    square roots (MKL's VML) when the ``mkl`` wheel is installed and correctly rounded
    ones otherwise, so each flavour has its own record."""
    from torch._interface import optim as native_optim

    if mode == "native" and not native_optim.sqrt_is_pytorchs():
        mode = "native_exact_sqrt"
    return f"{label}/{dtype}/{mode}"
