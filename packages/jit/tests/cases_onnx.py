"""Small exported functions of the ONNX tests: name -> (module, example input factory).
Each is exported, run in onnxruntime and compared with eager."""

from __future__ import annotations

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn


class Fn(nn.Module):
    """A function as a module (export takes modules and functions alike)."""

    def __init__(self, fn) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def _x(*shape):
    return lambda: (torch.randn(*shape),)


def _xy(*shape):
    return lambda: (torch.randn(*shape), torch.randn(*shape))


def _positive(*shape):
    return lambda: (torch.rand(*shape) + 0.5,)


OP_CASES = {
    # convolution (1d/2d, groups, padding, dilation, same) and pooling
    "conv1d": (lambda: nn.Conv1d(3, 4, 3, padding=2, dilation=2), _x(2, 3, 10)),
    "conv2d_groups": (lambda: nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2), _x(2, 4, 9, 9)),
    "conv2d_same": (lambda: nn.Conv2d(3, 4, (3, 4), padding="same", bias=False), _x(1, 3, 7, 7)),
    "conv2d_unbatched": (lambda: nn.Conv2d(3, 2, 3), _x(3, 6, 6)),
    "max_pool": (lambda: nn.MaxPool2d(3, 2, 1), _x(2, 3, 9, 9)),
    "max_pool1d": (lambda: Fn(lambda x: F.max_pool1d(x, 2)), _x(2, 3, 8)),
    "avg_pool": (lambda: nn.AvgPool2d(2), _x(2, 3, 8, 8)),
    "avg_pool_pad": (
        lambda: Fn(lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False)),
        _x(1, 2, 7, 7),
    ),
    "adaptive_avg_pool_global": (lambda: nn.AdaptiveAvgPool2d(1), _x(2, 3, 5, 5)),
    "adaptive_avg_pool_2x2": (lambda: nn.AdaptiveAvgPool2d((2, 2)), _x(2, 3, 6, 6)),
    "batch_norm_1d": (lambda: nn.BatchNorm1d(3), _x(4, 3)),
    "layer_norm": (lambda: nn.LayerNorm([3, 4]), _x(2, 3, 4)),
    "group_norm": (lambda: nn.GroupNorm(2, 4), _x(2, 4, 3, 3)),
    # activations
    "activations": (
        lambda: Fn(
            lambda x: (
                torch.relu(x),
                torch.sigmoid(x),
                torch.tanh(x),
                F.gelu(x),
                F.gelu(x, approximate="tanh"),
                F.silu(x),
                F.leaky_relu(x, 0.2),
                F.elu(x),
                F.hardtanh(x),
                F.softplus(x),
            )
        ),
        _x(3, 5),
    ),
    "softmax": (
        lambda: Fn(lambda x: (F.softmax(x, -1), x.softmax(0), F.log_softmax(x, 1))),
        _x(3, 5),
    ),
    # arithmetic
    "arithmetic": (
        lambda: Fn(
            lambda x, y: (
                x + y,
                x - y,
                x * y,
                x / y,
                x**2,
                -x,
                2 - x,
                2 / x,
                x + 1,
                x * 0.5,
                torch.add(x, y, alpha=2),
                torch.maximum(x, y),
                x.clamp(-0.5, 0.5),
                x.clamp(min=0),
            )
        ),
        _xy(3, 4),
    ),
    "unary": (
        lambda: Fn(
            lambda x: (
                x.sqrt(),
                x.exp(),
                x.log(),
                torch.rsqrt(x),
                x.abs(),
                torch.pow(x, x),
                x.reciprocal(),
            )
        ),
        _positive(3, 4),
    ),
    "comparisons": (
        lambda: Fn(lambda x, y: (x == y, x != y, x < y, x <= 0, x > y, x >= y)),
        lambda: (torch.randint(0, 3, (4,)).float(), torch.randint(0, 3, (4,)).float()),
    ),
    "where_masked_fill": (
        lambda: Fn(lambda x: (torch.where(x > 0, x, 0.0), x.masked_fill(x < 0, -1.0))),
        _x(3, 4),
    ),
    "casts": (
        lambda: Fn(
            lambda x: (
                (x * 3).long(),
                x.to(torch.float64),
                (x > 0).float(),
                (x * 3).int().float() + 1,
                x.double().half(),
            )
        ),
        _x(
            5,
        ),
    ),
    # matrix products
    "linear_3d": (lambda: nn.Linear(4, 3), _x(2, 5, 4)),
    "products": (
        lambda: Fn(
            lambda x, w, b: (
                x @ w.t(),
                torch.matmul(x, w.t()),
                x.mm(w.t()),
                torch.addmm(b, x, w.t()),
                torch.bmm(x[None], w.t()[None]),
            )
        ),
        lambda: (torch.randn(2, 3), torch.randn(4, 3), torch.randn(4)),
    ),
    "einsum": (
        lambda: Fn(lambda a, b: torch.einsum("bij,bjk->bik", a, b)),
        lambda: (torch.randn(2, 3, 4), torch.randn(2, 4, 5)),
    ),
    # shapes
    "shapes": (
        lambda: Fn(
            lambda x: (
                x.flatten(1),
                x.view(2, -1),
                x.reshape(-1, 4),
                x.permute(0, 2, 1),
                x.transpose(1, 2).contiguous(),
                torch.flatten(x),
                x.unsqueeze(1),
                x[:, :1].squeeze(1),
                x.expand(3, 2, 3, 4)[1],
                x.repeat(1, 2, 1),
            )
        ),
        _x(2, 3, 4),
    ),
    "join_split": (
        lambda: Fn(
            lambda x, y: (
                torch.cat([x, y], 1),
                torch.stack([x, y]),
                *x.split(2, 1),
                *x.chunk(2, 0),
                *torch.split(x, [1, 3], 1),
                *x.unbind(0),
            )
        ),
        _xy(2, 4),
    ),
    "indexing": (
        lambda: Fn(
            lambda x: (
                x[:, 1:],
                x[0],
                x[:, None],
                x[..., 1],
                x[1:, ::2],
                x.select(1, 0),
                x.narrow(1, 1, 2),
                x[:, [0, 2]],
                x[-1],
                x.flip(0),
            )
        ),
        _x(3, 4),
    ),
    "index_tensor": (
        lambda: Fn(lambda x, i: (x[i], x.index_select(1, i))),
        lambda: (torch.randn(3, 4), torch.tensor([2, 0])),
    ),
    "reductions": (
        lambda: Fn(
            lambda x: (
                x.mean(),
                x.mean(1),
                x.mean((0, 1), keepdim=True),
                x.sum(),
                x.sum(-1),
                torch.sum(x, 0, keepdim=True),
                x.amax(1),
                x.max(),
                x.max(1)[0],
                x.max(1)[1],
                x.argmax(1),
                x.var(1),
                x.std(),
                x.prod(1),
            )
        ),
        _x(3, 4),
    ),
    "dropout_eval": (lambda: nn.Sequential(nn.Dropout(0.5), nn.Dropout2d(0.3)), _x(2, 3, 4, 4)),
    "embedding": (
        lambda: nn.Embedding(10, 4, padding_idx=0),
        lambda: (torch.tensor([[1, 2, 0], [3, 9, 4]]),),
    ),
    "constants": (lambda: Fn(lambda x: x + torch.arange(4.0) * torch.ones(4)), _x(3, 4)),
    "pad": (
        lambda: Fn(
            lambda x: (
                F.pad(x, (1, 2)),
                F.pad(x, (1, 1, 2, 0), value=3.0),
                F.pad(x, (1, 1, 1, 1), mode="reflect"),
            )
        ),
        _x(1, 2, 4, 4),
    ),
    "like": (
        lambda: Fn(
            lambda x: (torch.zeros_like(x), torch.ones_like(x) + x, torch.full_like(x, 2.0))
        ),
        _x(2, 3),
    ),
    "tril_triu_cumsum": (lambda: Fn(lambda x: (x.tril(), x.triu(1), x.cumsum(1))), _x(3, 3)),
    # recurrent
    "lstm_batch_first": (lambda: nn.LSTM(4, 5, 2, batch_first=True), _x(2, 3, 4)),
    "lstm_bidirectional": (lambda: nn.LSTM(4, 5, 1, bidirectional=True), _x(3, 2, 4)),
    "gru": (lambda: nn.GRU(4, 5, 2), _x(3, 2, 4)),
    "rnn_relu": (lambda: nn.RNN(4, 5, nonlinearity="relu"), _x(3, 2, 4)),
    # attention
    "multihead_attention": (
        lambda: nn.MultiheadAttention(8, 2, batch_first=True),
        lambda: (torch.randn(2, 3, 8), torch.randn(2, 4, 8), torch.randn(2, 4, 8)),
    ),
    "sdpa_causal": (
        lambda: Fn(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True)),
        lambda: (torch.randn(2, 2, 3, 4), torch.randn(2, 2, 3, 4), torch.randn(2, 2, 3, 4)),
    ),
    "interpolate_nearest": (
        lambda: Fn(lambda x: F.interpolate(x, scale_factor=2)),
        _x(1, 2, 3, 3),
    ),
}


