"""torch.backends.mha: the fast path switch of ``nn.MultiheadAttention`` and
``nn.TransformerEncoderLayer``."""

from __future__ import annotations

__all__ = ["get_fastpath_enabled", "set_fastpath_enabled"]

_fastpath = [True]


def get_fastpath_enabled() -> bool:
    """Whether the fused inference fast path of the attention modules may be taken."""
    return _fastpath[0]


def set_fastpath_enabled(value: bool) -> None:
    """Allow (``True``, the default) or forbid the attention modules' fast path."""
    _fastpath[0] = value
