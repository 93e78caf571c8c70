"""Higher-level differentiation of whole functions: Jacobians, Hessians and their
products with vectors, built on :func:`torch.autograd.grad`."""

from __future__ import annotations

import torch

from ._api import grad as _grad

__all__ = ["jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"]


def _as_tuple(x, what: str, fn_name: str) -> tuple[bool, tuple]:
    is_tuple = isinstance(x, (tuple, list))
    items = tuple(x) if is_tuple else (x,)
    for index, item in enumerate(items):
        if isinstance(item, torch.Tensor):
            continue
        if is_tuple:
            raise TypeError(
                f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                f"but the value at index {index} has type {type(item)}."
            )
        raise TypeError(
            f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
            f"the given {what} has type {type(item)}."
        )
    return is_tuple, items


def _prepare(inputs: tuple, create_graph: bool) -> tuple:
    """Fresh leaves that require grad (kept connected to the caller's graph under
    ``create_graph``)."""
    if create_graph:
        return tuple(x if x.requires_grad else x.detach().requires_grad_() for x in inputs)
    return tuple(x.detach().requires_grad_() for x in inputs)


def _finish(values: tuple, create_graph: bool) -> tuple:
    return values if create_graph else tuple(v.detach() for v in values)


def _grad_along(pairs, inputs, create_graph, retain_graph=None) -> tuple:
    """The gradients w.r.t. ``inputs`` of the outputs of ``(output, vector)`` pairs along
    their vectors (None for an input they do not use, and for all without pairs)."""
    if not pairs:
        return (None,) * len(inputs)
    return _grad(
        [o for o, _ in pairs],
        inputs,
        [v for _, v in pairs],
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=True,
    )


def _grads(outputs, inputs, grad_outputs, create_graph, strict, fn_name, output_index=0):
    """Gradients of ``outputs`` w.r.t. ``inputs``, zeros for inputs they do not use
    (``output_index`` names the output in strict mode's error)."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    grads = _grad_along(pairs, inputs, create_graph, retain_graph=True)
    result = []
    for i, (g, x) in enumerate(zip(grads, inputs)):
        if g is None:
            if strict:
                raise RuntimeError(
                    f"Output {output_index} of the user-provided function is independent of "
                    f"input {i}. This is not allowed in strict mode."
                )
            g = torch.zeros_like(x)
        result.append(g)
    return tuple(result)


def _call(func, inputs, fn_name) -> tuple[bool, tuple]:
    with torch.enable_grad():
        outputs = func(*inputs)
    return _as_tuple(outputs, "outputs of the user-provided function", fn_name)


def _vectors(v, like: tuple, what: str, fn_name: str) -> tuple:
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(
                f"The vector v can only be None if the {what} a single Tensor with a "
                "single element."
            )
        return (torch.ones_like(like[0]),)
    _, vs = _as_tuple(v, "v", fn_name)
    if len(vs) != len(like):
        raise RuntimeError(
            f"v is a tuple of invalid length: should be {len(like)} but got {len(vs)}."
        )
    for i, (a, b) in enumerate(zip(vs, like)):
        if tuple(a.shape) != tuple(b.shape):
            raise RuntimeError(
                f"Entry {i} in v has invalid size: should be {b.shape} but got {a.shape}."
            )
    return vs


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """The vector-Jacobian product ``v^T J`` of ``func`` at ``inputs``.

    Args:
        func (callable): takes the tensors of ``inputs``, returns a tensor or a tuple.
        inputs (Tensor or tuple of Tensor): the point.
        v (Tensor or tuple, optional): shaped like the outputs; may be omitted for a
            single-element output. Default: ``None``.
        create_graph (bool): make the results differentiable. Default: ``False``.
        strict (bool): raise when an input does not influence the outputs. Default:
            ``False``.

    Returns:
        (outputs, vjp), each shaped like ``func``'s outputs and ``inputs``.

    Examples::

        >>> from torch.autograd.functional import vjp
        >>> vjp(lambda x: (x ** 2).sum(), torch.tensor([1.0, 2.0]))
        (tensor(5.), tensor([2., 4.]))
    """
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
    inputs = _prepare(inputs, create_graph)
    outputs_tuple, outputs = _call(func, inputs, "vjp")
    vs = _vectors(v, outputs, "user-provided function returns", "vjp")
    grads = _finish(_grads(outputs, inputs, vs, create_graph, strict, "vjp"), create_graph)
    outputs = _finish(outputs, create_graph)
    return (
        outputs if outputs_tuple else outputs[0],
        grads if inputs_tuple else grads[0],
    )


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """The Jacobian-vector product ``J v`` of ``func`` at ``inputs`` (by differentiating a
    vector-Jacobian product once more with respect to its vector).

    Args:
        func (callable): takes the tensors of ``inputs``, returns a tensor or a tuple.
        inputs (Tensor or tuple of Tensor): the point.
        v (Tensor or tuple, optional): shaped like ``inputs``; may be omitted for a
            single-element input. Default: ``None``.
        create_graph (bool): make the results differentiable. Default: ``False``.
        strict (bool): raise when an input does not influence the outputs. Default:
            ``False``.

    Returns:
        (outputs, jvp), each shaped like ``func``'s outputs.

    Examples::

        >>> from torch.autograd.functional import jvp
        >>> jvp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
    inputs = _prepare(inputs, create_graph)
    vs = _vectors(v, inputs, "input to the user-provided function is", "jvp")
    outputs_tuple, outputs = _call(func, inputs, "jvp")
    with torch.enable_grad():
        dummies = tuple(torch.zeros_like(o).requires_grad_() for o in outputs)
        grads = _grads(outputs, inputs, dummies, True, strict, "jvp")
        pairs = [(g, w) for g, w in zip(grads, vs) if g.requires_grad]
        result = _grad_along(pairs, dummies, create_graph)
    result = tuple(torch.zeros_like(o) if r is None else r for r, o in zip(result, outputs))
    result, outputs = _finish(result, create_graph), _finish(outputs, create_graph)
    return (
        outputs if outputs_tuple else outputs[0],
        result if outputs_tuple else result[0],
    )


