"""torch.autograd: tape-based reverse-mode automatic differentiation.

Core records each op on tensors that require grad through its grad-engine hook
(``torch._interface.GradEngine``); this package implements that hook
(:class:`torch.autograd._engine.Engine`, advertised as an entry point), the derivative
formulas of every differentiable core op, and the public API below.
"""

from torch._grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from torch._interface import require_core_api

from ._api import Variable, backward, grad
from ._version import __version__

require_core_api(0, 2, "torch-autograd")

__all__ = [
    "Variable",
    "backward",
    "enable_grad",
    "grad",
    "inference_mode",
    "is_grad_enabled",
    "no_grad",
    "set_grad_enabled",
    "__version__",
]
