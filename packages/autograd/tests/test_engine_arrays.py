"""The engine's backward on arrays (``x.backward()`` and ``autograd.grad`` without hooks,
create_graph or anomaly mode) gives exactly what the Tensor formulas give (anomaly mode
runs those), and falls back to them for the cases its array formulas leave out."""

import numpy as np
import pytest
from make_function import make_function

import torch
from torch.autograd import _engine
from torch.autograd._derivatives.arrays import ARRAY_FORMULAS


def _tensor_path_grad(out, leaves):
    """The gradients by the general loop on Tensors (anomaly mode takes it)."""
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        return torch.autograd.grad(out, leaves, retain_graph=True, allow_unused=True)


def _leaves(dtype, *shapes):
    torch.manual_seed(0)
    return [(torch.rand(*shape, dtype=dtype) + 0.5).requires_grad_() for shape in shapes]


GRAPHS = {
    "add": (lambda a, b: a + b, [(3, 4), (3, 4)]),
    "add_broadcast": (lambda a, b: a + b, [(3, 4), (4,)]),
    "add_alpha": (lambda a, b: torch.add(a, b, alpha=2), [(3, 4), (3, 4)]),
    "sub": (lambda a, b: a - b, [(3, 4), (3, 4)]),
    "mul": (lambda a, b: a * b, [(3, 4), (3, 4)]),
    "mul_broadcast": (lambda a, b: a * b, [(3, 1), (3, 4)]),
    "mul_float": (lambda a: a * 2.5, [(3, 4)]),
    "scalars": (lambda a: (3 * a - 1) / 7 + 2.5 / (a + 1) - 1.5 * (2 - a), [(3, 4)]),
    "div": (lambda a, b: a / b, [(3, 4), (3, 4)]),
    "div_float": (lambda a: 1.5 / a, [(3, 4)]),
    "div_floor": (lambda a, b: torch.div(a, b, rounding_mode="floor"), [(3, 4), (3, 4)]),
    "neg": (lambda a: -a, [(3, 4)]),
    "tanh": (torch.tanh, [(3, 4)]),
    "sigmoid": (torch.sigmoid, [(3, 4)]),
    "exp": (torch.exp, [(3, 4)]),
    "matmul": (lambda a, b: a @ b, [(3, 4), (4, 5)]),
    "matmul_batched": (lambda a, b: a @ b, [(2, 3, 4), (4, 5)]),
    "matmul_vector": (lambda a, b: a @ b, [(3, 4), (4,)]),
    "sum_dims": (lambda a: a.sum(1), [(3, 4)]),
    "sum_keepdim": (lambda a: a.sum(0, keepdim=True), [(3, 4)]),
    "mean": (lambda a: a.mean(), [(3, 4)]),
    "mean_dim": (lambda a: a.mean(-1), [(2, 3, 4)]),
    "view": (lambda a: a.view(12) * 2, [(3, 4)]),
    "reshape": (lambda a: a.t().reshape(12) * 2, [(3, 4)]),
    "chain": (lambda a, b: torch.tanh(a * b) @ b.t() - a.mean(), [(3, 4), (3, 4)]),
    "reuse": (lambda a: a * a + a, [(3, 4)]),
    "sqrt_log_square": (lambda a: a.sqrt() + a.log() - a.square(), [(3, 4)]),
    "pow": (lambda a: a**2 + a**3.0 - a**0.5 + a.pow(1.5), [(3, 4)]),
    "pow_tensor": (lambda a, b: a**b, [(3, 4), (3, 4)]),
    "permute": (lambda a: a.t() @ a.permute(1, 0).t(), [(3, 4)]),
    "where": (
        lambda a, b: torch.where(a > 1, a, b * 2) + torch.where(b < 1, 0.5, a),
        [(3, 4), (3, 4)],
    ),
    "where_broadcast": (lambda a, b: torch.where(a > 1, a, b), [(3, 4), (4,)]),
    "clamp": (lambda a: a.clamp(0.7, 1.2) + a.clamp(min=1) + a.clamp(max=1.0), [(3, 4)]),
    "clamp_tensor": (lambda a, b: a.clamp(min=b), [(3, 4), (3, 4)]),
}


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_same_gradients_as_the_tensor_formulas(name, dtype):
    fn, shapes = GRAPHS[name]
    leaves = _leaves(dtype, *shapes)
    out = fn(*leaves).sum()
    expected = _tensor_path_grad(out, leaves)
    captured = torch.autograd.grad(out, leaves, retain_graph=True)
    out.backward()
    for leaf, grad, got in zip(leaves, expected, captured):
        assert leaf.grad.dtype == grad.dtype
        assert np.array_equal(leaf.grad.numpy(), grad.numpy()), name
        assert np.array_equal(got.numpy(), grad.numpy()), name


