"""The public functions of torch.autograd: ``backward`` and ``grad``."""

from __future__ import annotations

from ._backward import run_backward

__all__ = ["backward", "grad"]


def _as_tuple(x):
    if x is None:
        return None
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate the gradients of ``tensors`` into the ``.grad`` of the graph's leaves.

    Args:
        tensors (Tensor or sequence of Tensor): what to differentiate.
        grad_tensors (sequence of Tensor or None): the gradient with respect to each of
            ``tensors``; ``None`` is allowed for single-element tensors. Default: ``None``.
        retain_graph (bool, optional): keep the graph's saved values for another backward.
            Default: the value of ``create_graph``.
        create_graph (bool): record the backward pass so higher-order gradients can be
            taken. Default: ``False``.
        inputs (sequence of Tensor, optional): accumulate only into these leaves.

    Examples::

        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> torch.autograd.backward((x * x).sum())
        >>> x.grad
        tensor([2., 4.])
    """
    tensors = _as_tuple(tensors)
    grad_tensors = _as_tuple(grad_tensors) or (None,) * len(tensors)
    run_backward(
        tensors, grad_tensors, retain_graph, create_graph, _as_tuple(inputs), capture=False
    )


def grad(
    outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=False
):
    """The gradients of ``outputs`` with respect to ``inputs``, returned instead of being
    accumulated into ``.grad``.

    Args:
        outputs (Tensor or sequence of Tensor): what to differentiate.
        inputs (Tensor or sequence of Tensor): with respect to what.
        grad_outputs (sequence of Tensor, optional): gradient of each output.
        retain_graph (bool, optional): keep the graph for another backward.
            Default: the value of ``create_graph``.
        create_graph (bool): make the result differentiable. Default: ``False``.
        allow_unused (bool): return ``None`` for inputs the outputs do not depend on
            instead of raising. Default: ``False``.

    Examples::

        >>> x = torch.tensor(3.0, requires_grad=True)
        >>> torch.autograd.grad(x * x, x)
        (tensor(6.),)
    """
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    result = run_backward(outputs, grad_outputs, retain_graph, create_graph, inputs, capture=True)
    for i, g in enumerate(result):
        if g is None and not allow_unused:
            raise RuntimeError(
                f"One of the differentiated Tensors (input {i}) appears to not "
                "have been used in the graph. Set allow_unused=True if this is "
                "the desired behavior."
            )
    return result
