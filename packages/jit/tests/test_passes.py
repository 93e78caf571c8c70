"""Graph passes: dead code, common subexpressions, constant folding, freezing (batch norm
folded into convolution), optimize_for_inference and the fused native kernels."""

from __future__ import annotations

import math

import models_jit
import pytest
from conftest import load_golden

import torch
from torch import nn
from torch.jit import _kernels
from torch.jit._passes.constant_folding import fold_constants
from torch.jit._passes.cse import eliminate_common_subexpressions
from torch.jit._passes.dce import eliminate_dead_code

GOLDEN = load_golden("eager_api.json")
needs_compiler = pytest.mark.skipif(
    not _kernels.compiler_available(), reason="no C++ compiler for fused kernels"
)


def _kinds(graph) -> list[str]:
    return [n.kind for n in graph.nodes]


def test_dead_code_keeps_in_place_writes():
    def f(x):
        unused = x * 2  # noqa: F841 - dead
        y = x.clone()
        y.add_(1)
        return y

    traced = torch.jit.trace(f, torch.ones(2))
    kinds = _kinds(traced.graph)
    assert "aten::mul" not in kinds and "aten::add_" in kinds
    assert eliminate_dead_code(traced.graph) == 0
    assert traced(torch.ones(2)).tolist() == [2.0, 2.0]


def test_cse_merges_duplicates_but_not_random_ops():
    def f(x):
        return torch.sin(x) + torch.sin(x) + torch.rand(2) * 0 + torch.rand(2) * 0

    traced = torch.jit.trace(f, torch.ones(2), check_trace=False)
    graph = traced.graph
    removed = eliminate_common_subexpressions(graph)
    traced._invalidate()
    assert removed >= 1
    assert _kinds(graph).count("aten::sin") == 1
    assert _kinds(graph).count("aten::rand") == 2
    torch.testing.assert_close(traced(torch.ones(2)), 2 * torch.sin(torch.ones(2)))


def test_constant_folding_runs_constant_ops_once():
    table = torch.arange(4.0)

    def f(x):
        return x + table.exp().sum()

    traced = torch.jit.trace(f, torch.zeros(1))
    assert fold_constants(traced.graph) == 2
    eliminate_dead_code(traced.graph)
    traced._invalidate()
    assert _kinds(traced.graph) == ["prim::Constant", "aten::add"]
    torch.testing.assert_close(traced(torch.zeros(1)), table.exp().sum().reshape(1))


def _with_batch_norm_statistics(model: nn.Module) -> nn.Module:
    torch.manual_seed(3)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.BatchNorm2d):
                module.running_mean.uniform_(-1, 1)
                module.running_var.uniform_(0.5, 2)
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-1, 1)
    return model.eval()


@pytest.mark.parametrize("name", sorted(models_jit.MODELS))
def test_frozen_models_match_eager(name):
    model, inputs = models_jit.seeded_model(name)
    model = _with_batch_norm_statistics(model)
    frozen = torch.jit.freeze(torch.jit.trace(model, inputs()))
    assert list(frozen.parameters()) == []
    graph = str(frozen.graph)
    assert "prim::GetAttr" not in graph and "prim::CallMethod" not in graph
    if name in ("resnet_block", "digits_cnn"):
        assert "aten::batch_norm" not in graph
    torch.manual_seed(1)
    args = inputs()
    with torch.no_grad():
        models_jit.assert_outputs_match(frozen, model, args, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "key, call",
    [
        ("freeze_not_script", lambda: torch.jit.freeze(nn.ReLU())),
        ("freeze_training", lambda: torch.jit.freeze(torch.jit.trace(nn.ReLU(), torch.ones(1)))),
        ("optimize_not_script", lambda: torch.jit.optimize_for_inference(nn.ReLU())),
    ],
)
def test_freeze_errors_match_pytorch(key, call):
    with pytest.raises(RuntimeError) as error:
        call()
    assert [type(error.value).__name__, str(error.value)] == GOLDEN[key]


