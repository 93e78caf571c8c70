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


def _real_parts(array: np.ndarray) -> np.ndarray:
    """``array`` as real numbers, flat: a complex array as interleaved (real, imaginary)
    pairs, the layout of ``view_as_real``."""
    array = np.asarray(array)
    if np.iscomplexobj(array):
        return np.stack([array.real, array.imag], -1).astype(np.float64).reshape(-1)
    return array.astype(np.float64).reshape(-1)


def _real_size(x) -> int:
    return x.numel() * (2 if x.is_complex() else 1)


def _numerical_jacobians(func, inputs, wanted, outputs, eps) -> list[list[np.ndarray]]:
    """``result[j][i]``: d output j / d input i by central differences, as a (real numel
    of output, real numel of input) array. A complex tensor counts as its real and
    imaginary parts (PyTorch's gradcheck splits complex functions the same way)."""
    result = [[None] * len(wanted) for _ in outputs]
    for col, i in enumerate(wanted):
        array = inputs[i].detach().numpy()  # writes here perturb the input itself
        steps = (eps, eps * 1j) if np.iscomplexobj(array) else (eps,)
        columns = [
            np.zeros((_real_size(o), array.size * len(steps)), dtype=np.float64) for o in outputs
        ]
        for k, index in enumerate(np.ndindex(array.shape)):
            original = array[index].item()
            for part, step in enumerate(steps):
                # grad mode stays on: gradgradcheck's function differentiates inside
                array[index] = original + step
                plus = [_real_parts(o.detach().numpy()) for o in _outputs(func, inputs)]
                array[index] = original - step
                minus = [_real_parts(o.detach().numpy()) for o in _outputs(func, inputs)]
                array[index] = original
                for j, (p, m) in enumerate(zip(plus, minus)):
                    columns[j][:, k * len(steps) + part] = (p - m) / (2 * eps)
        for j in range(len(outputs)):
            result[j][col] = columns[j]
    return result


def _analytical_jacobians(inputs, wanted, outputs) -> list[list[np.ndarray]]:
    """The same Jacobians from backward. A gradient ``g`` of a complex input is read as
    PyTorch defines it for a real loss L: ``dL/d(re z) + i dL/d(im z)``; the rows of a
    complex output come from backward with output gradients 1 (its real part) and 1j
    (its imaginary part)."""
    diff = [inputs[i] for i in wanted]
    result = []
    for output in outputs:
        rows = [np.zeros((_real_size(output), _real_size(x)), dtype=np.float64) for x in diff]
        if output.requires_grad:
            units = (1.0, 1j) if output.is_complex() else (1.0,)
            flat_grad = torch.zeros(output.numel(), dtype=output.dtype)
            for k in range(output.numel()):
                for part, unit in enumerate(units):
                    flat_grad.mul_(0)
                    flat_grad[k] = unit
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
                            row = k * len(units) + part
                            rows[col][row] = _real_parts(g.detach().numpy())
        result.append(rows)
    return result


def _check_gradient_matches(grad, x, index: int) -> None:
    if tuple(grad.shape) != tuple(x.shape):
        problem = f"has shape {list(grad.shape)}, but the input has shape {list(x.shape)}"
    elif grad.is_complex() != x.is_complex():
        problem = (
            f"has dtype {grad.dtype}, but the input has dtype {x.dtype}: a gradient is "
            "complex exactly when its input is"
        )
    else:
        return
    raise GradcheckError(f"Gradient for input {index} {problem}")


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
    for every output and every input that requires grad (use float64 or complex128
    inputs). Complex inputs and outputs are checked as pairs of real numbers (real and
    imaginary parts); the gradient of a complex input must be PyTorch's, for a real loss
    L ``dL/d(re z) + i dL/d(im z)``.

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


def _random_like(generator, output):
    values = generator.standard_normal(tuple(output.shape))
    if output.is_complex():
        values = values + 1j * generator.standard_normal(tuple(output.shape))
    return torch.tensor(values, dtype=output.dtype)


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
            tensors of the outputs' dtypes when ``None``. Default: ``None``.
        eps (float): finite-difference step, as for :func:`gradcheck`.
        atol (float): absolute tolerance, as for :func:`gradcheck`.
        rtol (float): relative tolerance, as for :func:`gradcheck`.
        gen_non_contig_grad_outputs (bool): accepted for PyTorch compatibility.
        raise_exception (bool): raise :class:`GradcheckError` on a mismatch instead of
            returning ``False``.
        nondet_tol (float): accepted for PyTorch compatibility.

    Examples::

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
        grad_outputs = tuple(_random_like(generator, o).requires_grad_() for o in outputs)
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
