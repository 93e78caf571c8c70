"""A custom ``torch.autograd.Function`` made of two plain callables, for the tests that
need a small one (the golden snippets in autograd_cases.py write theirs out: they run
under real PyTorch too)."""

from torch.autograd import Function


def make_function(name: str, forward, backward) -> type:
    """A ``Function`` subclass called ``name`` with ``forward(ctx, *args)`` and
    ``backward(ctx, *grads)`` as its static methods."""
    methods = {"forward": staticmethod(forward), "backward": staticmethod(backward)}
    return type(name, (Function,), methods)
