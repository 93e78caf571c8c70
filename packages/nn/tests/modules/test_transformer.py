"""torch.nn.modules.transformer (and MultiheadAttention of modules/activation.py):
forward, gradients and repr against real PyTorch."""

import pytest

import torch
from torch import nn


def test_encoder_stack_copies_the_layer():
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    encoder = nn.TransformerEncoder(layer, 3)
    assert len(encoder.layers) == 3 and encoder.layers[0] is not layer
    assert encoder.layers[0].linear1.weight is not encoder.layers[1].linear1.weight


def test_mask_is_required_for_the_causal_hint():
    attn = nn.MultiheadAttention(4, 2)
    x = torch.randn(3, 1, 4)
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        attn(x, x, x, is_causal=True)


def test_transformer_learns_to_copy():
    torch.manual_seed(0)
    model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True)
    x = torch.randn(4, 5, 8)
    optimizer = pytest.importorskip("torch.optim").SGD(model.parameters(), lr=0.05, momentum=0.9)
    mask = nn.Transformer.generate_square_subsequent_mask(5)
    for step in range(40):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x, x, tgt_mask=mask), x)
        loss.backward()
        optimizer.step()
        if step == 0:
            first = loss.item()
    assert loss.item() < first / 2
