"""Batching rules of ``vmap``, one per op family. A rule gets the level, the op's name,
the plain function (which computes on unwrapped tensors) and the call's arguments; it
moves each batched argument's batch dim to the front, rewrites the dims the op takes so
they skip it, runs the op once for the whole batch and wraps the result (batch dim 0).

Families with rules: element-wise ops (unary, binary and n-ary, broadcasting; their
in-place forms; ``*_like`` constructors), reductions and other ops along a ``dim``
(sum, mean, softmax, cumsum, max/min with a dim, ...), views and shape ops (reshape,
permute, transpose, squeeze, expand, select, narrow, unbind, split, flatten, ...),
concatenation (cat, stack), basic and single-tensor indexing (``x[...]`` read and
write), the matmul family (matmul, mm, bmm, mv, dot, the ``@`` operator) and a few
``nn.functional`` kernels (layer_norm, embedding, dropout, the fused ops, which decline
so the composite runs). Anything else takes the level's loop fallback.
"""

from __future__ import annotations

import torch
from torch.autograd._transforms.levels import _wrap, call

__all__ = ["RULES"]

_Tensor = torch.Tensor
RULES: dict = {}


def _logical_rank(level, x) -> int:
    value, bdim = level.unwrap(x)
    return value.dim() - (0 if bdim is None else 1)


def _register(names, rule):
    for name in names.split():
        RULES[name] = rule


# --------------------------------------------------------------------- element-wise


def _align(level, x, rank: int):
    """``x`` batched at this level: its value with the batch first and size-1 dims after
    it up to ``rank`` logical dims (so it broadcasts per example)."""
    value = level.front(x)
    if value is None:
        return x
    missing = rank - (value.dim() - 1)
    if missing > 0:
        value = value.reshape(value.shape[0], *([1] * missing), *value.shape[1:])
    return value


def elementwise(level, name, original, args, kwargs):
    tensors = [a for a in (*args, *kwargs.values()) if isinstance(a, _Tensor)]
    rank = max(_logical_rank(level, t) for t in tensors)
    new_args = tuple(_align(level, a, rank) if isinstance(a, _Tensor) else a for a in args)
    new_kwargs = {
        k: _align(level, v, rank) if isinstance(v, _Tensor) else v for k, v in kwargs.items()
    }
    return level.wrap_tree(call(name, original, new_args, new_kwargs))


def inplace_elementwise(level, name, original, args, kwargs):
    _value, bdim = level.unwrap(args[0])
    if bdim is None:
        raise RuntimeError(
            f"vmap: {name}(self, *extra_args) is not possible because there exists a Tensor "
            "`other` in extra_args that has more elements than `self`. This happened due to "
            "`other` being vmapped over but `self` not being vmapped over in a vmap. Please "
            "try to use out-of-place operators instead."
        )
    rank = _logical_rank(level, args[0])
    new_args = (level.front(args[0]),) + tuple(
        _align(level, a, rank) if isinstance(a, _Tensor) else a for a in args[1:]
    )
    new_kwargs = {
        k: _align(level, v, rank) if isinstance(v, _Tensor) else v for k, v in kwargs.items()
    }
    call(name, original, new_args, new_kwargs)
    return args[0]


_UNARY = (
    "abs absolute neg negative positive sign sgn exp exp2 expm1 log log2 log10 log1p sqrt "
    "rsqrt square reciprocal sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh "
    "arcsin arccos arctan arcsinh arccosh arctanh sigmoid logit erf erfc erfinv lgamma "
    "digamma floor ceil trunc round frac relu relu6 nan_to_num isnan isinf isfinite "
    "isposinf isneginf signbit logical_not bitwise_not conj conj_physical angle deg2rad "
    "rad2deg clone contiguous detach float double half bfloat16 int long bool to type_as "
    "cpu clamp clip clamp_min clamp_max threshold hardtanh leaky_relu elu selu celu "
    "softplus silu mish hardswish hardsigmoid gelu softsign tanhshrink hardshrink "
    "softshrink log_sigmoid logsigmoid sinc i0 special_expit expit xlogy special_xlog1py "
    "zeros_like ones_like empty_like full_like"
)
_BINARY = (
    "add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow "
    "float_power atan2 arctan2 hypot maximum minimum fmax fmin copysign logaddexp "
    "logaddexp2 eq ne lt le gt ge greater less greater_equal less_equal not_equal equal "
    "logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor where lerp "
    "addcmul addcdiv masked_fill rsub nextafter heaviside isclose ldexp "
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ "
    "__floordiv__ __rfloordiv__ __mod__ __rmod__ __pow__ __rpow__ __neg__ __abs__ "
    "__pos__ __invert__ __and__ __rand__ __or__ __ror__ __xor__ __rxor__ __eq__ __ne__ "
    "__lt__ __le__ __gt__ __ge__"
)
_register(_UNARY + " " + _BINARY, elementwise)


