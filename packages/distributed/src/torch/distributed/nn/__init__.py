"""Collectives that autograd can differentiate through (``torch.distributed.nn.functional``)."""

from . import functional

__all__ = ["functional"]
