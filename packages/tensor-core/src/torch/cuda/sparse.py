"""torch.cuda.sparse: the legacy sparse CUDA tensor types (``torch.cuda.sparse.FloatTensor``,
...). ``isinstance`` checks device, dtype and sparsity; constructing one needs CUDA."""

from __future__ import annotations

from ._legacy_types import make_tensor_types as _make_tensor_types

_TYPES = _make_tensor_types("torch.cuda.sparse", sparse=True)
globals().update(_TYPES)
__all__ = sorted(_TYPES)
