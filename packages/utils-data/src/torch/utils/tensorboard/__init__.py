"""Logging to TensorBoard: :class:`SummaryWriter` writes event files that the
``tensorboard`` package's viewer (and its ``EventAccumulator``) reads.

The protocol buffers and the event-file writer come from the ``tensorboard`` package
(``pip install torch-utils-data[tensorboard]``), as in PyTorch; importing this module
without it raises Python's ``ModuleNotFoundError`` for ``tensorboard``, as PyTorch's does.
"""

import tensorboard


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for part in text.split(".")[:3]:
        digits = "".join(c for c in part if c.isdigit()) or "0"
        parts.append(int(digits))
    return tuple(parts)


if _version_tuple(getattr(tensorboard, "__version__", "0")) < (1, 15):
    raise ImportError("TensorBoard logging requires TensorBoard version 1.15 or above")
del tensorboard

from tensorboard.summary.writer.record_writer import RecordWriter  # noqa: E402

from .writer import FileWriter, SummaryWriter  # noqa: E402

__all__ = ["FileWriter", "RecordWriter", "SummaryWriter"]
