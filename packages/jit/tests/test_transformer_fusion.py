"""The Transformer fusions of optimize_for_inference: attention and (residual add +)
layer norm as native kernels, checked against eager on other shapes, layouts, dtypes,
with NaN, with masks (not fused), and through save/load."""

from __future__ import annotations

import io
import math

import pytest

import torch
from torch import nn
from torch.jit import _kernels

pytestmark = pytest.mark.skipif(
    not _kernels.compiler_available(), reason="no C++ compiler for fused kernels"
)


@pytest.fixture(autouse=True)
def _kernel_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("TORCH_JIT_CACHE", str(tmp_path_factory.getbasetemp() / "kernels"))


def _groups(module) -> list[str]:
    return [
        n.attrs["kernel"].__qualname__ for n in module.graph.nodes if n.kind == "prim::FusionGroup"
    ]


def _optimized(model, example):
    return torch.jit.optimize_for_inference(torch.jit.trace(model.eval(), example))


def _check(optimized, model, shapes, dtype=torch.float32, tol=1e-5):
    with torch.no_grad():
        for _ in range(3):  # the profiling calls run the ops, then the kernels
            optimized(torch.randn(*shapes[0], dtype=dtype))
        for shape in shapes:
            x = torch.randn(*shape, dtype=dtype)
            torch.testing.assert_close(optimized(x), model(x), rtol=tol, atol=tol)


@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_fuses_attention_and_layer_norms(batch_first, norm_first):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(
        24, 3, 40, dropout=0.0, batch_first=batch_first, norm_first=norm_first
    )
    optimized = _optimized(layer, torch.randn(2, 5, 24))
    groups = _groups(optimized)
    assert "fused_attention" in groups
    assert groups.count("fused_add_layer_norm") + groups.count("fused_layer_norm") == 2
    # sequence lengths that are not a multiple of the kernel's blocks, other batch sizes
    _check(optimized, layer, [(2, 5, 24), (3, 17, 24), (1, 1, 24), (4, 6, 24)])


def test_kernels_in_double_and_with_nan():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True).double()
    optimized = _optimized(layer, torch.randn(2, 6, 16, dtype=torch.float64))
    _check(optimized, layer, [(2, 6, 16), (3, 9, 16)], torch.float64, 1e-10)
    x = torch.randn(2, 6, 16, dtype=torch.float64)
    x[1, 2, 3] = math.nan
    with torch.no_grad():
        torch.testing.assert_close(optimized(x), layer(x), equal_nan=True)


def test_masked_attention_is_not_fused_and_still_matches():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True).eval()
    mask = nn.Transformer.generate_square_subsequent_mask(6)

    class Causal(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layer = layer

        def forward(self, x):
            return self.layer(x, src_mask=mask)

    model = Causal().eval()
    optimized = _optimized(model, torch.randn(2, 6, 16))
    assert "fused_attention" not in _groups(optimized)
    _check(optimized, model, [(2, 6, 16), (3, 6, 16)])


def test_layer_norm_without_affine_and_alone():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8, elementwise_affine=False)).eval()
    optimized = _optimized(model, torch.randn(3, 8))
    assert _groups(optimized) == ["fused_layer_norm"]
    _check(optimized, model, [(3, 8), (2, 4, 8)])


def test_fused_groups_run_their_ops_where_gradients_are_needed():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True).eval()
    optimized = _optimized(layer, torch.randn(2, 6, 16))
    for _ in range(3):
        optimized(torch.randn(2, 6, 16))
    x = torch.randn(2, 6, 16, requires_grad=True)
    optimized(x).sum().backward()
    expected = x.detach().clone().requires_grad_()
    layer(expected).sum().backward()
    torch.testing.assert_close(x.grad, expected.grad, rtol=1e-4, atol=1e-5)


def test_optimized_layer_round_trips_through_save_and_load():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True).eval()
    optimized = _optimized(layer, torch.randn(2, 6, 16))
    buffer = io.BytesIO()
    torch.jit.save(optimized, buffer)
    buffer.seek(0)
    loaded = torch.jit.load(buffer)
    assert sorted(_groups(loaded)) == sorted(_groups(optimized))
    _check(loaded, layer, [(2, 6, 16), (1, 3, 16)])
