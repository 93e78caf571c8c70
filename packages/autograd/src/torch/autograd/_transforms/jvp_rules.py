"""JVP rules of forward-mode AD, per op family. A rule gets the dual level, the op and its
arguments (with and without their dual wrappers) and returns the result as dual tensors.

Where they come from:

- **linear ops** (views, shape ops, indexing, ``sum``/``mean``, ``cumsum``, ``clone``,
  dtype casts, ...): the JVP is the op applied to the tangent; ``cat``/``stack`` join the
  tangents (zeros for inputs without one);
- **element-wise unary math** (``sin``, ``exp``, ``tanh``, ``sigmoid``, ...): the
  derivative formulas of torch-autograd (``_derivatives``), which compute
  ``grad * f'(x)``: for an element-wise op the VJP and the JVP are the same product, so
  the formula applied to the tangent is the JVP (conjugated around for complex);
- **the rest written out**: binary arithmetic and comparisons-by-value (``add``,
  ``mul``, ``div``, ``pow``, ``maximum``, ``where``, ``clamp``, ...), the matmul family
  (bilinear: ``ta @ b + a @ tb``), ``softmax``/``log_softmax``/``logsumexp``,
  ``amax``/``amin``/``max``/``min``, ``var``/``std``, ``norm``, ``relu`` and friends,
  ``dropout`` (the same mask on the tangent);
- **every other differentiable op on plain tensors**: the double-backward trick on its
  reverse-mode formula (``u -> vjp(u)`` is linear, so the JVP is the VJP of the VJP).

Ops whose tangents are wrappers of another transform (``jacfwd``'s batched tangents)
need one of the rules above; others raise PyTorch's "Trying to use forward AD with ...
that does not support it" error naming the op.
"""

from __future__ import annotations

import math

import torch

from .._derivatives import DERIVATIVES
from .levels import TransformTensor, call

__all__ = ["jvp_rule", "RULES"]

_Tensor = torch.Tensor
RULES: dict = {}


def _register(names: str, rule) -> None:
    for name in names.split():
        RULES[name] = rule


def _unsupported(name: str) -> RuntimeError:
    return RuntimeError(
        f"Trying to use forward AD with {name} that does not support it because it has not "
        "been implemented yet.\n(torch-autograd has no JVP rule for this op when its "
        "operands come from another transform, such as jacfwd's batched tangents.)"
    )


def jvp_rule(name: str):
    rule = RULES.get(name)
    if rule is not None:
        return rule
    if name.endswith("_") and not name.startswith("__") and name[:-1] in RULES:
        return inplace
    if name in _INPLACE_DUNDERS:
        return inplace
    return generic


def _out(level, name, original, pargs, pkwargs):
    return call(name, original, pargs, pkwargs)


def _t(level, x, like=None):
    """The tangent of ``x`` (zeros like ``like`` or the primal when it has none)."""
    tangent = level.tangent(x) if isinstance(x, _Tensor) else None
    if tangent is None and like is not None:
        return torch.zeros_like(like)
    return tangent


def _add(*terms):
    total = None
    for term in terms:
        if term is None:
            continue
        total = term if total is None else total + term
    return total


# ------------------------------------------------------------------------ linear ops