class MaskedEncoder(nn.Module):
    """A Transformer encoder layer with a causal mask and a key padding mask."""

    def __init__(self) -> None:
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)

    def forward(self, x, padding):
        mask = torch.triu(torch.full((x.shape[1], x.shape[1]), float("-inf")), diagonal=1)
        return self.layer(x, src_mask=mask, src_key_padding_mask=padding)


OP_CASES["transformer_masks"] = (
    MaskedEncoder,
    lambda: (torch.randn(2, 4, 8), torch.tensor([[False] * 4, [False, False, False, True]])),
)


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return torch.softmax(self.fc2(torch.tanh(self.fc1(x))), dim=-1)


def _golden_models() -> dict:
    """Models whose export is compared with PyTorch's (op types, initializer names,
    shapes): name -> (factory, input factory, export options)."""
    import models_jit

    lenet, digits, resnet = (models_jit.MODELS[n] for n in ("lenet", "digits_cnn",
                                                            "resnet_block"))  # fmt: skip
    return {
        "lenet": (lenet[0], lenet[1], {}),
        "digits_cnn_17": (digits[0], digits[1], {"opset_version": 17}),
        "resnet_block": (resnet[0], resnet[1], {"opset_version": 13}),
        "mlp_dynamic": (
            MLP,
            lambda: (torch.randn(4, 6),),
            {"input_names": ["x"], "output_names": ["y"], "dynamic_axes": {"x": [0], "y": [0]}},
        ),
        "mlp_named_axes": (
            MLP,
            lambda: (torch.randn(4, 6),),
            {"input_names": ["x"], "dynamic_axes": {"x": {0: "batch"}}},
        ),
    }


GOLDEN_MODELS = _golden_models()