@needs_compiler
@pytest.mark.parametrize("name", ["lenet", "resnet_block", "transformer", "digits_cnn"])
def test_optimize_for_inference_matches_eager(name, tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH_JIT_CACHE", str(tmp_path))
    model, inputs = models_jit.seeded_model(name)
    model = _with_batch_norm_statistics(model)
    optimized = torch.jit.optimize_for_inference(torch.jit.trace(model, inputs()))
    with torch.no_grad():
        for batch in range(4):  # past the profiling calls: the native kernels run
            torch.manual_seed(batch)
            args = inputs()
            torch.testing.assert_close(optimized(*args), model(*args), rtol=1e-5, atol=1e-5)


def _silu_add(x, y):
    return x * torch.sigmoid(x) + y


@needs_compiler
def test_elementwise_chain_becomes_one_native_kernel(tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH_JIT_CACHE", str(tmp_path))
    x = torch.randn(1000)
    x[:4] = torch.tensor([math.nan, math.inf, -math.inf, 0.0])
    y = torch.randn(1000)
    traced = torch.jit.trace(_silu_add, (torch.randn(1000), torch.randn(1000)))
    with torch.no_grad():
        for _ in range(3):
            got = traced(x, y)
    kinds = _kinds(traced.graph_for(x, y))
    assert kinds == ["prim::FusionGroup"]
    kernel = traced.graph_for(x, y).nodes[0].attrs["kernel"]
    assert kernel._native is not None
    torch.testing.assert_close(got, _silu_add(x, y), equal_nan=True)
    # other shapes of one shape run natively too; mixed shapes use the ops
    with torch.no_grad():
        torch.testing.assert_close(traced(x[:10], y[:10]), _silu_add(x[:10], y[:10]),
                                   equal_nan=True)  # fmt: skip
    assert list(tmp_path.glob("kernels/*.so"))


@needs_compiler
def test_fused_graph_still_differentiates(tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH_JIT_CACHE", str(tmp_path))
    traced = torch.jit.trace(_silu_add, (torch.randn(5), torch.randn(5)))
    for _ in range(3):
        traced(torch.randn(5), torch.randn(5))
    x = torch.randn(5, requires_grad=True)
    traced(x, torch.zeros(5)).sum().backward()
    s = torch.sigmoid(x.detach())
    torch.testing.assert_close(x.grad, s * (1 + x.detach() * (1 - s)))


@needs_compiler
def test_fusion_off_with_the_fuser_switch():
    with torch.jit.fuser("none"):
        traced = torch.jit.trace(_silu_add, (torch.randn(5), torch.randn(5)))
        traced(torch.randn(5), torch.randn(5))
        assert "prim::FusionGroup" not in _kinds(traced.graph_for())
    with pytest.raises(Exception, match="unrecognized fuser option"):
        with torch.jit.fuser("fuser9"):
            pass


@needs_compiler
def test_pool_kernel_matches_max_pool_with_nan(tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH_JIT_CACHE", str(tmp_path))
    model = nn.Sequential(nn.Conv2d(2, 3, 3), nn.ReLU(), nn.MaxPool2d(2)).eval()
    optimized = torch.jit.optimize_for_inference(torch.jit.trace(model, torch.randn(1, 2, 9, 9)))
    assert any(n.kind == "prim::FusionGroup" for n in optimized.graph.nodes)
    x = torch.randn(3, 2, 9, 9)
    x[0, 0, 0, 0] = math.nan
    with torch.no_grad():
        for _ in range(3):
            got = optimized(x)
        torch.testing.assert_close(got, model(x), equal_nan=True)


def _optimized_encoder_layer(heads: int, example_shape: tuple):
    """A batch-first encoder layer (width 16, no dropout) made under seed 0, and its
    program from optimize_for_inference, traced on an input of ``example_shape``."""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(16, heads, 32, dropout=0.0, batch_first=True).eval()
    traced = torch.jit.trace(layer, torch.randn(*example_shape))
    return layer, torch.jit.optimize_for_inference(traced)


def _assert_matches_layer(optimized, layer, shapes) -> None:
    with torch.no_grad():
        for shape in shapes:
            x = torch.randn(*shape)
            torch.testing.assert_close(optimized(x), layer(x), rtol=1e-5, atol=1e-5)


def test_attention_decomposes_into_ops_that_follow_the_batch_size():
    layer, optimized = _optimized_encoder_layer(4, (1, 5, 16))
    graph = str(optimized.graph)
    inner = [str(n.attrs["subgraph"]) for n in optimized.graph.nodes if "subgraph" in n.attrs]
    assert "multi_head_attention_forward" not in graph
    assert "aten::softmax" in graph + "".join(inner)  # in the fused attention group
    assert "aten::dropout" not in graph
    _assert_matches_layer(optimized, layer, ((3, 5, 16), (2, 7, 16)))


def test_attention_scale_is_folded_into_the_query_projection():
    layer, optimized = _optimized_encoder_layer(2, (2, 5, 16))
    tensor_muls = [
        n for n in optimized.graph.nodes
        if n.kind == "aten::mul" and isinstance(n.output().type, torch.jit._ir.TensorType)
    ]  # fmt: skip
    assert not tensor_muls  # q * head_dim ** -0.5 went into W_q and b_q
    _assert_matches_layer(optimized, layer, ((2, 5, 16), (3, 9, 16)))


def test_batch_first_self_attention_runs_without_transposes():
    layer, optimized = _optimized_encoder_layer(4, (2, 5, 16))
    kinds = [n.kind for n in optimized.graph.nodes]
    # heads split by views of the untransposed input; the module's transposes cancelled
    assert "aten::multi_head_attention_forward" not in kinds
    assert kinds.count("aten::transpose") == 3 and kinds.count("aten::permute") == 1
    assert kinds.count("aten::reshape") == 1  # only the heads' merge copies
    _assert_matches_layer(optimized, layer, ((1, 5, 16), (4, 9, 16)))  # other batches, lengths


def test_attention_with_a_mask_or_sequence_first_keeps_the_general_decomposition():
    from torch.jit._passes.attention import batch_first_self_attention

    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0).eval()  # sequence-first
    frozen = torch.jit.freeze(torch.jit.trace(layer, torch.randn(5, 2, 16)))
    assert batch_first_self_attention(frozen.graph) == 0
    masked = _Masked().eval()
    frozen = torch.jit.freeze(torch.jit.trace(masked, torch.randn(2, 5, 16)))
    assert batch_first_self_attention(frozen.graph) == 0


class _Masked(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, batch_first=True)
        self.register_buffer("mask", torch.triu(torch.full((5, 5), -1e9), 1))

    def forward(self, x):
        return self.layer(x, src_mask=self.mask)


class _ScaledHeads(nn.Module):
    """A projection viewed as heads and scaled; with ``also_return_projection`` the
    projection is read twice, so the scale cannot go into its weights."""

    def __init__(self, also_return_projection: bool) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 6)
        self.also_return_projection = also_return_projection

    def forward(self, x):
        y = self.fc(x)
        if self.also_return_projection:
            return y.view(-1, 3, 2).transpose(1, 2) * 0.3, y
        return y.view(y.size(0), 3, 2).transpose(1, 2) * 0.3


def test_scale_folding_needs_the_projection_to_itself():
    from torch.jit._passes.fold_scale import fold_linear_scaling

    torch.manual_seed(0)
    model = _ScaledHeads(also_return_projection=True).eval()
    frozen = torch.jit.freeze(torch.jit.trace(model, torch.randn(2, 4)))
    assert fold_linear_scaling(frozen.graph) == 0
    model = _ScaledHeads(also_return_projection=False).eval()
    frozen = torch.jit.freeze(torch.jit.trace(model, torch.randn(2, 4)))
    assert fold_linear_scaling(frozen.graph) == 1  # the size read does not count
    x = torch.randn(5, 4)
    with torch.no_grad():
        torch.testing.assert_close(frozen(x), model(x))
