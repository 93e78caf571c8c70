"""Helpers shared by the optimizers: option checks, state counters, gradients."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

import torch

__all__ = [
    "State",
    "zeros",
    "counter",
    "check_options",
    "check_option",
    "options",
    "check_min",
    "check_betas",
    "scalar_dtype",
    "new_counter",
    "as_float",
    "direction",
    "decay_mode",
    "adam_moments",
    "with_grads",
    "expand_doc",
    "check_fused",
]


class State(NamedTuple):
    """One entry of an optimizer's per-parameter state: its key, its initial value
    ``init(param, group)``, and the group option that must be truthy for it to exist
    (``None``: always)."""

    name: str
    init: Callable[[Any, dict], Any]
    when: str | None = None


def zeros(name: str, when: str | None = None) -> State:
    """A state tensor of zeros shaped like the parameter."""
    return State(name, lambda p, group: torch.zeros_like(p), when)


def counter(name: str = "step", value: float = 0.0) -> State:
    """A 0-dim scalar-state tensor (see :func:`new_counter`)."""
    return State(name, lambda p, group: new_counter(value))


def check_min(name: str, value, low: float = 0.0) -> None:
    """``ValueError("Invalid <name>: <value>")`` unless ``low <= value``; a tensor learning
    rate must hold one element."""
    if name == "learning rate" and isinstance(value, torch.Tensor) and value.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not isinstance(value, torch.Tensor) and not low <= value:
        raise ValueError(f"Invalid {name}: {value}")


# the word PyTorch's refusal of a negative value names each option by
_OPTION_WORDS = {
    "lr": "learning rate",
    "eps": "epsilon value",
    "weight_decay": "weight_decay value",
    "momentum": "momentum value",
    "alpha": "alpha value",
    "lr_decay": "lr_decay value",
    "initial_accumulator_value": "initial_accumulator_value value",
    "momentum_decay": "momentum_decay value",
}


def check_options(**values) -> None:
    """PyTorch's refusals of bad option values, in the order given (see
    :func:`check_option`)."""
    for name, value in values.items():
        check_option(name, value, values)


def check_option(name: str, value, values: dict) -> None:
    """PyTorch's refusal of a bad value of the option ``name``: ``betas`` must lie in
    [0, 1), ``rho`` in [0, 1], ``etas`` around 1, ``fused`` and ``nesterov`` be allowed
    by the other ``values``, the rest be non-negative."""
    check = _SPECIAL_CHECKS.get(name)
    if check is not None:
        check(value, values)
    else:
        check_min(_OPTION_WORDS[name], value)


def _check_rho(rho, values) -> None:
    if not 0.0 <= rho <= 1.0:
        raise ValueError(f"Invalid rho value: {rho}")


def _check_etas(etas, values) -> None:
    if not 0.0 < etas[0] < 1.0 < etas[1]:
        raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")


def _check_nesterov(nesterov, values) -> None:
    if nesterov and (values["momentum"] <= 0 or values["dampening"] != 0):
        raise ValueError("Nesterov momentum requires a momentum and zero dampening")


_SPECIAL_CHECKS = {
    "betas": lambda betas, values: check_betas(betas),
    "rho": _check_rho,
    "etas": _check_etas,
    "nesterov": _check_nesterov,
    "fused": lambda fused, values: check_fused(fused, values["foreach"], values["differentiable"]),
}


def options(values: dict, names: str) -> dict:
    """An optimizer's defaults: the ``values`` (its ``__init__``'s locals) of the
    options ``names`` (space-separated, in the order of PyTorch's param-group keys)."""
    return {name: values[name] for name in names.split()}


def check_betas(betas) -> None:
    """Both betas must lie in [0, 1)."""
    for i, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")


def scalar_dtype():
    """The dtype of scalar state (step counters): float64 under a float64 default dtype,
    float32 otherwise."""
    return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32


def new_counter(value: float = 0.0):
    """A 0-dim scalar-state tensor holding ``value``."""
    return torch.tensor(value, dtype=scalar_dtype())


def as_float(value):
    """A Python float from a number or a one-element tensor (e.g. a tensor ``lr``)."""
    return value.item() if isinstance(value, torch.Tensor) else value


def direction(p, maximize: bool):
    """The gradient to descend: ``p.grad``, negated when maximizing."""
    return -p.grad if maximize else p.grad


def decay_mode(group) -> int:
    """How a group's weight decay applies, as the native kernels take it: 0 not at all, 1 as
    an L2 term of the gradient, 2 by shrinking the parameters (decoupled)."""
    if group["weight_decay"] == 0:
        return 0
    return 2 if group["decoupled_weight_decay"] else 1


def adam_kernel_options(group) -> tuple:
    """What NAdam's and RAdam's native kernels take after their per-parameter lists:
    ``1 - beta1, beta2, 1 - beta2, eps, weight_decay`` and the factor that decoupled decay
    shrinks the parameters by (1.0 without it)."""
    beta1, beta2 = group["betas"]
    lr, wd = as_float(group["lr"]), group["weight_decay"]
    shrink = 1 - lr * wd if decay_mode(group) == 2 else 1.0
    return 1 - beta1, beta2, 1 - beta2, group["eps"], wd, shrink


def adam_moments(p, state, group, lr: float):
    """The start of NAdam's and RAdam's reference updates: the gradient (negated when
    maximizing) with its L2 term, or the parameter shrunk by decoupled decay, then the
    running averages ``exp_avg`` and ``exp_avg_sq`` updated; returns the gradient."""
    beta1, beta2 = group["betas"]
    wd = group["weight_decay"]
    grad = direction(p, group["maximize"])
    if wd != 0:
        if group["decoupled_weight_decay"]:
            p.mul_(1 - lr * wd)
        else:
            grad = grad.add(p, alpha=wd)
    state["exp_avg"].lerp_(grad, 1 - beta1)
    state["exp_avg_sq"].mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    return grad


# the lines every algorithm's docstring shares, written once: ``{args}`` opens the Args
# section with ``params``, ``{maximize}`` documents that option, ``{moments}`` the
# ``betas`` and ``eps`` of the Adam family, and
# ``{example INITIAL | GRADIENT | CONSTRUCTOR | RESULT}`` is the example of one step
_DOC_LINES = {
    "args": "Args:\n    params (iterable): tensors to optimize or parameter-group dicts.",
    "maximize": "maximize (bool): maximize the objective instead. Default: ``False``.",
    "moments": "betas (Tuple[float, float]): decay rates of the running averages.\n"
    "    Default: ``(0.9, 0.999)``.\n"
    "eps (float): added to the denominator. Default: ``1e-8``.",
}
_DOC_EXAMPLE = """Examples::

    >>> w = torch.tensor({0})
    >>> w.grad = torch.tensor({1})
    >>> torch.optim.{2}.step()
    >>> w
    {3}"""


def expand_doc(doc: str | None) -> str | None:
    """``doc`` with its placeholder lines (see ``_DOC_LINES``) written out."""
    if doc is None or "{" not in doc:
        return doc
    lines = []
    for line in doc.split("\n"):
        match = re.fullmatch(r"( *)\{(\w+)(?: (.*))?\}", line)
        if match is None:
            lines.append(line)
            continue
        indent, name, fields = match.groups()
        text = _DOC_EXAMPLE.format(*fields.split(" | ")) if name == "example" else _DOC_LINES[name]
        lines.extend(indent + part if part else part for part in text.split("\n"))
    return "\n".join(lines)


def with_grads(group, name: str, sparse_ok: bool = False, hint: str = "") -> list:
    """The parameters of ``group`` that have a gradient; a sparse one raises unless the
    optimizer handles it (``hint`` is appended to the message)."""
    params = [p for p in group["params"] if p.grad is not None]
    if not sparse_ok:
        for p in params:
            if getattr(p.grad, "is_sparse", False):
                raise RuntimeError(f"{name} does not support sparse gradients{hint}")
    return params


def check_fused(fused, foreach, differentiable) -> None:
    """PyTorch's refusals of option combinations with ``fused=True``."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