def jacobian(
    func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"
):
    """The Jacobian of ``func`` at ``inputs``: for output ``i`` and input ``j``, a tensor
    of shape ``outputs[i].shape + inputs[j].shape``.

    Args:
        func (callable): takes the tensors of ``inputs``, returns a tensor or a tuple.
        inputs (Tensor or tuple of Tensor): the point.
        create_graph (bool): make the result differentiable. Default: ``False``.
        strict (bool): raise when an input does not influence an output. Default:
            ``False``.
        vectorize (bool): with ``"reverse-mode"``, accepted for PyTorch compatibility
            (rows are computed one by one); ``"forward-mode"`` needs it. Default: ``False``.
        strategy (str): ``"reverse-mode"`` (a backward pass per output element) or
            ``"forward-mode"`` (``torch.func.jacfwd``). Default: ``"reverse-mode"``.

    Returns:
        a Tensor, a tuple over inputs, or a tuple over outputs of those, following whether
        ``func`` returns a tuple and ``inputs`` is one.

    Examples::

        >>> from torch.autograd.functional import jacobian
        >>> jacobian(lambda x: x ** 2, torch.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    _check_strategy(strategy, create_graph, vectorize)
    if strategy == "forward-mode":
        return _forward_jacobian(func, inputs)
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    inputs = _prepare(inputs, create_graph)
    outputs_tuple, outputs = _call(func, inputs, "jacobian")
    per_output = []
    for i, out in enumerate(outputs):
        rows = [[] for _ in inputs]
        flat = out.reshape(-1)
        for k in range(flat.numel()):
            one_hot = torch.zeros_like(flat)
            one_hot[k] = 1.0
            grads = _grads((flat,), inputs, (one_hot,), create_graph, strict, "jacobian", i)
            for j, g in enumerate(grads):
                rows[j].append(g.reshape(-1))
        blocks = tuple(
            _stack(rows[j], x).reshape(tuple(out.shape) + tuple(x.shape))
            for j, x in enumerate(inputs)
        )
        blocks = _finish(blocks, create_graph)
        per_output.append(blocks if inputs_tuple else blocks[0])
    return tuple(per_output) if outputs_tuple else per_output[0]


def _check_strategy(strategy, create_graph, vectorize) -> None:
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more '
            'performant. Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode" and create_graph:
        raise NotImplementedError(
            "torch.autograd.functional.jacobian: `create_graph=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`create_graph=False` or `strategy="reverse-mode"`.'
        )
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly "
            "implemented for `vectorize=True`."
        )


def _forward_jacobian(func, inputs):
    """``strategy="forward-mode"``: ``torch.func.jacfwd`` (a vmap of forward-mode AD over
    the columns of the identity), in the containers PyTorch returns there (lists over
    inputs given as a tuple)."""
    from torch.func import jacfwd

    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    jac = jacfwd(func, argnums=tuple(range(len(inputs))))(*inputs)
    if isinstance(jac, tuple) and jac and isinstance(jac[0], tuple):  # several outputs
        per_output = [list(j) if inputs_tuple else j[0] for j in jac]
        return per_output if inputs_tuple else tuple(per_output)
    return list(jac) if inputs_tuple else jac[0]


def _stack(rows: list, x):
    if not rows:
        return torch.zeros((0, x.numel()), dtype=x.dtype)
    return torch.stack(rows)


def hessian(
    func,
    inputs,
    create_graph=False,
    strict=False,
    vectorize=False,
    outer_jacobian_strategy="reverse-mode",
):
    """The Hessian of a function with a single-element output, as nested Jacobians:
    for inputs ``i`` and ``j``, a tensor of shape ``inputs[i].shape + inputs[j].shape``.

    Args:
        func (callable): takes the tensors of ``inputs``, returns one single-element
            tensor.
        inputs (Tensor or tuple of Tensor): the point.
        create_graph, strict, vectorize: as for :func:`jacobian`.
        outer_jacobian_strategy (str): ``"reverse-mode"``, or ``"forward-mode"`` (forward
            over reverse, with ``vectorize=True``). Default: ``"reverse-mode"``.

    Examples::

        >>> from torch.autograd.functional import hessian
        >>> hessian(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    inputs_tuple, inputs_t = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy == "forward-mode":
        _check_strategy(outer_jacobian_strategy, create_graph, vectorize)
        return _forward_over_reverse_hessian(func, inputs_tuple, inputs_t)

    def gradient(*xs):
        out = _scalar_output(func, xs, "hessian")
        grads = _grads((out,), xs, (torch.ones_like(out),), True, strict, "hessian")
        return grads if inputs_tuple else grads[0]

    return jacobian(gradient, inputs, create_graph=create_graph, strict=strict)


def _forward_over_reverse_hessian(func, inputs_tuple, inputs):
    """``outer_jacobian_strategy="forward-mode"``: forward mode over ``torch.func.grad``."""
    from torch.func import grad

    def scalar(*xs):
        return _scalar_output(func, xs, "hessian").reshape(())

    gradient = grad(scalar, argnums=tuple(range(len(inputs))))
    if inputs_tuple:
        return _forward_jacobian(gradient, inputs)
    return _forward_jacobian(lambda x: gradient(x)[0], inputs[0])


def _scalar_output(func, inputs, fn_name):
    outputs_tuple, outs = _call(func, inputs, fn_name)
    if outputs_tuple and len(outs) != 1:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outs[0].numel() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {fn_name} should contain a single "
            "element"
        )
    return outs[0]


