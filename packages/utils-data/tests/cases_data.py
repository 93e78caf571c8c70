"""Golden cases of torch.utils.data, run both under real PyTorch (by
tools/golden/record_utils_data.py, which writes golden/utils_data.json) and under this
project (by test_golden.py, which compares). Each case returns plain JSON data.

Cases import ``torch`` when they run, so the same code serves both installations.
"""

from __future__ import annotations

import collections
import math
import random

import numpy as np


def describe(obj):
    """A JSON description of a (nested) batch: type names, tensor values and dtypes."""
    import torch

    if isinstance(obj, torch.Tensor):
        values = obj.tolist()
        if obj.is_floating_point():
            values = _round(values)
        return {"tensor": values, "dtype": str(obj.dtype), "shape": list(obj.shape)}
    if isinstance(obj, dict):
        return {"type": type(obj).__name__, "items": {str(k): describe(v) for k, v in obj.items()}}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return {"namedtuple": type(obj).__name__, "items": [describe(v) for v in obj]}
    if isinstance(obj, (list, tuple)):
        return {"type": type(obj).__name__, "items": [describe(v) for v in obj]}
    if isinstance(obj, np.ndarray):
        return {"ndarray": obj.tolist(), "dtype": str(obj.dtype)}
    if isinstance(obj, float):
        return {"float": obj}
    if isinstance(obj, (str, bytes, int, bool)) or obj is None:
        return {
            "type": type(obj).__name__,
            "value": obj if not isinstance(obj, bytes) else obj.decode(),
        }
    return {"other": type(obj).__name__}


def _round(values):
    if isinstance(values, list):
        return [_round(v) for v in values]
    return None if math.isnan(values) else round(values, 6)


# -- samplers ------------------------------------------------------------------------


def sampler_orders():
    import torch
    from torch.utils.data import (
        BatchSampler,
        RandomSampler,
        SequentialSampler,
        SubsetRandomSampler,
        WeightedRandomSampler,
    )

    def gen(seed):
        return torch.Generator().manual_seed(seed)

    out = {
        "sequential": list(SequentialSampler(range(7))),
        "random_seed0": list(RandomSampler(range(10), generator=gen(0))),
        "random_seed7_n25": list(RandomSampler(range(10), num_samples=25, generator=gen(7))),
        "random_seed7_n4": list(RandomSampler(range(10), num_samples=4, generator=gen(7))),
        "random_replacement_70": list(
            RandomSampler(range(10), replacement=True, num_samples=70, generator=gen(3))
        ),
        "random_replacement_default": list(
            RandomSampler(range(6), replacement=True, generator=gen(3))
        ),
        "subset_random": list(SubsetRandomSampler([5, 10, 15, 20, 25], generator=gen(11))),
        "weighted_replacement": list(
            WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 12, generator=gen(2))
        ),
        "weighted_no_replacement": list(
            WeightedRandomSampler(
                [0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5, replacement=False, generator=gen(2)
            )
        ),
        "batch": list(BatchSampler(range(10), 4, False)),
        "batch_drop_last": list(BatchSampler(range(10), 4, True)),
        "batch_len": [
            len(BatchSampler(range(10), 4, False)),
            len(BatchSampler(range(10), 4, True)),
        ],
    }
    # Unseeded samplers follow torch.manual_seed; two epochs differ.
    torch.manual_seed(123)
    sampler = RandomSampler(range(8))
    out["random_manual_seed_epochs"] = [list(sampler), list(sampler)]
    out["after_manual_seed_draw"] = _round(torch.rand(2).tolist())
    # Same generator object across epochs keeps advancing.
    sampler = SubsetRandomSampler(list(range(6)), generator=gen(5))
    out["subset_two_epochs"] = [list(sampler), list(sampler)]
    return out


def distributed_orders():
    from torch.utils.data.distributed import DistributedSampler

    out = {}
    for size in (10, 11):
        for drop_last in (False, True):
            for shuffle in (False, True):
                key = f"n{size}_drop{int(drop_last)}_shuffle{int(shuffle)}"
                ranks = []
                for rank in range(3):
                    s = DistributedSampler(
                        range(size), num_replicas=3, rank=rank, shuffle=shuffle, drop_last=drop_last
                    )
                    ranks.append({"order": list(s), "len": len(s)})
                out[key] = ranks
    s = DistributedSampler(range(9), num_replicas=2, rank=1, seed=4)
    s.set_epoch(3)
    out["epoch3_seed4"] = list(s)
    out["pad_more_than_len"] = list(DistributedSampler(range(2), num_replicas=5, rank=4))
    return out


