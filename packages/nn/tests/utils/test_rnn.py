"""torch.nn.utils.rnn: padding and packing."""

import pytest

import torch
from torch.nn.utils.rnn import (
    PackedSequence,
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
    unpack_sequence,
    unpad_sequence,
)


def test_pad_sequence_both_layouts_and_sides():
    seqs = [torch.tensor([1, 2, 3]), torch.tensor([4])]
    assert pad_sequence(seqs).tolist() == [[1, 4], [2, 0], [3, 0]]
    assert pad_sequence(seqs, batch_first=True, padding_value=9).tolist() == [[1, 2, 3], [4, 9, 9]]
    assert pad_sequence(seqs, True, padding_side="left").tolist() == [[1, 2, 3], [0, 0, 4]]


def test_pack_and_unpack_round_trip_with_unsorted_lengths():
    padded = torch.tensor([[1, 2, 0], [3, 4, 5], [6, 0, 0]])
    packed = pack_padded_sequence(padded, [2, 3, 1], batch_first=True, enforce_sorted=False)
    assert isinstance(packed, PackedSequence)
    assert packed.data.tolist() == [3, 1, 6, 4, 2, 5]
    assert packed.batch_sizes.tolist() == [3, 2, 1]
    assert packed.sorted_indices.tolist() == [1, 0, 2]
    assert packed.unsorted_indices.tolist() == [1, 0, 2]
    out, lengths = pad_packed_sequence(packed, batch_first=True, total_length=4)
    assert out.tolist() == [[1, 2, 0, 0], [3, 4, 5, 0], [6, 0, 0, 0]]
    assert lengths.tolist() == [2, 3, 1]


def test_sorted_lengths_are_enforced():
    with pytest.raises(RuntimeError, match="must be sorted in decreasing order"):
        pack_padded_sequence(torch.zeros(3, 2), [1, 3])


def test_total_length_too_short():
    packed = pack_sequence([torch.tensor([1, 2, 3])])
    with pytest.raises(ValueError, match="Expected total_length to be at least"):
        pad_packed_sequence(packed, total_length=2)


def test_pack_sequence_and_unpack_and_unpad():
    seqs = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])]
    packed = pack_sequence(seqs, enforce_sorted=False)
    assert [s.tolist() for s in unpack_sequence(packed)] == [[1.0, 2.0], [3.0, 4.0, 5.0]]
    padded = pad_sequence(seqs, batch_first=True)
    assert [s.tolist() for s in unpad_sequence(padded, [2, 3], batch_first=True)] == [
        [1.0, 2.0],
        [3.0, 4.0, 5.0],
    ]


def test_packing_keeps_gradients():
    x = torch.randn(3, 2, 4, requires_grad=True)
    packed = pack_padded_sequence(x, [3, 1])
    packed.data.sum().backward()
    assert x.grad[:, 1].sum(1).tolist() == [4.0, 0.0, 0.0]
