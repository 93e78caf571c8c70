"""The ``Optimizer`` base: parameter groups with per-group options, per-parameter state."""

from __future__ import annotations

import torch

__all__ = ["Optimizer", "required"]


class _Required:
    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


class Optimizer:
    """Base of all optimizers.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups
            (``{"params": [...], "lr": 0.1}``) whose options override ``defaults``.
        defaults (dict): the default value of each option.
    """

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self.state: dict = {}
        self.param_groups: list[dict] = []
        if isinstance(params, torch.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of "
                f"Tensors or dicts, but got {type(params).__name__}"
            )
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own options (e.g. a layer fine-tuned with
        another learning rate)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        params = [params] if isinstance(params, torch.Tensor) else list(params)
        for p in params:
            if not isinstance(p, torch.Tensor):
                raise TypeError(
                    f"optimizer can only optimize Tensors, but one of the params is "
                    f"{type(p).__name__}"
                )
        group = {**param_group, "params": params}
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(
                    f"parameter group didn't specify a value of required "
                    f"optimization parameter {name}"
                )
            group.setdefault(name, default)
        existing = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in existing for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors (to ``None`` by default)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    p.grad = torch.zeros_like(p.grad)

    def step(self, closure=None):  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        lines = [self.__class__.__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(k for k in group if k != "params"):
                lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)
