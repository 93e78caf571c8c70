"""``torch.sparse.spdiags``: a sparse matrix from the rows of a matrix placed along
diagonals (SciPy's ``spdiags`` convention: the element of diagonal ``k`` in column ``j``
is ``diagonals[d, j]``)."""

from __future__ import annotations

import torch

__all__ = ["spdiags"]


def _check(diagonals, offsets, layout) -> None:
    if layout is not None and layout is not torch.sparse_coo:
        name = {torch.strided: "Strided"}.get(layout, str(layout))
        raise RuntimeError(
            f"Only output layouts (Sparse, SparseCsc, SparseCsr) are supported, got {name}"
        )
    if offsets.dim() > 1:
        raise RuntimeError("Offsets must be scalar or vector")
    if diagonals.dim() > 2:
        raise RuntimeError("Diagonals must be vector or matrix")
    if offsets.dtype != torch.int64:
        kind = offsets.type().removeprefix("torch.").removesuffix("Tensor")
        raise RuntimeError(f"Offset Tensor must have dtype Long but got {kind}")
    count = 1 if diagonals.dim() == 1 else diagonals.shape[0]
    if offsets.numel() != count:
        raise RuntimeError(
            f"Number of diagonals ({count}) does not match the number of offsets "
            f"({offsets.numel()})"
        )
    if offsets.unique().numel() != offsets.numel():
        raise RuntimeError("Offset tensor contains duplicate values")


def spdiags(diagonals, offsets, shape, layout=None):
    """A sparse COO matrix of ``shape`` (m, n) whose diagonal ``offsets[d]`` (0 the main
    one, positive above it) holds row ``d`` of ``diagonals``: entry ``(i, i + k)`` is
    ``diagonals[d, i + k]``, as far as the matrix and the row reach.

    Two differences from PyTorch 2.13, whose kernel overruns there: a diagonal below the
    main one stops at the last column (PyTorch's goes on past it, making entries outside
    the matrix), and a diagonal entirely outside the matrix is empty (PyTorch fails to
    allocate it).

    Examples::

        >>> import torch
        >>> d = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        >>> torch.sparse.spdiags(d, torch.tensor([0, -1]), (3, 3)).to_dense()
        tensor([[1., 0., 0.],
                [4., 2., 0.],
                [0., 5., 3.]])
    """
    _check(diagonals, offsets, layout)
    rows = diagonals.reshape(1, -1) if diagonals.dim() <= 1 else diagonals
    m, n = shape
    length = rows.shape[1]
    index_rows, index_cols, values = [], [], []
    for d, k in enumerate(offsets.reshape(-1).tolist()):
        first, last = max(0, -k), min(m, n - k, length - k)  # rows i with j = i + k inside
        if last <= first:
            continue
        i = torch.arange(first, last)
        index_rows.append(i)
        index_cols.append(i + k)
        values.append(rows[d, first + k : last + k])
    if values:
        indices = torch.stack([torch.cat(index_rows), torch.cat(index_cols)])
        data = torch.cat(values)
    else:
        indices = torch.zeros(2, 0, dtype=torch.int64)
        data = rows.new_zeros(0)
    return torch.sparse_coo_tensor(indices, data, (m, n))
