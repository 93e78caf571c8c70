"""Checkpoints written by real PyTorch 2.13 (tools/golden/record_serialization.py) load
here with the same values, dtypes, shapes, strides, offsets and storage sharing."""

from __future__ import annotations

import json
import math
import pathlib
import pickle

import pytest

import torch

GOLDEN = pathlib.Path(__file__).parent / "golden" / "serialization"
MANIFEST = json.loads((GOLDEN / "manifest.json").read_text())

# cases whose tensors are nn.Parameters need torch-nn (and autograd for requires_grad)
NEEDS_NN = {"parameters", "legacy_parameters"}
# cases holding globals that only weights_only=False may load
FULL_PICKLE = {"tar_format"}


def _values(t):
    if t.is_complex():
        return torch.view_as_real(t).tolist()
    return t.tolist()


def _json_float(value):
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, list):
        return [_json_float(v) for v in value]
    return value


def describe(obj) -> dict:
    """The same description as the recorder's, computed here (see record_serialization)."""
    tensors, leaves, groups = [], [], {}

    def visit(value, path):
        if isinstance(value, torch.Tensor):
            storage = value.untyped_storage().data_ptr()
            group = groups.setdefault(storage, len(groups))
            tensors.append(
                {
                    "path": path,
                    "dtype": str(value.dtype).removeprefix("torch."),
                    "shape": list(value.shape),
                    "stride": list(value.stride()),
                    "offset": value.storage_offset(),
                    "values": _json_float(_values(value.detach())),
                    "requires_grad": value.requires_grad,
                    "parameter": type(value).__name__ == "Parameter",
                    "storage_group": group,
                    "storage_nbytes": value.untyped_storage().nbytes(),
                }
            )
        elif isinstance(value, dict):
            leaves.append(
                {"path": path, "type": type(value).__name__, "keys": list(map(repr, value))}
            )
            for key, item in value.items():
                visit(item, path + [repr(key)])
        elif isinstance(value, (list, tuple)):
            leaves.append({"path": path, "type": type(value).__name__, "length": len(value)})
            for index, item in enumerate(value):
                visit(item, path + [index])
        else:
            leaves.append({"path": path, "type": type(value).__name__, "repr": repr(value)})

    visit(obj, [])
    return json.loads(json.dumps({"tensors": tensors, "leaves": leaves}))


def _needs(case: str) -> None:
    if case in NEEDS_NN:
        pytest.importorskip("torch.nn", exc_type=ImportError)
        from torch._interface import get_grad_engine

        if not get_grad_engine().available:
            pytest.skip("Parameters require grad: needs torch-autograd")


@pytest.mark.parametrize("case", sorted(MANIFEST))
def test_pytorch_checkpoint_loads_equal(case):
    _needs(case)
    loaded = torch.load(GOLDEN / f"{case}.pt", weights_only=case not in FULL_PICKLE)
    expected = MANIFEST[case]
    got = describe(loaded)
    assert [t["path"] for t in got["tensors"]] == [t["path"] for t in expected["tensors"]]
    for ours, theirs in zip(got["tensors"], expected["tensors"]):
        assert ours == theirs, ours["path"]
    assert got["leaves"] == expected["leaves"]


LEGACY = {case for case in MANIFEST if case.startswith("legacy_")}  # mmap needs the zip format


@pytest.mark.parametrize("case", sorted(set(MANIFEST) - FULL_PICKLE - LEGACY))
def test_pytorch_checkpoint_maps(case):
    # mmap=True gives the same tensors, viewing the file instead of copies of it
    _needs(case)
    loaded = torch.load(GOLDEN / f"{case}.pt", mmap=True)
    assert describe(loaded) == MANIFEST[case]


def test_views_share_one_storage_again():
    loaded = torch.load(GOLDEN / "views.pt")
    x = loaded["x"]
    for name in ("slice", "t", "every_other_column", "row", "narrow", "flat_part", "expanded"):
        assert loaded[name].untyped_storage() is x.untyped_storage(), name
    x[1, 0] = -1.0  # a write through one view shows through the others
    assert loaded["slice"][0, 0].item() == -1.0
    assert loaded["t"][0, 1].item() == -1.0
    assert loaded["own"].untyped_storage() is not x.untyped_storage()


def test_legacy_views_share_too():
    loaded = torch.load(GOLDEN / "legacy_views.pt")
    assert loaded["t"].untyped_storage() is loaded["x"].untyped_storage()
    assert not loaded["every_other_column"].is_contiguous()


def test_tar_format_needs_full_unpickling():
    with pytest.raises(RuntimeError, match="legacy .tar format"):
        torch.load(GOLDEN / "tar_format.pt")
    loaded = torch.load(GOLDEN / "tar_format.pt", weights_only=False)
    assert loaded["transposed"].untyped_storage() is loaded["matrix"].untyped_storage()
    assert loaded["longs"].tolist() == [-20, 30]


