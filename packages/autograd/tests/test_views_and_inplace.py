"""Gradients through views, indexing, casts, copies and in-place ops."""

import autograd_cases
import numpy as np
import pytest

import torch


def _grad(f, *shapes, dtype=torch.float64):
    inputs = [
        torch.arange(float(np.prod(s)), dtype=dtype).reshape(s).requires_grad_() for s in shapes
    ]
    f(*inputs).sum().backward()
    return [x.grad for x in inputs]


@pytest.mark.parametrize(
    "f,expected",
    [
        (
            lambda x: x.t() * torch.tensor([[1.0], [2.0], [3.0]], dtype=torch.float64),
            [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]],
        ),
        (lambda x: x[1], [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]),
        (lambda x: x[:, ::2] * 2, [[2.0, 0.0, 2.0], [2.0, 0.0, 2.0]]),
        (lambda x: x.narrow(1, 1, 2), [[0.0, 1.0, 1.0], [0.0, 1.0, 1.0]]),
        (lambda x: x.view(3, 2)[0], [[1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]),
        (lambda x: x.reshape(-1).unsqueeze(0).squeeze(0), [[1.0] * 3] * 2),
        (lambda x: x.permute(1, 0).flatten(), [[1.0] * 3] * 2),
        (lambda x: x.diagonal(), [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]),
        (lambda x: x.unfold(1, 2, 1), [[1.0, 2.0, 1.0], [1.0, 2.0, 1.0]]),
        (lambda x: x.expand(4, 2, 3), [[4.0] * 3] * 2),
        (lambda x: x[[0, 0, 1]], [[2.0] * 3, [1.0] * 3]),
        (lambda x: x[x > 2], [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]),
        (lambda x: x.unbind(1)[2] * 5, [[0, 0, 5.0], [0, 0, 5.0]]),
        (lambda x: x.float() * 2, [[2.0] * 3] * 2),
        (lambda x: x.clone() ** 2, [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]),
    ],
)
def test_view_gradients(f, expected):
    (grad,) = _grad(f, (2, 3))
    np.testing.assert_allclose(grad.numpy(), expected)
    assert grad.dtype is torch.float64


def test_split_and_chunk_pieces_get_their_gradients():
    x = torch.arange(6.0, requires_grad=True)
    a, b, c = x.split(2)
    (a * 1 + b * 2 + c * 3).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 2.0, 2.0, 3.0, 3.0]


def test_inplace_ops_record_against_old_values():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y.mul_(y)  # y = x^2, computed in place
    y.add_(x, alpha=3)
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 7.0, 9.0]
    assert type(y.grad_fn).__name__ == "AddBackward0"


def test_setitem_gradients():
    x = torch.zeros(3, requires_grad=True)
    v = torch.tensor([5.0], requires_grad=True)
    y = x * 2
    y[1] = v * 3
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 0.0, 2.0] and v.grad.tolist() == [3.0]


