"""The models of the torch-jit tests: traced/scripted/saved versions are compared with
eager on each. ``MODELS``: name -> (factory, example input factory)."""

from __future__ import annotations

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn


class LeNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class DigitsCNN(nn.Module):
    """The small CNN of the digits examples: conv, batch norm, dropout, log-softmax."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.dropout = nn.Dropout(0.25)
        self.classifier = nn.Linear(16, 10)

    def forward(self, x):
        x = self.features(x).flatten(1)
        return F.log_softmax(self.classifier(self.dropout(x)), dim=1)


class LSTMLanguageModel(nn.Module):
    """pytorch/examples' word language model, small: embedding, LSTM, decoder."""

    def __init__(self, vocab: int = 50, hidden: int = 16, layers: int = 2) -> None:
        super().__init__()
        self.encoder = nn.Embedding(vocab, hidden)
        self.rnn = nn.LSTM(hidden, hidden, layers)
        self.decoder = nn.Linear(hidden, vocab)

    def forward(self, tokens, h0, c0):
        emb = self.encoder(tokens)
        output, (h, c) = self.rnn(emb, (h0, c0))
        return F.log_softmax(self.decoder(output), dim=-1), h, c


class ResidualBlock(nn.Module):
    def __init__(self, channels: int = 8) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + x)


def transformer_encoder() -> nn.Module:
    layer = nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32, dropout=0.0,
                                       batch_first=True)  # fmt: skip
    return nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)


def _lstm_inputs():
    return (torch.randint(0, 50, (7, 3)), torch.zeros(2, 3, 16), torch.zeros(2, 3, 16))


MODELS = {
    "lenet": (LeNet, lambda: (torch.randn(2, 1, 28, 28),)),
    "digits_cnn": (DigitsCNN, lambda: (torch.randn(2, 1, 8, 8),)),
    "lstm_lm": (LSTMLanguageModel, _lstm_inputs),
    "transformer": (transformer_encoder, lambda: (torch.randn(2, 5, 16),)),
    "resnet_block": (ResidualBlock, lambda: (torch.randn(2, 8, 6, 6),)),
}


def seeded_model(name: str):
    """The model ``name`` of ``MODELS``, made under seed 0 and in eval mode, and the
    factory of its example inputs."""
    make, inputs = MODELS[name]
    torch.manual_seed(0)
    return make().eval(), inputs


def as_tuple(value) -> tuple:
    """A model's outputs as a tuple (a single tensor is a 1-tuple)."""
    return value if isinstance(value, tuple) else (value,)


def assert_outputs_match(program, model, args, **tolerance) -> None:
    """``program`` (traced, scripted, frozen, loaded) gives ``model``'s outputs on ``args``."""
    for expected, got in zip(as_tuple(model(*args)), as_tuple(program(*args))):
        torch.testing.assert_close(got, expected, **tolerance)


def backward_from_outputs(program, args) -> None:
    """Backpropagate the sum of ``program``'s floating-point outputs on ``args``."""
    sum(t.sum() for t in as_tuple(program(*args)) if t.is_floating_point()).backward()


def assert_same_gradients(program, model, args, **tolerance) -> None:
    """Backpropagating through ``program`` gives ``model``'s parameters the gradients that
    the eager model gives them."""
    backward_from_outputs(model, args)
    expected = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    backward_from_outputs(program, args)
    for e, p in zip(expected, model.parameters()):
        torch.testing.assert_close(p.grad, e, **tolerance)
