"""torch.cuda.graphs: CUDA graph capture and replay.

CUDA graphs are not built in this project: without a CUDA runtime each name fails as in
PyTorch's CPU build; with one, capturing raises ``NotImplementedError``.
"""

from __future__ import annotations

from . import _state
from ._facade import dummy_base_error as _dummy_base_error

__all__ = [
    "is_current_stream_capturing",
    "graph_pool_handle",
    "CUDAGraph",
    "graph",
    "make_graphed_callables",
]

_NOT_BUILT = "CUDA graphs are not supported by this project's CUDA backend"


def _unavailable(placeholder: str) -> Exception:
    if _state.runtime() is None:
        return _dummy_base_error(placeholder)
    return NotImplementedError(_NOT_BUILT)


def is_current_stream_capturing() -> bool:
    """Whether the current stream is capturing a CUDA graph (never, with a runtime)."""
    if _state.runtime() is None:
        raise _dummy_base_error("_cuda_isCurrentStreamCapturing")
    return False


def graph_pool_handle():
    """A memory-pool handle to share between graph captures; needs CUDA graphs."""
    raise _unavailable("_graph_pool_handle")


class CUDAGraph:
    """A captured CUDA graph (``capture_begin``/``capture_end``, ``replay()``); needs CUDA
    graphs."""

    def __new__(cls, keep_graph: bool = False):
        raise _unavailable("CUDAGraph")


class graph:  # noqa: N801 - PyTorch's name
    """Context manager that captures the work queued inside it into ``cuda_graph``.

    Args:
        cuda_graph (CUDAGraph): the graph to capture into.
        pool (optional): a memory pool handle to share with other captures.
        stream (torch.cuda.Stream, optional): the capture stream.
        capture_error_mode (str, optional): ``"global"``, ``"thread_local"`` or
            ``"relaxed"``.
    """

    default_capture_stream = None

    def __init__(
        self,
        cuda_graph,
        pool=None,
        stream=None,
        capture_error_mode: str = "global",
        enable_annotations: bool = False,
        check_input_liveness: bool = False,
    ):
        import torch

        if stream is None and type(self).default_capture_stream is None:
            type(self).default_capture_stream = torch.cuda.Stream()
        raise NotImplementedError(_NOT_BUILT)


def make_graphed_callables(
    callables,
    sample_args,
    num_warmup_iters: int = 3,
    allow_unused_input: bool = False,
    pool=None,
):
    """Graph-captured versions of ``callables`` (functions or modules) for replay; needs
    CUDA graphs."""
    CUDAGraph()