def test_copy_gradients_flow_to_the_source():
    src = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.zeros(2, 2)
    y.copy_(src)
    (y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert src.grad.tolist() == [4.0, 6.0]


def test_inplace_on_a_view_rebases_the_base_history():
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    x = a * 1
    v = x[0]
    v.mul_(3)
    assert type(x.grad_fn).__name__ == "CopySlices"
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    (x * torch.tensor([[1.0, 10.0], [100.0, 1000.0]])).sum().backward()
    assert a.grad.tolist() == [[3.0, 30.0], [100.0, 1000.0]]


def test_inplace_on_a_view_of_a_leaf_raises():
    a = torch.ones(2, 2, requires_grad=True)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        a[0].mul_(2)
    with torch.no_grad():
        a[0].mul_(2)  # allowed: not recorded
    assert a.tolist() == [[2.0, 2.0], [1.0, 1.0]]


def test_inplace_on_views_double_backward():
    def f(a, b):
        x = a * 1
        x[0].mul_(b[0])
        x[:, 1].add_(b**2)
        return x.tanh()

    a = torch.rand(2, 2, dtype=torch.float64, requires_grad=True)
    b = torch.rand(2, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(f, (a, b)) and torch.autograd.gradgradcheck(f, (a, b))


def test_double_backward_through_views():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
    y = (x.t()[0] ** 3).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert g.tolist() == [[3.0, 0.0], [27.0, 0.0]] and gg.tolist() == [[6.0, 0.0], [18.0, 0.0]]


def test_more_pointwise_gradients():
    x = torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True)
    y = (torch.exp(x) + torch.log(x) + abs(-x) + x % 0.3 + 2**x).sum()
    y.backward()
    expected = (
        np.exp([0.5, 2.0])
        + 1 / np.array([0.5, 2.0])
        + 1
        + 1
        + np.log(2) * 2 ** np.array([0.5, 2.0])
    )
    np.testing.assert_allclose(x.grad.numpy(), expected)


def _alpha2():
    """The tensors of the alpha-2 example (the golden snippet's code): a, b, z, q, r."""
    scope = {"torch": torch}
    exec(autograd_cases.ALPHA2, scope)
    return tuple(scope[name] for name in "abzqr")


def test_alpha2_example_z_and_r_backward_succeed():
    x, y, z, q, r = _alpha2()
    z.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0] and y.grad.tolist() == [2.0, 2.0]
    x, y, z, q, r = _alpha2()
    r.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0] and y.grad.tolist() == [2.0, 2.0]


def test_alpha2_example_q_backward_raises_naming_tensor_op_and_versions():
    x, y, z, q, r = _alpha2()
    with pytest.raises(RuntimeError) as caught:
        q.sum().backward()
    message = str(caught.value)
    assert message.startswith(
        "one of the variables needed for gradient computation has been modified by an "
        "inplace operation: [torch.FloatTensor [2]], which is output 0 of Add, is at "
        "version 1; expected version 0 instead."
    )


def test_migration_guide_data_vs_detach():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    out.data.mul_(0)  # invisible to autograd: backward uses the zeroed result
    out.sum().backward()
    assert a.grad.tolist() == [0.0, 0.0, 0.0]

    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    out.detach().mul_(0)  # shares the version counter: backward notices
    with pytest.raises(RuntimeError, match="output 0 of Sigmoid, is at version 1"):
        out.sum().backward()


def test_saved_result_alias_does_not_keep_the_graph_alive():
    import gc
    import weakref

    x = torch.ones(2, requires_grad=True)
    y = torch.tanh(x * 2)
    node = weakref.ref(y.grad_fn)
    del y
    gc.collect()
    assert node() is None


# ----------------------------------------- in-place writes into dtype-reinterpreting views


def _write_through_real_view(x, y):
    z = torch.complex(x * 1, y * 1)
    r = torch.view_as_real(z)
    r[..., 1].mul_(x)
    z.real[::2].add_(y[::2] ** 2)
    return (z * torch.tensor([1 - 2j, 0.5j, 3.0], dtype=torch.complex128)).abs()


def _write_through_complex_view(p):
    a = p * 1
    c = torch.view_as_complex(a)
    c[1:].mul_(torch.tensor([2 - 1j, 0.5j], dtype=torch.complex128))
    # a fresh view: one made before the write above keeps a stale history (known gap)
    torch.view_as_complex(a).imag.mul_(p[:, 0])
    return a.sin()


