"""``torch.compiler``: the questions and decorators libraries use around ``torch.compile``.

This project has no graph compiler: code always runs eagerly. So ``is_compiling()`` and
its relatives answer ``False``, and the decorators that steer a compiler (``disable``,
``allow_in_graph``, ``assume_constant_result``) return the function unchanged, which is
what they amount to in eager PyTorch. :func:`compile` (also ``torch.compile``) checks its
options and returns the model or function itself: it runs eagerly, with the same results
as compiled code and no speed-up (libraries such as lightning wrap ``torch.compile`` at
import time).

Examples::

    >>> torch.compiler.is_compiling()
    False
    >>> @torch.compiler.disable
    ... def double(x):
    ...     return 2 * x
    >>> double(torch.tensor(3))
    tensor(6)
"""

from __future__ import annotations

__all__ = [
    "compile",
    "allow_in_graph",
    "assume_constant_result",
    "disable",
    "is_compiling",
    "is_dynamo_compiling",
    "is_exporting",
    "reset",
]


def is_compiling() -> bool:
    """Whether the caller runs inside a ``torch.compile`` or ``torch.export`` trace:
    always ``False`` here."""
    return False


def is_dynamo_compiling() -> bool:
    """Whether TorchDynamo is tracing the caller: always ``False`` here."""
    return False


def is_exporting() -> bool:
    """Whether ``torch.export`` is tracing the caller: always ``False`` here."""
    return False


def disable(fn=None, recursive=True, *, reason=None):
    """Keep ``fn`` out of compilation: it is returned unchanged (everything runs
    eagerly here). Usable as ``@disable`` or ``@disable(recursive=False)``.

    Args:
        fn (callable, optional): the function. Default: ``None`` (return a decorator).
        recursive (bool): whether functions it calls are excluded too. Default: ``True``.
        reason (str, optional): why, for a compiler's logs.
    """
    if fn is None:
        return lambda function: function
    return fn


def allow_in_graph(fn):
    """Let a compiler put ``fn`` into its graph as one call: returns ``fn`` unchanged."""
    return fn


def assume_constant_result(fn):
    """Let a compiler treat ``fn``'s result as a constant: returns ``fn`` unchanged."""
    return fn


def reset() -> None:
    """Clear a compiler's caches: there are none here."""


# PyTorch 2.13's modes, in the order its error message lists them
_MODES = (None, "default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


def compile(
    model=None,
    *,
    fullgraph=False,
    dynamic=None,
    backend="inductor",
    mode=None,
    options=None,
    disable=False,
):
    """``torch.compile``: here the model or function itself, run eagerly (no graph
    compiler; same results, no speed-up). Usable as ``compile(fn)``, ``@compile`` and
    ``@compile(mode=...)``.

    Args:
        model (callable, optional): the module or function. Default: ``None`` (return a
            decorator).
        fullgraph, dynamic, backend, options, disable: accepted and not used.
        mode (str, optional): ``"default"``, ``"lite"``, ``"reduce-overhead"``,
            ``"max-autotune-no-cudagraphs"`` or ``"max-autotune"``. Default: ``None``.

    Examples::

        >>> square = torch.compile(lambda x: x * x)
        >>> square(torch.tensor(3))
        tensor(9)
    """
    if mode is not None and options is not None:
        raise RuntimeError(
            "Either mode or options can be specified, but both can't be specified at the same time."
        )
    if mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES[1:])}")
    if model is None:
        return lambda function: function
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    return model
