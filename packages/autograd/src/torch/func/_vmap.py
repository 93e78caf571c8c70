"""``vmap``: a function of one example run over a batch of them at once.

Each ``vmap`` call enters a :class:`VmapLevel`; its inputs become
:class:`BatchedTensor` wrappers (the tensor with the batch dim, and which dim that is), and
every op on them goes to the level's batching rule (``_batching_rules``): one per op
family, computing on the whole batch with the core op. An op without a rule runs once
per batch element and the results are stacked (a warning, once per op, says so).
"""

from __future__ import annotations

import functools
import warnings

import torch
from torch.autograd._transforms import _interpose, levels
from torch.autograd._transforms.levels import Level, TransformTensor, call

__all__ = ["vmap", "BatchedTensor", "VmapLevel"]

_Tensor = torch.Tensor
_RANDOMNESS = ("error", "different", "same")
#: the ops whose loop fallback has warned (once per op and process)
_FALLBACK_WARNED: set[str] = set()


class BatchedTensor(TransformTensor):
    """A tensor of one example inside ``vmap``: ``_value`` holds the whole batch, whose
    examples lie along dim ``_bdim``."""

    __slots__ = ("_value", "_bdim")

    def _inner(self):
        return self._value

    def _logical_shape(self) -> tuple:
        shape = tuple(self._value.shape)
        return shape[: self._bdim] + shape[self._bdim + 1 :]

    def _outside(self):
        raise RuntimeError(
            "vmap: a tensor made inside a vmap'ed function was used after that vmap returned "
            "(it escaped through a side effect); return it from the function instead"
        )

    def __repr__(self) -> str:
        value = "\n".join("    " + line for line in repr(self._value).splitlines())
        return f"BatchedTensor(lvl={self._level}, bdim={self._bdim}, value=\n{value}\n)"

    # what PyTorch refuses inside vmap: reading one value of a batched tensor
    def item(self):
        raise RuntimeError(
            "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap "
            "over calling .item() on a Tensor, please try to rewrite what you're doing with "
            "other operations. If error is occurring somewhere inside PyTorch internals, "
            "please file a bug report."
        )

    def _data_dependent(self, *args):
        raise RuntimeError(
            "vmap: It looks like you're attempting to use a Tensor in some data-dependent "
            "control flow. We don't support that yet, please file an issue at "
            "https://github.com/pytorch/pytorch/issues ."
        )

    __bool__ = __int__ = __float__ = __index__ = __complex__ = _data_dependent
    tolist = numpy = _data_dependent


def batched(level: VmapLevel, value, bdim):
    """``value`` as a tensor of one example of ``level`` (itself when ``bdim`` is None)."""
    if bdim is None:
        return value
    wrapper = object.__new__(BatchedTensor)
    wrapper._level = level.number
    wrapper._value = value
    wrapper._bdim = bdim
    return wrapper


class VmapLevel(Level):
    kind = "vmap"

    def __init__(self, batch_size: int, randomness: str) -> None:
        super().__init__()
        self.batch_size = batch_size
        self.randomness = randomness

    # -- wrapping
    def unwrap(self, x):
        """(what ``x`` holds, its batch dim) at this level; (x, None) when ``x`` is not
        batched here."""
        if isinstance(x, BatchedTensor) and x._level == self.number:
            return x._value, x._bdim
        return x, None

    def front(self, x):
        """What ``x`` holds at this level with the batch dim first, or None when ``x`` is
        not batched here."""
        value, bdim = self.unwrap(x)
        if bdim is None:
            return None
        return value if bdim == 0 else value.movedim(bdim, 0)

    def wrap(self, value, bdim=0):
        return batched(self, value, bdim)

    def wrap_tree(self, out):
        """Results of a rule that computed with the batch dim first, as batched tensors."""
        if isinstance(out, _Tensor):
            return self.wrap(out)
        if isinstance(out, tuple):
            items = [self.wrap_tree(o) for o in out]
            return type(out)(*items) if type(out) is not tuple else tuple(items)
        if isinstance(out, list):
            return [self.wrap_tree(o) for o in out]
        return out

    def process(self, name, original, args, kwargs):
        from ._batching_rules import RULES

        rule = RULES.get(name)
        if rule is None:
            return self.fallback(name, original, args, kwargs)
        return rule(self, name, original, args, kwargs)

    # -- the loop fallback
    def fallback(self, name, original, args, kwargs):
        """Run ``name`` once per batch element and stack the results."""
        if name not in _FALLBACK_WARNED:
            _FALLBACK_WARNED.add(name)
            warnings.warn(
                f"vmap: there is no batching rule for '{name}'; it runs once per batch "
                "element (slower than a batched op)",
                UserWarning,
                stacklevel=4,
            )
        results = []
        for index in range(self.batch_size):
            sample_args, sample_kwargs = levels._map_args(
                args, kwargs, lambda x, i=index: self._sample(x, i)
            )
            result = call(name, original, sample_args, sample_kwargs)
            if result is None and index == 0:
                return None  # a fused op that declines these operands
            results.append(result)
        return self._stack_results(name, results)

    def _sample(self, x, index):
        value, bdim = self.unwrap(x)
        return x if bdim is None else value.select(bdim, index)

    def _stack_results(self, name, results):
        first = results[0]
        if isinstance(first, _Tensor):
            for r in results:
                if isinstance(r, _Tensor) and r is not first:
                    break
            else:
                return first  # an in-place op: each call returned the same tensor
            return self.wrap(torch.stack(results))
        if isinstance(first, (tuple, list)):
            columns = [self._stack_results(name, list(col)) for col in zip(*results)]
            if isinstance(first, tuple) and type(first) is not tuple:
                return type(first)(*columns)
            return type(first)(columns)
        if all(r == first for r in results):
            return first
        raise RuntimeError(
            f"vmap: '{name}' returned a different non-tensor value for each batch element; "
            "its result cannot be batched"
        )


