"""``Flatten`` and ``Unflatten``."""

from __future__ import annotations

from .module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Flatten dims ``start_dim`` to ``end_dim`` into one.

    Args:
        start_dim (int): Default: 1. end_dim (int): Default: -1.

    Shape:
        - Input: (*, S_start, ..., S_end, *). Output: (*, prod(S), *).

    Examples::

        >>> nn.Flatten()(torch.ones(32, 1, 5, 5)).shape
        torch.Size([32, 25])
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Expand dim ``dim`` into the shape ``unflattened_size``.

    Args:
        dim (int or str): the dim to expand.
        unflattened_size (tuple): its new shape.

    Examples::

        >>> nn.Unflatten(1, (2, 5))(torch.ones(2, 10)).shape
        torch.Size([2, 2, 5])
    """

    def __init__(self, dim, unflattened_size) -> None:
        super().__init__()
        if isinstance(dim, int):
            if not isinstance(unflattened_size, (tuple, list)) or not all(
                isinstance(s, int) for s in unflattened_size
            ):
                raise TypeError(
                    "unflattened_size must be tuple of ints, but found type "
                    f"{type(unflattened_size).__name__}"
                )
        elif not isinstance(dim, str):
            raise TypeError(f"invalid argument type for dim parameter, got {type(dim).__name__}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        dim = self.dim % input.dim()
        shape = (
            tuple(input.shape[:dim]) + tuple(self.unflattened_size) + tuple(input.shape[dim + 1 :])
        )
        return input.reshape(shape)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
