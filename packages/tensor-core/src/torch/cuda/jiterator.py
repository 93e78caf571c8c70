"""torch.cuda.jiterator: elementwise kernels compiled at run time from C++ source
(``_create_jit_fn``). This project does not compile CUDA C++ at run time."""

from __future__ import annotations

__all__: list[str] = []


def _create_jit_fn(code_string: str, **kwargs):
    """PyTorch's run-time compiled elementwise kernel; not supported here."""
    raise NotImplementedError("torch.cuda.jiterator is not supported by this project")


def _create_multi_output_jit_fn(code_string: str, num_outputs: int, **kwargs):
    """PyTorch's run-time compiled kernel with several outputs; not supported here."""
    raise NotImplementedError("torch.cuda.jiterator is not supported by this project")