def _inplace_names() -> str:
    names = [n + "_" for n in (_UNARY + " " + _BINARY).split() if not n.startswith("__")]
    names += ["__iadd__", "__isub__", "__imul__", "__itruediv__", "__ipow__", "copy_"]
    names += ["fill_", "zero_", "masked_fill_", "clamp_"]
    return " ".join(names)


_register(_inplace_names(), inplace_elementwise)


def _is_tensor_arg(args, position):
    return len(args) > position and isinstance(args[position], _Tensor)


def max_min(level, name, original, args, kwargs):
    """``max(a, b)`` is element-wise, ``max(x, dim)`` reduces along a dim (values and
    indices) and ``max(x)`` over every dim (as ``amax``)."""
    if _is_tensor_arg(args, 1) or isinstance(kwargs.get("other"), _Tensor):
        return elementwise(level, name, original, args, kwargs)
    if _dim_arg(args, kwargs, 1)[0] is None:
        extreme = _Tensor.amax if name == "max" else _Tensor.amin
        return _along_dim(1, full="flatten")(level, "amax", extreme, args[:1], {})
    return _along_dim(1)(level, name, original, args, kwargs)


# ------------------------------------------------------------------ ops along a dim


def _dim_arg(args, kwargs, position: int, key: str = "dim"):
    if key in kwargs:
        return kwargs[key], "kw"
    if len(args) > position:
        return args[position], "pos"
    return None, None


def _set_dim(args, kwargs, position, where, value, key="dim"):
    if where == "kw":
        kwargs = {**kwargs, key: value}
    elif where == "pos":
        args = args[:position] + (value,) + args[position + 1 :]
    else:
        kwargs = {**kwargs, key: value}
    return args, kwargs


def _shift(dim, rank: int):
    if isinstance(dim, (tuple, list)):
        return type(dim)(_wrap(d, rank) + 1 for d in dim)
    return _wrap(dim, rank) + 1


def _along_dim(
    position: int, key: str = "dim", full: str = "tuple", extra_rank: int = 0, default=None
):
    """A rule for an op whose ``dim`` argument (at ``position`` or keyword ``key``) names a
    logical dim. Without one, the op uses ``default`` if given, else reduces every dim
    (``full``: pass the tuple of all of them, or ``"flatten"`` the example first)."""

    def rule(level, name, original, args, kwargs):
        value = level.front(args[0])
        if value is None:  # only another argument is batched
            return level.fallback(name, original, args, kwargs)
        rank = value.dim() - 1 + extra_rank
        dim, where = _dim_arg(args, kwargs, position, key)
        if isinstance(dim, bool):  # std(x, unbiased): no dim given
            return level.fallback(name, original, args, kwargs)
        args = (value,) + tuple(args[1:])
        if dim is None and default is not None:
            dim = default
        if dim is not None and not (isinstance(dim, (tuple, list)) and len(dim) == 0):
            args, kwargs = _set_dim(args, kwargs, position, where, _shift(dim, rank), key)
            return level.wrap_tree(call(name, original, args, kwargs))
        # every dim of the example
        keepdim = kwargs.get("keepdim", False)
        if full == "flatten" or rank == 0:
            flat = value.reshape(value.shape[0], -1)
            args, kwargs = _set_dim((flat,) + args[1:], kwargs, position, where, 1, key)
            out = call(name, original, args, kwargs)
            return level.wrap_tree(_keep_all_dims(out, rank) if keepdim else out)
        every = tuple(range(1, rank + 1))
        args, kwargs = _set_dim(args, kwargs, position, where, every, key)
        return level.wrap_tree(call(name, original, args, kwargs))

    return rule