def test_inplace_into_view_as_real_gradcheck():
    x = torch.tensor([0.5, -1.25, 2.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([1.5, 0.25, -0.75], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(_write_through_real_view, (x, y))
    assert torch.autograd.gradgradcheck(_write_through_real_view, (x, y))


def test_inplace_into_view_as_complex_gradcheck():
    p = torch.tensor([[0.5, -1.25], [2.0, 1.5], [0.25, -0.75]], dtype=torch.float64)
    assert torch.autograd.gradcheck(_write_through_complex_view, (p.requires_grad_(),))
    assert torch.autograd.gradgradcheck(_write_through_complex_view, (p,))


def test_inplace_into_real_part_rebases_complex_base():
    # the audit case: x.grad was [1, 0] (the view's geometry was read in complex units)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    z = torch.complex(x, y)
    r = torch.view_as_real(z)
    r.mul_(torch.tensor([[2.0, 3.0], [5.0, 7.0]]))
    assert type(z.grad_fn).__name__ == "CopySlices"
    assert type(r.grad_fn).__name__ == "ViewAsRealBackward0"
    z.real.sum().backward()
    assert x.grad.tolist() == [2.0, 5.0]
    assert y.grad.tolist() == [0.0, 0.0]


def test_view_by_dtype_is_not_a_differentiable_view():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    h = x * 1
    v = h.view(torch.float32)
    assert v._base is None and not v.requires_grad
    v.mul_(torch.ones(4, requires_grad=True))  # leaves h's history alone, as in PyTorch
    assert type(h.grad_fn).__name__ == "MulBackward0"


# ------------------------------------------------- views made before a write into their base


def test_stale_view_gets_a_node_reading_the_base_once():
    x = torch.arange(1.0, 10.0, dtype=torch.float64).reshape(3, 3).requires_grad_()
    a = x * 1
    v = a[0]
    old = v.grad_fn
    a[1].mul_(2)
    fresh = v.grad_fn
    assert fresh is not old and type(fresh).__name__ == "AsStridedBackward0"
    assert v.grad_fn is fresh  # regenerated once, not at every read
    assert fresh.next_functions[0][0] is a.grad_fn  # the base's CopySlices
    v.sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]


def test_sibling_write_reaches_views_made_before():
    x = torch.arange(1.0, 10.0, dtype=torch.float64).reshape(3, 3).requires_grad_()
    p = torch.tensor([2.0, 3.0, 4.0], dtype=torch.float64, requires_grad=True)
    a = x * 1
    c = a[:, :]
    c[1:].mul_(3)
    c[:, 1].mul_(p)
    (c * c).sum().backward()
    expected = 2 * a.detach() * torch.tensor([[1.0, 2.0, 1.0], [3.0, 9.0, 3.0], [3.0, 12.0, 3.0]])
    assert torch.equal(x.grad, expected.double())
    assert p.grad is not None


def test_views_made_without_grad_stay_out_of_the_graph():
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        v = x[:2]
        x.mul_(2)
    assert not v.requires_grad and v.grad_fn is None
    leaf_view = torch.zeros(4)[:2].requires_grad_()
    leaf_view._base.add_(1)
    assert leaf_view.grad_fn is None and leaf_view.is_leaf


# ------------------------------------------------------------- fills cut the old history


@pytest.mark.parametrize(
    "fill",
    [
        "uniform_()",
        "normal_()",
        "random_()",
        "exponential_()",
        "geometric_(0.5)",
        "cauchy_()",
        "log_normal_()",
        "bernoulli_()",
        "zero_()",
    ],
)
def test_fill_gives_no_gradient_to_the_old_history(fill):
    x = torch.ones(3, requires_grad=True)
    h = x * 2
    eval(f"h.{fill}")
    assert h.requires_grad
    h.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


# --------------------------------------------- index-family writes into views rebase the base


def test_masked_fill_into_a_view_rebases_the_base():
    x = torch.ones(2, 3, requires_grad=True)
    a = x * 1
    a[0].masked_fill_(torch.tensor([True, False, True]), 0.0)
    assert type(a.grad_fn).__name__ == "CopySlices"
    a.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [1.0, 1.0, 1.0]]


def test_inplace_special_functions_record_their_write():
    # gradients printed by PyTorch 2.13; the in-place forms kept the old history (grad 1)
    x = torch.tensor([0.7, 1.9], dtype=torch.float64, requires_grad=True)
    (x * 1).polygamma_(1).sum().backward()
    assert torch.allclose(x.grad, torch.tensor([-6.434992874190923, -0.45831281882901354],
                                               dtype=torch.float64))  # fmt: skip
    x.grad = None
    (x * 1 + 1).mvlgamma_(2).sum().backward()
    assert torch.allclose(x.grad, torch.tensor([-0.08049202171869471, 1.5354011203383418],
                                               dtype=torch.float64))  # fmt: skip
