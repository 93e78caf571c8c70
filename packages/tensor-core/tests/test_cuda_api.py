"""torch.cuda, torch.backends and torch.version against PyTorch 2.13's CPU-only build with
no GPU (golden/cuda_api.json, recorded by tools/golden/record_cuda_api.py): the public
names of every module, the parameter names of every function, and what each recorded
snippet gives (value, or exception type and message)."""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib
import re
import types

import golden_describe
import pytest

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "cuda_api.json").read_text())

# public names of PyTorch's that this project leaves out, with the reason
MISSING_OK = {
    "torch.cuda": {"amp": "torch.cuda.amp is another part of the CUDA work (autocast)"},
}
# public names PyTorch's modules lack, on purpose, with the reason
EXTRA_OK = {
    "torch.version": {
        "core_version": "torch-core's own release (torch.__version__ names the PyTorch API)",
        "pytorch_version": "the PyTorch release whose behaviour this project follows",
    },
}
# modules owned by other parts of the work: compared only once they exist
OTHER_OWNERS = {"torch.cuda.comm", "torch.cuda.nccl"}

# snippets whose outcome differs on purpose, with the reason
DIFFERENT_ON_PURPOSE = {
    "torch.backends.mkldnn.is_available()": "no oneDNN kernels here; PyTorch's build has them",
    "torch.backends.nnpack.is_available()": "no NNPACK here",
    "torch.backends.openmp.is_available()": "torch._C uses its own thread pool, not OpenMP",
    "openmp available": "torch._C uses its own thread pool, not OpenMP",
    "torch.backends.mkl.is_available()": "tells whether this installation has the mkl wheel",
    "mkl available": "tells whether this installation has the mkl wheel",
    "mkl verbose": "MKL's verbose log is not wired up",
    "torch.backends.quantized.engine": "no quantized kernels here: the only engine is 'none'",
    "torch.backends.quantized.supported_engines": "no quantized kernels here",
    "quantized engine": "no quantized kernels here",
    "quantized engines": "no quantized kernels here",
    "torch.backends.cpu.get_cpu_capability()": "depends on the machine (its type is compared)",
    "torch.version.git_version": "this project's builds carry no git hash ('Unknown')",
    "torch.cuda.DEVICE_REQUIREMENT": "PyTorch's helper objects; values compared by "
    "'device requirement'",
    "torch.cuda.PYTORCH_RELEASES_CODE_CC": "set order in the repr; values compared by "
    "'releases code cc'",
    "FloatTensor type()": "Tensor.type is core's conversion (the CUDA tensor methods' part)",
    "type cuda string": "Tensor.type is core's conversion (the CUDA tensor methods' part)",
    "cudnn rnn mode bad": "the mode is checked before cuDNN is looked for",
    "version git type": "this project's builds carry no git hash ('Unknown')",
    "torch.backends.cudnn.CUDNN_TENSOR_DTYPES": "set order follows object hashes; compared "
    "sorted by 'cudnn tensor dtypes'",
}


def _normalise(outcome: dict) -> dict:
    """Object addresses differ from run to run."""
    text = json.dumps(outcome)
    return json.loads(re.sub(r" at 0x[0-9a-f]+", " at 0x?", text))


def _real_module(name: str):
    module = importlib.import_module(name)
    return getattr(module, "m", module) if type(module).__name__ == "PythonNativeModule" else module


def _our_names(name: str) -> set[str]:
    module = importlib.import_module(name)
    names = {n for n in dir(module) if not n.startswith("_")}
    names |= {n for n in vars(type(module)) if not n.startswith("_")}
    return names


@pytest.mark.parametrize("module_name", sorted(GOLDEN["names"]))
def test_public_names(module_name):
    if module_name in OTHER_OWNERS:
        pytest.importorskip(module_name)
    expected = {n for n, kind in GOLDEN["names"][module_name].items() if kind != "import"}
    missing = expected - _our_names(module_name) - set(MISSING_OK.get(module_name, {}))
    assert not missing, f"{module_name} lacks {sorted(missing)}"


@pytest.mark.parametrize("module_name", sorted(set(GOLDEN["names"]) - OTHER_OWNERS))
def test_no_extra_public_names(module_name):
    """Our modules show no public names PyTorch's lack (imports are kept private)."""
    module = _real_module(module_name)
    ours = {
        n
        for n in dir(module)
        if not n.startswith("_") and not isinstance(getattr(module, n, None), types.ModuleType)
    }
    extra = ours - set(GOLDEN["names"][module_name]) - {"annotations"}
    extra -= set(EXTRA_OK.get(module_name, {}))
    assert not extra, f"{module_name} has names PyTorch's lacks: {sorted(extra)}"


@pytest.mark.parametrize("path", sorted(GOLDEN["signatures"]))
def test_parameter_names(path):
    module_name, name = path.rsplit(".", 1)
    if module_name in OTHER_OWNERS:
        pytest.importorskip(module_name)
    function = getattr(_real_module(module_name), name)
    ours = [
        str(p).split(":")[0].split("=")[0] for p in inspect.signature(function).parameters.values()
    ]
    assert ours == GOLDEN["signatures"][path]


def _backend_switches() -> dict:
    """The plain values (flags, precisions, strategies) of every loaded torch.backends
    module, to put back after snippets that set them."""
    import sys

    return {
        (name, attr): value
        for name, module in list(sys.modules.items())
        if name.startswith("torch.backends") and module is not None
        for attr, value in vars(module).items()
        if not attr.startswith("_") and isinstance(value, (bool, int, float, str, type(None)))
    }


@pytest.fixture
def backend_switches_restored():
    import sys

    saved = _backend_switches()
    yield
    for (name, attr), value in saved.items():
        setattr(sys.modules[name], attr, value)


@pytest.mark.usefixtures("backend_switches_restored")
def test_recorded_snippets():
    """Every snippet in recorded order (some read switches that earlier ones set)."""
    if torch.cuda.is_available():
        pytest.skip("the goldens describe a machine without CUDA")
    for module_name in GOLDEN["names"]:  # as the recorder had them imported
        if module_name not in OTHER_OWNERS:
            importlib.import_module(module_name)
    mismatches = []
    for label, case in GOLDEN["cases"].items():
        module_name = case["code"].split("(")[0].rsplit(".", 1)[0]
        if label in DIFFERENT_ON_PURPOSE or module_name in OTHER_OWNERS:
            continue
        if label == "frozen flags":
            break  # freezing cannot be undone; tested on its own below
        expected = {k: v for k, v in case.items() if k != "code"}
        got = golden_describe.outcome(torch, case["code"])
        if _normalise(got) != _normalise(expected):
            mismatches.append(f"{label}: {case['code']}\n    ours {got}\n    PyTorch {expected}")
    assert not mismatches, f"{len(mismatches)} differ:\n" + "\n".join(mismatches)
