"""torch.func's transform levels beside autocast on core's one op-call interception: the
levels stay outside autocast and still run torch.nn.functional's compositions."""

from __future__ import annotations

import warnings

import pytest

import torch
from torch.func import vmap

F = pytest.importorskip("torch.nn.functional", reason="needs torch-nn, which is not installed")


def test_linear_under_vmap_and_autocast_is_batched_not_looped():
    weight, bias = torch.randn(3, 4), torch.randn(3)

    def row(x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return F.linear(x, weight, bias)

    batch = torch.randn(5, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the per-example fallback warns
        out = vmap(row)(batch)
    assert out.shape == (5, 3) and out.dtype is torch.bfloat16
    with torch.autocast("cpu", dtype=torch.bfloat16):
        expected = F.linear(batch, weight, bias)
    assert torch.allclose(out.float(), expected.float(), rtol=1e-2, atol=1e-2)
