"""Checks shared by the torch.legacy tests: a module's hand-written gradients against
finite differences, and against autograd through a torch.nn (or tensor-op) reference.

Imported by the test files with this folder on sys.path (tests are not a package).
"""

from __future__ import annotations

import torch

EPS = 1e-6


def leaves(value):
    """The tensors of a tensor or (nested) list of tensors, in order."""
    if torch.is_tensor(value):
        return [value]
    return [t for v in value for t in leaves(v)]


def like(value, fill):
    """A structure shaped as ``value`` with tensors made by ``fill(tensor)``."""
    if torch.is_tensor(value):
        return fill(value)
    return [like(v, fill) for v in value]


def _flat_output(module, input):
    return torch.cat([t.reshape(-1).clone() for t in leaves(module.forward(input))])


def _next_of(iterator):
    return lambda _: next(iterator)


def _unit_grads(output):
    """One gradOutput per output element, each a one-hot of the output's structure."""
    flat_sizes = [t.numel() for t in leaves(output)]
    total = sum(flat_sizes)
    for j in range(total):
        hot = torch.zeros(total, dtype=torch.float64)
        hot[j] = 1
        pieces, offset = [], 0
        for t in leaves(output):
            pieces.append(hot[offset : offset + t.numel()].view(t.shape).clone())
            offset += t.numel()
        yield like(output, _next_of(iter(pieces)))


def numerical_jacobian(module, input, targets):
    """d(flat output) / d(each target tensor's elements), by central differences."""
    columns = []
    for target in targets:
        flat = target.view(-1)
        for i in range(flat.numel()):
            original = float(flat[i])
            flat[i] = original + EPS
            plus = _flat_output(module, input)
            flat[i] = original - EPS
            minus = _flat_output(module, input)
            flat[i] = original
            columns.append((plus - minus) / (2 * EPS))
    return torch.stack(columns)


def input_jacobian(module, input):
    """Analytic d(flat output) / d(input) from updateGradInput, one row per input element."""
    rows = []
    for grad in _unit_grads(module.forward(input)):
        module.forward(input)
        rows.append(torch.cat([g.reshape(-1) for g in leaves(module.updateGradInput(input, grad))]))
    return torch.stack(rows).t()


def parameter_jacobian(module, input, grads):
    """Analytic d(flat output) / d(parameters) from accGradParameters."""
    rows = []
    for grad in _unit_grads(module.forward(input)):
        for g in grads:
            g.zero_()
        module.forward(input)
        module.updateGradInput(input, grad)
        module.accGradParameters(input, grad)
        rows.append(torch.cat([g.reshape(-1).clone() for g in grads]))
    return torch.stack(rows).t()


def check_jacobian(module, input, atol=1e-6):
    """updateGradInput and accGradParameters of a float64 module against finite
    differences (input given as a float64 tensor or list of them)."""
    module.double()
    floating = [t for t in leaves(input) if t.is_floating_point()]
    if floating:  # (integer inputs, as a LookupTable's, have no gradient)
        numeric = numerical_jacobian(module, input, floating)
        analytic = input_jacobian(module, input)
        torch.testing.assert_close(analytic, numeric, atol=atol, rtol=1e-5)
    found = module.parameters()
    if found is not None:
        weights, grads = found
        numeric = numerical_jacobian(module, input, weights)
        analytic = parameter_jacobian(module, input, grads)
        torch.testing.assert_close(analytic, numeric, atol=atol, rtol=1e-5)


def check_against_reference(module, reference, input, param_pairs=(), atol=1e-10, scale=1.0):
    """Forward and backward of ``module`` against autograd through ``reference``.

    ``reference(inputs)`` computes the same function with torch.nn / tensor ops from
    leaf copies of the input; ``param_pairs`` lists (legacy gradient buffer, reference
    parameter) pairs whose gradients must match.
    """
    output = module.forward(input)
    grad_output = like(output, lambda t: torch.randn(t.shape, dtype=t.dtype))
    module.zeroGradParameters()
    grad_input = module.backward(input, grad_output, scale)

    ref_input = like(input, lambda t: t.detach().clone().requires_grad_(t.is_floating_point()))
    ref_output = reference(ref_input)
    for got, want in zip(leaves(output), leaves(ref_output)):
        torch.testing.assert_close(got, want.detach(), atol=atol, rtol=1e-7)
    outs = leaves(ref_output)
    torch.autograd.backward(outs, leaves(grad_output))
    for got, ref in zip(leaves(grad_input), leaves(ref_input)):
        if ref.requires_grad:
            want = ref.grad if ref.grad is not None else torch.zeros_like(ref)
            torch.testing.assert_close(got, want, atol=atol, rtol=1e-7)
    for legacy_grad, param in param_pairs:
        # accGradParameters adds scale times the gradient; gradInput is not scaled
        torch.testing.assert_close(legacy_grad, scale * param.grad, atol=atol, rtol=1e-7)
    return output, grad_input
