"""Weight normalisation (Salimans & Kingma): a weight ``w`` re-expressed as
``g * v / ||v||``, with magnitude ``g`` and direction ``v`` as the parameters."""

from __future__ import annotations

import warnings

from ..parameter import Parameter
from ._hook_removal import remove_reparametrization

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


def norm_except_dim(v, p: float = 2, dim: int = 0):
    """The p-norm of ``v`` over every dim but ``dim`` (kept, others size 1); over the
    whole tensor when ``dim`` is -1."""
    if dim == -1:
        return v.abs().pow(p).sum().pow(1.0 / p)
    dim = dim % v.dim()
    others = tuple(d for d in range(v.dim()) if d != dim)
    return v.abs().pow(p).sum(others, keepdim=True).pow(1.0 / p)


class WeightNorm:
    """The forward pre-hook that recomputes ``module.<name>`` from ``<name>_g`` and
    ``<name>_v``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return v * (g / norm_except_dim(v, 2, self.dim))

    @staticmethod
    def apply(module, name: str, dim: int) -> WeightNorm:
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}"
                )
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(
            name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).detach())
        )
        module.register_parameter(name + "_v", Parameter(weight.detach()))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name: str = "weight", dim: int = 0):
    """Reparametrise ``module.<name>`` as ``g * v / ||v||`` (norm over every dim but
    ``dim``; over the whole tensor with ``dim=None``). Returns the module.

    Examples::

        >>> m = nn.utils.weight_norm(nn.Linear(20, 40))
        >>> m.weight_g.shape, m.weight_v.shape
        (torch.Size([40, 1]), torch.Size([40, 20]))
    """
    warnings.warn(
        "`torch.nn.utils.weight_norm` is deprecated in favor of "
        "`torch.nn.utils.parametrizations.weight_norm`.",
        FutureWarning,
        stacklevel=2,
    )
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name: str = "weight"):
    """Undo :func:`weight_norm`: ``<name>`` becomes a plain parameter again."""
    return remove_reparametrization(module, WeightNorm, name, "weight_norm")
