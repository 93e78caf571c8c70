"""The exception and warning classes of torch.jit."""

from __future__ import annotations

import warnings

__all__ = ["Error", "TracerWarning", "TracingCheckError", "ScriptWarning"]


class Error(Exception):
    """Raised by code running in the graph interpreter (``raise`` in scripted code, a
    failed ``prim::RaiseException``)."""


Error.__module__ = "torch.jit"


class TracerWarning(Warning):
    """Something a trace cannot capture: Python control flow decided by a tensor's
    value, a tensor converted to a Python number, a tensor turned into a constant."""

    @staticmethod
    def ignore_lib_warnings() -> None:
        """Silence tracer warnings raised from inside torch itself (they are about the
        library's own code, not the user's)."""
        warnings.filterwarnings("ignore", category=TracerWarning, module="torch.(?!jit)")


TracerWarning.__module__ = "torch.jit._trace"


class TracingCheckError(Exception):
    """``check_trace`` found that the trace does not reproduce the traced code."""

    def __init__(self, graph_diff_error: str | None, tensor_compare_error: str | None,
                 extra_msg: str | None = None) -> None:  # fmt: skip
        message = "Tracing failed sanity checks!\n"
        if extra_msg is not None:
            message += extra_msg + "\n"
        if graph_diff_error is not None:
            message += "ERROR: Graphs differed across invocations!\n" + graph_diff_error + "\n"
        if tensor_compare_error is not None:
            message += (
                "ERROR: Tensor-valued Constant nodes differed in value across invocations. "
                "This often indicates that the tracer has encountered untraceable code.\n"
                + tensor_compare_error
            )
        super().__init__(message)
        self.message = message


TracingCheckError.__module__ = "torch.jit._trace"


class ScriptWarning(Warning):
    """A warning of the script compiler."""