def test_the_covered_ops_have_array_formulas_on_their_nodes():
    a, b = _leaves(torch.float32, (2, 2), (2, 2))
    node = (a * b).grad_fn
    assert node._array_formulas is ARRAY_FORMULAS["mul"]
    assert torch.cat([a, b]).grad_fn._array_formulas is None


def test_uncovered_cases_fall_back_to_the_tensor_formulas(monkeypatch):
    calls = []
    original = _engine.Node.apply

    def spy(self, grad):
        calls.append(self.name())
        return original(self, grad)

    monkeypatch.setattr(_engine.Node, "apply", spy)
    a, b = _leaves(torch.float32, (3, 4), (4,))
    (a * b).sum().backward()  # broadcasting: MulBackward0 runs on Tensors
    assert calls == ["MulBackward0"]
    calls.clear()
    (a * a).sum().backward()
    assert calls == []


def test_a_hook_sees_tensors_and_can_replace_the_gradient():
    (a,) = _leaves(torch.float32, (2, 3))
    y = torch.tanh(a)
    seen = []
    y.register_hook(lambda g: seen.append(type(g)) or g * 0)
    (y * 2).sum().backward()
    assert seen == [torch.Tensor]
    assert np.array_equal(a.grad.numpy(), np.zeros((2, 3), np.float32))


def test_leaf_hook_and_custom_function_in_the_graph():
    double = make_function("Double", lambda ctx, x: x * 2, lambda ctx, grad: grad * 2)
    (a,) = _leaves(torch.float64, (3,))
    a.register_hook(lambda g: g + 1)
    torch.tanh(double.apply(a * 3)).sum().backward()
    x = a.detach() * 6
    expected = (1 - torch.tanh(x) ** 2) * 6 + 1
    assert torch.allclose(a.grad, expected)


def test_a_leaf_gets_a_gradient_of_its_own():
    a, b = _leaves(torch.float32, (3,), (3,))
    g = torch.ones(3)
    (a + b).backward(g)
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
    assert not np.shares_memory(a.grad.numpy(), g.numpy())


