"""Deprecated ``Module.register_backward_hook`` (modules/_hooks.py NonFullBackwardHook):
the hook sees PyTorch's last autograd node of the forward, and PyTorch's FutureWarnings.

Expected values recorded with PyTorch 2.13 from the same modules, weights and inputs."""

import warnings

import pytest

import torch
from torch import nn


def _linear(i, o, bias=True):
    m = nn.Linear(i, o, bias=bias)
    with torch.no_grad():
        m.weight.copy_(torch.linspace(-1, 1, i * o).reshape(o, i))
        if bias:
            m.bias.copy_(torch.linspace(-0.5, 0.5, o))
    return m


def _conv():
    m = nn.Conv2d(1, 2, 2)
    with torch.no_grad():
        m.weight.copy_(torch.linspace(-1, 1, 8).reshape(2, 1, 2, 2))
        m.bias.copy_(torch.tensor([0.1, -0.2]))
    return m


def _x(*shape):
    return torch.linspace(-2, 2, torch.Size(shape).numel()).reshape(shape).requires_grad_()


def _half(grads):
    return tuple(None if g is None else g * 0.5 for g in grads)


_CASES = {
    "linear": (lambda: _linear(3, 2), (2, 3), None),
    "linear_nobias": (lambda: _linear(3, 2, False), (2, 3), None),
    "linear_3d": (lambda: _linear(3, 2), (2, 2, 3), None),
    "linear_1d": (lambda: _linear(3, 2), (3,), None),
    "conv": (_conv, (1, 1, 3, 3), None),
    "gelu": (nn.GELU, (4,), None),
    "leaky": (lambda: nn.LeakyReLU(0.1), (4,), None),
    "softplus": (nn.Softplus, (4,), None),
    "seq_gelu": (lambda: nn.Sequential(_linear(3, 2), nn.GELU()), (2, 3), None),
    "seq_linear": (lambda: nn.Sequential(nn.Tanh(), _linear(3, 2)), (2, 3), None),
    "linear_half": (lambda: _linear(3, 2), (2, 3), _half),
    "linear_3d_half": (lambda: _linear(3, 2), (2, 2, 3), _half),
    "gelu_ones": (nn.GELU, (4,), lambda grads: tuple(torch.ones_like(g) for g in grads)),
}

# what Linear(3, 2) records in full and in half precision alike (the halving is x.grad's)
_LINEAR_GRAD_INPUT = [
    ((2,), [2.0, 4.0]),
    ((2, 3), [0.2, 0.6, 1.0, -1.4, 0.6, 2.6]),
    ((3, 2), [0.8, -0.8, 2.4, 2.4, 4.0, 5.6]),
]
_LINEAR_3D_GRADS = (
    [((4, 2), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])],
    [[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]],
)

# name: ([(shape, values) of each grad_input], [grad_output values], warnings, x.grad)
_RECORDED = {
    "linear": (
        _LINEAR_GRAD_INPUT,
        [[0.0, 1.0, 2.0, 3.0]],
        1,
        [0.2, 0.6, 1.0, -1.4, 0.6, 2.6],
    ),
    "linear_nobias": (
        [((2, 3), [0.2, 0.6, 1.0, -1.4, 0.6, 2.6]), ((3, 2), [0.8, -0.8, 2.4, 2.4, 4.0, 5.6])],
        [[0.0, 1.0, 2.0, 3.0]],
        1,
        [0.2, 0.6, 1.0, -1.4, 0.6, 2.6],
    ),
    "linear_3d": (
        *_LINEAR_3D_GRADS,
        1,
        [0.2, 0.6, 1.0, -1.4, 0.6, 2.6, -3.0, 0.6, 4.2, -4.6, 0.6, 5.8],
    ),
    "linear_1d": ([((1, 2), [0.0, 1.0])], [[0.0, 1.0]], 1, [0.2, 0.6, 1.0]),
    "conv": (
        [
            (
                (1, 1, 3, 3),
                [0.57143, 1.42857, 1.42857, 1.71429, 6.28571, 5.71429, 3.42857, 9.42857, 6.57143],
            ),
            ((2, 1, 2, 2), [-2.5, 0.5, 6.5, 9.5, -18.5, -7.5, 14.5, 25.5]),
            ((2,), [6.0, 22.0]),
        ],
        [[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]],
        1,
        [0.57143, 1.42857, 1.42857, 1.71429, 6.28571, 5.71429, 3.42857, 9.42857, 6.57143],
    ),
    "gelu": (
        [((4,), [-0.0, 0.03953, 1.92095, 3.2557])],
        [[0.0, 1.0, 2.0, 3.0]],
        1,
        [-0.0, 0.03953, 1.92095, 3.2557],
    ),
    "leaky": ([((4,), [0.0, 0.1, 2.0, 3.0])], [[0.0, 1.0, 2.0, 3.0]], 1, [0.0, 0.1, 2.0, 3.0]),
    "softplus": (
        [((4,), [0.0, 0.33924, 1.32151, 2.64239])],
        [[0.0, 1.0, 2.0, 3.0]],
        1,
        [0.0, 0.33924, 1.32151, 2.64239],
    ),
    "seq_gelu": (
        [((2, 2), [0.0, -0.08801, -0.16615, 3.0156])],
        [[0.0, 1.0, 2.0, 3.0]],
        1,
        [-0.0176, -0.05281, -0.08801, 0.76927, 1.90905, 3.04883],
    ),
    "seq_linear": (
        [
            ((2,), [2.0, 4.0]),
            ((2, 3), [0.2, 0.6, 1.0, -1.4, 0.6, 2.6]),
            ((3, 2), [0.7599, 0.17582, 1.66731, 1.66731, 1.92806, 2.51213]),
        ],
        [[0.0, 1.0, 2.0, 3.0]],
        1,
        [0.01413, 0.18301, 0.85564, -1.19789, 0.18301, 0.18369],
    ),
    "linear_half": (
        _LINEAR_GRAD_INPUT,
        [[0.0, 1.0, 2.0, 3.0]],
        1,
        [0.1, 0.3, 0.5, -0.7, 0.3, 1.3],
    ),
    "linear_3d_half": (
        *_LINEAR_3D_GRADS,
        1,
        [0.1, 0.3, 0.5, -0.7, 0.3, 1.3, -1.5, 0.3, 2.1, -2.3, 0.3, 2.9],
    ),
    "gelu_ones": (
        [((4,), [-0.0, 0.03953, 1.92095, 3.2557])],
        [[0.0, 1.0, 2.0, 3.0]],
        1,
        [1.0, 1.0, 1.0, 1.0],
    ),
}


