"""``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian`` and
``linearize``: derivatives as functions, composable with each other and with ``vmap``.

Reverse mode runs torch-autograd's engine on the lowered inputs (``_reverse``); forward
mode opens a dual level (``torch.autograd._transforms.dual``); the Jacobians vmap one of
them over the rows (``jacrev``) or columns (``jacfwd``) of an identity matrix.
"""

from __future__ import annotations

import functools
import math

import torch
from torch.autograd._transforms import _interpose
from torch.autograd._transforms.dual import DualLevel, make_dual_tensor, unwrap_dual
from torch.autograd._transforms.levels import active_levels

from . import _reverse
from ._reverse import Lowering, gradients, make_leaf
from ._vmap import _flatten, vmap

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "linearize"]

_Tensor = torch.Tensor


def _check_tensors(leaves, api: str = "transform") -> None:
    for leaf in leaves:
        if not isinstance(leaf, _Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(leaf)}")


def _split_aux(result, has_aux: bool, api: str):
    """``(output, aux)`` of a transformed function's ``result``: with ``has_aux`` it must be
    that pair, without it ``aux`` is None."""
    if not has_aux:
        return result, None
    if not (isinstance(result, tuple) and len(result) == 2):
        raise RuntimeError(
            f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True"
        )
    return result


#: the errors of _leaves_like: cotangents against vjp's outputs, tangents against jvp's primals
_COTANGENTS_STRUCTURE = (
    "Expected pytree structure of cotangents to be the same as pytree structure of outputs "
    "to the function. cotangents: {got} tensors, primal output: {expected} tensors"
)
_TANGENTS_STRUCTURE = (
    "jvp(f, primals, tangents): Expected primals and tangents to have the same python "
    "structure. For example, if primals is a tuple of 3 tensors, tangents also must be. Got "
    "primals with structure of {expected} tensors and tangents with structure of {got} tensors"
)


def _leaves_like(tree, reference: list, structure_error: str) -> list:
    """The leaves of ``tree`` (cotangents, tangents), which must be as many as the leaves
    ``reference`` (outputs, primals) they pair with; else ``structure_error`` with both
    counts."""
    leaves, _ = _flatten(tree)
    if len(leaves) != len(reference):
        raise RuntimeError(structure_error.format(got=len(leaves), expected=len(reference)))
    return leaves


def _size_text(shape) -> str:
    return f"torch.Size({list(shape)})"


# ---------------------------------------------------------------------------- vjp


def vjp(func, *primals, has_aux: bool = False):
    """``func(*primals)`` and a function mapping cotangents of its output to the
    cotangents of ``primals`` (the vector-Jacobian product).

    Args:
        func: a function of tensors returning a tensor or a structure of tensors
            (``(output, aux)`` with ``has_aux=True``).
        *primals: the point, tensors or structures of tensors.
        has_aux (bool): ``func`` returns ``(output, aux)``; aux is returned as it is.
            Default: False.

    Returns:
        ``(output, vjp_fn)`` or ``(output, vjp_fn, aux)``; ``vjp_fn(cotangents)``
        returns a tuple with one entry per primal.

    Examples::

        >>> from torch.func import vjp
        >>> out, vjp_fn = vjp(torch.sin, torch.tensor([0.0, 1.0]))
        >>> vjp_fn(torch.ones(2))
        (tensor([1.0000, 0.5403]),)
    """
    lowering = Lowering()
    leaves, rebuild = _flatten(primals)
    _check_tensors(leaves)
    lowered = [lowering.lower(leaf) for leaf in leaves]
    keep_graph = _reverse._depth[0] > 0 or any(p.requires_grad for p, _ in lowered)
    diff_leaves = [make_leaf(p) for p, _ in lowered]
    inputs = [lowering.raise_(leaf, t) for leaf, (_, t) in zip(diff_leaves, lowered)]
    _reverse._depth[0] += 1
    try:
        with torch.enable_grad():
            result = _interpose.interposed(func)(*rebuild(inputs))
    finally:
        _reverse._depth[0] -= 1
    result, aux = _split_aux(result, has_aux, "vjp(f, *primals)")
    out_leaves, out_rebuild = _flatten(result)
    for leaf in out_leaves:
        if not isinstance(leaf, _Tensor):
            raise RuntimeError(
                "vjp(f, *primals): Expected f to be a function that has non-empty output "
                f"(got {type(leaf)})"
            )
    lowered_out = [lowering.lower(o) for o in out_leaves]
    shapes = [tuple(o.shape) for o in out_leaves]

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        ct_leaves = _leaves_like(cotangents, out_leaves, _COTANGENTS_STRUCTURE)
        for i, (ct, shape) in enumerate(zip(ct_leaves, shapes)):
            if tuple(ct.shape) != shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of "
                    f"{_size_text(ct.shape)} and output[{i}] has a shape of "
                    f"{_size_text(shape)}."
                )
        create = keep_graph or _reverse._depth[0] > 0 if create_graph is None else create_graph
        return _pull_back(lowering, lowered_out, diff_leaves, ct_leaves, rebuild, create)

    primal_out = out_rebuild([_finish(lowering, p, t, keep_graph) for p, t in lowered_out])
    if has_aux:
        return primal_out, vjp_fn, aux
    return primal_out, vjp_fn