def _keep_all_dims(out, rank):
    if isinstance(out, _Tensor):
        return out.reshape(out.shape[0], *([1] * rank))
    if isinstance(out, tuple):
        items = [_keep_all_dims(o, rank) for o in out]
        return type(out)(*items) if type(out) is not tuple else tuple(items)
    return out


_register(
    "sum mean nansum nanmean amax amin all any std var std_mean var_mean count_nonzero logsumexp",
    _along_dim(1),
)
_register("prod argmax argmin median nanmedian mode", _along_dim(1, full="flatten"))
_register("max min", max_min)
_register("softmax log_softmax cumsum cumprod cummax cummin logcumsumexp", _along_dim(1))
_register("unbind", _along_dim(1, default=0))
_register("diff sort argsort", _along_dim(1, default=-1))
_register("norm", _along_dim(2))
_register("unsqueeze", _along_dim(1, extra_rank=1))
_register("narrow select", _along_dim(1))
_register("split chunk tensor_split", _along_dim(2, default=0))
_register("unflatten", _along_dim(1))
_register("index_select", _along_dim(1))
_register("flip", _along_dim(1, key="dims"))


def gather(level, name, original, args, kwargs):
    """``gather``/``take_along_dim``: input and index both get the batch dim in front
    (expanded where one is not batched); the dim shifts."""
    source, dim, index = args[0], args[1], args[2]
    rank = _logical_rank(level, source)
    values = _full(level, source), _full(level, index)
    return level.wrap(call(name, original, (values[0], _shift(dim, rank), values[1]), kwargs))


_register("gather", gather)
# ``kthvalue``/``topk`` take ``dim`` second: (input, k, dim)
_register("kthvalue topk", _along_dim(2, default=-1))


def squeeze(level, name, original, args, kwargs):
    dim, _ = _dim_arg(args, kwargs, 1)
    if dim is not None:
        return _along_dim(1)(level, name, original, args, kwargs)
    value = level.front(args[0])
    shape = [n for n in value.shape[1:] if n != 1]
    return level.wrap(call("reshape", _Tensor.reshape, (value, (value.shape[0], *shape)), {}))


_register("squeeze", squeeze)


def _two_dims(position: int, keys=("dim0", "dim1"), defaults=None):
    """Ops with two logical dims (transpose, swapaxes, movedim, diagonal)."""

    def rule(level, name, original, args, kwargs):
        value = level.front(args[0])
        if value is None:
            return level.fallback(name, original, args, kwargs)
        rank = value.dim() - 1
        args = list((value,) + tuple(args[1:]))
        kwargs = dict(kwargs)
        for offset, key in enumerate(keys):
            where = position + offset
            if key in kwargs:
                kwargs[key] = _shift(kwargs[key], rank)
            elif len(args) > where:
                args[where] = _shift(args[where], rank)
            elif defaults is not None:
                kwargs[key] = _shift(defaults[offset], rank)
        return level.wrap_tree(call(name, original, tuple(args), kwargs))

    return rule


_register("transpose swapaxes swapdims", _two_dims(1))
_register("movedim moveaxis", _two_dims(1, ("source", "destination")))
_register("diagonal", _two_dims(2, ("dim1", "dim2"), defaults=(0, 1)))
_register("diag_embed", _two_dims(2, ("dim1", "dim2"), defaults=(-2, -1)))


# --------------------------------------------------------------------------- shapes


def _sizes(args, start=1):
    rest = args[start:]
    if len(rest) == 1 and isinstance(rest[0], (tuple, list, torch.Size)):
        return tuple(rest[0])
    return tuple(rest)


def reshape(level, name, original, args, kwargs):
    value = level.front(args[0])
    shape = _sizes(args) if len(args) > 1 else tuple(kwargs.get("shape", kwargs.get("size", ())))
    out = call("reshape", _Tensor.reshape, (value, (value.shape[0], *shape)), {})
    return level.wrap(out)


def reshape_as(level, name, original, args, kwargs):
    return reshape(level, "reshape", None, (args[0], tuple(args[1].shape)), {})