def random_splits():
    import torch
    from torch.utils.data import random_split

    def as_lists(splits):
        return [list(s) for s in splits]

    out = {
        "lengths_seed42": as_lists(
            random_split(range(10), [3, 7], generator=torch.Generator().manual_seed(42))
        ),
        "fractions_seed42": as_lists(
            random_split(range(30), [0.3, 0.3, 0.4], generator=torch.Generator().manual_seed(42))
        ),
        "fractions_remainder": as_lists(
            random_split(range(11), [0.5, 0.25, 0.25], generator=torch.Generator().manual_seed(1))
        ),
    }
    torch.manual_seed(9)
    out["default_generator"] = as_lists(random_split(range(8), [5, 3]))
    out["default_generator_next_draw"] = _round(torch.rand(1).tolist())
    return out


# -- collate -----------------------------------------------------------------------

Point = collections.namedtuple("Point", ["x", "y"])


def collate_outputs():
    import torch
    from torch.utils.data import default_collate, default_convert

    cases = {
        "ints": [0, 1, 2],
        "floats": [0.5, 1.5],
        "bools": [True, False],
        "strings": ["a", "bc"],
        "bytes": [b"a", b"b"],
        "tensors": [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])],
        "int_tensors_0d": [torch.tensor(1), torch.tensor(2)],
        "tuples": [(torch.tensor([1.0]), 0), (torch.tensor([2.0]), 1)],
        "lists": [[1, 2.0, "a"], [3, 4.0, "b"]],
        "dicts": [{"id": "a", "x": 0.5, "v": [1, 2]}, {"id": "b", "x": 1.5, "v": [3, 4]}],
        "namedtuples": [Point(1, 2.0), Point(3, 4.0)],
        "nested": [{"p": Point(torch.zeros(2), [1, 2])}, {"p": Point(torch.ones(2), [3, 4])}],
        "numpy_arrays": [np.array([1, 2], dtype=np.int32), np.array([3, 4], dtype=np.int32)],
        "numpy_float_arrays": [
            np.ones((2, 2), dtype=np.float32),
            np.zeros((2, 2), dtype=np.float32),
        ],
        "numpy_scalars": [np.float64(1.5), np.float64(2.5)],
        "numpy_int_scalars": [np.int16(1), np.int16(2)],
        "numpy_bool_scalars": [np.bool_(True), np.bool_(False)],
        "ordered_dict": [collections.OrderedDict(b=1, a=2), collections.OrderedDict(b=3, a=4)],
    }
    out = {name: describe(default_collate(batch)) for name, batch in cases.items()}
    converts = {
        "convert_array": np.array([1.0, 2.0]),
        "convert_tuple": (np.array([1, 2]), "label", 3),
        "convert_dict": {"a": np.int64(4), "b": [np.zeros(2)]},
        "convert_namedtuple": Point(np.array([1]), 2.0),
        "convert_str_array": np.array(["a", "b"]),
        "convert_tensor": torch.tensor([1, 2]),
        "convert_scalar": 5,
    }
    out.update({name: describe(default_convert(v)) for name, v in converts.items()})
    return out


def collate_errors():
    import torch
    from torch.utils.data import default_collate

    cases = {
        "object": [object(), object()],
        "unequal_lists": [[1, 2], [1]],
        "str_array": [np.array(["a"]), np.array(["b"])],
        "stack_shapes": [torch.zeros(2), torch.zeros(3)],
    }
    return {name: _error(lambda b=b: default_collate(b)) for name, b in cases.items()}


def _error(fn):
    try:
        fn()
    except Exception as e:  # the golden records the type and message
        message = str(e)
        if " at 0x" in message:
            message = message.split(" at 0x")[0]
        return {"type": type(e).__name__, "message": message}
    return {"type": None, "message": None}


# -- DataLoader ----------------------------------------------------------------------


class SeedProbe:
    """A dataset whose items record the worker's id and its random streams."""

    def __len__(self):
        return 6

    def __getitem__(self, index):
        import torch
        from torch.utils.data import get_worker_info

        info = get_worker_info()
        return {
            "index": index,
            "worker": -1 if info is None else info.id,
            "seed": -1 if info is None else info.seed,
            "initial_seed": torch.initial_seed(),
            "torch": torch.rand(1).item(),
            "random": random.random(),
            "numpy": float(np.random.rand()),
        }