def _finish(lowering, p, t, keep_graph):
    if not keep_graph:
        p = p.detach()
        t = None if t is None else t.detach()
    return lowering.raise_(p, t)


def _pull_back(lowering, lowered_out, diff_leaves, ct_leaves, rebuild, create):
    """The cotangents of the inputs: one engine call, or one per example of the vmap
    levels entered since ``vjp`` (``jacrev`` vmaps ``vjp_fn`` over basis vectors)."""
    extras = [lv for lv in active_levels() if lv not in lowering.levels]
    if any(lv.kind == "dual" for lv in extras):
        raise NotImplementedError(
            "torch.func: calling a vjp function inside a jvp entered after the vjp is not supported"
        )
    full = Lowering(sorted(lowering.levels + extras, key=lambda lv: lv.number))
    ct_lowered = [full.lower(ct) for ct in ct_leaves]
    ys = [p for p, _ in lowered_out]
    tangents = [t for _, t in lowered_out]
    if not extras:
        grads = _grads(ys, tangents, diff_leaves, ct_lowered, create)
        return _rebuild_tuple(rebuild, [lowering.raise_(g, t) for g, t in grads])
    # the extra levels' dims come after the vjp's own ones: loop over them
    k0 = len(lowering.vmaps)
    sizes = [lv.batch_size for lv in extras]
    count = math.prod(sizes)
    per_example = []
    for index in range(count):
        picked = [
            (_pick(up, k0, sizes, index), None if ut is None else _pick(ut, k0, sizes, index))
            for up, ut in ct_lowered
        ]
        per_example.append(_grads(ys, tangents, diff_leaves, picked, create))
    results = []
    for position in range(len(diff_leaves)):
        g = _unpick(torch.stack([ex[position][0] for ex in per_example]), k0, sizes)
        ts = [ex[position][1] for ex in per_example]
        t = None if ts[0] is None else _unpick(torch.stack(ts), k0, sizes)
        results.append(full.raise_(g, t))
    return _rebuild_tuple(rebuild, results)


def _rebuild_tuple(rebuild, values) -> tuple:
    """The cotangents in the structure of the primals (a tuple: one per primal)."""
    return tuple(rebuild(values))


def _pick(x, k0: int, sizes, index: int):
    """Example ``index`` of the extra batch dims (at ``k0``...) of ``x``."""
    x = x.reshape(*x.shape[:k0], math.prod(sizes), *x.shape[k0 + len(sizes) :])
    return x.select(k0, index)


def _unpick(stacked, k0: int, sizes):
    """Per-example results stacked in front, back as the extra batch dims at ``k0``."""
    stacked = stacked.reshape(*sizes, *stacked.shape[1:])
    return stacked.movedim(tuple(range(len(sizes))), tuple(range(k0, k0 + len(sizes))))