def flatten(level, name, original, args, kwargs):
    value = level.front(args[0])
    rank = value.dim() - 1
    if rank == 0:
        return level.wrap(value.reshape(value.shape[0], 1))
    start = kwargs.get("start_dim", args[1] if len(args) > 1 else 0)
    end = kwargs.get("end_dim", args[2] if len(args) > 2 else -1)
    return level.wrap(call(name, original, (value, _shift(start, rank), _shift(end, rank)), {}))


def permute(level, name, original, args, kwargs):
    value = level.front(args[0])
    rank = value.dim() - 1
    dims = _sizes(args) if len(args) > 1 else tuple(kwargs["dims"])
    return level.wrap(value.permute(0, *(_shift(d, rank) for d in dims)))


def transpose_2d(level, name, original, args, kwargs):
    value = level.front(args[0])
    if value.dim() - 1 < 2:
        return level.wrap(value)
    return level.wrap(value.transpose(1, 2))


def reverse_dims(level, name, original, args, kwargs):
    value = level.front(args[0])
    rank = value.dim() - 1
    return level.wrap(value.permute(0, *range(rank, 0, -1)))


def last_two(level, name, original, args, kwargs):
    """``mT``, ``mH``: they act on the last two dims, which the batch dim does not move."""
    return level.wrap(original(level.front(args[0])))


def expand(level, name, original, args, kwargs):
    value = level.front(args[0])
    if value is None:
        return level.fallback(name, original, args, kwargs)
    sizes = _sizes(args) if len(args) > 1 else tuple(kwargs["size"])
    if name == "expand_as":
        sizes = tuple(args[1].shape)
    value = _align(level, args[0], len(sizes))
    return level.wrap(value.expand(value.shape[0], *sizes))


def repeat(level, name, original, args, kwargs):
    value = level.front(args[0])
    repeats = _sizes(args)
    value = _align(level, args[0], len(repeats))
    return level.wrap(value.repeat(1, *repeats))


def new_like(level, name, original, args, kwargs):
    """``x.new_zeros(size)`` and friends: unbatched, with the example's dtype."""
    value, _ = level.unwrap(args[0])
    return call(name, original, (value, *args[1:]), kwargs)


_register("reshape view", reshape)
_register("reshape_as view_as", reshape_as)
_register("flatten", flatten)
_register("permute", permute)
_register("t", transpose_2d)
_register("T", reverse_dims)
_register("mT mH adjoint", last_two)
_register("expand broadcast_to expand_as", expand)
_register("repeat", repeat)
_register("new_zeros new_ones new_empty new_full new_tensor", new_like)


# ------------------------------------------------------------------ joining tensors


def _full(level, x):
    """``x`` with the batch dim first, expanded over the batch if ``x`` is not batched."""
    value = level.front(x)
    if value is None:
        return x.unsqueeze(0).expand(level.batch_size, *x.shape)
    return value


def join(level, name, original, args, kwargs):
    tensors = args[0] if args else kwargs["tensors"]
    dim, where = _dim_arg(args, kwargs, 1)
    dim = 0 if dim is None else dim
    logical = [t for t in tensors if not (t.dim() == 1 and t.shape[0] == 0)]
    rank = (logical[0].dim() if logical else 1) + (1 if name in ("stack",) else 0)
    values = [_full(level, t) for t in tensors]
    if name in ("hstack", "vstack", "dstack", "column_stack", "row_stack"):
        return level.fallback(name, original, args, kwargs)
    rest = {k: v for k, v in kwargs.items() if k not in ("tensors", "dim")}
    return level.wrap(call(name, original, (values, _shift(dim, rank)), rest))


_register("cat concat concatenate stack", join)


# ------------------------------------------------------------------------- indexing


def _simple_index(index) -> bool:
    parts = index if isinstance(index, tuple) else (index,)
    tensors = 0
    for p in parts:
        if isinstance(p, (int, slice)) or p is None or p is Ellipsis:
            continue
        if isinstance(p, _Tensor) or isinstance(p, list):
            tensors += 1
            continue
        return False
    return tensors <= 1