def linear_in_first(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    tangent = level.tangent(args[0])
    if tangent is None:
        return out
    t_out = call(name, original, (tangent, *pargs[1:]), pkwargs)
    return level.wrap_tree(out, t_out)


_register(
    "clone contiguous reshape view reshape_as view_as flatten unflatten permute transpose "
    "swapaxes swapdims movedim moveaxis t T mT H mH adjoint squeeze unsqueeze expand "
    "expand_as broadcast_to select narrow diagonal diag diag_embed unbind split chunk "
    "tensor_split repeat flip fliplr flipud roll rot90 tril triu sum nansum mean cumsum "
    "trace __getitem__ index_select gather take_along_dim real imag conj neg negative "
    "__neg__ __pos__ positive to float double half bfloat16 type_as cpu nll_loss "
    "_nll_loss_composite unfold view_as_real view_as_complex",
    linear_in_first,
)


def no_tangent(level, name, original, args, kwargs, pargs, pkwargs):
    return _out(level, name, original, pargs, pkwargs)


_register(
    "detach argmax argmin sign sgn floor ceil round trunc eq ne lt le gt ge isnan isinf "
    "isfinite zeros_like ones_like empty_like rand_like randn_like argsort __eq__ __ne__ "
    "__lt__ __le__ __gt__ __ge__ new_zeros new_ones new_empty new_full size",
    no_tangent,
)


def join(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    tensors = args[0] if args else kwargs["tensors"]
    primals = pargs[0] if pargs else pkwargs["tensors"]
    tangents = [_t(level, x, p) for x, p in zip(tensors, primals)]
    rest_args = pargs[1:] if pargs else ()
    rest = {k: v for k, v in pkwargs.items() if k != "tensors"}
    return level.wrap(out, call(name, original, (tangents, *rest_args), rest))


_register("cat concat concatenate stack hstack vstack", join)


def setitem(level, name, original, args, kwargs, pargs, pkwargs):
    self, index, value = args
    tangent = level.tangent(self)
    v_tangent = level.tangent(value) if isinstance(value, _Tensor) else None
    if tangent is None and v_tangent is not None:
        raise _unsupported("index_put_ into a tensor without a tangent")
    call(name, original, pargs, pkwargs)
    if tangent is not None:
        source = v_tangent if v_tangent is not None else 0.0
        tangent[index] = source
    return None


_register("__setitem__", setitem)


# -------------------------------------------------------------- element-wise unary


def _formula_rule(formula, saves_output: bool):
    def rule(level, name, original, args, kwargs, pargs, pkwargs):
        out = _out(level, name, original, pargs, pkwargs)
        tangent = level.tangent(args[0])
        if tangent is None:
            return out
        conj = tangent.is_complex()
        grad = tangent.conj() if conj else tangent
        extra = (out,) if saves_output else ()
        t_out = formula(grad, (pargs[0],), None, *extra)
        return level.wrap(out, t_out.conj() if conj else t_out)

    return rule


_FROM_FORMULAS = (
    "sqrt rsqrt expm1 log1p log2 log10 sin cos tan asin acos atan sinh cosh tanh asinh "
    "acosh atanh sigmoid erf erfc erfinv lgamma digamma reciprocal square frac exp log "
    "abs"
)
_ALIASES = {
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "arctanh": "atanh",
    "absolute": "abs",
    "__abs__": "abs",
    "expit": "sigmoid",
    "special_expit": "sigmoid",
}


def _install_formula_rules() -> None:
    for name in _FROM_FORMULAS.split():
        entry = DERIVATIVES[name]
        RULES[name] = _formula_rule(entry.formulas[0], entry.saves_output)
    for alias, name in _ALIASES.items():
        RULES[alias] = RULES[name]


_install_formula_rules()


def _elementwise(derivative):
    """A rule ``t * derivative(x, out)`` for an element-wise op of one tensor."""

    def rule(level, name, original, args, kwargs, pargs, pkwargs):
        out = _out(level, name, original, pargs, pkwargs)
        tangent = level.tangent(args[0])
        if tangent is None:
            return out
        return level.wrap(out, tangent * derivative(pargs[0], out, pargs, pkwargs))

    return rule


def _positive(x, out, pargs, pkwargs):
    return (x > 0).to(x.dtype)


def _between(x, out, pargs, pkwargs):
    low = pkwargs.get("min", pargs[1] if len(pargs) > 1 else None)
    high = pkwargs.get("max", pargs[2] if len(pargs) > 2 else None)
    keep = torch.ones_like(x, dtype=torch.bool)
    if low is not None:
        keep = keep & (x >= low)
    if high is not None:
        keep = keep & (x <= high)
    return keep.to(x.dtype)


_register("relu relu_", _elementwise(_positive))
_register("clamp clip", _elementwise(_between))
_register(
    "clamp_min",
    _elementwise(
        lambda x, out, a, k: (x >= k.get("min", a[1] if len(a) > 1 else None)).to(x.dtype)
    ),
)
_register(
    "clamp_max",
    _elementwise(
        lambda x, out, a, k: (x <= k.get("max", a[1] if len(a) > 1 else None)).to(x.dtype)
    ),
)
_register("relu6 hardtanh", _elementwise(lambda x, out, a, k: (out != x).logical_not().to(x.dtype)))
_register(
    "leaky_relu",
    _elementwise(
        lambda x, out, a, k: torch.where(
            x > 0, 1.0, k.get("negative_slope", a[1] if len(a) > 1 else 0.01)
        ).to(x.dtype)
    ),
)
_register("logit", _elementwise(lambda x, out, a, k: 1 / (x * (1 - x))))
_register("nan_to_num", _elementwise(lambda x, out, a, k: torch.isfinite(x).to(x.dtype)))
_register(
    "sinc",
    _elementwise(
        lambda x, out, a, k: torch.where(
            x == 0,
            0.0,
            (torch.cos(math.pi * x) * math.pi * x - torch.sin(math.pi * x)) / (math.pi * x * x),
        )
    ),
)


# ------------------------------------------------------------------- binary math


def _operands(name, args):
    """(a, b) as the op computes ``a op b`` (reflected operators swap them)."""
    if name.startswith("__r") and name not in ("__rshift__",):
        return args[1], args[0]
    return args[0], args[1]


def _primals_and_tangents(level, a, b):
    """The primal values of both operands, then their tangents (None where they have none)."""
    return level.primal(a), level.primal(b), _t(level, a), _t(level, b)


def _alpha(pargs, pkwargs):
    return pkwargs.get("alpha", pargs[2] if len(pargs) > 2 else 1)


def _fit(tangent, out):
    """A tangent term broadcast to the result's shape and dtype."""
    if tangent is None:
        return None
    if tuple(tangent.shape) != tuple(out.shape):
        tangent = tangent.expand(out.shape)
    if tangent.dtype != out.dtype:
        tangent = tangent.to(out.dtype)
    return tangent


def add_sub(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    a, b = _operands(name, args)
    alpha = _alpha(pargs, pkwargs) if not name.startswith("__") else 1
    sign = -1 if name in ("sub", "subtract", "__sub__", "__rsub__", "rsub") else 1
    ta, tb = _t(level, a), _t(level, b)
    if name == "rsub":
        ta, tb, sign = tb, ta, -1
    tb = None if tb is None else tb * (sign * alpha) if sign * alpha != 1 else tb
    return level.wrap(out, _fit(_add(ta, tb), out))


def mul(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    a, b = _operands(name, args)
    pa, pb, ta, tb = _primals_and_tangents(level, a, b)
    return level.wrap(
        out, _fit(_add(None if ta is None else ta * pb, None if tb is None else pa * tb), out)
    )


def div(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    if pkwargs.get("rounding_mode") is not None or name in ("floor_divide", "__floordiv__"):
        return out
    a, b = _operands(name, args)
    pb = level.primal(b)
    ta, tb = _t(level, a), _t(level, b)
    term_a = None if ta is None else ta / pb
    term_b = None if tb is None else -tb * out / pb
    return level.wrap(out, _fit(_add(term_a, term_b), out))


def power(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    a, b = _operands(name, args)
    pa, pb, ta, tb = _primals_and_tangents(level, a, b)
    term_a = None if ta is None else ta * pb * pa ** (pb - 1)
    term_b = None
    if tb is not None:
        log_a = torch.log(pa) if isinstance(pa, _Tensor) else math.log(pa)
        term_b = tb * out * log_a
    return level.wrap(out, _fit(_add(term_a, term_b), out))


def extremum(level, name, original, args, kwargs, pargs, pkwargs):
    """``maximum``/``minimum`` (and ``max(a, b)``): the tangent of the chosen operand,
    the mean of both where they tie (PyTorch's choice)."""
    out = _out(level, name, original, pargs, pkwargs)
    a, b = args[0], args[1]
    pa, pb = level.primal(a), level.primal(b)
    ta, tb = _t(level, a, pa), _t(level, b, pb)
    pick_a = (pa > pb) if name in ("maximum", "max", "fmax") else (pa < pb)
    tie = pa == pb
    t_out = torch.where(tie, (ta + tb) / 2, torch.where(pick_a, ta, tb))
    return level.wrap(out, _fit(t_out, out))


def where(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    cond, a, b = pargs[0], args[1], args[2]
    ta = _t(level, a, level.primal(a) if isinstance(a, _Tensor) else None)
    tb = _t(level, b, level.primal(b) if isinstance(b, _Tensor) else None)
    ta = ta if ta is not None else torch.zeros((), dtype=out.dtype)
    tb = tb if tb is not None else torch.zeros((), dtype=out.dtype)
    return level.wrap(out, _fit(torch.where(cond, ta, tb), out))


def masked_fill(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    tangent = _t(level, args[0], pargs[0])
    value = args[2] if len(args) > 2 else kwargs.get("value")
    t_value = _t(level, value) if isinstance(value, _Tensor) else None
    filled = tangent.masked_fill(pargs[1], 0.0)
    if t_value is not None:
        filled = filled + t_value * pargs[1].to(filled.dtype)
    return level.wrap(out, filled)


def lerp(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    start, end, weight = args[0], args[1], args[2]
    ps, pe, pw = (level.primal(x) if isinstance(x, _Tensor) else x for x in (start, end, weight))
    ts, te, tw = (_t(level, x) if isinstance(x, _Tensor) else None for x in (start, end, weight))
    terms = [None if ts is None else ts * (1 - pw), None if te is None else te * pw]
    terms.append(None if tw is None else tw * (pe - ps))
    return level.wrap(out, _fit(_add(*terms), out))


def addcmul(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    x, t1, t2 = args[:3]
    value = pkwargs.get("value", 1)
    p1, p2 = level.primal(t1), level.primal(t2)
    d1, d2 = _t(level, t1), _t(level, t2)
    terms = [_t(level, x)]
    if name == "addcmul":
        terms += [None if d1 is None else value * d1 * p2, None if d2 is None else value * p1 * d2]
    else:
        terms += [None if d1 is None else value * d1 / p2]
        terms += [None if d2 is None else -value * p1 * d2 / (p2 * p2)]
    return level.wrap(out, _fit(_add(*terms), out))


_register("add __add__ __radd__ sub subtract __sub__ __rsub__ rsub", add_sub)
_register("mul multiply __mul__ __rmul__", mul)
_register("div divide true_divide __truediv__ __rtruediv__ floor_divide __floordiv__", div)
_register("pow __pow__ __rpow__ float_power", power)
_register("maximum minimum fmax fmin", extremum)
_register("where", where)
_register("masked_fill", masked_fill)
_register("lerp", lerp)
_register("addcmul addcdiv", addcmul)


# -------------------------------------------------------------- matmul family


def bilinear(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    a, b = _operands(name, args) if name == "__rmatmul__" else (args[0], args[1])
    pa, pb, ta, tb = _primals_and_tangents(level, a, b)
    product = torch.matmul if name in ("__matmul__", "__rmatmul__") else getattr(torch, name)
    terms = [None if ta is None else product(ta, pb), None if tb is None else product(pa, tb)]
    return level.wrap(out, _add(*terms))


_register("matmul mm bmm mv dot inner outer ger vdot __matmul__ __rmatmul__", bilinear)


def addmm(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    bias, m1, m2 = args[:3]
    beta, alpha = pkwargs.get("beta", 1), pkwargs.get("alpha", 1)
    tb, t1, t2 = _t(level, bias), _t(level, m1), _t(level, m2)
    p1, p2 = level.primal(m1), level.primal(m2)
    product = _add(None if t1 is None else t1 @ p2, None if t2 is None else p1 @ t2)
    terms = [None if tb is None else beta * tb, None if product is None else alpha * product]
    return level.wrap(out, _fit(_add(*terms), out))


_register("addmm", addmm)


def convolution(level, name, original, args, kwargs, pargs, pkwargs):
    """Bilinear in input and weight, linear in bias: ``conv(tx, w) + conv(x, tw) + tb``."""
    out = _out(level, name, original, pargs, pkwargs)
    x, w = args[0], args[1]
    bias = args[2] if len(args) > 2 else kwargs.get("bias")
    rest, rest_kwargs = pargs[3:], {k: v for k, v in pkwargs.items() if k != "bias"}
    tx, tw = _t(level, x), _t(level, w)
    tb = _t(level, bias) if isinstance(bias, _Tensor) else None
    px, pw = pargs[0], pargs[1]
    terms = [
        None if tx is None else call(name, original, (tx, pw, None, *rest), rest_kwargs),
        None if tw is None else call(name, original, (px, tw, None, *rest), rest_kwargs),
    ]
    t_out = _add(*terms)
    if tb is not None:
        shape = (-1,) + (1,) * (out.dim() - 2 if px.dim() == pw.dim() else out.dim() - 1)
        t_out = _add(t_out, tb.reshape(shape))
    return level.wrap(out, _fit(t_out, out))


_register("convolution", convolution)


# ---------------------------------------------------------- reductions and softmax


def _dim_of(pargs, pkwargs, position=1):
    return pkwargs.get("dim", pargs[position] if len(pargs) > position else None)


def _keepdim_of(pargs, pkwargs, position=2):
    return pkwargs.get("keepdim", pargs[position] if len(pargs) > position else False)


def _all_dims(x, dim):
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(x.dim()))
    return tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)


def softmax(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    tangent = level.tangent(args[0])
    dim = _dim_of(pargs, pkwargs)
    tangent = tangent.to(out.dtype)
    if name == "softmax":
        t_out = out * (tangent - (out * tangent).sum(dim, keepdim=True))
    else:
        t_out = tangent - (torch.exp(out) * tangent).sum(dim, keepdim=True)
    return level.wrap(out, t_out)


def logsumexp(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    x, tangent = pargs[0], level.tangent(args[0])
    dim, keepdim = _dim_of(pargs, pkwargs), _keepdim_of(pargs, pkwargs)
    kept = out if keepdim else out.reshape(_kept_shape(x, _all_dims(x, dim)))
    weights = torch.exp(x - kept)
    return level.wrap(out, (weights * tangent).sum(dim, keepdim=keepdim))


def _kept_shape(x, dims):
    dims = {d % max(x.dim(), 1) for d in dims}
    return tuple(1 if i in dims else n for i, n in enumerate(x.shape))


def extreme_reduction(level, name, original, args, kwargs, pargs, pkwargs):
    """``amax``/``amin`` and ``max``/``min`` without a second tensor: the tangent where
    the extreme is reached, averaged over ties (as PyTorch's amax)."""
    if len(pargs) > 1 and isinstance(pargs[1], _Tensor):
        return extremum(level, name, original, args, kwargs, pargs, pkwargs)
    out = _out(level, name, original, pargs, pkwargs)
    x, tangent = pargs[0], level.tangent(args[0])
    dim = _dim_of(pargs, pkwargs)
    keepdim = _keepdim_of(pargs, pkwargs)
    values = out[0] if isinstance(out, tuple) else out
    dims = _all_dims(x, dim)
    kept = values if keepdim else values.reshape(_kept_shape(x, dims))
    hit = (x == kept).to(tangent.dtype)
    reduce_dims = tuple(d % max(x.dim(), 1) for d in dims) if x.dim() else ()
    share = (
        (hit * tangent).sum(reduce_dims, keepdim=keepdim) / hit.sum(reduce_dims, keepdim=keepdim)
        if reduce_dims
        else tangent
    )
    if isinstance(out, tuple):  # (values, indices)
        return type(out)(level.wrap(out[0], share), out[1])
    return level.wrap(out, share)


def variance(level, name, original, args, kwargs, pargs, pkwargs):
    out = _out(level, name, original, pargs, pkwargs)
    x, tangent = pargs[0], level.tangent(args[0])
    dim = _dim_of(pargs, pkwargs)
    if isinstance(dim, bool):
        return generic(level, name, original, args, kwargs, pargs, pkwargs)
    keepdim = pkwargs.get("keepdim", False)
    correction = pkwargs.get("correction", 0 if pkwargs.get("unbiased") is False else 1)
    dims = _all_dims(x, dim)
    count = math.prod(x.shape[d] for d in dims) if x.dim() else 1
    centred = x - x.mean(dims, keepdim=True)
    t_var = 2 * (centred * tangent).sum(dims, keepdim=keepdim) / max(count - correction, 0)
    if name == "var":
        return level.wrap(out, t_var)
    return level.wrap(out, t_var / (2 * out))


def vector_norm(level, name, original, args, kwargs, pargs, pkwargs):
    """2-norms (the default of ``norm``): ``sum(x * t) / norm``."""
    p = pkwargs.get("p", pkwargs.get("ord", pargs[1] if len(pargs) > 1 else 2))
    if p not in (2, 2.0, "fro", None):
        return generic(level, name, original, args, kwargs, pargs, pkwargs)
    out = _out(level, name, original, pargs, pkwargs)
    x, tangent = pargs[0], level.tangent(args[0])
    dim = _dim_of(pargs, pkwargs, 2)
    keepdim = _keepdim_of(pargs, pkwargs, 3)
    dims = _all_dims(x, dim)
    return level.wrap(out, (x * tangent).sum(dims, keepdim=keepdim) / out)


def _exclusive_products(x, dim: int):
    """At each position, the product along ``dim`` of every other element: products of
    the elements before times those after. No division, so it is exact at zeros to every
    order (the reverse formula ``_prod`` divides, and holds a constant 0 where two
    elements are 0, which a second derivative such as ``hessian`` would differentiate)."""
    n = x.shape[dim]
    ones = torch.ones_like(x.narrow(dim, 0, 1))
    before = torch.cat([ones, x.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    after = torch.cat([x.narrow(dim, 1, n - 1), ones], dim).flip(dim).cumprod(dim).flip(dim)
    return before * after


def product(level, name, original, args, kwargs, pargs, pkwargs):
    """``prod``: the tangent of each element times the product of the others, summed."""
    out = _out(level, name, original, pargs, pkwargs)
    x, tangent = pargs[0], level.tangent(args[0])
    dim = _dim_of(pargs, pkwargs)
    if dim is None:  # the whole tensor
        x, tangent, dim, keepdim = x.reshape(-1), tangent.reshape(-1), 0, False
    else:
        keepdim = _keepdim_of(pargs, pkwargs)
    if x.shape[dim] == 0:  # an empty product is 1: its tangent is 0
        return level.wrap(out, torch.zeros_like(out))
    t_out = (tangent * _exclusive_products(x, dim)).sum(dim, keepdim=keepdim)
    return level.wrap(out, t_out.to(out.dtype))


_register("softmax log_softmax", softmax)
_register("prod", product)
_register("logsumexp", logsumexp)
_register("amax amin max min", extreme_reduction)
_register("var std", variance)
_register("norm", vector_norm)


# -------------------------------------------------------------- nn.functional


def decline(level, name, original, args, kwargs, pargs, pkwargs):
    """Core's fused ops: None makes the caller run the composite, whose parts have JVP
    rules."""
    return None


_register("_linear _mse_loss _cross_entropy _nll_loss _relu _lstm_layer _gru_layer", decline)
_register("_rnn_layer _layer_norm _batch_norm _lstm_sequence", decline)


def dropout(level, name, original, args, kwargs, pargs, pkwargs):
    """The same mask for the primal and the tangent: dropout of ones draws it."""
    x, tangent = pargs[0], level.tangent(args[0])
    mask = call(name, original, (torch.ones_like(x), *pargs[1:]), pkwargs)
    return level.wrap(x * mask, tangent * mask)


_register("dropout alpha_dropout feature_dropout", dropout)


def _layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    dims = tuple(range(-len(normalized_shape), 0))
    centred = input - input.mean(dims, keepdim=True)
    out = centred / torch.sqrt((centred * centred).mean(dims, keepdim=True) + eps)
    if weight is not None:
        out = out * weight
    return out if bias is None else out + bias


def decomposed(composite):
    """A rule running ``composite`` (the op written with ops that have rules) on the
    dual tensors themselves."""

    def rule(level, name, original, args, kwargs, pargs, pkwargs):
        return composite(*args, **kwargs)

    return rule


_register("layer_norm", decomposed(_layer_norm))


# ------------------------------------------------------------------ in place


_INPLACE_DUNDERS = {
    "__iadd__": "add",
    "__isub__": "sub",
    "__imul__": "mul",
    "__itruediv__": "div",
    "__ipow__": "pow",
}


def inplace(level, name, original, args, kwargs, pargs, pkwargs):
    """An in-place op: the tangent of its out-of-place form replaces self's."""
    self = args[0]
    if level.tangent(self) is None:
        raise _unsupported(f"{name} (writing a tangent into a tensor that has none)")
    plain = _INPLACE_DUNDERS.get(name, name[:-1])
    function = getattr(torch, plain, None) or getattr(_Tensor, plain)
    result = jvp_rule(plain)(level, plain, function, args, kwargs, pargs, pkwargs)
    call(name, original, pargs, pkwargs)
    self._tangent = level.tangent(result) if isinstance(result, TransformTensor) else None
    return self


def copy_(level, name, original, args, kwargs, pargs, pkwargs):
    self, source = args[0], args[1]
    call(name, original, pargs, pkwargs)
    if isinstance(self, TransformTensor) and self._level == level.number:
        t = _t(level, source, level.primal(source))
        self._tangent = t.expand(self.shape).to(self.dtype).clone()
        return self
    raise _unsupported("copy_ (writing a tangent into a tensor that has none)")


_register("copy_", copy_)


# -------------------------------------------------------------- the generic rule


def generic(level, name, original, args, kwargs, pargs, pkwargs):
    """Any other differentiable op on plain tensors: the JVP as the VJP of its VJP."""
    out = _out(level, name, original, pargs, pkwargs)
    positions, primals, tangents = _tangent_positions(level, args, kwargs, pargs, pkwargs)
    wrapped = any(isinstance(v, TransformTensor) for v in (*primals, *tangents))
    if wrapped or not positions:
        raise _unsupported(name)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    floats = [
        o for o in outs if isinstance(o, _Tensor) and (o.is_floating_point() or o.is_complex())
    ]
    if not floats:
        return out
    with torch.enable_grad():
        leaves = [p.detach().requires_grad_() for p in primals]
        new_args, new_kwargs = _substitute(pargs, pkwargs, positions, leaves)
        again = original(*new_args, **new_kwargs)
        again = again if isinstance(again, (tuple, list)) else (again,)
        pairs = [(o, a) for o, a in zip(outs, again) if isinstance(a, _Tensor) and a.requires_grad]
        if not pairs:
            return out
        probes = [torch.zeros_like(a, requires_grad=True) for _, a in pairs]
        grads = torch.autograd.grad(
            [a for _, a in pairs], leaves, probes, create_graph=True, allow_unused=True
        )
        used = [(g, t) for g, t in zip(grads, tangents) if g is not None]
        if not used:
            return out
        t_outs = torch.autograd.grad(
            [g for g, _ in used], probes, [t for _, t in used], allow_unused=True
        )
    by_output = {id(a): t for (_, a), t in zip(pairs, t_outs)}
    results = []
    for o, a in zip(outs, again):
        t = by_output.get(id(a))
        results.append(level.wrap(o, None if t is None else t.detach()))
    if isinstance(out, (tuple, list)):
        return type(out)(*results) if type(out) not in (tuple, list) else type(out)(results)
    return results[0]


def _tangent_positions(level, args, kwargs, pargs, pkwargs):
    positions, primals, tangents = [], [], []
    for key, value in [*enumerate(args), *kwargs.items()]:
        tangent = level.tangent(value) if isinstance(value, TransformTensor) else None
        if tangent is not None:
            positions.append(key)
            primals.append(pargs[key] if isinstance(key, int) else pkwargs[key])
            tangents.append(tangent)
    return positions, primals, tangents


def _substitute(pargs, pkwargs, positions, values):
    pargs, pkwargs = list(pargs), dict(pkwargs)
    for key, value in zip(positions, values):
        if isinstance(key, int):
            pargs[key] = value
        else:
            pkwargs[key] = value
    return tuple(pargs), pkwargs