def _grads(ys, tangents, leaves, cts, create):
    """(gradient, its tangent or None) per leaf."""

    def along(pairs):
        """The gradients of the pairs' outputs along their vectors."""
        outputs, vectors = [o for o, _ in pairs], [v for _, v in pairs]
        return gradients(outputs, leaves, vectors, create_graph=create, retain_graph=True)

    primal = along([(y, up) for y, (up, _) in zip(ys, cts)])
    dual = any(t is not None for t in tangents) or any(ut is not None for _, ut in cts)
    if not dual:
        return [(g, None) for g in primal]
    tangent = along([(t, up) for t, (up, _) in zip(tangents, cts) if t is not None])
    extra = [(y, ut) for y, (_, ut) in zip(ys, cts) if ut is not None]
    if extra:
        tangent = [a + b for a, b in zip(tangent, along(extra))]
    return list(zip(primal, tangent))


# --------------------------------------------------------------------------- grad


def _check_argnums(argnums, count: int):
    numbers = argnums if isinstance(argnums, tuple) else (argnums,)
    if isinstance(argnums, tuple) and len(argnums) == 0:
        raise RuntimeError("argnums must be non-empty")
    for n in numbers:
        if not isinstance(n, int):
            raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(n)}")
        if not -count <= n < count:
            raise RuntimeError(f"Got argnum={n}, but only {count} positional inputs")
    normalized = tuple(n % count for n in numbers)
    if len(set(normalized)) != len(normalized):
        raise RuntimeError(f"argnums must be unique, got {argnums}")
    return normalized


def _split_args(args, argnums):
    numbers = _check_argnums(argnums, len(args))
    chosen = tuple(args[n] for n in numbers)

    def call_with(func, kwargs):
        def with_diff(*diff):
            full = list(args)
            for n, value in zip(numbers, diff):
                full[n] = value
            # vmap(torch.sin): a function captured before a level was active
            return _interpose.interposed(func)(*full, **kwargs)

        return with_diff

    return chosen, call_with


