"""torch.autograd: tape-based reverse-mode automatic differentiation.

Core records each op on tensors that require grad through its grad-engine hook
(``torch._interface.GradEngine``); this package implements that hook
(:class:`torch.autograd._engine.Engine`, advertised as an entry point), the derivative
formulas of every differentiable core op, and the public API below.
"""

from torch import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from torch._interface import require_core_api

# before the submodules, which use the interface this version of core provides
require_core_api(0, 7, "torch-autograd")

from . import anomaly_mode, forward_ad, function, functional, graph, profiler  # noqa: E402
from ._api import backward, grad  # noqa: E402
from ._profiler_kinds import ProfilerActivity, kineto_available  # noqa: E402, F401 - PyTorch has them here
from ._version import __version__  # noqa: E402
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: E402
from .function import Function, once_differentiable  # noqa: E402
from .grad_mode import (  # noqa: E402, F401 - PyTorch has them here
    is_multithreading_enabled,
    is_view_replay_enabled,
    set_multithreading_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: E402
from .variable import Variable  # noqa: E402


def variable(*args, **kwargs):
    """Removed in 0.4 (``torch.autograd.variable(...)`` made a Variable): raises, naming
    :func:`torch.tensor`. The module ``torch.autograd.variable`` stays importable with
    ``from torch.autograd.variable import Variable``, as in PyTorch, where this function
    shadows it as an attribute."""
    raise RuntimeError("torch.autograd.variable(...) is deprecated, use torch.tensor(...) instead")


__all__ = [
    "Function",
    "GradcheckError",
    "Variable",
    "anomaly_mode",
    "backward",
    "detect_anomaly",
    "enable_grad",
    "forward_ad",
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
    "profiler",
    "set_detect_anomaly",
    "set_grad_enabled",
    "variable",
    "__version__",
]
