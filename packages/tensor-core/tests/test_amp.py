"""torch.amp: autocast's op table, its state functions and deprecated spellings, the
cost of interception, GradScaler; against goldens recorded from PyTorch 2.13."""

from __future__ import annotations

import json
import pathlib
import pickle
import threading
import warnings

import amp_cases
import pytest

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "amp.json").read_text())


def _same_outcome(ours: str, theirs: str) -> bool:
    if theirs.startswith(("RuntimeError", "NotImplementedError")):
        return ours.split(":")[0] == theirs.split(":")[0]
    return ours == theirs


@pytest.mark.parametrize("name", sorted(amp_cases.CORE_CASES))
def test_output_dtypes_match_pytorch(name):
    expected = GOLDEN["ops"][name]
    for label, input_dtype, autocast_dtype in amp_cases.SETTINGS:
        got = amp_cases.run(amp_cases.CORE_CASES[name], torch, input_dtype, autocast_dtype)
        if expected[label].startswith("NotImplementedError"):
            continue  # PyTorch lacks a CPU kernel there; we compute
        assert _same_outcome(got, expected[label]), (label, got, expected[label])


def test_bindings_are_plain_functions_outside_autocast():
    plain = (torch.matmul, torch.Tensor.__add__, torch.Tensor.mm, torch.cat)
    with torch.autocast("cpu"):
        assert torch.matmul is not plain[0]
        assert torch.Tensor.mm is not plain[2]
        assert torch.Tensor.__add__ is plain[1]  # not an autocast op: never wrapped
    assert (torch.matmul, torch.Tensor.__add__, torch.Tensor.mm, torch.cat) == plain


def test_state_functions():
    assert torch.get_autocast_dtype("cpu") is torch.bfloat16
    assert torch.get_autocast_dtype("cuda") is torch.float16
    assert not torch.is_autocast_enabled("cpu")
    with torch.autocast("cpu", dtype=torch.float16):
        assert torch.is_autocast_enabled("cpu") and torch.is_autocast_cpu_enabled()
        assert not torch.is_autocast_enabled()  # no argument: CUDA's state
        assert torch.get_autocast_dtype("cpu") is torch.float16
        assert torch.get_autocast_cpu_dtype() is torch.float16
        with torch.autocast("cpu", enabled=False):
            assert not torch.is_autocast_enabled("cpu")
            assert (torch.ones(2, 2) @ torch.ones(2, 2)).dtype is torch.float32
        assert (torch.ones(2, 2) @ torch.ones(2, 2)).dtype is torch.float16
    assert torch.get_autocast_dtype("cpu") is torch.bfloat16
    assert torch.autocast_increment_nesting() == 1
    assert torch.autocast_decrement_nesting() == 0


def test_bad_arguments():
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
        torch.get_autocast_dtype("xyz")
    with pytest.raises(ValueError, match="Expected `device_type` of type `str`"):
        torch.autocast(3)
    with pytest.raises(TypeError, match=r"argument 'enabled' \(position 1\) must be bool"):
        torch.set_autocast_enabled("cpu")
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument"):
        torch.amp.custom_fwd(lambda x: x)


def test_unsupported_dtype_and_missing_cuda_disable_with_a_warning():
    with pytest.warns(UserWarning, match="CPU Autocast only supports dtypes of torch.bfloat16"):
        region = torch.autocast("cpu", dtype=torch.float64)
    with region:
        assert not torch.is_autocast_enabled("cpu")
    with pytest.warns(UserWarning, match="CUDA is not available"):
        torch.autocast("cuda")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: torch.cpu.amp.autocast(), r"torch.amp.autocast\('cpu', args...\)"),
        (lambda: torch.cpu.amp.GradScaler(), r"torch.amp.GradScaler\('cpu', args...\)"),
        (lambda: torch.cuda.amp.custom_fwd(lambda x: x), "device_type='cuda'"),
        (lambda: torch.cuda.amp.custom_bwd(lambda x: x), "device_type='cuda'"),
    ],
)
def test_deprecated_spellings_warn(make, message):
    with pytest.warns(FutureWarning, match=message):
        make()


