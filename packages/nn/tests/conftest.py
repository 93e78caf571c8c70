"""Shared helpers of the torch-nn tests: the golden files recorded from real PyTorch
(tools/golden/record_nn.py) and the comparison of a module case against them."""

import functools
import json
import pathlib
import sys
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import torch
from torch import nn

GOLDEN = pathlib.Path(__file__).parent / "golden"
# the snippet helpers shared by the cases modules of the subfolders (and their recorders)
sys.path.insert(0, str(pathlib.Path(__file__).parent))


@functools.cache
def _load(name: str):
    return json.loads((GOLDEN / f"{name}.json").read_text())


def to_tensor(record) -> torch.Tensor:
    dtype = getattr(torch, record["dtype"])
    values = np.array(
        record["values"], dtype=dtype.np_dtype if hasattr(dtype, "np_dtype") else None
    )
    return torch.tensor(values.reshape(record["shape"]), dtype=dtype)


def assert_matches(actual: torch.Tensor, record, rtol=1e-4, atol=1e-5, what="") -> None:
    assert list(actual.shape) == record["shape"], (
        f"{what}: shape {list(actual.shape)} != {record['shape']}"
    )
    assert str(actual.dtype).replace("torch.", "") == record["dtype"], (
        f"{what}: dtype {actual.dtype}"
    )
    expected = np.array(record["values"], dtype=np.float64).reshape(record["shape"])
    got = actual.detach().to(torch.float64).numpy() if actual.numel() else np.zeros(record["shape"])
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, err_msg=what)


def _flatten(output) -> list:
    if output is None:
        return []
    if isinstance(output, torch.Tensor):
        return [output]
    flat = []
    for item in output:
        flat += _flatten(item)
    return flat


def run_module_case(case, rtol=1e-4, atol=1e-5) -> None:
    """Build the case's module, load PyTorch's state_dict into it, run it, and compare
    outputs, gradients and buffers with the golden values."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the legacy-argument cases warn, as in PyTorch
        module = eval(case["source"], {"nn": nn, "torch": torch, "OrderedDict": OrderedDict})
    state = OrderedDict((k, to_tensor(v)) for k, v in case["state"].items())
    inputs = [to_tensor(r) for r in case["inputs"]]
    if case.get("lazy") == "call":  # initialized by a first call, as the recorder did
        module.eval()
        with torch.no_grad():
            module(*inputs)
    module.load_state_dict(state)
    module.train(case["train"])
    for x, flag in zip(inputs, case["input_requires_grad"]):
        x.requires_grad_(flag)
    kwargs = {
        k: r["const"] if "const" in r else to_tensor(r) for k, r in case.get("kwargs", {}).items()
    }
    outputs = _flatten(module(*inputs, **kwargs))
    assert len(outputs) == len(case["outputs"])
    for n, (out, record) in enumerate(zip(outputs, case["outputs"])):
        assert_matches(out, record, rtol, atol, f"output {n}")
    if "input_grads" in case:
        terms = [
            (o * to_tensor(w)).sum()
            for o, w in zip(outputs, case["output_weights"])
            if w is not None and o.requires_grad
        ]
        sum(terms).backward()
        for n, (x, record) in enumerate(zip(inputs, case["input_grads"])):
            if record is not None:
                assert x.grad is not None, f"input {n} got no gradient"
                assert_matches(x.grad, record, rtol, atol, f"grad of input {n}")
        grads = {name: p.grad for name, p in module.named_parameters()}
        for name, record in case["param_grads"].items():
            assert grads[name] is not None, f"parameter {name} got no gradient"
            assert_matches(grads[name], record, rtol, atol, f"grad of {name}")
    after = module.state_dict()
    for name, record in case["state_after"].items():
        assert_matches(after[name], record, rtol, atol, f"state {name} after forward")


@pytest.fixture(scope="session")
def golden():
    return _load


@pytest.fixture(scope="session")
def check_module_case():
    return run_module_case


@pytest.fixture(scope="session")
def tensor_of():
    return to_tensor


def pytest_generate_tests(metafunc):
    if "module_case" in metafunc.fixturenames:
        family = metafunc.module.FAMILY  # a family or a tuple of them
        families = (family,) if isinstance(family, str) else family
        cases = [c for c in _load("modules") if c["family"] in families]
        metafunc.parametrize("module_case", cases, ids=[c["source"] for c in cases])
    if "repr_case" in metafunc.fixturenames:
        prefixes = metafunc.module.REPR_PREFIXES
        items = [(s, r) for s, r in _load("reprs").items() if s.startswith(prefixes)]
        metafunc.parametrize("repr_case", items, ids=[s for s, _ in items])
