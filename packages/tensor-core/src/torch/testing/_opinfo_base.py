"""The building blocks of the op database (sample inputs, entries, dtype groups, input
maker), in a module of their own so that the family modules (``_opinfo_math``,
``_opinfo_sparse``, ...) and ``_opinfo``, which gathers them, import no one in a cycle."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import torch

__all__ = ["SampleInput", "OpInfo", "FLOATING", "INTEGRAL", "check_against_reference"]

FLOATING = (torch.float32, torch.float64)
INTEGRAL = (torch.int64, torch.int32)


@dataclass
class SampleInput:
    tensors: tuple
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)


@dataclass
class OpInfo:
    """One op of the database.

    Args:
        name: the op's name in ``torch._interface.ops``.
        op: calls the op on a sample's tensors and arguments.
        ref: the NumPy reference, called the same way on arrays (None: no reference).
        sample_inputs: ``dtype -> list[SampleInput]``.
        dtypes: the dtypes the samples are made in.
        differentiable: whether gradients are checked (float64 samples).
        supports_gradgrad: whether second derivatives are checked too.
        grad_positive: draw samples away from zero (for ops like ``log``, ``pow``).
    """

    name: str
    op: Callable[..., Any]
    ref: Callable[..., Any] | None
    sample_inputs: Callable[[torch.dtype], list]
    dtypes: tuple = FLOATING
    differentiable: bool = True
    grad_positive: bool = False
    #: whether second derivatives are exact (digamma's needs polygamma(2), not built yet)
    supports_gradgrad: bool = True
    #: whether gradients are checked on complex128 samples too (ops PyTorch differentiates
    #: for complex inputs; set from ``COMPLEX_GRAD`` below)
    supports_complex_grad: bool = False


def _make(shape, dtype, seed, positive=False, domain=None):
    rng = np.random.default_rng(seed)
    if dtype.is_floating_point:
        low, high = domain or ((0.5, 2.0) if positive else (-2.0, 2.0))
        values = rng.uniform(low, high, shape)
    else:
        values = rng.integers(1, 5, shape)
    return torch.tensor(values).to(dtype)


def check_against_reference(info: OpInfo, dtype) -> None:
    """Run ``info``'s op on each of its samples of ``dtype`` and compare the result with
    its NumPy reference on the same values (shape, then values to float32's or float64's
    precision). For the op-database tests of torch-core and of the sibling packages."""
    for sample in info.sample_inputs(dtype):
        result = info.op(*sample.tensors, *sample.args, **sample.kwargs)
        arrays = [t.numpy() for t in sample.tensors]
        with np.errstate(all="ignore"):
            expected = np.asarray(info.ref(*arrays, *sample.args, **sample.kwargs))
        assert tuple(result.shape) == expected.shape
        rtol = 1e-5 if dtype is torch.float32 else 1e-12
        np.testing.assert_allclose(
            result.numpy().astype(np.float64) if result.dtype is not torch.bool else result.numpy(),
            expected.astype(np.float64) if expected.dtype != bool else expected,
            rtol=rtol,
            atol=rtol,
        )