def test_cpu_amp_autocast_is_the_cpu_region():
    with pytest.warns(FutureWarning), torch.cpu.amp.autocast():
        assert torch.is_autocast_enabled("cpu")
        assert torch.get_autocast_dtype("cpu") is torch.bfloat16
    assert issubclass(torch.cpu.amp.autocast, torch.amp.autocast)
    assert torch.autocast is torch.amp.autocast


def test_decorator_and_thread_locality():
    @torch.autocast("cpu")
    def product():
        return torch.ones(2, 2) @ torch.ones(2, 2)

    assert product().dtype is torch.bfloat16
    seen = []
    with torch.autocast("cpu"):
        worker = threading.Thread(target=lambda: seen.append(product.__wrapped__().dtype))
        worker.start()
        worker.join()
    assert seen == [torch.float32]  # the other thread has autocast off


def test_nested_ops_of_a_cast_op_are_left_alone():
    # a float32 op inside the region keeps float32 arguments it gets from autocast
    with torch.autocast("cpu"):
        assert torch.cdist(torch.ones(2, 3), torch.ones(2, 3)).dtype is torch.float32


def test_weight_casts_are_cached_within_a_region():
    if not _has_autograd():
        pytest.skip("needs torch-autograd")
    weight = torch.ones(3, 3, requires_grad=True)
    with torch.autocast("cpu"):
        first = torch.mm(torch.ones(2, 3), weight)
        second = torch.mm(torch.ones(2, 3), weight)
        (first.float().sum() + second.float().sum()).backward()
        from torch.amp._state import state

        assert len(state.cache) == 1
    assert weight.grad.dtype is torch.float32
    assert weight.grad.tolist() == [[4.0] * 3] * 3


def _has_autograd() -> bool:
    from torch._interface import get_grad_engine

    return get_grad_engine().available


# ------------------------------------------------------------------------- GradScaler


def test_grad_scaler_trajectory_matches_pytorch():
    assert amp_cases.scaler_trajectory(torch) == GOLDEN["scaler"]


def test_grad_scaler_errors():
    scaler = torch.amp.GradScaler("cpu")
    with pytest.raises(AssertionError, match="Attempted step but _scale is None"):
        scaler.step(amp_cases.FakeOptimizer([]))
    with pytest.raises(RuntimeError, match="source state dict is empty"):
        scaler.load_state_dict({})
    with pytest.raises(AssertionError, match="growth factor must be > 1.0"):
        torch.amp.GradScaler("cpu", growth_factor=1.0)
    param = torch.zeros(2)
    optimizer = amp_cases.FakeOptimizer([param])
    param.grad = scaler.scale(torch.ones(2))
    scaler.unscale_(optimizer)
    with pytest.raises(RuntimeError, match="already been called on this optimizer"):
        scaler.unscale_(optimizer)
    scaler.step(optimizer)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        scaler.step(optimizer)
    with pytest.raises(RuntimeError, match="Closure use is not currently supported"):
        scaler.step(optimizer, closure=lambda: None)


def test_grad_scaler_state_and_pickling():
    scaler = torch.amp.GradScaler("cpu", init_scale=4.0)
    scaler.scale(torch.ones(1))
    copy = pickle.loads(pickle.dumps(scaler))
    assert copy.get_scale() == 4.0 and copy.state_dict() == scaler.state_dict()
    other = torch.amp.GradScaler("cpu")
    other.load_state_dict(scaler.state_dict())
    assert other.get_scale() == 4.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        disabled = torch.amp.GradScaler()  # "cuda" without CUDA: disabled
    assert not disabled.is_enabled() and disabled.state_dict() == {}
    assert disabled.scale(torch.ones(1)).item() == 1.0


def test_amp_kernels():
    scale, tracker = torch.tensor(8.0), torch.tensor(0, dtype=torch.int32)
    assert torch._amp_update_scale_(scale, tracker, torch.tensor([0.0]), 2.0, 0.5, 1) is scale
    assert (scale.item(), tracker.item()) == (16.0, 0)
    torch._amp_update_scale_(scale, tracker, torch.tensor([1.0]), 2.0, 0.5, 1)
    assert scale.item() == 8.0
    grads, found = [torch.tensor([1.0, float("inf")]), torch.tensor([2.0])], torch.zeros(1)
    torch._amp_foreach_non_finite_check_and_unscale_(grads, found, torch.tensor([0.5]))
    assert found.item() == 1.0 and grads[1].item() == 1.0
