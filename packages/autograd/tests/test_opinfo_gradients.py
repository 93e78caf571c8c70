"""Every differentiable op of torch-core's op database: analytic gradients (and
gradients of gradients) against central finite differences, in float64."""

import numpy as np
import pytest

import torch
from torch.testing._opinfo import op_db

CASES = [info for info in op_db if info.differentiable]
# getattr: torch-core 0.2.0 (the lowest this package admits) has no such flag
GRADGRAD = [info for info in CASES if getattr(info, "supports_gradgrad", True)]


def _leaf(t):
    t = t.detach().clone()
    return t.requires_grad_() if t.is_floating_point() else t


def _numeric_jacobian_vector(f, inputs, index, cotangent, eps=1e-6):
    """d <f(inputs), cotangent> / d inputs[index], by central differences."""
    x = inputs[index]
    flat = x.detach().numpy().reshape(-1)
    grad = np.zeros(flat.size)
    for i in range(flat.size):
        values = []
        for step in (eps, -eps):
            bumped = flat.copy()
            bumped[i] += step
            trial = list(inputs)
            trial[index] = torch.tensor(bumped.reshape(x.shape), dtype=torch.float64)
            with torch.no_grad():
                values.append(float((f(*trial) * cotangent).sum()))
        grad[i] = (values[0] - values[1]) / (2 * eps)
    return grad.reshape(x.shape)


@pytest.mark.parametrize("info", CASES, ids=[i.name for i in CASES])
def test_gradients_match_finite_differences(info):
    for sample in info.sample_inputs(torch.float64):
        inputs = [_leaf(t) for t in sample.tensors]

        def f(*tensors, sample=sample):
            return info.op(*tensors, *sample.args, **sample.kwargs)

        out = f(*inputs)
        cotangent = torch.tensor(np.random.default_rng(0).uniform(-1, 1, tuple(out.shape)))
        wrt = [t for t in inputs if t.requires_grad]
        found = iter(torch.autograd.grad((out * cotangent).sum(), wrt, allow_unused=True))
        grads = [next(found) if t.requires_grad else None for t in inputs]
        for index, (tensor, grad) in enumerate(zip(inputs, grads)):
            if not tensor.is_floating_point():
                continue
            expected = _numeric_jacobian_vector(f, [t.detach() for t in inputs], index, cotangent)
            actual = np.zeros(tuple(tensor.shape)) if grad is None else grad.numpy()
            np.testing.assert_allclose(
                actual, expected, rtol=1e-5, atol=1e-6, err_msg=f"{info.name} input {index}"
            )


@pytest.mark.parametrize("info", GRADGRAD, ids=[i.name for i in GRADGRAD])
def test_second_order_gradients(info):
    sample = info.sample_inputs(torch.float64)[0]
    inputs = [_leaf(t) for t in sample.tensors]
    out = info.op(*inputs, *sample.args, **sample.kwargs)
    wrt = [t for t in inputs if t.requires_grad]
    first = torch.autograd.grad((out * out).sum(), wrt, create_graph=True, allow_unused=True)
    used = [(x, g) for x, g in zip(wrt, first) if g is not None and g.requires_grad]
    if not used:
        pytest.skip("the first gradient does not depend on the inputs")
    x, g = used[0]
    (second,) = torch.autograd.grad(g.sum(), [x], allow_unused=True)

    def first_grad_sum(*tensors):
        with torch.enable_grad():
            ts = [_leaf(t) for t in tensors]
            o = info.op(*ts, *sample.args, **sample.kwargs)
            differentiable = [t for t in ts if t.requires_grad]
            found = iter(torch.autograd.grad((o * o).sum(), differentiable, allow_unused=True))
            gs = [next(found) if t.requires_grad else None for t in ts]
        index = next(i for i, t in enumerate(inputs) if t is x)
        return gs[index] if gs[index] is not None else torch.zeros_like(ts[index])

    index = next(i for i, t in enumerate(inputs) if t is x)
    expected = _numeric_jacobian_vector(
        first_grad_sum,
        [t.detach() for t in inputs],
        index,
        torch.ones(tuple(x.shape), dtype=torch.float64),
    )
    actual = np.zeros(tuple(x.shape)) if second is None else second.numpy()
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5, err_msg=info.name)


@pytest.mark.parametrize("info", CASES, ids=[i.name for i in CASES])
def test_public_gradcheck_and_gradgradcheck(info):
    """torch.autograd.gradcheck (full Jacobians) on the first sample of every op, and
    gradgradcheck (second derivatives, also with respect to the output gradient) where the
    op database declares it."""
    sample = info.sample_inputs(torch.float64)[0]
    inputs = [_leaf(t) for t in sample.tensors]
    if not any(t.requires_grad for t in inputs):
        pytest.skip("no floating-point input")

    def f(*tensors):
        return info.op(*tensors, *sample.args, **sample.kwargs)

    assert torch.autograd.gradcheck(f, inputs)
    if getattr(info, "supports_gradgrad", True):
        assert torch.autograd.gradgradcheck(f, inputs)


# getattr: older torch-core releases have no such flag
COMPLEX = [info for info in CASES if getattr(info, "supports_complex_grad", False)]


def _complex_leaf(t, seed):
    """A float64 sample made complex128 (random imaginary parts of its own seed, so the
    sample is no real matrix times a scalar) as a leaf requiring grad; others as they are."""
    if not (isinstance(t, torch.Tensor) and t.dtype == torch.float64):
        return t
    imag = np.random.default_rng(1000 + seed).uniform(-0.5, 0.5, tuple(t.shape))
    z = torch.complex(t.detach(), torch.tensor(imag))
    return z.requires_grad_()


@pytest.mark.parametrize("info", COMPLEX, ids=[i.name for i in COMPLEX])
def test_complex_gradcheck(info):
    """gradcheck on complex128 samples: the gradient of a complex input must be PyTorch's
    (for a real loss L, dL/d(re z) + i dL/d(im z)), checked against finite differences of
    the real and imaginary parts."""
    for sample in info.sample_inputs(torch.float64)[:2]:
        inputs = [_complex_leaf(t, k) for k, t in enumerate(sample.tensors)]
        if not any(isinstance(t, torch.Tensor) and t.requires_grad for t in inputs):
            continue

        def f(*tensors, sample=sample):
            return info.op(*tensors, *sample.args, **sample.kwargs)

        assert torch.autograd.gradcheck(f, inputs)
