"""Spectral normalisation (Miyato et al.): the weight divided by its largest singular
value, estimated by power iteration (one step per training forward)."""

from __future__ import annotations

import torch

from .. import functional as F  # noqa: N812
from ._hook_removal import remove_reparametrization

__all__ = ["SpectralNorm", "spectral_norm", "remove_spectral_norm"]


class SpectralNorm:
    """The forward pre-hook that sets ``module.<name>`` to ``<name>_orig / sigma``."""

    _version = 1

    def __init__(
        self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12
    ) -> None:  # noqa: E501
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but got "
                f"n_power_iterations={n_power_iterations}"
            )
        self.name = name
        self.dim = dim
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        """``dim`` first, the rest flattened: (weight.shape[dim], -1)."""
        if self.dim != 0:
            order = [self.dim] + [d for d in range(weight.dim()) if d != self.dim]
            weight = weight.permute(*order)
        return weight.reshape(weight.shape[0], -1)

    def compute_weight(self, module, do_power_iteration: bool):
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        matrix = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with torch.no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(F.normalize(matrix.t() @ u, dim=0, eps=self.eps))
                    u.copy_(F.normalize(matrix @ v, dim=0, eps=self.eps))
                u, v = u.clone(), v.clone()
        sigma = (u * (matrix @ v)).sum()
        return weight / sigma

    def remove(self, module) -> None:
        with torch.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, torch.nn.Parameter(weight.detach()))

    def __call__(self, module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module, module.training))

    @staticmethod
    def apply(module, name: str, n_power_iterations: int, dim: int, eps: float) -> SpectralNorm:
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two spectral_norm hooks on the same parameter {name}"
                )
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        with torch.no_grad():
            rows, cols = fn.reshape_weight_to_matrix(weight).shape
            u = F.normalize(torch.empty(rows, dtype=weight.dtype).normal_(0, 1), dim=0, eps=eps)
            v = F.normalize(torch.empty(cols, dtype=weight.dtype).normal_(0, 1), dim=0, eps=eps)
        delattr(module, name)
        module.register_parameter(name + "_orig", weight)
        setattr(module, name, weight.detach())
        module.register_buffer(name + "_u", u)
        module.register_buffer(name + "_v", v)
        module.register_forward_pre_hook(fn)
        return fn


def spectral_norm(
    module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12, dim=None
):  # noqa: E501
    """Divide ``module.<name>`` by its spectral norm before every forward.

    Args:
        module (Module): the module.
        name (str): the parameter. Default: ``'weight'``.
        n_power_iterations (int): power-iteration steps per training forward. Default: 1.
        eps (float): Default: 1e-12.
        dim (int, optional): the output dim; 1 for transposed convolutions, else 0.

    Examples::

        >>> m = nn.utils.spectral_norm(nn.Linear(20, 40))
        >>> m.weight_u.shape, m.weight_orig.shape
        (torch.Size([40]), torch.Size([40, 20]))
    """
    if dim is None:
        transposed = type(module).__name__.startswith("ConvTranspose")
        dim = 1 if transposed else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name: str = "weight"):
    """Undo :func:`spectral_norm`."""
    return remove_reparametrization(module, SpectralNorm, name, "spectral_norm")