@pytest.mark.parametrize("with_core_kernels", [True, False], ids=["core-kernels", "numpy"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_big_gradients_fill_and_accumulate_alike_with_or_without_core_kernels(
    dtype, with_core_kernels, monkeypatch
):
    # a sum's gradient of 300x300 elements is filled, and a second backward adds into
    # .grad, by core's threaded array kernels; a core without them: by NumPy
    from torch._interface import array_kernels

    if not with_core_kernels:
        for name in ("fill", "add_"):
            monkeypatch.delitem(array_kernels._hooks, name, raising=False)
    (a,) = _leaves(dtype, (300, 300))
    for _ in range(2):
        (a * 3).sum().backward()
    assert torch.equal(a.grad, torch.full((300, 300), 6.0, dtype=dtype))
    b = _leaves(dtype, (300, 300))[0]
    (b * b).sum().backward()
    (b * b).sum().backward()
    assert torch.equal(b.grad, 2 * (b.detach() * 2))


def test_retain_graph_keeps_saved_values_for_a_second_backward():
    (a,) = _leaves(torch.float64, (3,))
    y = torch.tanh(a * 2).sum()
    y.backward(retain_graph=True)
    first = a.grad.clone()
    y.backward()
    assert torch.equal(a.grad, first * 2)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_backward_frees_saved_results_while_the_graph_lives():
    import weakref

    (a,) = _leaves(torch.float32, (3,))
    y = torch.tanh(a)
    array = weakref.ref(y._np)
    z = y.sum()
    del y
    assert array() is not None  # saved by TanhBackward0
    z.backward()
    assert array() is None  # released although z (and its graph) lives on


_UNARY = [
    torch.tanh,
    torch.sigmoid,
    torch.exp,
    lambda t: -t,
    lambda t: t * 2.5,
    lambda t: 3 - t,
    lambda t: t / 3,
    lambda t: t.sum(0, keepdim=True),
    lambda t: t.mean(-1, keepdim=True),
    lambda t: t.view(-1).view(t.shape),
    lambda t: t**2,
    lambda t: t.clamp(-1, 1.5),
    lambda t: torch.where(t > 1, t, 0.5),
    lambda t: t.abs().sqrt() + (t * t + 1).log(),
    lambda t: t.t() if t.dim() == 2 else t,
]
_BINARY = [
    lambda a, b: a + b,
    lambda a, b: a - b,
    lambda a, b: a * b,
    lambda a, b: a / (b.abs() + 1),
    lambda a, b: torch.add(a, b, alpha=2),
    lambda a, b: a @ b,
]


def _random_graph(seed):
    rng = np.random.default_rng(seed)
    dtype = (torch.float32, torch.float64)[seed % 2]
    n = int(rng.choice([1, 3]))
    shapes = [(n, n), (1, n), (n,), (n, 1)]
    torch.manual_seed(seed)
    leaves = [
        (torch.rand(*shapes[rng.integers(4)], dtype=dtype) + 0.5).requires_grad_() for _ in range(3)
    ]
    pool = list(leaves)
    for _ in range(int(rng.integers(2, 9))):
        try:
            if rng.random() < 0.5:
                pool.append(_UNARY[rng.integers(len(_UNARY))](pool[rng.integers(len(pool))]))
            else:
                a, b = pool[rng.integers(len(pool))], pool[rng.integers(len(pool))]
                pool.append(_BINARY[rng.integers(len(_BINARY))](a, b))
        except Exception:  # shapes an op does not take
            pass
    return leaves, sum(p.sum() for p in pool[3:]) if len(pool) > 3 else leaves[0].sum()


@pytest.mark.parametrize("seed", range(150))
def test_random_graphs_match_the_tensor_formulas(seed):
    leaves, out = _random_graph(seed)
    expected = _tensor_path_grad(out, leaves)
    out.backward()
    tol = 1e-5 if leaves[0].dtype == torch.float32 else 1e-12
    for leaf, grad in zip(leaves, expected):
        if grad is None:
            assert leaf.grad is None
            continue
        assert leaf.grad.dtype == grad.dtype and leaf.grad.shape == grad.shape
        # NOTE: not bit-equal everywhere: a sum's gradient is an expanded view on Tensors
        # and a written-out array here, and NumPy multiplies the two in different orders
        np.testing.assert_allclose(leaf.grad.numpy(), grad.numpy(), rtol=tol, atol=tol)


def test_grad_of_non_leaves_and_backward_with_inputs():
    a, b = _leaves(torch.float64, (3, 4), (4, 2))
    mid = torch.tanh(a * 2)
    out = (mid @ b).sum() + a.mean()
    expected = _tensor_path_grad(out, [mid, a])
    got = torch.autograd.grad(out, [mid, a], retain_graph=True)
    for g, e in zip(got, expected):
        assert type(g) is torch.Tensor and np.array_equal(g.numpy(), e.numpy())
    out.backward(inputs=[b], retain_graph=True)
    assert a.grad is None and b.grad is not None
    (expected_b,) = _tensor_path_grad(out, [b])
    assert np.array_equal(b.grad.numpy(), expected_b.numpy())
    with pytest.raises(RuntimeError, match="does not require grad"):
        torch.autograd.grad(out, [torch.ones(2)])
    (unused,) = torch.autograd.grad(out, [_leaves(torch.float64, (2,))[0]], allow_unused=True)
    assert unused is None


@pytest.mark.parametrize("retain", [False, True])
def test_backward_frees_each_nodes_saved_arrays_as_it_passes(retain):
    # the memory peak of a training step: by the time backward reaches the first layer's
    # leaf, every later activation (saved by the nodes already run) is gone, unless the
    # graph is retained
    import weakref

    torch.manual_seed(0)
    x = torch.randn(4, 1, 12, 12)
    w1, w2 = torch.randn(3, 1, 3, 3).requires_grad_(), torch.randn(5, 3, 3, 3).requires_grad_()
    lin = torch.randn(2, 5 * 4 * 4).requires_grad_()
    # core's ops only: this package's tests run without torch-nn
    h1 = torch.relu(torch.conv2d(x, w1))
    h2 = torch.max_pool2d(torch.tanh(torch.conv2d(h1, w2)), 2)
    out = (h2.flatten(1) @ lin.t()).sigmoid().sum()
    refs = [weakref.ref(t._np) for t in (h1, h2)]
    del h1, h2
    alive = []
    w1.register_hook(lambda g: alive.append([r() is not None for r in refs]))
    out.backward(retain_graph=retain)
    assert alive == [[retain, retain]]