def getitem(level, name, original, args, kwargs):
    self, index = args
    value = level.front(self)
    if value is None or has_batched(level, index) or not _simple_index(index):
        return level.fallback(name, original, args, kwargs)
    parts = index if isinstance(index, tuple) else (index,)
    return level.wrap(call(name, original, (value, (slice(None), *parts)), {}))


def setitem(level, name, original, args, kwargs):
    self, index, source = args
    value = level.front(self)
    if value is None:
        if isinstance(source, _Tensor) and level.unwrap(source)[1] is not None:
            raise RuntimeError(
                "vmap: index_put_(self, *extra_args) is not possible because there exists a "
                "Tensor `other` in extra_args that has more elements than `self`. This "
                "happened due to `other` being vmapped over but `self` not being vmapped "
                "over in a vmap. Please try to use out-of-place operators instead."
            )
        return level.fallback(name, original, args, kwargs)
    if has_batched(level, index) or not _simple_index(index):
        return level.fallback(name, original, args, kwargs)
    parts = index if isinstance(index, tuple) else (index,)
    physical = (slice(None), *parts)
    if isinstance(source, _Tensor) and level.unwrap(source)[1] is not None:
        target_rank = value[physical].dim() - 1
        source = _align(level, source, target_rank)
    call(name, original, (value, physical, source), {})
    return None


def has_batched(level, index) -> bool:
    parts = index if isinstance(index, tuple) else (index,)
    return any(isinstance(p, _Tensor) and level.unwrap(p)[1] is not None for p in parts)


_register("__getitem__", getitem)
_register("__setitem__", setitem)


# ----------------------------------------------------------------------- matmul family


def matmul(level, name, original, args, kwargs):
    a, b = args[0], args[1]
    if name == "__rmatmul__":
        a, b = b, a
    va, vb = level.front(a), level.front(b)
    ra, rb = _logical_rank(level, a), _logical_rank(level, b)
    if ra == 0 or rb == 0:
        return level.fallback(name, original, args, kwargs)
    xa = a if va is None else va
    xb = b if vb is None else vb
    squeeze_a = squeeze_b = False
    if ra == 1:
        xa, ra, squeeze_a = xa.unsqueeze(-2), 2, True
    if rb == 1:
        xb, rb, squeeze_b = xb.unsqueeze(-1), 2, True
    rank = max(ra, rb)
    if va is not None and ra < rank:
        xa = xa.reshape(xa.shape[0], *([1] * (rank - ra)), *xa.shape[1:])
    if vb is not None and rb < rank:
        xb = xb.reshape(xb.shape[0], *([1] * (rank - rb)), *xb.shape[1:])
    if va is None and ra == rank and vb is not None:
        pass  # an unbatched matrix broadcasts over the batch
    out = torch.matmul(xa, xb)
    if squeeze_a:
        out = out.squeeze(-2)
    if squeeze_b:
        out = out.squeeze(-1)
    return level.wrap(out)


_register("matmul mm bmm mv dot inner vdot __matmul__ __rmatmul__", matmul)


def addmm(level, name, original, args, kwargs):
    bias, m1, m2 = args[:3]
    product = matmul(level, "matmul", None, (m1, m2), {})
    beta, alpha = kwargs.get("beta", 1), kwargs.get("alpha", 1)
    scaled = product if alpha == 1 else product * alpha
    return scaled + (bias if beta == 1 else bias * beta)


_register("addmm", addmm)


def einsum(level, name, original, args, kwargs):
    """A new subscript letter for the batch dim, in front of each batched operand and of
    the output (equations with ``...`` take the fallback)."""
    equation = args[0]
    operands = args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    equation = equation.replace(" ", "")
    if "..." in equation:
        return level.fallback(name, original, args, kwargs)
    inputs, _, output = equation.partition("->")
    terms = inputs.split(",")
    if "->" not in equation:  # implicit output: the letters used once, sorted
        letters = "".join(terms)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    free = next(
        c for c in "zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA" if c not in equation
    )
    values, new_terms = [], []
    for term, operand in zip(terms, operands):
        value = level.front(operand)
        values.append(operand if value is None else value)
        new_terms.append(term if value is None else free + term)
    batched_equation = ",".join(new_terms) + "->" + free + output
    return level.wrap(call(name, original, (batched_equation, *values), kwargs))


_register("einsum", einsum)


