"""torch.nn.functional (all families): values and errors against real PyTorch, the
legacy size_average/reduce arguments and in-place variants."""

import warnings

import numpy as np
import pytest

import torch
import torch.nn.functional as F  # noqa: N812


def _cases():
    import json
    import pathlib

    path = pathlib.Path(__file__).parents[1] / "golden" / "functional.json"
    data = json.loads(path.read_text())
    return data["setup"], data["cases"]


SETUP, CASES = _cases()


def _compare(value, record, tensor_of, where):
    if "tensor" in record:
        expected = record["tensor"]
        assert isinstance(value, torch.Tensor), where
        assert list(value.shape) == expected["shape"], where
        assert str(value.dtype) == "torch." + expected["dtype"], where
        got = value.detach().to(torch.float64).numpy()
        want = np.array(expected["values"], dtype=np.float64).reshape(expected["shape"])
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=where)
    elif "tuple" in record:
        assert len(value) == len(record["tuple"]), where
        for n, (v, r) in enumerate(zip(value, record["tuple"])):
            _compare(v, r, tensor_of, f"{where}[{n}]")
    else:
        assert value == record["value"], where


@pytest.mark.parametrize("source", list(CASES))
def test_matches_pytorch(source, tensor_of):
    record = CASES[source]
    namespace = {"torch": torch, "F": F}
    exec(SETUP, namespace)
    if "error" in record:
        with pytest.raises(Exception) as info:
            eval(source, namespace)
        assert type(info.value).__name__ == record["error"]
        assert str(info.value) == record["message"]
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = eval(source, namespace)
    _compare(value, record, tensor_of, source)


def test_legacy_reduction_arguments_warn_and_map():
    a, b = torch.ones(2, 2), torch.zeros(2, 2)
    with pytest.warns(UserWarning, match="reduction='sum'"):
        assert F.l1_loss(a, b, size_average=False).item() == 4.0
    with pytest.warns(UserWarning, match="reduction='none'"):
        assert F.mse_loss(a, b, reduce=False).shape == (2, 2)
    with pytest.warns(UserWarning, match="reduction='mean'"):
        assert torch.nn.MSELoss(size_average=True).reduction == "mean"


def test_inplace_variants_write_into_their_input():
    x = torch.tensor([-1.0, 2.0])
    assert F.relu_(x) is x and x.tolist() == [0.0, 2.0]
    y = torch.tensor([-1.0, 2.0])
    F.leaky_relu(y, 0.5, inplace=True)
    assert y.tolist() == [-0.5, 2.0]
    z = torch.tensor([-3.0, 3.0])
    torch.nn.Hardtanh(inplace=True)(z)
    assert z.tolist() == [-1.0, 1.0]


def test_dropout_in_training_zeroes_and_rescales():
    torch.manual_seed(0)
    out = F.dropout(torch.ones(1000), 0.25)
    kept = out[out != 0]
    assert bool((kept == 1 / 0.75).all()) and 150 < int((out == 0).sum()) < 350
    channels = F.dropout2d(torch.ones(4, 8, 3, 3), 0.5)
    per_channel = channels.reshape(4, 8, 9)
    assert bool(((per_channel == 0).all(2) | (per_channel == 2).all(2)).all())


def test_gumbel_softmax_hard_is_one_hot_with_soft_gradient():
    torch.manual_seed(0)
    logits = torch.randn(3, 5, requires_grad=True)
    y = F.gumbel_softmax(logits, tau=0.5, hard=True)
    assert bool((y.sum(1) == 1).all()) and set(y.flatten().tolist()) <= {0.0, 1.0}
    (y * torch.arange(5.0)).sum().backward()
    assert logits.grad is not None and float(logits.grad.abs().sum()) > 0


def test_normalize_and_pdist_with_the_zero_and_infinite_orders():
    # as PyTorch: order 0 counts nonzeros, inf takes the largest magnitude
    x = torch.tensor([[0.5, -2.0, 0.0], [3.0, 0.0, 1.0]])
    torch.testing.assert_close(F.normalize(x, p=0.0), x / 2)
    torch.testing.assert_close(F.normalize(x, p=float("inf")), x / torch.tensor([[2.0], [3.0]]))
    assert F.pdist(x, p=0.0).tolist() == [3.0]
    assert F.pdist(x, p=float("inf")).tolist() == [2.5]
