"""Compare analytical gradients (from backward) with finite differences."""

from __future__ import annotations

import warnings

import numpy as np

import torch

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Raised by :func:`gradcheck` and :func:`gradgradcheck` when a check fails."""


def _as_tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _differentiable_inputs(inputs: tuple) -> list[int]:
    return [i for i, x in enumerate(inputs) if isinstance(x, torch.Tensor) and x.requires_grad]


def _outputs(func, inputs) -> tuple:
    return tuple(o for o in _as_tuple(func(*inputs)) if isinstance(o, torch.Tensor))


def _numerical_jacobians(func, inputs, wanted, outputs, eps) -> list[list[np.ndarray]]:
    """``result[j][i]``: d output j / d input i by central differences, as a
    (numel of output, numel of input) array."""
    result = [[None] * len(wanted) for _ in outputs]
    for col, i in enumerate(wanted):
        array = inputs[i].detach().numpy()  # writes here perturb the input itself
        columns = [np.zeros((o.numel(), array.size), dtype=np.float64) for o in outputs]
        for k, index in enumerate(np.ndindex(array.shape)):
            original = array[index].item()
            # grad mode stays on: gradgradcheck's function differentiates inside
            array[index] = original + eps
            plus = [o.detach().numpy().astype(np.float64) for o in _outputs(func, inputs)]
            array[index] = original - eps
            minus = [o.detach().numpy().astype(np.float64) for o in _outputs(func, inputs)]
            array[index] = original
            for j, (p, m) in enumerate(zip(plus, minus)):
                columns[j][:, k] = ((p - m) / (2 * eps)).reshape(-1)
        for j in range(len(outputs)):
            result[j][col] = columns[j]
    return result


def _analytical_jacobians(inputs, wanted, outputs) -> list[list[np.ndarray]]:
    diff = [inputs[i] for i in wanted]
    result = []
    for output in outputs:
        rows = [np.zeros((output.numel(), x.numel()), dtype=np.float64) for x in diff]
        if output.requires_grad:
            flat_grad = torch.zeros(output.numel(), dtype=output.dtype)
            for k in range(output.numel()):
                flat_grad.mul_(0)
                flat_grad[k] = 1.0
                grads = torch.autograd.grad(
                    output,
                    diff,
                    flat_grad.reshape(output.shape),
                    retain_graph=True,
                    allow_unused=True,
                )
                for col, (g, x) in enumerate(zip(grads, diff)):
                    if g is not None:
                        _check_gradient_matches(g, x, wanted[col])
                        rows[col][k] = g.detach().numpy().astype(np.float64).reshape(-1)
        result.append(rows)
    return result


def _check_gradient_matches(grad, x, index: int) -> None:
    if tuple(grad.shape) != tuple(x.shape):
        raise GradcheckError(
            f"Gradient for input {index} has shape {list(grad.shape)}, but the input has "
            f"shape {list(x.shape)}"
        )


def _warn_single_precision(inputs, wanted) -> None:
    for i in wanted:
        if inputs[i].dtype not in (torch.float64, torch.complex128):
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point "
                "or complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex.",
                UserWarning,
                stacklevel=3,
            )


def gradcheck(
    func,
    inputs,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    **ignored,
) -> bool:
    """Check the gradients of ``func`` at ``inputs`` against central finite differences,
    for every output and every input that requires grad (use float64 inputs).

    Args:
        func (callable): takes the tensors of ``inputs``, returns a tensor or a tuple.
        inputs (Tensor or tuple): the point to check at.
        eps (float): finite-difference step. Default: ``1e-6``.
        atol (float): absolute tolerance. Default: ``1e-5``.
        rtol (float): relative tolerance. Default: ``1e-3``.
        raise_exception (bool): raise :class:`GradcheckError` on a mismatch instead of
            returning ``False``. Default: ``True``.
        nondet_tol (float): accepted for PyTorch compatibility (backward here is
            deterministic). Default: ``0.0``.

    Returns:
        bool: ``True`` when every Jacobian matches.

    Examples::

        >>> import torch
        >>> x = torch.rand(3, dtype=torch.float64, requires_grad=True)
        >>> torch.autograd.gradcheck(torch.sin, (x,))
        True
    """
    inputs = _as_tuple(inputs)
    wanted = _differentiable_inputs(inputs)
    if not wanted:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of "
            "them have requires_grad=True."
        )
    _warn_single_precision(inputs, wanted)
    try:
        return _gradcheck(func, inputs, wanted, eps, atol, rtol)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck(func, inputs, wanted, eps, atol, rtol) -> bool:
    with torch.enable_grad():
        outputs = _outputs(func, inputs)
    numerical = _numerical_jacobians(func, inputs, wanted, outputs, eps)
    analytical = _analytical_jacobians(inputs, wanted, outputs)
    for j in range(len(outputs)):
        for col, i in enumerate(wanted):
            a, n = analytical[j][col], numerical[j][col]
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                # shown as PyTorch lays them out: one row per input element
                raise GradcheckError(
                    f"Jacobian mismatch for output {j} with respect to input {i},\n"
                    f"numerical:{_as_tensor(n.T)}\nanalytical:{_as_tensor(a.T)}\n"
                )
    return True


def _as_tensor(array: np.ndarray):
    return torch.tensor(np.ascontiguousarray(array), dtype=torch.float64)


def gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    **ignored,
) -> bool:
    """Check second derivatives: :func:`gradcheck` of the function that maps ``inputs`` and
    ``grad_outputs`` to the gradients of ``func`` (computed with ``create_graph=True``).

    Args:
        func (callable): takes the tensors of ``inputs``, returns a tensor or a tuple.
        inputs (Tensor or tuple): the point to check at.
        grad_outputs (Tensor or tuple, optional): gradients of the outputs; random
            float64 tensors when ``None``. Default: ``None``.
        eps (float): finite-difference step, as for :func:`gradcheck`.
        atol (float): absolute tolerance, as for :func:`gradcheck`.
        rtol (float): relative tolerance, as for :func:`gradcheck`.
        gen_non_contig_grad_outputs (bool): accepted for PyTorch compatibility.
        raise_exception (bool): raise :class:`GradcheckError` on a mismatch instead of
            returning ``False``.
        nondet_tol (float): accepted for PyTorch compatibility.

    Examples::

        >>> import torch
        >>> x = torch.rand(3, dtype=torch.float64, requires_grad=True)
        >>> torch.autograd.gradgradcheck(lambda t: t ** 3, (x,))
        True
    """
    inputs = _as_tuple(inputs)
    wanted = _differentiable_inputs(inputs)
    if grad_outputs is None:
        with torch.enable_grad():
            outputs = [o for o in _outputs(func, inputs) if o.requires_grad]
        generator = np.random.default_rng(0)
        grad_outputs = tuple(
            torch.tensor(generator.standard_normal(tuple(o.shape)), dtype=o.dtype).requires_grad_()
            for o in outputs
        )
    grad_outputs = _as_tuple(grad_outputs)
    count = len(inputs)

    def first_derivatives(*args):
        point, vectors = args[:count], args[count:]
        outs = [o for o in _outputs(func, point) if o.requires_grad]
        diff = [point[i] for i in wanted]
        grads = torch.autograd.grad(outs, diff, vectors, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_derivatives,
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
    )