def test_module_state_dict_loads_into_a_module():
    nn = pytest.importorskip("torch.nn", exc_type=ImportError)
    state = torch.load(GOLDEN / "module_state.pt")
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
    model.load_state_dict(state)
    assert torch.equal(model[1].running_mean, state["1.running_mean"])
    assert model[1].num_batches_tracked.item() == 1
    assert state._metadata[""] == {"version": 1} or "" in state._metadata


@pytest.mark.parametrize("case", ["optimizer_adam", "optimizer_sgd"])
def test_optimizer_state_dict_loads_into_an_optimizer(case):
    optim = pytest.importorskip("torch.optim", exc_type=ImportError)
    state = torch.load(GOLDEN / f"{case}.pt")
    if case == "optimizer_adam":
        weight, bias = state["weight"].clone(), state["bias"].clone()
        optimizer = optim.Adam([weight, bias], lr=0.5)
        optimizer.load_state_dict(state["optimizer"])
        assert optimizer.param_groups[0]["lr"] == 0.01
        assert torch.equal(
            optimizer.state[weight]["exp_avg"], state["optimizer"]["state"][0]["exp_avg"]
        )
    else:
        weight = torch.ones(2)
        optimizer = optim.SGD([weight], lr=1.0, momentum=0.5)
        optimizer.load_state_dict(state)
        assert optimizer.param_groups[0]["momentum"] == 0.9
        assert optimizer.state[weight]["momentum_buffer"].tolist() == [1.0, 1.0]


def test_whole_module_pickled_by_pytorch_loads_with_weights_only_false():
    # PyTorch pickles each class by its own module path (torch.nn.modules.batchnorm...),
    # which need not be where this project defines it
    nn = pytest.importorskip("torch.nn", exc_type=ImportError)
    recorded = json.loads((GOLDEN / "whole_module.json").read_text())
    with pytest.raises(pickle.UnpicklingError, match="torch.nn.modules.container.Sequential"):
        torch.load(GOLDEN / "whole_module.pt")
    model = torch.load(GOLDEN / "whole_module.pt", weights_only=False)
    assert isinstance(model, nn.Sequential)
    assert [type(m) for m in model] == [
        nn.Conv2d, nn.BatchNorm2d, nn.ReLU, nn.Flatten, nn.Linear, nn.Dropout
    ]  # fmt: skip
    assert isinstance(model[0].weight, nn.Parameter) and not model.training
    assert describe(model.state_dict()) == recorded["state"]
    with torch.no_grad():
        output = model(torch.tensor(recorded["input"]))
    assert torch.allclose(output, torch.tensor(recorded["output"]), atol=1e-6)


def test_whole_module_pickled_by_pytorch_loads_with_its_classes_allowed():
    nn = pytest.importorskip("torch.nn", exc_type=ImportError)
    allowed = [nn.Sequential, nn.Conv2d, nn.BatchNorm2d, nn.ReLU, nn.Flatten, nn.Linear]
    with torch.serialization.safe_globals(allowed + [nn.Dropout]):
        model = torch.load(GOLDEN / "whole_module.pt")
    assert isinstance(model[1], nn.BatchNorm2d)
    with torch.serialization.safe_globals(allowed):  # Dropout not allowed
        with pytest.raises(pickle.UnpicklingError, match="torch.nn.modules.dropout.Dropout"):
            torch.load(GOLDEN / "whole_module.pt")


def test_unsafe_globals_in_checkpoint_as_pytorch_lists_them():
    # the names PyTorch 2.13's get_unsafe_globals_in_checkpoint gives for these files
    unsafe = torch.serialization.get_unsafe_globals_in_checkpoint
    assert sorted(unsafe(GOLDEN / "whole_module.pt")) == [
        "torch.nn.modules.activation.ReLU",
        "torch.nn.modules.batchnorm.BatchNorm2d",
        "torch.nn.modules.container.Sequential",
        "torch.nn.modules.conv.Conv2d",
        "torch.nn.modules.dropout.Dropout",
        "torch.nn.modules.flatten.Flatten",
        "torch.nn.modules.linear.Linear",
    ]
    assert unsafe(GOLDEN / "nested.pt") == []
    assert unsafe(GOLDEN / "corpus" / "zip_os_system.pt") == ["os.system"]
    with pytest.raises(ValueError, match="Expected input to be a checkpoint returned by torch"):
        unsafe(GOLDEN / "legacy_views.pt")


def test_unsafe_globals_leave_out_what_the_user_allowed():
    nn = pytest.importorskip("torch.nn", exc_type=ImportError)
    unsafe = torch.serialization.get_unsafe_globals_in_checkpoint
    with torch.serialization.safe_globals([nn.Sequential, nn.BatchNorm2d, nn.ReLU]):
        left = unsafe(GOLDEN / "whole_module.pt")
    assert "torch.nn.modules.batchnorm.BatchNorm2d" not in left
    assert "torch.nn.modules.container.Sequential" not in left
    assert "torch.nn.modules.linear.Linear" in left and len(left) == 4
    with open(GOLDEN / "whole_module.pt", "rb") as f:  # file objects too
        assert len(unsafe(f)) == 7
