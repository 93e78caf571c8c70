"""Collation: merging a list of samples into one batch (:func:`default_collate`) and
converting NumPy data to tensors without batching (:func:`default_convert`).

:func:`collate` walks containers (mappings, named tuples, sequences) and hands the
leaves to the function registered for their type in a ``collate_fn_map``;
``default_collate_fn_map`` holds the defaults and may be extended by users.
"""

from __future__ import annotations

import collections.abc
import copy
import re
from collections.abc import Callable
from typing import Any

import numpy as np

import torch

__all__ = ["collate", "default_collate", "default_collate_fn_map", "default_convert"]

# NumPy dtype codes of arrays that cannot become tensors: bytes, str, unicode, object.
_np_str_obj_array_pattern = re.compile(r"[SaUO]")

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)


def collate(batch, *, collate_fn_map: dict | None = None):
    """Collate ``batch`` (a list of samples of one structure) leaf by leaf.

    A leaf whose type (or a base class, in the map's order) is a key of
    ``collate_fn_map`` goes to that function, called as
    ``fn(leaves, collate_fn_map=collate_fn_map)``. Mappings give a mapping of
    collated values, named tuples a named tuple, tuples a list and other sequences a
    sequence of the same type, each collated position by position.

    Args:
        batch (list): the samples.
        collate_fn_map (dict, optional): element type (or tuple of types) to function.

    Examples::

        >>> from torch.utils.data._utils.collate import collate, default_collate_fn_map
        >>> collate([{"x": 1}, {"x": 2}], collate_fn_map=default_collate_fn_map)
        {'x': tensor([1, 2])}
    """
    elem = batch[0]
    leaf_fn = _leaf_function(type(elem), elem, collate_fn_map)
    if leaf_fn is not None:
        return leaf_fn(batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        return _collate_mapping(batch, collate_fn_map)
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a named tuple
        return type(elem)(*(collate(s, collate_fn_map=collate_fn_map) for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        return _collate_sequence(batch, collate_fn_map)
    raise TypeError(default_collate_err_msg_format.format(type(elem)))


def _leaf_function(elem_type: type, elem, collate_fn_map: dict | None) -> Callable | None:
    if collate_fn_map is None:
        return None
    if elem_type in collate_fn_map:
        return collate_fn_map[elem_type]
    for key, fn in collate_fn_map.items():
        if isinstance(elem, key):
            return fn
    return None


def _collate_mapping(batch, collate_fn_map):
    elem = batch[0]
    merged = {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map) for key in elem}
    return _like_mapping(elem, merged)


def _like_mapping(original, values: dict):
    """``values`` in the mapping type of ``original``; a plain dict when that fails."""
    try:
        if isinstance(original, collections.abc.MutableMapping):
            # a copy keeps the mapping's own type and attributes (e.g. OrderedDict)
            clone = copy.copy(original)
            clone.update(values)
            return clone
        return type(original)(values)
    except TypeError:  # a mapping type that cannot be copied or rebuilt
        return values


def _like_sequence(original, items: list):
    """``items`` in the sequence type of ``original``; a plain list when that fails."""
    try:
        if isinstance(original, collections.abc.MutableSequence):
            clone = copy.copy(original)
            for i, item in enumerate(items):
                clone[i] = item
            return clone
        return type(original)(items)
    except TypeError:  # e.g. range, which cannot be rebuilt from a list
        return items


def _collate_sequence(batch, collate_fn_map):
    elem = batch[0]
    size = len(elem)
    if any(len(sample) != size for sample in batch):
        raise RuntimeError("each element in list of batch should be of equal size")
    columns = [
        collate(c, collate_fn_map=collate_fn_map) for c in zip(*batch)
    ]  # tuples, as PyTorch passes them
    if isinstance(elem, tuple):
        return columns  # tuples become lists, as in PyTorch
    return _like_sequence(elem, columns)


def collate_tensor_fn(batch, *, collate_fn_map: dict | None = None):
    """Stack tensors along a new first dim; inside a DataLoader worker the result
    goes straight into shared memory (when torch.multiprocessing supports it) so that
    sending it to the main process copies nothing."""
    elem = batch[0]
    if elem.layout != torch.strided:
        raise RuntimeError(
            "Batches of sparse tensors are not currently supported by the default "
            "collate_fn; please provide a custom collate_fn to handle them appropriately."
        )
    out = _shared_output(elem, len(batch)) if _in_worker() else None
    stacked = _stack_through_numpy(batch, out)
    if stacked is not None:
        return stacked
    return torch.stack(batch, 0, out=out)


def _stack_through_numpy(batch, out):
    """``torch.stack(batch, out=out)`` as one ``np.stack`` over the tensors' NumPy views,
    or None when that cannot stand in for it (autograd must record the stack, or the
    tensors differ in shape or dtype, or have no NumPy view), leaving it to torch.stack.

    Why: core's stack makes one Python-level view per input, about 10-20 us each, which
    made collating a batch of 64 images cost ~1 ms (PyTorch: 20 us); np.stack: ~80 us.
    """
    if torch.is_grad_enabled() and any(t.requires_grad for t in batch):
        return None
    try:
        arrays = [t.numpy() for t in batch]
    except (RuntimeError, TypeError):  # e.g. not on the CPU
        return None
    # shapes and dtypes compared on the NumPy side, where reading them is cheap
    shape, np_dtype = arrays[0].shape, arrays[0].dtype
    if any(a.shape != shape or a.dtype != np_dtype for a in arrays):
        return None  # torch.stack raises PyTorch's error
    if out is None:
        out = torch.empty((len(batch), *shape), dtype=batch[0].dtype)
    elif tuple(out.shape) != (len(batch), *shape) or not out.is_contiguous():
        return None
    np.stack(arrays, out=out.numpy())
    return out


def _in_worker() -> bool:
    from .worker import get_worker_info

    return get_worker_info() is not None


def _shared_output(elem: torch.Tensor, count: int):
    """An uninitialised tensor for the stacked batch in shared memory, or None for a
    tensor that requires grad (plain pickling then)."""
    if elem.requires_grad:
        return None
    return torch.empty((count, *elem.shape), dtype=elem.dtype).share_memory_()


def collate_numpy_array_fn(batch, *, collate_fn_map: dict | None = None):
    """Arrays become tensors, then are stacked; str/bytes/object arrays are refused."""
    elem = batch[0]
    if _np_str_obj_array_pattern.search(elem.dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    return collate([torch.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map: dict | None = None):
    # Through one NumPy array when the scalars share a type: it keeps their dtype
    # (core's as_tensor of a list of NumPy scalars infers int64/float32 instead).
    if all(type(b) is type(batch[0]) for b in batch) and not isinstance(batch[0], np.object_):
        return torch.as_tensor(np.asarray(batch))
    return torch.as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map: dict | None = None):
    return torch.tensor(batch, dtype=torch.float64)


def collate_int_fn(batch, *, collate_fn_map: dict | None = None):
    return torch.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map: dict | None = None):
    return batch


default_collate_fn_map: dict = {
    torch.Tensor: collate_tensor_fn,
    np.ndarray: collate_numpy_array_fn,  # also np.memmap, a subclass
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
    float: collate_float_fn,
    int: collate_int_fn,  # also bool, a subclass: gives a bool tensor
    str: collate_str_fn,
    bytes: collate_str_fn,
}


def default_collate(batch: list) -> Any:
    """Merge a list of samples into a batch: the default ``collate_fn`` of
    :class:`~torch.utils.data.DataLoader` when it batches.

    Tensors are stacked along a new first dim; NumPy arrays and NumPy scalars become
    tensors (then stacked); Python floats a float64 tensor, ints an int64 tensor, bools
    a bool tensor; strings and bytes stay a list. Containers keep their structure with
    each position collated: a dict of batches for dict samples, a named tuple of
    batches for named tuples, a list of batches for tuples and lists.

    Args:
        batch (list): the samples.

    Returns:
        The batch, with the structure of one sample.

    Examples::

        >>> default_collate([0, 1, 2])
        tensor([0, 1, 2])
        >>> default_collate([(torch.tensor([1.0]), 0), (torch.tensor([2.0]), 1)])
        [tensor([[1.],
                [2.]]), tensor([0, 1])]
        >>> default_collate([{"id": "a", "x": 0.5}, {"id": "b", "x": 1.5}])
        {'id': ['a', 'b'], 'x': tensor([0.5000, 1.5000], dtype=torch.float64)}
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)


def default_convert(data: Any) -> Any:
    """Turn NumPy arrays and NumPy scalars in ``data`` into tensors, keeping its
    containers: the default ``collate_fn`` of :class:`~torch.utils.data.DataLoader`
    when it does not batch (``batch_size=None``). Tuples become lists; anything else
    is returned unchanged.

    Args:
        data (Any): one sample.

    Returns:
        The sample with NumPy data converted.

    Examples::

        >>> import numpy as np
        >>> default_convert((np.array([1, 2]), "label", 3))
        [tensor([1, 2]), 'label', 3]
    """
    if isinstance(data, torch.Tensor):
        return data
    data_type = type(data)
    if data_type.__module__ == "numpy" and data_type.__name__ not in ("str_", "bytes_"):
        if isinstance(data, np.ndarray) and _np_str_obj_array_pattern.search(data.dtype.str):
            return data
        return torch.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _convert_mapping(data)
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return data_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _convert_sequence(data)
    return data


def _convert_mapping(data):
    return _like_mapping(data, {key: default_convert(data[key]) for key in data})


def _convert_sequence(data):
    return _like_sequence(data, [default_convert(d) for d in data])