class Shards:
    """An iterable dataset that gives each worker every num_workers-th of 10 numbers
    (plus one extra item in worker 0, so workers end at different times)."""

    def __iter__(self):
        from torch.utils.data import get_worker_info

        info = get_worker_info()
        worker, count = (0, 1) if info is None else (info.id, info.num_workers)
        items = list(range(worker, 10, count))
        if worker == 0:
            items.append(100)
        return iter(items)


def _make_iterable(cls):
    from torch.utils.data import IterableDataset

    return type(cls.__name__, (cls, IterableDataset), {})


def loader_orders():
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    ds = TensorDataset(torch.arange(10))
    out = {}
    for workers in (0, 2):
        torch.manual_seed(5)
        loader = DataLoader(ds, batch_size=3, shuffle=True, num_workers=workers)
        epochs = [[b[0].tolist() for b in loader] for _ in range(2)]
        out[f"shuffle_workers{workers}"] = {
            "epochs": epochs,
            "next_draw": _round(torch.rand(1).tolist()),
        }
        generator = torch.Generator().manual_seed(8)
        loader = DataLoader(
            ds, batch_size=4, shuffle=True, num_workers=workers, generator=generator
        )
        out[f"generator_workers{workers}"] = [b[0].tolist() for b in loader]
    shards = _make_iterable(Shards)()
    for workers in (0, 2, 3):
        loader = DataLoader(shards, batch_size=2, num_workers=workers)
        out[f"iterable_workers{workers}"] = [b.tolist() for b in loader]
    loader = DataLoader(shards, batch_size=None, num_workers=2)
    out["iterable_unbatched"] = [b.tolist() if hasattr(b, "tolist") else b for b in loader]
    loader = DataLoader(shards, batch_size=2, drop_last=True, num_workers=2)
    out["iterable_drop_last"] = [b.tolist() for b in loader]
    return out


def worker_seeds():
    import torch
    from torch.utils.data import DataLoader

    out = {}
    for workers in (0, 2):
        torch.manual_seed(0)
        random.seed(0)
        np.random.seed(0)
        loader = DataLoader(SeedProbe(), batch_size=None, num_workers=workers)
        rows = list(loader)
        for row in rows:
            for key in ("torch", "random", "numpy"):
                row[key] = round(float(row[key]), 8)
            for key in ("index", "worker", "seed", "initial_seed"):
                row[key] = int(row[key])
        out[f"workers{workers}"] = rows
    generator = torch.Generator().manual_seed(77)
    loader = DataLoader(SeedProbe(), batch_size=None, num_workers=2, generator=generator)
    out["generator_seeds"] = sorted({int(row["seed"]) for row in loader})
    return out


def loader_errors():
    import torch
    from torch.utils.data import DataLoader, RandomSampler, TensorDataset

    ds = TensorDataset(torch.arange(4))
    shards = _make_iterable(Shards)()
    cases = {
        "negative_workers": lambda: DataLoader(ds, num_workers=-1),
        "negative_timeout": lambda: DataLoader(ds, timeout=-1),
        "prefetch_without_workers": lambda: DataLoader(ds, prefetch_factor=2),
        "negative_prefetch": lambda: DataLoader(ds, num_workers=1, prefetch_factor=-1),
        "persistent_without_workers": lambda: DataLoader(ds, persistent_workers=True),
        "iterable_shuffle": lambda: DataLoader(shards, shuffle=True),
        "iterable_sampler": lambda: DataLoader(shards, sampler=[0, 1]),
        "iterable_batch_sampler": lambda: DataLoader(shards, batch_sampler=[[0, 1]]),
        "sampler_and_shuffle": lambda: DataLoader(ds, sampler=[0, 1], shuffle=True),
        "batch_sampler_and_batch_size": lambda: DataLoader(ds, batch_sampler=[[0]], batch_size=2),
        "batch_sampler_and_drop_last": lambda: DataLoader(ds, batch_sampler=[[0]], drop_last=True),
        "no_batch_and_drop_last": lambda: DataLoader(ds, batch_size=None, drop_last=True),
        "bad_context_name": lambda: DataLoader(ds, num_workers=1, multiprocessing_context="nope"),
        "bad_context_type": lambda: DataLoader(ds, num_workers=1, multiprocessing_context=3),
        "context_without_workers": lambda: DataLoader(ds, multiprocessing_context="fork"),
        "batch_size_zero": lambda: DataLoader(ds, batch_size=0),
        "batch_size_float": lambda: DataLoader(ds, batch_size=2.0),
        "drop_last_not_bool": lambda: DataLoader(ds, batch_size=2, drop_last=1),
        "set_batch_size": lambda: setattr(DataLoader(ds), "batch_size", 3),
        "set_dataset": lambda: setattr(DataLoader(ds), "dataset", ds),
        "random_sampler_num_samples": lambda: RandomSampler(ds, num_samples=0),
        "random_sampler_replacement": lambda: RandomSampler(ds, replacement=1),
        "iterator_pickle": lambda: __import__("pickle").dumps(iter(DataLoader(ds))),
        "len_of_iterable_without_len": lambda: len(DataLoader(shards)),
    }
    return {name: _error(fn) for name, fn in cases.items()}


