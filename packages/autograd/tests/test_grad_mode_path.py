"""PyTorch's module path ``torch.autograd.grad_mode`` holds core's grad-mode switches."""

import torch


def test_grad_mode_path_holds_the_switches():
    from torch.autograd import grad_mode

    for name in ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode"):
        assert getattr(grad_mode, name) is getattr(torch, name)
    with grad_mode.no_grad():
        assert not torch.is_grad_enabled()
