"""SparseAdam (and SGD, Adagrad) on sparse gradients: trajectories against real PyTorch's
(tools/golden/record_optim.py), state, resuming, refusal of dense gradients, options."""

import numpy as np
import pytest
from optim_testing import bitwise_alternatives, cases_optim, problems

import torch
from torch._interface import optim as native_optim

# torch-core releases before sparse COO tensors: only the dense-gradient refusal is testable
needs_sparse = pytest.mark.skipif(
    not hasattr(torch, "sparse_coo_tensor"), reason="torch-core without sparse tensors"
)


def _sqrt_is_pytorchs() -> bool:
    return native_optim.sqrt_is_pytorchs()


@needs_sparse
@pytest.mark.parametrize("label", list(cases_optim.SPARSE))
def test_trajectory_on_sparse_gradients_matches_pytorch(golden, label):
    expected = golden("sparse_adam")[label]
    got = problems.sparse_trajectory(torch, cases_optim.SPARSE[label], cases_optim.SPARSE_STEPS)
    for step, (g, e) in enumerate(zip(got, expected)):
        np.testing.assert_allclose(g, e, rtol=1e-6, atol=5e-8, err_msg=f"step {step + 1}")
    # bit for bit when the square roots are MKL's, as PyTorch's (else a few ulps off at
    # times, compounding over the steps)
    if _sqrt_is_pytorchs():  # PyTorch's own last bits depend on the CPU (MKL dispatch)
        assert got in bitwise_alternatives("sparse_adam", label, expected)


@needs_sparse
def test_only_named_slices_and_their_moments_change():
    w = torch.ones(4, 2)
    w.grad = torch.sparse_coo_tensor([[2, 0, 2]], torch.ones(3, 2), (4, 2))
    opt = torch.optim.SparseAdam([w], lr=0.1)
    opt.step()
    state = opt.state[w]
    assert state["step"] == 1 and isinstance(state["step"], int)
    assert w[1].tolist() == [1.0, 1.0] and w[3].tolist() == [1.0, 1.0]
    assert w[0, 0].item() == pytest.approx(0.9) and w[2, 0].item() == pytest.approx(0.9)
    # duplicates are summed before the update: row 2 saw a gradient of 2
    assert state["exp_avg"][2].tolist() == pytest.approx([0.2, 0.2])
    assert state["exp_avg"][1].tolist() == [0.0, 0.0]


@needs_sparse
def test_empty_sparse_gradient_changes_nothing():
    w = torch.ones(3)
    w.grad = torch.sparse_coo_tensor(torch.zeros(1, 0, dtype=torch.int64), torch.zeros(0), (3,))
    opt = torch.optim.SparseAdam([w])
    opt.step()
    assert w.tolist() == [1.0, 1.0, 1.0]
    assert opt.state[w]["step"] == 1


@needs_sparse
def test_resume_from_state_dict_equals_never_stopping():
    options = cases_optim.SPARSE["default"]
    straight = problems.sparse_trajectory(torch, options, 6)
    emb = torch.tensor(straight[2][:18]).reshape(6, 3)
    vec = torch.tensor(straight[2][18:])
    # replay the first three steps to get the optimizer's state, then continue on copies
    first = torch.optim.SparseAdam([emb.clone(), vec.clone()], **options)
    ps = first.param_groups[0]["params"]
    with torch.no_grad():
        ps[0].copy_(torch.tensor([[0.1 * i - 0.2 * j for j in range(3)] for i in range(6)]))
        ps[1].copy_(torch.tensor([0.3 * i - 1.0 for i in range(8)]))
    for step in range(3):
        for p in ps:
            p.grad = problems._sparse_grad(torch, p, step)
        first.step()
    fresh = [p.clone() for p in ps]
    second = torch.optim.SparseAdam(fresh, **options)
    second.load_state_dict(first.state_dict())
    for step in range(3, 6):
        for p in fresh:
            p.grad = problems._sparse_grad(torch, p, step)
        second.step()
        assert problems.flat(fresh) == straight[step]


def test_dense_gradients_are_refused():
    w = torch.zeros(3)
    w.grad = torch.ones(3)
    with pytest.raises(RuntimeError, match="does not support dense gradients"):
        torch.optim.SparseAdam([w]).step()


@needs_sparse
@pytest.mark.parametrize("label", list(cases_optim.SPARSE_OTHERS))
def test_sgd_and_adagrad_on_sparse_gradients_match_pytorch(golden, label):
    # PyTorch adds a sparse update into a dense tensor with one FMA per entry (alpha times
    # value plus the old value); core's add rounds the product first: last-bit drift
    name, options = cases_optim.SPARSE_OTHERS[label]
    expected = golden("sparse_adam")[label]
    got = problems.sparse_trajectory(torch, options, cases_optim.SPARSE_STEPS, name)
    for step, (g, e) in enumerate(zip(got, expected)):
        np.testing.assert_allclose(g, e, rtol=5e-6, atol=1e-8, err_msg=f"step {step + 1}")


@needs_sparse
def test_sparse_gradients_with_weight_decay_raise_as_in_pytorch():
    for name, message in [
        ("SGD", "add\\(sparse, dense\\) is not supported"),
        ("Adagrad", "weight_decay option is not compatible with sparse gradients"),
    ]:
        w = torch.ones(3)
        w.grad = torch.sparse_coo_tensor([[1]], [1.0], (3,))
        with pytest.raises(RuntimeError, match=message):
            getattr(torch.optim, name)([w], lr=0.1, weight_decay=0.1).step()


def test_adam_refuses_sparse_gradients_and_points_to_sparse_adam():
    if not hasattr(torch, "sparse_coo_tensor"):
        pytest.skip("torch-core without sparse tensors")
    for name in ("Adam", "AdamW"):
        w = torch.ones(3)
        w.grad = torch.sparse_coo_tensor([[1]], [1.0], (3,))
        with pytest.raises(RuntimeError, match="Adam does not support sparse gradients, please"):
            getattr(torch.optim, name)([w]).step()
