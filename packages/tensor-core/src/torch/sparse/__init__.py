"""``torch.sparse``: functions on sparse COO tensors (see :func:`torch.sparse_coo_tensor`).

Examples::

    >>> s = torch.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], (2, 2))
    >>> torch.sparse.mm(s, torch.eye(2))
    tensor([[0., 2.],
            [3., 0.]])
    >>> torch.sparse.sum(s)
    tensor(5.)
"""

from __future__ import annotations

from .._sparse import legacy_types
from .._sparse_ops import addmm, mm
from .._sparse_ops import sparse_sum as sum
from ._invariants import check_sparse_tensor_invariants
from ._spdiags import spdiags

# the legacy constructors of PyTorch 0.x: torch.sparse.FloatTensor(indices, values, size)
globals().update(legacy_types())

__all__ = ["mm", "sum", "addmm", "check_sparse_tensor_invariants", "spdiags", *legacy_types()]
