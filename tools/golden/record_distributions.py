"""Record real PyTorch's outcomes for the ``torch.distributions`` cases of
packages/distributions/tests/dist_cases.py (run under real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_distributions.py

Writes packages/distributions/tests/golden/distributions.json.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
import types
import typing

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [
    str(ROOT / "packages" / "distributions" / "tests"),
    str(ROOT / "packages" / "tensor-core" / "tests"),
]

import dist_cases  # noqa: E402
import random_sampler_cases  # noqa: E402

MODULES = [
    "torch.distributions",
    "torch.distributions.constraints",
    "torch.distributions.constraint_registry",
    "torch.distributions.distribution",
    "torch.distributions.kl",
    "torch.distributions.transforms",
    "torch.distributions.utils",
]


def _own_name(module, name: str) -> bool:
    """Whether ``module.name`` is part of the package (not an import from elsewhere:
    ``Tensor``, ``Callable``, ``F``...)."""
    value = getattr(module, name)
    if isinstance(value, typing.TypeVar):
        return False
    if isinstance(value, types.ModuleType):
        return value.__name__.startswith("torch.distributions")
    owner = getattr(value, "__module__", None)
    if owner is None:  # a constant (euler_constant) or an instance (constraints.real)
        return True
    return owner.startswith("torch.distributions")


def public_names() -> dict:
    found = {}
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        found[module_name] = sorted(
            n for n in dir(module) if not n.startswith("_") and _own_name(module, n)
        )
    return found


def samplers() -> dict:
    """Core's rejection samplers (torch-core's tests/test_random_samplers.py)."""
    return {
        str(dtype): {
            name: dist_cases.outcome(torch, code, {"dtype": dtype})
            for name, code in random_sampler_cases.CASES.items()
        }
        for dtype in (torch.float32, torch.float64)
    }


def main() -> None:
    folder = ROOT / "packages" / "distributions" / "tests" / "golden"
    data = {"torch": torch.__version__, "groups": dist_cases.record_all(torch)}
    (folder / "distributions.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    (folder / "public_names.json").write_text(json.dumps(public_names(), indent=1) + "\n")
    core = ROOT / "packages" / "tensor-core" / "tests" / "golden" / "random_samplers.json"
    core.write_text(json.dumps(samplers(), indent=1, sort_keys=True) + "\n")
    print("wrote", folder.relative_to(ROOT), "and", core.relative_to(ROOT))


if __name__ == "__main__":
    main()
