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

from . import anomaly_mode, function, functional, graph
from ._api import Variable, backward, grad
from ._version import __version__
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .function import Function, once_differentiable
from .gradcheck import GradcheckError, gradcheck, gradgradcheck

require_core_api(0, 4, "torch-autograd")

__all__ = [
    "Function",
    "GradcheckError",
    "Variable",
    "anomaly_mode",
    "backward",
    "detect_anomaly",
    "enable_grad",
    "function",
    "functional",
    "grad",
    "graph",
    "gradcheck",
    "gradgradcheck",
    "inference_mode",
    "is_grad_enabled",
    "no_grad",
    "once_differentiable",
    "set_detect_anomaly",
    "set_grad_enabled",
    "__version__",
]
