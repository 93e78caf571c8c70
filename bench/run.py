"""Time the same public-API code under whichever `torch` this interpreter imports and
print medians in microseconds as JSON (`nox -s bench` runs it under this project and
under real PyTorch and prints the ratios)."""

from __future__ import annotations

import json
import statistics
import timeit

import torch


def _median_us(stmt, number: int, repeat: int = 21) -> float:
    times = timeit.repeat(stmt, number=number, repeat=repeat)
    return statistics.median(times) / number * 1e6


def cases() -> dict:
    torch.manual_seed(0)
    small_a, small_b = torch.rand(8), torch.rand(8)
    big_a, big_b = torch.rand(1000, 1000), torch.rand(1000, 1000)
    mat_a, mat_b = torch.rand(256, 256), torch.rand(256, 256)
    leaf = torch.rand(8, requires_grad=True)
    a8, b8 = torch.rand(8, 8), torch.rand(8, 8)
    results = {
        # issue 3's targets: framework overhead on tiny tensors
        "add 8x8 + 8x8": _median_us(lambda: a8 + b8, 20000),
        "mul 8x8 * python float": _median_us(lambda: a8 * 2.5, 20000),
        "index a[2:5, 1]": _median_us(lambda: a8[2:5, 1], 20000),
        "view a.view(64)": _median_us(lambda: a8.view(64), 20000),
        "add small (8)": _median_us(lambda: small_a + small_b, 20000),
        "mul scalar small (8)": _median_us(lambda: small_a * 2.0, 20000),
        "add big (1000x1000)": _median_us(lambda: big_a + big_b, 20),
        "sum big (1000x1000)": _median_us(lambda: big_a.sum(), 50),
        "matmul (256x256)": _median_us(lambda: mat_a @ mat_b, 50),
        "rand (1000x1000)": _median_us(lambda: torch.rand(1000, 1000), 10),
        "add small, recorded for grad": _median_us(lambda: leaf + small_b, 20000),
    }

    def forward_backward():
        y = (leaf * small_b + 1).sum()
        y.backward()

    results["mul+add+sum+backward (8)"] = _median_us(forward_backward, 2000)
    return results


if __name__ == "__main__":
    print(json.dumps(cases()))
