"""Hook handles and hooks on leaves and nodes beyond the golden snippets."""

import gc
import weakref

import torch
from torch.autograd._hooks import _leaves


def test_handle_works_as_context_manager():
    x = torch.ones(2, requires_grad=True)
    with x.register_hook(lambda g: g * 0):
        (x * 1).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
    (x * 1).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_remove_twice_is_harmless():
    x = torch.ones(1, requires_grad=True)
    handle = x.register_hook(lambda g: g)
    handle.remove()
    handle.remove()


def test_leaf_bookkeeping_dies_with_the_leaf():
    x = torch.ones(1, requires_grad=True)
    x.register_hook(lambda g: g)
    (x * 2).backward()
    ref = weakref.ref(x)
    key = id(x)
    del x
    gc.collect()
    assert ref() is None and key not in _leaves


def test_hooks_run_for_autograd_grad_too():
    x = torch.ones(2, requires_grad=True)
    x.register_hook(lambda g: g * 4)
    (g,) = torch.autograd.grad((x * 1).sum(), x)
    assert g.tolist() == [4.0, 4.0] and x.grad is None


def test_hook_on_multi_output_function_output():
    class Split(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1, x * 1

        @staticmethod
        def backward(ctx, a, b):
            return a + b

    x = torch.ones(1, requires_grad=True)
    a, b = Split.apply(x)
    b.register_hook(lambda g: g * 100)
    (a + b).sum().backward()
    assert x.grad.tolist() == [101.0]


def test_accumulator_hooks_and_metadata():
    x = torch.ones(1, requires_grad=True)
    accumulator = (x * 1).grad_fn.next_functions[0][0]
    seen = []
    accumulator.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_outputs))
    accumulator.metadata["tag"] = 1
    (x * 3).sum().backward()
    assert seen and seen[0][0].tolist() == [3.0]
    assert accumulator.metadata == {"tag": 1}


def test_grad_of_non_leaf_input_sees_its_hooks():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g + 1)
    (g,) = torch.autograd.grad((y * 3).sum(), y)
    assert g.tolist() == [4.0, 4.0]
