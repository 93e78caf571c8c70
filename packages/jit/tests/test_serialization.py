"""torch.jit.save / load: round trips of traced, frozen and optimised programs, and a
loaded program running in a process that never imported the model's class."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
import zipfile

import models_jit
import pytest

import torch
from torch import nn


def _round_trip(program, **kwargs):
    buffer = io.BytesIO()
    torch.jit.save(program, buffer, **kwargs)
    buffer.seek(0)
    return torch.jit.load(buffer), buffer


@pytest.mark.parametrize("name", sorted(models_jit.MODELS))
def test_round_trip_gives_the_same_outputs_and_gradients(name):
    model, inputs = models_jit.seeded_model(name)
    traced = torch.jit.trace(model, inputs())
    loaded, _ = _round_trip(traced)
    assert type(loaded).__name__ == "RecursiveScriptModule"
    assert [n for n, _ in loaded.named_parameters()] == [n for n, _ in model.named_parameters()]
    torch.manual_seed(1)
    args = inputs()
    models_jit.assert_outputs_match(loaded, model, args, rtol=0, atol=0)
    models_jit.backward_from_outputs(loaded, args)
    assert all(p.grad is not None for p in loaded.parameters())
    assert str(loaded.graph).count("\n") == str(traced.graph).count("\n")


def test_frozen_and_optimized_programs_round_trip():
    torch.manual_seed(0)
    model = models_jit.ResidualBlock().eval()
    x = torch.randn(2, 8, 6, 6)
    for program in (
        torch.jit.freeze(torch.jit.trace(model, x)),
        torch.jit.optimize_for_inference(torch.jit.trace(model, x)),
    ):
        loaded, _ = _round_trip(program)
        with torch.no_grad():
            for _ in range(3):
                torch.testing.assert_close(loaded(x), model(x), rtol=1e-5, atol=1e-5)


def test_traced_function_saves_as_a_module():
    traced = torch.jit.trace(lambda x: x * 2 + 1, torch.ones(2))
    loaded, _ = _round_trip(traced)
    assert type(loaded).__name__ == "RecursiveScriptModule"
    assert loaded(torch.tensor([1.0, 2.0])).tolist() == [3.0, 5.0]


def test_archive_layout_and_extra_files(tmp_path):
    traced = torch.jit.trace(nn.Linear(2, 2), torch.ones(1, 2))
    path = tmp_path / "linear.pt"
    traced.save(str(path), _extra_files={"notes.txt": "hello"})
    names = zipfile.ZipFile(path).namelist()
    for expected in ("archive/version", "archive/model.json", "archive/tensors.pt",
                     "archive/code/forward.py", "archive/extra/notes.txt"):  # fmt: skip
        assert expected in names
    extra = {"notes.txt": ""}
    loaded = torch.jit.load(str(path), _extra_files=extra)
    assert extra == {"notes.txt": b"hello"}
    assert loaded.weight.requires_grad and loaded.training == traced.training


def test_load_errors():
    with pytest.raises(RuntimeError, match="not a ZIP archive"):
        torch.jit.load(io.BytesIO(b"not a zip"))
    with pytest.raises(ValueError, match="does not exist"):
        torch.jit.load("/nonexistent/model.pt")
    with pytest.raises(AttributeError, match="has no attribute 'save_to_buffer'"):
        torch.jit.save(nn.ReLU(), io.BytesIO())


_CHILD = """
import sys, torch
for folder in sys.argv[1:]:
    program = torch.jit.load(folder + "/model.pt")
    inputs = torch.load(folder + "/inputs.pt")
    expected = torch.load(folder + "/expected.pt")
    got = program(*inputs)
    got = got if isinstance(got, tuple) else (got,)
    assert all(torch.equal(g, e) for g, e in zip(got, expected)), folder
    assert type(program).__name__ == "RecursiveScriptModule"
assert "models_jit" not in sys.modules
print("ok")
"""


def test_loaded_programs_run_without_the_model_classes(tmp_path):
    folders = []
    for name in ("lenet", "lstm_lm", "transformer", "resnet_block"):
        model, inputs = models_jit.seeded_model(name)
        args = inputs()
        folder = tmp_path / name
        folder.mkdir()
        torch.jit.save(torch.jit.trace(model, args), str(folder / "model.pt"))
        torch.save(args, str(folder / "inputs.pt"))
        torch.save(models_jit.as_tuple(model(*args)), str(folder / "expected.pt"))
        folders.append(str(folder))
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_CHILD), *folders],
        capture_output=True, text=True, timeout=120, cwd=str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
