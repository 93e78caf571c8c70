"""Parameters as one flat vector and back."""

from __future__ import annotations

import torch

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """Concatenate the flattened ``parameters`` into one 1-D tensor.

    Examples::

        >>> nn.utils.parameters_to_vector([torch.ones(2, 2), torch.zeros(1)])
        tensor([1., 1., 1., 1., 0.])
    """
    return torch.cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters) -> None:
    """Make each of ``parameters`` hold its slice of ``vec`` (they share its memory),
    the inverse of :func:`parameters_to_vector`.

    Examples::

        >>> ps = [nn.Parameter(torch.zeros(2)), nn.Parameter(torch.zeros(1))]
        >>> nn.utils.vector_to_parameters(torch.tensor([1.0, 2.0, 3.0]), ps)
        >>> ps[1]
        Parameter containing:
        tensor([3.], requires_grad=True)
    """
    from ..modules.module import _assign_data

    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    offset = 0
    for param in parameters:
        count = param.numel()
        _assign_data(param, vec[offset : offset + count].detach().view_as(param))
        offset += count
