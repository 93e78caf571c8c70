"""``torch.testing.assert_allclose``, deprecated since PyTorch 1.12 in favour of
``assert_close``: dtypes may differ, ``expected`` may be a number or a sequence (it
takes ``actual``'s dtype), NaNs compare equal by default, and its default tolerances
are its own."""

from __future__ import annotations

import warnings

import torch

__all__ = ["assert_allclose"]

# (rtol, atol) by dtype; other dtypes compare exactly
_TOLERANCES = {
    torch.float16: (1e-3, 1e-3),
    torch.float32: (1e-4, 1e-5),
    torch.float64: (1e-5, 1e-8),
}


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg="") -> None:
    """Deprecated: use ``torch.testing.assert_close``.

    Raise AssertionError unless ``|actual - expected| <= atol + rtol * |expected|``
    elementwise. ``rtol`` and ``atol`` are both given or both left out (then they follow
    the dtype of the two tensors promoted). ``msg`` replaces the failure message."""
    warnings.warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a "
        "future release. Please use `torch.testing.assert_close()` instead. You can find "
        "detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.",
        FutureWarning,
        stacklevel=2,
    )
    if not isinstance(actual, torch.Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, torch.Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        dtype = torch.promote_types(actual.dtype, expected.dtype)
        rtol, atol = _TOLERANCES.get(dtype, (0.0, 0.0))
    torch.testing.assert_close(
        actual,
        expected,
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        check_dtype=False,
        msg=msg or None,
    )
