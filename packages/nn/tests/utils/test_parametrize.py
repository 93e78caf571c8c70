"""torch.nn.utils.parametrize: registration, state_dict layout, right_inverse assignment,
removal, caching, copies and errors, each compared with PyTorch 2.13 (the cases and
their recorded results are in golden/parametrize.json, from tools/golden/cases_nn.py)."""

import json
import pathlib

import numpy as np
import pytest

import torch
from torch import nn

_GOLDEN = json.loads(
    (pathlib.Path(__file__).parents[1] / "golden" / "parametrize.json").read_text()
)
_CASES = sorted(_GOLDEN["cases"].items())


def _compare(actual, expected, where: str) -> None:
    if "tensor" in expected:
        record = expected["tensor"]
        assert isinstance(actual, torch.Tensor), where
        assert list(actual.shape) == record["shape"], where
        assert str(actual.dtype) == "torch." + record["dtype"], where
        values = np.array(record["values"], dtype=np.float64).reshape(record["shape"])
        got = actual.detach().to(torch.float64).numpy()
        np.testing.assert_allclose(got, values, rtol=1e-4, atol=1e-5, err_msg=where)
    elif "list" in expected:
        assert isinstance(actual, (list, tuple)) and len(actual) == len(expected["list"]), where
        for n, (a, e) in enumerate(zip(actual, expected["list"])):
            _compare(a, e, f"{where}[{n}]")
    else:
        assert actual == expected["value"], where


@pytest.mark.parametrize("name, case", _CASES, ids=[name for name, _ in _CASES])
def test_parametrize_behaviour_matches_pytorch(name, case):
    namespace = {"torch": torch, "nn": nn}
    exec(_GOLDEN["setup"], namespace)
    torch.manual_seed(0)
    if "error" in case:
        with pytest.raises(Exception) as info:  # noqa: PT011  (the kind is compared below)
            exec(case["setup"], namespace)
            eval(case["expression"], namespace)
        assert type(info.value).__name__ == case["error"]
        assert str(info.value) == case["message"]
        return
    exec(case["setup"], namespace)
    _compare(eval(case["expression"], namespace), case, name)
