"""Live conformance with real PyTorch: files written here load there with
weights_only=True and the same tensors, and files it writes now load here.

Runs only when TORCH_REFERENCE_PYTHON names an interpreter with real PyTorch installed
(``nox -s conformance`` sets it; e.g. ``TORCH_REFERENCE_PYTHON=/work/ptref/bin/python``).
"""

from __future__ import annotations

import io
import json
import os
import pathlib
import subprocess

import pytest
from test_serialization import ALL_DTYPES
from test_serialization_golden import describe

import torch

REFERENCE = os.environ.get("TORCH_REFERENCE_PYTHON")
TOOLS = pathlib.Path(__file__).resolve().parents[3] / "tools" / "golden"

pytestmark = pytest.mark.skipif(
    not REFERENCE, reason="set TORCH_REFERENCE_PYTHON to a Python with real PyTorch"
)


def run_reference(code: str, *args: str) -> dict:
    prelude = f"import sys; sys.path.insert(0, {str(TOOLS)!r})\n"
    done = subprocess.run(
        [REFERENCE, "-c", prelude + code, *args],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return json.loads(done.stdout.splitlines()[-1])


def ours_cases() -> dict:
    x = torch.arange(24.0).reshape(4, 6)
    cases = {
        "dtypes": {
            str(d).removeprefix("torch."): torch.arange(5).to(d)
            for d in ALL_DTYPES
            if d is not torch.bool  # a bool case of its own below
        }
        | {"bool": torch.tensor([True, False])},
        "views": {"x": x, "rows": x[1:3], "t": x.t(), "cols": x[:, ::2], "row": x[2]},
        "special": {
            "scalar": torch.tensor(1.5),
            "empty": torch.zeros(2, 0),
            "size": torch.Size([3]),
        },
        "nested": [x[0], (torch.tensor(7), {"k": [None, 1.5, "s"]}), torch.float64],
    }
    try:
        import torch.nn as nn

        model = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
        cases["module_state"] = model.state_dict()
        cases["parameters"] = {
            "weight": nn.Parameter(torch.arange(6.0).reshape(2, 3)),
            "frozen": nn.Parameter(torch.ones(2), requires_grad=False),
        }
        import torch.optim as optim

        optimizer = optim.Adam(model.parameters(), lr=0.01)
        model(torch.randn(4, 3)).sum().backward()
        optimizer.step()
        cases["optimizer_state"] = optimizer.state_dict()
    except (ImportError, RuntimeError):  # torch-nn/optim, or torch-autograd, not installed
        pass
    return cases


LOAD_THERE = """
import json, sys, torch
from record_serialization import describe
print(json.dumps({name: describe(torch.load(path, weights_only=True))
                  for name, path in zip(sys.argv[1::2], sys.argv[2::2])}))
"""


@pytest.mark.parametrize("legacy", [False, True], ids=["zip", "legacy"])
def test_files_written_here_load_in_pytorch(tmp_path, legacy):
    cases = ours_cases()
    args = []
    for name, obj in cases.items():
        path = tmp_path / f"{name}.pt"
        torch.save(obj, path, _use_new_zipfile_serialization=not legacy)
        args += [name, str(path)]
    theirs = run_reference(LOAD_THERE, *args)
    for name, obj in cases.items():
        assert describe(obj) == theirs[name], name


SAVE_THERE = """
import json, sys, pathlib, torch
from record_serialization import CASES, describe
folder = pathlib.Path(sys.argv[1])
out = {}
for name, build in CASES.items():
    torch.save(build(), folder / f"{name}.pt")
    out[name] = describe(torch.load(folder / f"{name}.pt"))
print(json.dumps(out))
"""


def test_files_written_by_pytorch_now_load_here(tmp_path):
    theirs = run_reference(SAVE_THERE, str(tmp_path))
    for name, expected in theirs.items():
        if name == "parameters":
            pytest.importorskip("torch.nn", exc_type=ImportError)
        assert describe(torch.load(tmp_path / f"{name}.pt")) == expected, name


class Custom:
    pass


def test_weights_only_refusals_match(tmp_path):
    buffer = io.BytesIO()
    torch.save({"bad": Custom()}, buffer)
    (tmp_path / "custom.pt").write_bytes(buffer.getvalue())
    code = """
import json, sys, pickle, torch
try:
    torch.load(sys.argv[1]); result = "loaded"
except pickle.UnpicklingError as error:
    result = "UnpicklingError"
print(json.dumps({"result": result}))
"""
    assert run_reference(code, str(tmp_path / "custom.pt")) == {"result": "UnpicklingError"}


LOAD_MODULE_THERE = """
import json, sys, torch
model = torch.load(sys.argv[1], weights_only=False)
with torch.no_grad():
    output = model(torch.tensor(json.loads(sys.argv[2])))
print(json.dumps({"types": [type(m).__name__ for m in model], "output": output.tolist()}))
"""


def test_whole_module_written_here_loads_in_pytorch(tmp_path):
    # classes this project defines in other files than PyTorch (BatchNorm, InstanceNorm,
    # PixelShuffle, Upsample...) are pickled by PyTorch's module paths
    nn = pytest.importorskip("torch.nn", exc_type=ImportError)
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.InstanceNorm2d(4, affine=True),
        nn.PixelShuffle(2),
        nn.Upsample(scale_factor=2),
        nn.Flatten(),
        nn.Linear(64, 3),
    ).eval()
    sample = torch.randn(2, 1, 2, 2)
    with torch.no_grad():
        expected = model(sample)
    torch.save(model, tmp_path / "model.pt")
    theirs = run_reference(
        LOAD_MODULE_THERE, str(tmp_path / "model.pt"), json.dumps(sample.tolist())
    )
    assert theirs["types"] == [type(m).__name__ for m in model]
    assert torch.allclose(torch.tensor(theirs["output"]), expected, atol=1e-5)
    again = torch.load(tmp_path / "model.pt", weights_only=False)  # and here
    assert [type(m) for m in again] == [type(m) for m in model]
