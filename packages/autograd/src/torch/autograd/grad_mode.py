"""PyTorch's module path ``torch.autograd.grad_mode``: the grad-mode switches, which
torch-core owns (``torch.no_grad`` is ``torch.autograd.grad_mode.no_grad``)."""

from torch import enable_grad, inference_mode, no_grad, set_grad_enabled

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode"]