def _flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


@pytest.mark.parametrize("name", sorted(_CASES))
def test_non_full_backward_hook_sees_pytorchs_last_node(name):
    make, shape, replace = _CASES[name]
    module, x = make(), _x(*shape)
    seen = []

    def hook(mod, grad_input, grad_output):
        assert mod is module
        seen.append((grad_input, grad_output))
        return replace(grad_input) if replace else None

    module.register_backward_hook(hook)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = module(x)
    (y * torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
    grad_inputs, grad_outputs, n_warnings, x_grad = _RECORDED[name]
    assert len(seen) == 1
    got_inputs, got_outputs = seen[0]
    assert len(got_inputs) == len(grad_inputs)
    for got, expected in zip(got_inputs, grad_inputs):
        if expected is None:
            assert got is None
            continue
        assert tuple(got.shape) == expected[0]
        assert _flat(got) == pytest.approx(expected[1], abs=1e-4)
    assert [_flat(g) for g in got_outputs] == [pytest.approx(v, abs=1e-4) for v in grad_outputs]
    assert len(caught) == n_warnings
    assert all(issubclass(w.category, FutureWarning) for w in caught)
    assert _flat(x.grad) == pytest.approx(x_grad, abs=1e-4)


_MANY_NODES = "Using a non-full backward hook when the forward contains multiple autograd Nodes"


def test_non_full_hook_warnings_as_pytorch():
    hook = lambda *args: None  # noqa: E731
    relu = nn.ReLU()
    relu.register_backward_hook(hook)
    with pytest.warns(FutureWarning, match=_MANY_NODES):
        relu(torch.ones(2, requires_grad=True))  # a leaf input: its accumulator is a node
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        relu(torch.ones(2, requires_grad=True) * 2)  # the last node takes the input: quiet
        relu(torch.ones(2))  # no graph, no hook, no warning

    class Pair(nn.Module):
        def forward(self, a):
            return a * 2, a + 1

    class Listed(nn.Module):
        def forward(self, a):
            return [a * 2]

    class Scaled(nn.Module):
        def forward(self, a, scale):
            return a * scale

    cases = [
        (Pair(), (), "when outputs are generated by different autograd Nodes"),
        (Listed(), (), "does not return a single Tensor or a tuple of Tensors"),
        (Scaled(), (2.0,), "does not take as input a single Tensor or a tuple of Tensors"),
    ]
    for module, extra, message in cases:
        module.register_backward_hook(hook)
        with pytest.warns(FutureWarning, match=message):
            module(torch.ones(3, requires_grad=True), *extra)


def test_non_full_hooks_global_and_removed():
    seen = []
    handle = nn.modules.module.register_module_backward_hook(
        lambda m, gi, go: seen.append((type(m).__name__, [tuple(g.shape) for g in gi]))
    )
    try:
        net = nn.Sequential(_linear(3, 4), nn.ReLU())
        with pytest.warns(FutureWarning):
            y = net(_x(2, 3))
        y.sum().backward()
    finally:
        handle.remove()
    # as PyTorch: ReLU and Sequential share the last node; Linear shows addmm's inputs
    assert seen == [
        ("ReLU", [(2, 4)]),
        ("Sequential", [(2, 4)]),
        ("Linear", [(4,), (2, 3), (3, 4)]),
    ]
    lin = _linear(3, 2)
    lin.register_backward_hook(lambda *a: seen.append("ran")).remove()
    seen.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lin(_x(2, 3)).sum().backward()
    assert seen == []
