"""Lookup tables: ``Embedding`` and ``EmbeddingBag``."""

from __future__ import annotations

import torch

from .. import functional as F  # noqa: N812
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Embedding", "EmbeddingBag"]


def _check_padding_idx(padding_idx, num_embeddings: int):
    if padding_idx is None:
        return None
    if padding_idx > 0 and padding_idx >= num_embeddings:
        raise AssertionError("Padding_idx must be within num_embeddings")
    if padding_idx < 0:
        if padding_idx < -num_embeddings:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx = num_embeddings + padding_idx
    return padding_idx


def _weight(num_embeddings, embedding_dim, _weight, dtype):
    if _weight is None:
        return Parameter(torch.empty((num_embeddings, embedding_dim), dtype=dtype)), True
    if list(_weight.shape) != [num_embeddings, embedding_dim]:
        raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
    return Parameter(_weight), False


class _EmbeddingTable(Module):
    """What Embedding and EmbeddingBag share: the table of rows, its padding row, the
    max-norm and sparse-gradient arguments, the initialisation and their repr."""

    def __init__(
        self, num_embeddings, embedding_dim, padding_idx, max_norm, norm_type,
        scale_grad_by_freq, sparse, _weight, dtype,
    ) -> None:  # fmt: skip
        super().__init__()
        self.sparse = sparse
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = _check_padding_idx(padding_idx, num_embeddings)
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.weight, fresh = _weight_of(num_embeddings, embedding_dim, _weight, dtype)
        if fresh:  # a given ``_weight`` is kept as it is
            self.reset_parameters()

    def reset_parameters(self) -> None:
        """N(0, 1) rows; the padding row zero."""
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self) -> None:
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx] = 0

    def _padding_repr(self) -> str:
        return f", padding_idx={self.padding_idx}" if self.padding_idx is not None else ""

    def _norm_repr(self) -> str:
        s = f", max_norm={self.max_norm}" if self.max_norm is not None else ""
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        return s


class Embedding(_EmbeddingTable):
    """A table of ``num_embeddings`` vectors of size ``embedding_dim``, looked up by
    integer indices.

    Args:
        num_embeddings (int): the table's rows.
        embedding_dim (int): the vectors' size.
        padding_idx (int, optional): that row starts at zero and gets no gradient.
        max_norm (float, optional): renormalise looked-up rows to at most this norm.
        norm_type (float): the p of ``max_norm``. Default: 2.
        scale_grad_by_freq (bool): Default: ``False``. sparse (bool): Default: ``False``.

    Shape:
        - Input: (*) integer indices. Output: (*, embedding_dim).

    Attributes:
        weight: (num_embeddings, embedding_dim), initialised from N(0, 1).

    Examples::

        >>> emb = nn.Embedding(10, 3, padding_idx=0)
        >>> emb
        Embedding(10, 3, padding_idx=0)
        >>> emb(torch.tensor([[0, 2]])).shape
        torch.Size([1, 2, 3])
    """

    reset_parameters = _EmbeddingTable.reset_parameters  # listed in the class's API page

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx=None,
        max_norm=None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight=None,
        _freeze: bool = False,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__(
            num_embeddings, embedding_dim, padding_idx, max_norm, norm_type,
            scale_grad_by_freq, sparse, _weight, dtype,
        )  # fmt: skip
        self.weight.requires_grad_(not _freeze)

    def forward(self, input):
        return F.embedding(
            input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
            self.scale_grad_by_freq, self.sparse,
        )  # fmt: skip

    def extra_repr(self) -> str:
        sparse = ", sparse=True" if self.sparse is not False else ""
        sizes = f"{self.num_embeddings}, {self.embedding_dim}"
        return sizes + self._padding_repr() + self._norm_repr() + sparse

    @classmethod
    def from_pretrained(
        cls,
        embeddings,
        freeze: bool = True,
        padding_idx=None,
        max_norm=None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
    ):
        """An Embedding holding the 2-D ``embeddings`` (not trained when ``freeze``).

        Examples::

            >>> emb = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
            >>> emb(torch.tensor([1]))
            tensor([[3., 4.]])
        """
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(
            num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze,
            padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq, sparse=sparse,
        )  # fmt: skip


class EmbeddingBag(_EmbeddingTable):
    """Sums, means or maxima of bags of embeddings, without building the per-index
    rows' tensor for the caller.

    Args:
        num_embeddings (int), embedding_dim (int): the table's shape.
        max_norm, norm_type, scale_grad_by_freq: as :class:`Embedding`.
        mode (str): ``'sum'``, ``'mean'`` or ``'max'``. Default: ``'mean'``.
        include_last_offset (bool): ``offsets`` has one more entry (the end).
        padding_idx (int, optional): entries equal to it are skipped.

    Shape:
        - Input: (B, N) bags of equal size, or 1-D with ``offsets`` (B,).
        - Output: (B, embedding_dim).

    Examples::

        >>> bag = nn.EmbeddingBag(10, 3, mode="sum")
        >>> bag(torch.tensor([1, 2, 4, 5]), torch.tensor([0, 2])).shape
        torch.Size([2, 3])
    """

    reset_parameters = _EmbeddingTable.reset_parameters  # listed in the class's API page

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        max_norm=None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        _weight=None,
        include_last_offset: bool = False,
        padding_idx=None,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__(
            num_embeddings, embedding_dim, padding_idx, max_norm, norm_type,
            scale_grad_by_freq, sparse, _weight, dtype,
        )  # fmt: skip
        self.mode = mode
        self.include_last_offset = include_last_offset

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(
            input, self.weight, offsets, self.max_norm, self.norm_type,
            self.scale_grad_by_freq, self.mode, self.sparse, per_sample_weights,
            self.include_last_offset, self.padding_idx,
        )  # fmt: skip

    def extra_repr(self) -> str:
        sizes = f"{self.num_embeddings}, {self.embedding_dim}"
        return sizes + self._norm_repr() + f", mode={self.mode!r}" + self._padding_repr()

    @classmethod
    def from_pretrained(
        cls,
        embeddings,
        freeze: bool = True,
        max_norm=None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        include_last_offset: bool = False,
        padding_idx=None,
    ):
        """An EmbeddingBag holding the 2-D ``embeddings``."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        bag = cls(
            rows, cols, max_norm, norm_type, scale_grad_by_freq, mode, sparse, embeddings,
            include_last_offset, padding_idx,
        )  # fmt: skip
        bag.weight.requires_grad_(not freeze)
        return bag


_weight_of = _weight
