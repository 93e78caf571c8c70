"""The special functions computed in NumPy (torch._ops.special_functions, torch.special's
Bessel and orthogonal polynomials) beyond the goldens: result shapes."""

import pytest

import torch

S, T = torch.tensor(2.0), torch.tensor(3.0)


@pytest.mark.parametrize(
    "call",
    [
        lambda: torch.special.gammainc(S, T),
        lambda: torch.special.gammaincc(S, T),
        lambda: torch.igamma(S, T),
        lambda: torch.igammac(S, T),
        lambda: torch.special.zeta(S, T),
        lambda: torch.polygamma(1, S),
        lambda: torch.polygamma(3, S),
        lambda: torch.special.chebyshev_polynomial_t(S, T),
        lambda: torch.special.hermite_polynomial_h(S, T),
        lambda: torch.special.bessel_j0(S),
        lambda: torch.special.modified_bessel_k1(S),
    ],
    ids=[
        "gammainc", "gammaincc", "igamma", "igammac", "zeta", "polygamma1", "polygamma3",
        "chebyshev_t", "hermite_h", "bessel_j0", "modified_bessel_k1",
    ],
)  # fmt: skip
def test_zero_dim_inputs_give_zero_dim_results(call):
    # as PyTorch's elementwise kernels (these were made 1-dim by a contiguous copy)
    assert call().shape == ()
