"""Samplers: lengths, reuse across epochs and generators (orders against PyTorch are in
test_golden.py)."""

import pytest

import torch
from torch.utils.data import (
    BatchSampler,
    RandomSampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from torch.utils.data.distributed import DistributedSampler


def test_lengths():
    assert len(SequentialSampler(range(4))) == 4
    assert len(RandomSampler(range(4))) == 4
    assert len(RandomSampler(range(4), replacement=True, num_samples=9)) == 9
    assert len(SubsetRandomSampler([3, 1])) == 2
    assert len(WeightedRandomSampler([1.0, 2.0], 5)) == 5
    assert len(BatchSampler(range(10), 3, False)) == 4
    assert len(BatchSampler(range(10), 3, True)) == 3


def test_random_sampler_without_replacement_repeats_whole_permutations():
    sampler = RandomSampler(range(4), num_samples=10, generator=torch.Generator().manual_seed(1))
    keys = list(sampler)
    assert len(keys) == 10 and sorted(keys[:4]) == sorted(keys[4:8]) == [0, 1, 2, 3]


def test_weighted_sampler_never_draws_zero_weights():
    sampler = WeightedRandomSampler([0.0, 1.0, 0.0, 2.0], 200)
    assert set(sampler) <= {1, 3}


def test_batch_sampler_over_a_generator_sampler():
    sampler = SubsetRandomSampler([7, 8, 9], generator=torch.Generator().manual_seed(0))
    batches = list(BatchSampler(sampler, 2, False))
    assert [len(b) for b in batches] == [2, 1] and sorted(sum(batches, [])) == [7, 8, 9]


def test_distributed_sampler_needs_a_process_group_without_rank():
    # PyTorch: no process group -> ValueError; here also: no torch-distributed installed
    try:
        import torch.distributed  # noqa: F401
    except ImportError:
        error, message = RuntimeError, "Requires distributed package to be available"
    else:
        error, message = ValueError, "Default process group has not been initialized"
    with pytest.raises(error, match=message):
        DistributedSampler(range(4))


def test_distributed_sampler_epochs():
    sampler = DistributedSampler(range(8), num_replicas=2, rank=0, seed=1)
    first = list(sampler)
    sampler.set_epoch(1)
    assert list(sampler) != first and len(list(sampler)) == 4
    sampler.set_epoch(0)
    assert list(sampler) == first
