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
sys.path.insert(0, str(ROOT / "packages" / "distributions" / "tests"))

import dist_cases  # noqa: E402

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


def main() -> None:
    folder = ROOT / "packages" / "distributions" / "tests" / "golden"
    data = {"torch": torch.__version__, "groups": dist_cases.record_all(torch)}
    (folder / "distributions.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    (folder / "public_names.json").write_text(json.dumps(public_names(), indent=1) + "\n")
    print("wrote", folder.relative_to(ROOT))


if __name__ == "__main__":
    main()