# ------------------------------------------------------------------- nn.functional


def decline(level, name, original, args, kwargs):
    """Core's fused ops take plain operands only: None makes the caller run the
    composite, whose parts have rules."""
    return None


_register("_linear _mse_loss _cross_entropy _nll_loss _relu _lstm_layer _gru_layer", decline)
_register("_rnn_layer _layer_norm _batch_norm _lstm_sequence", decline)


def trailing_dims(level, name, original, args, kwargs):
    """Ops on the last dims of their first argument, the others unbatched
    (``layer_norm``): the batch dim in front changes nothing."""
    if any(level.unwrap(a)[1] is not None for a in args[1:] if isinstance(a, _Tensor)):
        return level.fallback(name, original, args, kwargs)
    return level.wrap_tree(call(name, original, (level.front(args[0]), *args[1:]), kwargs))


def layer_norm(level, name, original, args, kwargs):
    """``layer_norm`` with the kernel when only the input is batched, else written out
    (per-example weights, as inside ``vmap(grad(...))``), whose ops have rules."""
    if not any(level.unwrap(a)[1] is not None for a in (*args[1:], *kwargs.values())):
        return trailing_dims(level, name, original, args, kwargs)
    from torch.autograd._transforms.jvp_rules import _layer_norm

    return _layer_norm(*args, **kwargs)


_register("layer_norm", layer_norm)
_register("rms_norm", trailing_dims)


def convolution(level, name, original, args, kwargs):
    """``convolution(input, weight, bias, stride, padding, dilation, groups)``: a batched
    input folds its batch into the conv's; per-example weights become groups of one
    grouped convolution."""
    input, weight = args[0], args[1]
    rest = list(args[2:]) + [None, 1, 0, 1, 1][len(args) - 2 :]
    bias, stride, padding, dilation, groups = rest[:5]
    if kwargs or not isinstance(groups, int):
        return level.fallback(name, original, args, kwargs)
    spatial = weight.dim() - 2
    unbatched = input.dim() == spatial + 1  # (C, *S): no N dim of its own
    weight_value = level.front(weight)
    bias_value = level.front(bias) if isinstance(bias, _Tensor) else None
    size = level.batch_size
    if weight_value is None and bias_value is None:
        x = level.front(input)
        folded = x.reshape(-1, *x.shape[-(spatial + 1) :])
        out = call(name, original, (folded, weight, bias, stride, padding, dilation, groups), {})
        return level.wrap(out.reshape(*x.shape[: -(spatial + 1)], *out.shape[1:]))
    x = _full(level, input)
    if unbatched:
        x = x.unsqueeze(1)
    n = x.shape[1]
    x = x.movedim(0, 1).reshape(n, -1, *x.shape[3:])  # (N, B*C, *S)
    w = _full(level, weight)
    w = w.reshape(-1, *w.shape[2:])  # (B*O, C/g, *k)
    b = None
    if bias is not None:
        b = _full(level, bias).reshape(-1)
    out = call(name, original, (x, w, b, stride, padding, dilation, groups * size), {})
    out = out.reshape(n, size, -1, *out.shape[2:]).movedim(1, 0)  # (B, N, O, *S')
    return level.wrap(out.squeeze(1) if unbatched else out)


_register("convolution", convolution)


def embedding(level, name, original, args, kwargs):
    weight, indices = args[0], args[1]
    if level.unwrap(weight)[1] is not None:
        return level.fallback(name, original, args, kwargs)
    return level.wrap(call(name, original, (weight, level.front(indices), *args[2:]), kwargs))


_register("embedding", embedding)


def random_like(level, name, original, args, kwargs):
    if level.randomness == "error":
        raise RuntimeError(
            "vmap: called random operation while in randomness error mode. Please either use "
            "the 'same' or 'different' randomness flags on vmap or perform the randomness "
            "operation out of vmap"
        )
    if level.randomness == "same":
        value, bdim = level.unwrap(args[0])
        example = value.select(bdim, 0) if bdim is not None else value
        return call(name, original, (example, *args[1:]), kwargs)
    return elementwise(level, name, original, args, kwargs)


_register("rand_like randn_like randint_like bernoulli dropout alpha_dropout", random_like)
_register("feature_dropout", random_like)
