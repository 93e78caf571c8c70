"""Variable-length sequences: padding (``pad_sequence``) and packing
(``PackedSequence``, ``pack_padded_sequence``, ``pad_packed_sequence``,
``pack_sequence``), as the recurrent layers consume them.

A packed sequence stores the time steps one after the other, each holding only the
sequences still running at that step (sorted longest first); ``batch_sizes[t]`` says
how many.
"""

from __future__ import annotations

from typing import NamedTuple

import torch

__all__ = [
    "PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
    "pad_sequence", "unpad_sequence", "pack_sequence", "unpack_sequence",
]  # fmt: skip


class _PackedFields(NamedTuple):
    data: torch.Tensor
    batch_sizes: torch.Tensor
    sorted_indices: torch.Tensor | None
    unsorted_indices: torch.Tensor | None


def _cast_to(dtype, name: str):
    """The ``PackedSequence`` method ``name``: the same packing with its data cast to
    ``dtype``."""

    def cast(self) -> PackedSequence:
        return self.to(dtype)

    cast.__name__ = name
    cast.__qualname__ = f"PackedSequence.{name}"
    return cast


class PackedSequence(_PackedFields):
    """The packed time steps of a batch of sequences (see the module docstring).

    Build it with :func:`pack_padded_sequence` or :func:`pack_sequence`, never
    directly.

    Examples::

        >>> from torch.nn.utils.rnn import pack_sequence
        >>> packed = pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5])])
        >>> packed.data, packed.batch_sizes
        (tensor([1, 4, 2, 5, 3]), tensor([2, 2, 1]))
    """

    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def _with_data(self, data) -> PackedSequence:
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def to(self, *args, **kwargs) -> PackedSequence:
        """The same packing with ``data.to(*args, **kwargs)``."""
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else self._with_data(data)

    def cpu(self) -> PackedSequence:
        return self._with_data(self.data.cpu())

    double = _cast_to(torch.float64, "double")
    float = _cast_to(torch.float32, "float")
    half = _cast_to(torch.float16, "half")

    @property
    def is_cuda(self) -> bool:
        return self.data.device.type == "cuda"

    def is_pinned(self) -> bool:
        return False


def invert_permutation(permutation):
    """The permutation that undoes ``permutation`` (None stays None)."""
    if permutation is None:
        return None
    output = torch.empty_like(permutation)
    output[permutation] = torch.arange(permutation.numel())
    return output


def _lengths_list(lengths) -> list[int]:
    if isinstance(lengths, torch.Tensor):
        if lengths.dim() != 1:
            raise RuntimeError("'lengths' argument should be a 1D tensor")
        return [int(v) for v in lengths.tolist()]
    return [int(v) for v in lengths]