def dataset_errors():
    import torch
    from torch.utils.data import (
        ChainDataset,
        ConcatDataset,
        Dataset,
        StackDataset,
        TensorDataset,
        WeightedRandomSampler,
        random_split,
    )
    from torch.utils.data.distributed import DistributedSampler

    cases = {
        "tensor_size_mismatch": lambda: TensorDataset(torch.zeros(2), torch.zeros(3)),
        "dataset_getitem": lambda: Dataset()[0],
        "concat_empty": lambda: ConcatDataset([]),
        "concat_iterable": lambda: ConcatDataset([_make_iterable(Shards)()]),
        "concat_negative_index": lambda: ConcatDataset([[1, 2]])[-3],
        "concat_index_error": lambda: ConcatDataset([[1, 2]])[2],
        "chain_map_style": lambda: list(ChainDataset([[1, 2]])),
        "stack_both": lambda: StackDataset([1], x=[1]),
        "stack_none": lambda: StackDataset(),
        "stack_mismatch": lambda: StackDataset([1, 2], [1]),
        "split_sum": lambda: random_split(range(5), [2, 2]),
        "split_fraction": lambda: random_split(range(5), [1.5, -0.5]),
        "weighted_num_samples": lambda: WeightedRandomSampler([1.0], 0),
        "weighted_replacement": lambda: WeightedRandomSampler([1.0], 1, replacement=0),
        "weighted_2d": lambda: WeightedRandomSampler([[1.0, 2.0]], 1),
        "distributed_rank": lambda: DistributedSampler(range(4), num_replicas=2, rank=2),
    }
    return {name: _error(fn) for name, fn in cases.items()}


def misc():
    import torch
    from torch.utils.data import ConcatDataset, DataLoader, StackDataset, Subset, TensorDataset

    ds = TensorDataset(torch.arange(6), torch.arange(6) * 2)
    concat = ConcatDataset([range(3), range(10, 14)])
    stack = StackDataset(a=range(4), b=["w", "x", "y", "z"])
    out = {
        "len_loader": [
            len(DataLoader(ds, batch_size=4)),
            len(DataLoader(ds, batch_size=4, drop_last=True)),
            len(DataLoader(ds, batch_size=None)),
        ],
        "concat": [concat[i] for i in range(-7, 7)] + [concat.cumulative_sizes],
        "subset_list_index": [describe(Subset(ds, [5, 0, 3])[1])],
        "stack_getitems": describe(stack.__getitems__([3, 0])),
        "add": [len(ds + ds)],
        "unbatched": [describe(b) for b in DataLoader(ds, batch_size=None)][:2],
        "batch_sampler": [
            describe(b) for b in DataLoader(ds, batch_sampler=[[0, 5], [2], [1, 3, 4]])
        ],
        "sampler_list": [describe(b) for b in DataLoader(ds, sampler=[4, 1, 2], batch_size=2)],
    }
    return out


CASES = {
    "sampler_orders": sampler_orders,
    "distributed_orders": distributed_orders,
    "random_splits": random_splits,
    "collate_outputs": collate_outputs,
    "collate_errors": collate_errors,
    "loader_orders": loader_orders,
    "worker_seeds": worker_seeds,
    "loader_errors": loader_errors,
    "dataset_errors": dataset_errors,
    "misc": misc,
}
