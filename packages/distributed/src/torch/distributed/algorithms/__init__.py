"""Algorithms on top of the collectives: DDP communication hooks, ``Join``."""

from .join import Join, Joinable

__all__ = ["Join", "Joinable"]
