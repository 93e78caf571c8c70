"""Trace cases shared by tools/golden/record_jit.py (under PyTorch) and the tests: name ->
(factory of the traced function or module, factory of its example inputs)."""

from __future__ import annotations

import torch
from torch import nn


def _silu_add():
    def silu_add(x, y):
        return x * torch.sigmoid(x) + y

    return silu_add


def _relu_chain():
    def relu_chain(x):
        return torch.relu(torch.tanh(x)).exp()

    return relu_chain


def _bool_branch():
    def bool_branch(x):
        if x.sum() > 0:
            return x
        return -x

    return bool_branch


def _item_scale():
    def item_scale(x):
        return x * x.max().item()

    return item_scale


def _int_scale():
    def int_scale(x):
        return x * int(x.sum())

    return int_scale


class _LinearRelu(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return torch.relu(self.fc(x))


TRACE_CASES = {
    "silu_add": (_silu_add, lambda: (torch.ones(3, 4), torch.ones(3, 4))),
    "relu_chain": (_relu_chain, lambda: (torch.ones(2, 5),)),
    "bool_branch": (_bool_branch, lambda: (torch.ones(2),)),
    "item_scale": (_item_scale, lambda: (torch.ones(2),)),
    "int_scale": (_int_scale, lambda: (torch.ones(1),)),
    "linear_relu": (_LinearRelu, lambda: (torch.ones(2, 4),)),
}


class Interface(nn.Module):
    """A module interface, for ``torch.jit.interface``."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pass


# --- functions outside the script subset: torch.jit.script's errors (message, location)


def uses_try(x):
    try:
        return x
    except Exception:
        return x


def uses_lambda(x):
    f = lambda v: v + 1  # noqa: E731 - the construct under test
    return f(x)


def unknown_method(x):
    return x.foo_bar()


def uses_global_statement(x):
    global _COUNTER
    return x


def uses_star_args(*xs):
    return xs[0]


SCRIPT_ERROR_CASES = {
    "try": uses_try,
    "lambda": uses_lambda,
    "unknown_method": unknown_method,
    "global": uses_global_statement,
    "star_args": uses_star_args,
}