#: the docstring of :func:`vhp` and :func:`hvp`, which differ in their first lines
_HESSIAN_PRODUCT_DOC = """{summary}

    Args:
        func (callable): takes the tensors of ``inputs``, returns a single-element tensor.
        inputs (Tensor or tuple of Tensor): the point.
        v (Tensor or tuple, optional): shaped like ``inputs``. Default: ``None``.
        create_graph, strict: as for :func:`vjp`.

    Returns:
        (output, {name})

    Examples::

        >>> from torch.autograd.functional import {name}
        >>> {name}(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.ones(2))
        (tensor(9.), tensor([ 6., 12.]))
    """


def _hessian_product_function(name: str, summary: str):
    def function(func, inputs, v=None, create_graph=False, strict=False):
        return _hessian_product(func, inputs, v, create_graph, strict, name)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = _HESSIAN_PRODUCT_DOC.format(summary=summary, name=name)
    return function


def _hessian_product(func, inputs, v, create_graph, strict, name):
    """:func:`vhp` (``v^T H``: the gradient of the gradient along ``v``) or :func:`hvp`
    (``H v``: through double backward, the gradient of ``grad . u`` at ``u`` along ``v``)."""
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", name)
    inputs = _prepare(inputs, create_graph)
    vs = _vectors(v, inputs, "input to the user-provided function is", name)
    out = _scalar_output(func, inputs, name)
    with torch.enable_grad():
        grads = _grads((out,), inputs, (torch.ones_like(out),), True, strict, name)
        wrt = inputs
        if name == "hvp":
            wrt = tuple(torch.zeros_like(x).requires_grad_() for x in inputs)
            grads = _grads(grads, inputs, wrt, True, strict, name)
    result = _grads(grads, wrt, vs, create_graph, strict and name == "vhp", name)
    result = _finish(result, create_graph)
    (out,) = _finish((out,), create_graph)
    return out, result if inputs_tuple else result[0]


vhp = _hessian_product_function(
    "vhp", "The vector-Hessian product ``v^T H`` of a function with a single-element output."
)
hvp = _hessian_product_function(
    "hvp",
    "The Hessian-vector product ``H v`` of a function with a single-element output\n"
    "    (through double backward).",
)
