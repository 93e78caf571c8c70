"""torch._native.all_c_contiguous, which the pointwise fast paths ask on every call, in
its native form and in its pure-NumPy fallback."""

import numpy as np
import pytest

from torch import _native


@pytest.mark.parametrize(
    "check", [_native.all_c_contiguous, _native.all_c_contiguous_numpy], ids=["active", "numpy"]
)
def test_every_array_among_the_arguments_must_be_c_contiguous(check):
    a = np.zeros((3, 4), np.float32)
    assert check() and check(a) and check(a, a[1:]) and check(a, 2.5, None)
    assert not check(a.T) and not check(a, a[:, ::2]) and not check(2.5, a.T)
    channels_last = np.zeros((2, 5, 5, 3)).transpose(0, 3, 1, 2)
    assert not check(channels_last)
    assert check(np.zeros((4, 1))[:, :1].reshape(4, 1))