# ----------------------------------------------------------------------------- the API


def _describe(func) -> str:
    return getattr(func, "__name__", repr(func))


def _flatten(tree):
    """(leaves, rebuild) of nested tuples, lists and dicts."""
    if isinstance(tree, (tuple, list)):
        parts = [_flatten(item) for item in tree]
        leaves = [leaf for p in parts for leaf in p[0]]

        kind = type(tree)

        def rebuild(values, parts=parts, kind=kind):
            out, start = [], 0
            for leaves_of, rebuild_of in parts:
                out.append(rebuild_of(values[start : start + len(leaves_of)]))
                start += len(leaves_of)
            if kind is tuple or kind is list:
                return kind(out)
            return kind(*out)  # a namedtuple

        return leaves, rebuild
    if isinstance(tree, dict):
        keys = list(tree)
        parts = [_flatten(tree[k]) for k in keys]
        leaves = [leaf for p in parts for leaf in p[0]]

        def rebuild(values, parts=parts, keys=keys):
            out, start = {}, 0
            for key, (leaves_of, rebuild_of) in zip(keys, parts):
                out[key] = rebuild_of(values[start : start + len(leaves_of)])
                start += len(leaves_of)
            return out

        return leaves, rebuild
    return [tree], lambda values: values[0]


def _broadcast_dims(dims, tree, what: str, prefix: str):
    """One dim (int or None) per leaf of ``tree``, from ``dims`` (an int/None for all, or
    a structure matching a prefix of ``tree``)."""
    if dims is None or isinstance(dims, int):
        return [dims] * len(_flatten(tree)[0])
    if isinstance(dims, (tuple, list)) and isinstance(tree, (tuple, list)):
        if len(dims) != len(tree):
            raise ValueError(
                f"{prefix}: {what} is not compatible with the structure of `inputs`. "
                f"{what} has {len(dims)} entries but inputs has {len(tree)}."
            )
        return [
            d
            for sub_dims, sub in zip(dims, tree)
            for d in _broadcast_dims(sub_dims, sub, what, prefix)
        ]
    if isinstance(dims, dict) and isinstance(tree, dict):
        return [d for k in tree for d in _broadcast_dims(dims[k], tree[k], what, prefix)]
    raise ValueError(f"{prefix}: {what} is not compatible with the structure of `inputs`.")


def _check_in_dims(in_dims, args, prefix: str) -> list:
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(
            f"{prefix}: expected `in_dims` to be int or a (potentially nested) tuple matching "
            f"the structure of inputs, got: {type(in_dims)}."
        )
    if len(args) == 0:
        raise ValueError(
            f"{prefix.split(',')[0]})(<inputs>): got no inputs. Maybe you forgot to add "
            "inputs, or you are trying to vmap over a function with no inputs. The latter is "
            "unsupported."
        )
    if isinstance(in_dims, tuple) and len(in_dims) != len(args):
        raise ValueError(
            f"{prefix}: in_dims is not compatible with the structure of `inputs`. in_dims has "
            f"{len(in_dims)} entries but inputs has {len(args)}."
        )
    return _broadcast_dims(in_dims, tuple(args), "in_dims", prefix)


def _batch_size(leaves, dims, prefix: str) -> int:
    sizes = []
    for leaf, dim in zip(leaves, dims):
        if dim is None:
            continue
        if not isinstance(dim, int):
            raise ValueError(f"{prefix}: in_dims must be int or None for every input, got {dim!r}")
        if not isinstance(leaf, _Tensor):
            raise ValueError(
                f"{prefix}: Got in_dim={dim} for an input but the input is of type "
                f"{type(leaf)}. We cannot vmap over non-Tensor arguments, please use None "
                "as the respective in_dim"
            )
        rank = leaf.dim()
        if not -rank <= dim < rank:
            raise ValueError(
                f"{prefix}: Got in_dim={dim} for some input, but that input is a Tensor of "
                f"dimensionality {rank} so expected in_dim to satisfy -{rank} <= in_dim < "
                f"{rank}."
            )
        sizes.append(leaf.shape[dim])
    if not sizes:
        raise ValueError(
            f"{prefix}: at least one input must be vmapped over (in_dims may not all be None)"
        )
    if any(s != sizes[0] for s in sizes):
        raise ValueError(
            "vmap: Expected all tensors to have the same size in the mapped dimension, got "
            f"sizes {sizes} for the mapped dimension"
        )
    return sizes[0]