def pack_padded_sequence(input, lengths, batch_first: bool = False, enforce_sorted: bool = True):
    """Pack a padded batch (T, B, *) (or (B, T, *) with ``batch_first``) of sequences
    of the given ``lengths``.

    Args:
        input (Tensor): the padded batch.
        lengths (Tensor or list): each sequence's length.
        batch_first (bool): the batch is dim 0. Default: ``False``.
        enforce_sorted (bool): require ``lengths`` in decreasing order; otherwise
            the batch is sorted here and unsorted on unpacking. Default: ``True``.

    Examples::

        >>> from torch.nn.utils.rnn import pack_padded_sequence
        >>> x = torch.tensor([[1, 2, 3], [4, 5, 0]])
        >>> pack_padded_sequence(x, [3, 2], batch_first=True).data
        tensor([1, 4, 2, 5, 3])
    """
    lengths = _lengths_list(lengths)
    if enforce_sorted:
        if any(a < b for a, b in zip(lengths, lengths[1:])):
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` "
                "is True. You can pass `enforce_sorted=False` to pack_padded_sequence "
                "and/or pack_sequence to sidestep this requirement if you do not need "
                "ONNX exportability."
            )
        sorted_indices = None
    else:
        order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
        sorted_indices = torch.tensor(order, dtype=torch.int64)
        lengths = [lengths[i] for i in order]
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if lengths and min(lengths) <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in "
            "'lengths' that is <= 0"
        )
    if batch_first:
        input = input.transpose(0, 1)
    steps = lengths[0] if lengths else 0
    if steps > input.shape[0]:
        raise RuntimeError(
            f"Expected sequence length to be at most {input.shape[0]}, but got {steps}"
        )
    batch_sizes = [sum(1 for n in lengths if n > t) for t in range(steps)]
    data = torch.cat([input[t, : batch_sizes[t]] for t in range(steps)])
    return PackedSequence(data, torch.tensor(batch_sizes, dtype=torch.int64), sorted_indices)


def pad_packed_sequence(
    sequence, batch_first: bool = False, padding_value: float = 0.0, total_length=None
):
    """Undo :func:`pack_padded_sequence`: returns ``(padded, lengths)``.

    Args:
        sequence (PackedSequence): the packed batch.
        batch_first (bool): return (B, T, *). Default: ``False``.
        padding_value (float): the fill value. Default: 0.
        total_length (int, optional): pad to this length instead of the longest.

    Examples::

        >>> from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence
        >>> packed = pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5])])
        >>> pad_packed_sequence(packed, batch_first=True)
        (tensor([[1, 2, 3],
                [4, 5, 0]]), tensor([3, 2]))
    """
    data = sequence.data
    batch_sizes = [int(b) for b in sequence.batch_sizes.tolist()]
    steps = len(batch_sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence "
                f"in input, but got total_length={total_length} and max sequence length "
                f"being {steps}"
            )
    else:
        total_length = steps
    batch = batch_sizes[0] if batch_sizes else 0
    feature = tuple(data.shape[1:])
    rows = []
    offset = 0
    for size in batch_sizes:
        chunk = data[offset : offset + size]
        offset += size
        if size < batch:
            fill = torch.full((batch - size,) + feature, padding_value, dtype=data.dtype)
            chunk = torch.cat([chunk, fill])
        rows.append(chunk)
    for _ in range(total_length - steps):
        rows.append(torch.full((batch,) + feature, padding_value, dtype=data.dtype))
    padded = torch.stack(rows) if rows else data.new_zeros((0, 0) + feature)
    lengths = torch.tensor(
        [sum(1 for size in batch_sizes if size > b) for b in range(batch)], dtype=torch.int64
    )
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices]
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, lengths


def pad_sequence(
    sequences, batch_first: bool = False, padding_value: float = 0.0, padding_side: str = "right"
):
    """Stack sequences (L_i, *) of different lengths into (L_max, B, *) (or
    (B, L_max, *)), padding with ``padding_value``.

    Examples::

        >>> from torch.nn.utils.rnn import pad_sequence
        >>> pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], batch_first=True)
        tensor([[1, 2],
                [3, 0]])
    """
    if padding_side not in ("left", "right"):
        raise ValueError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    sequences = list(sequences)
    longest = max(s.shape[0] for s in sequences)
    rows = []
    for s in sequences:
        missing = longest - s.shape[0]
        if missing:
            fill = torch.full((missing,) + tuple(s.shape[1:]), padding_value, dtype=s.dtype)
            s = torch.cat([s, fill] if padding_side == "right" else [fill, s])
        rows.append(s)
    out = torch.stack(rows)  # (B, L, *)
    return out if batch_first else out.transpose(0, 1)


def unpad_sequence(padded_sequences, lengths, batch_first: bool = False) -> list:
    """Split a padded batch back into its sequences."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [padded_sequences[i, :n] for i, n in enumerate(_lengths_list(lengths))]


def pack_sequence(sequences, enforce_sorted: bool = True):
    """Pack a list of sequences (L_i, *) (``pad_sequence`` then
    ``pack_padded_sequence``)."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences) -> list:
    """Undo :func:`pack_sequence`: the list of sequences."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
