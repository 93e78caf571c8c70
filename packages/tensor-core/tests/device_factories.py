"""The factory calls that take ``device=``, and the placement every device backend owes
them: shared by the test-only twin device (test_interface_backends.py) and the simulated
CUDA devices (test_cuda_backend.py)."""

from __future__ import annotations

import torch

FACTORIES = [
    lambda d: torch.zeros(2, 3, device=d),
    lambda d: torch.ones(4, device=d),
    lambda d: torch.empty(2, device=d),
    lambda d: torch.full((2,), 7.0, device=d),
    lambda d: torch.arange(5, device=d),
    lambda d: torch.linspace(0, 1, 4, device=d),
    lambda d: torch.logspace(0, 1, 4, device=d),
    lambda d: torch.eye(3, device=d),
    lambda d: torch.empty_strided((2, 2), (1, 2), device=d),
    lambda d: torch.tensor([1.0, 2.0], device=d),
    lambda d: torch.as_tensor([1, 2], device=d),
    lambda d: torch.rand(3, device=d),
    lambda d: torch.randn(3, device=d),
    lambda d: torch.randint(0, 5, (3,), device=d),
    lambda d: torch.randperm(4, device=d),
]


def assert_placed(factory, device_type: str) -> None:
    """``factory`` puts its result where ``device=`` says: index 0 by default, the index
    given as a string or a ``torch.device``, and the CPU."""
    assert factory(device_type).device == torch.device(device_type, 0)
    assert factory(f"{device_type}:1").device == torch.device(device_type, 1)
    assert factory(torch.device(device_type, 1)).device == torch.device(device_type, 1)
    assert factory("cpu").device == torch.device("cpu")
