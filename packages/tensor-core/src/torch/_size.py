"""``torch.Size``: the shape of a tensor, a tuple of ints."""

from __future__ import annotations

import math

__all__ = ["Size"]


class Size(tuple):
    """A tuple subclass holding a tensor's sizes.

    Examples::

        >>> s = torch.Size([2, 3])
        >>> s, s.numel()
        (torch.Size([2, 3]), 6)
    """

    __slots__ = ()

    def numel(self) -> int:
        return math.prod(self)

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(map(str, self))}])"

    def __getitem__(self, index):
        result = tuple.__getitem__(self, index)
        return Size(result) if isinstance(index, slice) else result

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))

    def __reduce__(self):
        return (Size, (tuple(self),))
