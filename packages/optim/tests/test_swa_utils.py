"""``torch.optim.swa_utils`` behaves as PyTorch 2.13's (goldens recorded by
tools/golden/record_optim_swa.py); it needs torch-nn, which ``import torch.optim`` does
not."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from optim_snippets import close  # noqa: E402
from swa_cases import CASES, outcome  # noqa: E402


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch(name, golden):
    pytest.importorskip("torch.nn", reason="swa_utils needs torch-nn")
    expected = {k: v for k, v in golden("swa_utils")[name].items() if k != "code"}
    # NumPy's kernels and PyTorch's differ in the last bits
    assert close(outcome(CASES[name]), expected, rel_tol=1e-6, abs_tol=1e-7)


def test_import_torch_optim_does_not_import_nn():
    done = _run("import sys, torch.optim\nprint('torch.nn' in sys.modules)")
    assert done.stdout.strip() == "False", done.stderr


def test_without_torch_nn_the_error_names_the_distribution():
    # None in sys.modules makes ``import torch.nn`` fail as if torch-nn were absent
    done = _run(
        "import sys, torch.optim\nsys.modules['torch.nn'] = None\n"
        "try:\n    torch.optim.swa_utils\nexcept ModuleNotFoundError as e:\n    print(e)\n"
    )
    assert "install the torch-nn distribution" in done.stdout, done.stderr


def test_attribute_access_imports_the_module():
    pytest.importorskip("torch.nn", reason="swa_utils needs torch-nn")
    import torch.optim

    assert torch.optim.swa_utils.SWALR.__name__ == "SWALR"