def _unbatch(level: VmapLevel, out, out_dim, func_name: str):
    if out_dim is None:
        if isinstance(out, BatchedTensor) and out._level == level.number:
            raise ValueError(
                f"vmap({func_name}, ...): `{func_name}` can not return a BatchedTensor when "
                "out_dim is None"
            )
        return out
    if not isinstance(out, _Tensor):
        raise ValueError(
            f"vmap({func_name}, ...): `{func_name}` must only return Tensors, got type "
            f"{type(out)}. Did you mean to set out_dims= to None for output?"
        )
    value, bdim = level.unwrap(out)
    if bdim is None:  # the same for every example: expand it
        value = out.unsqueeze(0).expand(level.batch_size, *out.shape)
        bdim = 0
    rank = value.dim()
    target = levels._wrap(out_dim, rank)
    return value.movedim(bdim, target)


def _run(func, args, kwargs, in_dims, out_dims, randomness, chunk: tuple | None):
    """One vmap level over ``args`` (or the slice ``chunk`` of the batch)."""
    func_name = _describe(func)
    leaves, rebuild = _flatten(tuple(args))
    prefix = f"vmap({func_name}, in_dims={in_dims}, ...)(<inputs>)"
    dims = _check_in_dims(in_dims, args, prefix)
    size = _batch_size(leaves, dims, prefix)
    if chunk is not None:
        start, stop = chunk
        leaves = [
            leaf if d is None else leaf.narrow(d, start, stop - start)
            for leaf, d in zip(leaves, dims)
        ]
        size = stop - start
    level = VmapLevel(size, randomness).enter()
    try:
        wrapped = [
            leaf if d is None else batched(level, leaf, d % leaf.dim())
            for leaf, d in zip(leaves, dims)
        ]
        out = _interpose.interposed(func)(*rebuild(wrapped), **kwargs)
        out_leaves, out_rebuild = _flatten(out)
        if isinstance(out_dims, (int, type(None))):
            odims = [out_dims] * len(out_leaves)
        else:
            odims = _broadcast_dims(out_dims, out, "out_dims", f"vmap({func_name}, ...)")
        return out_rebuild(
            [_unbatch(level, o, d, func_name) for o, d in zip(out_leaves, odims)]
        ), odims
    finally:
        level.exit()


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Vectorise ``func`` over a batch dim of its inputs.

    ``vmap(func)(x)`` computes what ``torch.stack([func(xi) for xi in x])`` computes, but
    runs each op of ``func`` once on the whole batch (through a batching rule per op
    family; ops without a rule run per example, with a warning).

    Args:
        func: a function of tensors (nested tuples, lists and dicts of them are fine)
            returning tensors.
        in_dims (int, None or nested tuple): the batch dim of each input; None for an
            input shared by every example. Default: 0.
        out_dims (int, None or tuple): where the batch dim goes in each output. Default: 0.
        randomness (str): random ops inside ``func``: ``'error'`` (default) refuses them,
            ``'different'`` draws independently per example, ``'same'`` draws once.
        chunk_size (int, optional): run the batch in chunks of this many examples.

    Examples::

        >>> from torch.func import vmap
        >>> vmap(torch.dot)(torch.ones(3, 2), torch.ones(3, 2))
        tensor([2., 2., 2.])
    """
    if randomness not in _RANDOMNESS:
        raise RuntimeError(
            "Only allowed values for randomness are 'error', 'different', or 'same'. "
            f"Got {randomness}"
        )
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def vmapped(*args, **kwargs):
        if chunk_size is None:
            return _run(func, args, kwargs, in_dims, out_dims, randomness, None)[0]
        return _chunked(func, args, kwargs, in_dims, out_dims, randomness, chunk_size)

    return vmapped


def _chunked(func, args, kwargs, in_dims, out_dims, randomness, chunk_size):
    func_name = _describe(func)
    leaves, _ = _flatten(tuple(args))
    prefix = f"vmap({func_name}, in_dims={in_dims}, ...)(<inputs>)"
    size = _batch_size(leaves, _check_in_dims(in_dims, args, prefix), prefix)
    pieces = []
    odims = None
    for start in range(0, size, chunk_size):
        out, odims = _run(
            func,
            args,
            kwargs,
            in_dims,
            out_dims,
            randomness,
            (start, min(size, start + chunk_size)),
        )
        pieces.append(out)
    if len(pieces) == 1:
        return pieces[0]
    columns = list(zip(*[_flatten(p)[0] for p in pieces]))
    rebuild = _flatten(pieces[0])[1]
    joined = [col[0] if d is None else torch.cat(col, dim=d) for col, d in zip(columns, odims)]
    return rebuild(joined)
