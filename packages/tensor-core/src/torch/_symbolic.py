"""``torch.SymInt``, ``torch.SymFloat``, ``torch.SymBool``: the symbolic sizes PyTorch's
tracers (``torch.compile``, ``torch.export``) put where a tensor's shape is not fixed.
Nothing here traces symbolically, so no value is ever one of them; the classes exist so
that checks such as ``isinstance(n, (int, torch.SymInt))`` (kornia) work."""

from __future__ import annotations

__all__ = ["SymBool", "SymFloat", "SymInt"]


class _Symbolic:
    def __init__(self, node=None) -> None:
        raise TypeError(
            f"torch.{type(self).__name__} values are made by symbolic tracers, which this "
            "project does not have"
        )


class SymInt(_Symbolic):
    """A symbolic integer (a size under a tracer). Never made here."""


class SymFloat(_Symbolic):
    """A symbolic float. Never made here."""


class SymBool(_Symbolic):
    """A symbolic boolean. Never made here."""