def grad_and_value(func, argnums=0, has_aux: bool = False):
    """Like :func:`grad`, but the returned function gives ``(gradient, value)`` (with
    ``has_aux``: ``(gradient, (value, aux))``).

    Examples::

        >>> from torch.func import grad_and_value
        >>> grad_and_value(lambda x: (x ** 2).sum())(torch.tensor([1.0, 2.0]))
        (tensor([2., 4.]), tensor(5.))
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        chosen, call_with = _split_args(args, argnums)
        target = call_with(func, kwargs)
        checked = _checked_scalar(target, has_aux)
        output, vjp_fn, aux = vjp(checked, *chosen, has_aux=True)
        grads = vjp_fn(torch.ones_like(output))
        grads = grads[0] if isinstance(argnums, int) else grads
        if has_aux:
            return grads, (output, aux)
        return grads, output

    return wrapper


def _checked_scalar(target, has_aux: bool):
    def checked(*diff):
        result = target(*diff)
        result, aux = _split_aux(result, has_aux, "grad_and_value(f)(*args)")
        if not isinstance(result, _Tensor):
            raise RuntimeError(
                "grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                f"{type(result)}"
            )
        if result.dim() != 0:
            raise RuntimeError(
                "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                f"tensor with {result.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                "APIs instead?"
            )
        return result, aux

    return checked


def grad(func, argnums=0, has_aux: bool = False):
    """The gradient of ``func`` (which returns a scalar tensor) as a function of the same
    arguments.

    Args:
        func: a function returning a 0-dim tensor (or ``(tensor, aux)`` with
            ``has_aux=True``).
        argnums (int or tuple of ints): which positional arguments to differentiate;
            each may be a tensor or a structure (tuple, list, dict) of tensors. Default: 0.
        has_aux (bool): ``func`` returns ``(output, aux)``; the gradient function then
            returns ``(gradient, aux)``. Default: False.

    Examples::

        >>> from torch.func import grad
        >>> grad(torch.sin)(torch.tensor(0.0))
        tensor(1.)
        >>> grad(grad(torch.sin))(torch.tensor(0.0))
        tensor(-0.)
    """
    inner = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        grads, value = inner(*args, **kwargs)
        if has_aux:
            return grads, value[1]
        return grads

    return wrapper


# ---------------------------------------------------------------------------- jvp


def jvp(func, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """``func(*primals)`` and its Jacobian-vector product with ``tangents``, by
    forward-mode AD.

    Args:
        func: a function of tensors.
        primals (tuple): the point; ``func(*primals)`` must be valid.
        tangents (tuple): one tangent per primal, of the same structure and shapes.
        has_aux (bool): ``func`` returns ``(output, aux)``. Default: False.

    Examples::

        >>> from torch.func import jvp
        >>> jvp(torch.sin, (torch.tensor(0.0),), (torch.tensor(2.0),))
        (tensor(0.), tensor(2.))
    """
    for name, value in (("primals", primals), ("tangents", tangents)):
        if not isinstance(value, tuple):
            raise RuntimeError(
                f"jvp(f, primals, tangents): Expected {name} to be a tuple. E.g. it should be "
                "valid to call f(*primals)."
            )
    p_leaves, rebuild = _flatten(primals)
    t_leaves = _leaves_like(tangents, p_leaves, _TANGENTS_STRUCTURE)
    _check_tensors(p_leaves)
    _check_tensors(t_leaves)
    for p, t in zip(p_leaves, t_leaves):
        if tuple(p.shape) != tuple(t.shape):
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the "
                "original Tensor, this is not supported. Tensor is of size "
                f"{list(p.shape)} while the given forward gradient is of size "
                f"{list(t.shape)}.".replace(", ", ", ")
            )
    level = DualLevel().enter()
    try:
        duals = [make_dual_tensor(level, p, t) for p, t in zip(p_leaves, t_leaves)]
        result = _interpose.interposed(func)(*rebuild(duals))
        result, aux = _split_aux(result, has_aux, "jvp(f, primals, tangents)")
        out_leaves, out_rebuild = _flatten(result)
        primal_out, tangent_out = [], []
        for o in out_leaves:
            if not isinstance(o, _Tensor):
                raise RuntimeError(
                    "jvp(f, primals, tangents): Expected f(*primals) to return only tensors, "
                    f"got unsupported type {type(o)}"
                )
            p, t = unwrap_dual(level, o)
            primal_out.append(p)
            tangent_out.append(torch.zeros_like(p) if t is None else t)
        aux = None if aux is None else _strip_level(level, aux)
    finally:
        level.exit()
    if has_aux:
        return out_rebuild(primal_out), out_rebuild(tangent_out), aux
    return out_rebuild(primal_out), out_rebuild(tangent_out)


def _strip_level(level, tree):
    leaves, rebuild = _flatten(tree)
    return rebuild([unwrap_dual(level, x)[0] if isinstance(x, _Tensor) else x for x in leaves])


def linearize(func, *primals):
    """``func(*primals)`` and a function computing its Jacobian-vector product at
    ``primals`` for given tangents (each call runs forward-mode AD through ``func``
    again; PyTorch traces ``func`` once instead, with the same values).

    Examples::

        >>> from torch.func import linearize
        >>> out, jvp_fn = linearize(torch.sin, torch.tensor(0.0))
        >>> jvp_fn(torch.tensor(3.0))
        tensor(3.)
    """
    output = func(*primals)

    def jvp_fn(*tangents):
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn


# ----------------------------------------------------------------------- jacobians


def _basis(leaves, dtype=None):
    """Rows of the identity over all ``leaves`` together: one tensor per leaf, of shape
    (total, *leaf.shape)."""
    sizes = [leaf.numel() for leaf in leaves]
    total = sum(sizes)
    like = leaves[0]
    eye = torch.eye(total, dtype=dtype or like.dtype, device=like.device)
    pieces = torch.split(eye, sizes, dim=1) if len(leaves) > 1 else (eye,)
    return [piece.reshape(total, *leaf.shape) for piece, leaf in zip(pieces, leaves)], sizes


def jacrev(func, argnums=0, *, has_aux: bool = False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian of ``func`` with respect to the arguments ``argnums``, by reverse
    mode (a vmap of ``vjp`` over the rows of the identity).

    The result has, for each output, the output's shape followed by the input's shape
    (a tuple over inputs when ``argnums`` is a tuple, over outputs when ``func``
    returns a tuple).

    Examples::

        >>> from torch.func import jacrev
        >>> jacrev(torch.sin)(torch.tensor([0.0, 0.0]))
        tensor([[1., 0.],
                [0., 1.]])
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        chosen, call_with = _split_args(args, argnums)
        result = vjp(call_with(func, kwargs), *chosen, has_aux=has_aux)
        output, vjp_fn = result[0], result[1]
        out_leaves, out_rebuild = _flatten(output)
        basis, sizes = _basis(out_leaves)
        cotangents = out_rebuild(basis)
        if chunk_size is None:
            rows = vmap(vjp_fn)(cotangents)
        else:
            rows = vmap(vjp_fn, chunk_size=chunk_size)(cotangents)
        # rows: per input (a tuple over chosen args), leading dim = all output elements
        in_leaves_rows, in_rebuild = _flatten(rows)
        per_output = []
        for index, (out, size) in enumerate(zip(out_leaves, sizes)):
            start = sum(sizes[:index])
            jac = [
                r.narrow(0, start, size).reshape(*out.shape, *r.shape[1:]) for r in in_leaves_rows
            ]
            jac = in_rebuild(jac)
            per_output.append(jac[0] if isinstance(argnums, int) else jac)
        jacobian = out_rebuild(per_output)
        if has_aux:
            return jacobian, result[2]
        return jacobian

    return wrapper


def jacfwd(func, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """The Jacobian of ``func`` with respect to the arguments ``argnums``, by forward
    mode (a vmap of ``jvp`` over the columns of the identity). Same layout as
    :func:`jacrev`.

    Examples::

        >>> from torch.func import jacfwd
        >>> jacfwd(lambda x: x ** 2)(torch.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        chosen, call_with = _split_args(args, argnums)
        target = call_with(func, kwargs)
        in_leaves, in_rebuild = _flatten(chosen)
        _check_tensors(in_leaves)
        basis, sizes = _basis(in_leaves)

        def push(*tangents):
            result = jvp(target, chosen, in_rebuild(list(tangents)), has_aux=has_aux)
            return (result[1], result[2]) if has_aux else result[1]

        pushed = vmap(push, randomness=randomness)(*basis)
        columns, aux = pushed if has_aux else (pushed, None)
        out_leaves, out_rebuild = _flatten(columns)
        per_output = []
        for col in out_leaves:
            moved = col.movedim(0, -1)  # (*out, total)
            jac = [
                moved.narrow(-1, sum(sizes[:i]), size).reshape(*moved.shape[:-1], *leaf.shape)
                for i, (leaf, size) in enumerate(zip(in_leaves, sizes))
            ]
            jac = in_rebuild(jac)
            per_output.append(jac[0] if isinstance(argnums, int) else jac)
        jacobian = out_rebuild(per_output)
        if has_aux:
            return jacobian, _first_example(aux)
        return jacobian

    return wrapper


def _first_example(aux):
    leaves, rebuild = _flatten(aux)
    return rebuild([x[0] if isinstance(x, _Tensor) else x for x in leaves])


def hessian(func, argnums=0):
    """The Hessian of ``func`` (returning a scalar) with respect to ``argnums``:
    ``jacfwd(jacrev(func))``, forward mode over reverse mode.

    Examples::

        >>> from torch.func import hessian
        >>> hessian(lambda x: (x ** 3).sum())(torch.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)
