"""``torch.func.functionalize``, ``debug_unwrap`` and ``replace_all_batch_norm_modules_``:
the expected values are what PyTorch 2.13 gave for the same calls."""

import pytest

import torch


def _mutating(x):
    y = x.clone()
    y.add_(1)
    x.mul_(2)
    return y.view(-1)


@pytest.mark.parametrize("remove", ["mutations", "mutations_and_views"])
def test_functionalize_computes_what_the_function_computes(remove):
    x = torch.ones(2, 2)
    g = torch.func.functionalize(_mutating, remove=remove)
    assert g.__name__ == "_mutating"
    assert torch.equal(g(x), torch.full((4,), 2.0))
    assert torch.equal(x, torch.full((2, 2), 2.0))  # the input mutation stays visible


def test_functionalize_refuses_an_unknown_option():
    with pytest.raises(RuntimeError, match=r"received invalid argument for remove=x\. Valid"):
        torch.func.functionalize(_mutating, remove="x")


def test_debug_unwrap_gives_the_batch_inside_vmap():
    # PyTorch: the unwrapped tensor inside vmap over (3, 2) is 2-d
    out = torch.func.vmap(lambda t: t * 0 + torch.func.debug_unwrap(t).dim())(torch.ones(3, 2))
    assert torch.equal(out, torch.full((3, 2), 2.0))
    plain = torch.ones(2)
    assert torch.func.debug_unwrap(plain) is plain


def test_replace_all_batch_norm_modules_drops_running_statistics():
    nn = pytest.importorskip("torch.nn")
    model = nn.Sequential(nn.BatchNorm1d(3), nn.Linear(3, 3), nn.Sequential(nn.BatchNorm2d(2)))
    assert torch.func.replace_all_batch_norm_modules_(model) is model
    for bn in (model[0], model[2][0]):
        assert bn.running_mean is None and bn.running_var is None
        assert bn.num_batches_tracked is None and bn.track_running_stats is False
    assert model[0](torch.randn(4, 3)).shape == (4, 3)
