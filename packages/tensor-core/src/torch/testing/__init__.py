"""torch.testing: helpers for comparing tensors in tests."""

from __future__ import annotations

import numpy as np

import torch

__all__ = ["assert_close", "assert_allclose", "make_tensor"]

# default (rtol, atol) per dtype, as PyTorch chooses them
_TOLERANCES = {
    torch.float16: (1e-3, 1e-5),
    torch.bfloat16: (1.6e-2, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
    torch.complex64: (1.3e-6, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}


def _as_tensor(x):
    return x if isinstance(x, torch.Tensor) else torch.tensor(x)


def assert_close(
    actual, expected, *, rtol=None, atol=None, equal_nan=False, check_dtype=True, msg=None
):
    """Raise AssertionError unless ``actual`` and ``expected`` have the same shape (and
    dtype) and ``|actual - expected| <= atol + rtol * |expected|`` elementwise.

    Args:
        actual, expected (Tensor or number or sequence): the values to compare.
        rtol, atol (float, optional): tolerances; both or neither. Default: by dtype
            (exact for integers and bools).
        equal_nan (bool): treat NaNs in the same places as equal. Default: ``False``.
        check_dtype (bool): require equal dtypes. Default: ``True``.
        msg (str, optional): replaces the default failure message.

    Examples::

        >>> torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
        >>> torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([1.1]))
        Traceback (most recent call last):
        ...
        AssertionError: Tensor-likes are not close!
        ...
    """
    if (rtol is None) != (atol is None):
        raise ValueError(
            "Both 'rtol' and 'atol' must be either specified or omitted, but got "
            f"no {'rtol' if rtol is None else 'atol'}."
        )
    actual, expected = _as_tensor(actual), _as_tensor(expected)
    if actual.shape != expected.shape:
        raise AssertionError(
            msg
            or f"The values for attribute 'shape' do not match: {actual.shape} != {expected.shape}."
        )
    if check_dtype and actual.dtype is not expected.dtype:
        raise AssertionError(
            msg
            or f"The values for attribute 'dtype' do not match: {actual.dtype} != {expected.dtype}."
        )
    if rtol is None:
        rtol, atol = _TOLERANCES.get(actual.dtype, (0.0, 0.0))
    a = np.asarray(actual._np, dtype=np.complex128 if actual.is_complex() else np.float64)
    e = np.asarray(expected._np, dtype=a.dtype)
    close = np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if close.all():
        return
    mismatched = int((~close).sum())
    diff = np.abs(a - e)[~close]
    raise AssertionError(
        msg
        or (
            f"Tensor-likes are not close!\n\nMismatched elements: {mismatched} / {close.size} "
            f"({100.0 * mismatched / close.size:.1f}%)\nGreatest absolute difference: "
            f"{diff.max()} (up to {atol} allowed)\nGreatest relative difference: "
            f"{(diff / np.abs(e[~close])).max()} (up to {rtol} allowed)"
        )
    )


# (after assert_close, which assert_allclose calls)
from ._creation import make_tensor  # noqa: E402
from ._deprecated_compare import assert_allclose  # noqa: E402
