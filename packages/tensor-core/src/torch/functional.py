"""PyTorch's module ``torch.functional``: the functions it defines are the ones at
``torch.*`` (``torch.functional.einsum is torch.einsum``); code that imports them from
here finds them."""

from torch import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    block_diag,
    broadcast_shapes,
    broadcast_tensors,
    cartesian_prod,
    cdist,
    chain_matmul,
    einsum,
    istft,
    lu,
    meshgrid,
    norm,
    split,
    stft,
    tensordot,
    unique,
    unique_consecutive,
    unravel_index,
)

__all__ = [
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "broadcast_shapes",
    "broadcast_tensors",
    "cartesian_prod",
    "block_diag",
    "cdist",
    "chain_matmul",
    "einsum",
    "istft",
    "lu",
    "norm",
    "meshgrid",
    "split",
    "stft",
    "tensordot",
    "unique",
    "unique_consecutive",
    "unravel_index",
]
