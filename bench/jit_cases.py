"""Bench cases of torch.jit (issue 19): each pair times the same computation eagerly and
through the JIT, so the speedup is read off one run: a fused elementwise chain
``x * sigmoid(x) + y`` on 1M floats (target: 2x faster than eager), and a frozen,
optimised traced LeNet and Transformer encoder layer at batch 1, 4 and 16 (target:
1.3x). Both sides (this project and PyTorch) run the same code; PyTorch's fuser works
through its profiling executor, so every JIT case is warmed up before timing."""

from __future__ import annotations

import statistics
import timeit
import warnings

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn


def _median_us(stmt, number: int, repeat: int = 15) -> float:
    times = timeit.repeat(stmt, number=number, repeat=repeat)
    return statistics.median(times) / number * 1e6


class _LeNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(256, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


def _silu_add(x, y):
    return x * torch.sigmoid(x) + y


def _optimized(model: nn.Module, example):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traced = torch.jit.trace(model.eval(), example)
    return torch.jit.optimize_for_inference(traced)


def jit_cases() -> dict:
    torch.manual_seed(0)
    results = {}
    x, y = torch.randn(1_000_000), torch.randn(1_000_000)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fused = torch.jit.trace(_silu_add, (x, y))
        for _ in range(5):  # profiling runs, then the fused kernel
            fused(x, y)
        results["jit x*sigmoid(x)+y 1M, eager"] = _median_us(lambda: _silu_add(x, y), 20)
        results["jit x*sigmoid(x)+y 1M, traced+fused"] = _median_us(lambda: fused(x, y), 20)
        models = {
            "LeNet": (_LeNet(), lambda b: torch.randn(b, 1, 28, 28)),
            "Transformer layer": (
                nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0, batch_first=True),
                lambda b: torch.randn(b, 16, 64),
            ),
        }
        for name, (model, make_input) in models.items():
            model.eval()
            for batch in (1, 4, 16):
                example = make_input(batch)
                optimized = _optimized(model, example)
                for _ in range(5):
                    optimized(example)
                calls = 200 if batch == 1 else 50
                results[f"jit {name} batch {batch}, eager"] = _median_us(
                    lambda m=model, e=example: m(e), calls
                )
                results[f"jit {name} batch {batch}, frozen+optimized"] = _median_us(
                    lambda m=optimized, e=example: m(e), calls
                )
    return results


if __name__ == "__main__":
    for case, us in jit_cases().items():
        print(f"{case:<48}{us:>10.1f} us")
