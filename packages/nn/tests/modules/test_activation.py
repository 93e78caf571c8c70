"""torch.nn.modules.activation: forward, gradients and repr against real PyTorch."""

import torch
from torch import nn


def test_inplace_activation_on_a_non_leaf_backward():
    """Issue 5: an in-place activation writes into its input through ``copy_`` of a clone;
    backward must not find the clone's input modified (PyTorch's clone saves nothing)."""
    x = torch.tensor([-1.0, 0.5, 2.0, -0.25], requires_grad=True)
    for module in (nn.ReLU(inplace=True), nn.LeakyReLU(0.1, inplace=True), nn.ELU(inplace=True)):
        x.grad = None
        y = module(x * 2)
        (y * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
        slope = {"ReLU": 0.0, "LeakyReLU": 0.1}.get(type(module).__name__)
        if slope is not None:
            expected = torch.tensor([2.0 * slope, 4.0, 6.0, 8.0 * slope])
            torch.testing.assert_close(x.grad, expected)
        else:
            assert x.grad is not None and bool((x.grad[1:3] == torch.tensor([4.0, 6.0])).all())
