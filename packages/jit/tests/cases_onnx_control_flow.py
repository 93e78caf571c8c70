"""Scripted programs with control flow on their inputs, for the ONNX export tests
(test_onnx_control_flow.py) and tools/golden/record_onnx_control_flow.py: each case is a
function or module to script, example arguments, the dynamic axes of its inputs and
other inputs that take other branches and trip counts."""

from __future__ import annotations

import inspect

import torch
from torch import nn


def branch_on_sum(x, y):
    if x.sum() > 0:
        z = x * 2
    else:
        z = x - y
    return z


def loop_over_rows(x, y):
    z = x
    for i in range(x.size(0)):
        z = z + y * i
    return z


def halve_until_small(x):
    while x.abs().max() > 1:
        x = x / 2
    return x


def repeat_count(x, n):
    for _ in range(int(n)):
        x = x * 0.5 + 1
    return x


def branch_in_loop(x):
    acc = torch.zeros_like(x[0])
    for i in range(x.size(0)):
        row = x[i]
        if row.sum() > 0:
            acc = acc + row
        else:
            acc = acc - row * 2
    return acc


def counter_and_break(x):
    steps = 0
    total = x
    for _i in range(10):
        if total.sum() > 20:
            break
        total = total + x.abs()
        steps += 1
    return total, steps * 1.0 + total.mean()


def range_with_start(x):
    z = x
    for i in range(1, x.size(0), 2):
        z = z * i + 1
    return z


def grow_by_rows(x):
    y = x[:1]
    for i in range(1, x.size(0)):
        y = torch.cat([y, x[i : i + 1] * i], 0)
    return y


def nested_loops(x):
    acc = torch.zeros_like(x)
    for i in range(x.size(0)):
        for j in range(x.size(1)):
            acc = acc + x * (i - j)
    return acc


def over_rows(x):
    total = torch.zeros(x.size(1))
    for row in x:
        total = total + row.relu()
    return total


def branch_on_shape(x):
    n = x.shape[0]
    if n > 2:
        x = x * 2
    return x


def doubling_with_counter(x):
    i = 0
    while bool(x.sum() < 100) and i < 50:
        x = x * 2
        i += 1
    return x, i


def branches_of_other_shapes(x):
    if x.mean() > 0:
        y = x.sum(0)
    else:
        y = x[0]
    return y


class Recurrent(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.cell = nn.Linear(6, 6)

    def forward(self, x):
        h = torch.zeros(x.size(1), 6)
        for t in range(x.size(0)):
            h = torch.tanh(self.cell(x[t]) + h)
        if h.mean() > 0:
            h = torch.relu(h)
        return h


def _rng(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def _case(program, args: tuple, dynamic_axes: dict, other_args: list) -> tuple:
    """One case, the input names being the parameters of the function or of the module's
    ``forward``."""
    signature = inspect.signature(program.forward if isinstance(program, type) else program)
    names = [name for name in signature.parameters if name != "self"]
    return program, args, names, dynamic_axes, other_args


def cases() -> dict:
    """name -> (program to script, args, input names, dynamic axes, other args)."""
    g = _rng(0)

    def r(*shape, scale=1.0):
        return torch.randn(*shape, generator=g) * scale

    return {
        "branch_on_sum": _case(
            branch_on_sum, (r(3, 4).abs(), r(3, 4)), {}, [(-r(3, 4).abs(), r(3, 4))]
        ),
        "loop_over_rows": _case(
            loop_over_rows,
            (r(3, 4), r(3, 4)),
            {"x": [0], "y": [0]},
            [(r(5, 4), r(5, 4)), (r(1, 4), r(1, 4))],
        ),
        "halve_until_small": _case(
            halve_until_small,
            (r(2, 3, scale=10.0),),
            {},
            [(r(2, 3, scale=100.0),), (r(2, 3, scale=0.1),)],
        ),
        "repeat_count": _case(
            repeat_count,
            (r(4), torch.tensor(3)),
            {},
            [(r(4), torch.tensor(0)), (r(4), torch.tensor(7))],
        ),
        "branch_in_loop": _case(branch_in_loop, (r(4, 3),), {"x": [0]}, [(r(7, 3),), (r(1, 3),)]),
        "counter_and_break": _case(
            counter_and_break,
            (r(3).abs(),),
            {},
            [(r(3, scale=5.0).abs(),), (r(3, scale=0.01).abs(),)],
        ),
        "range_with_start": _case(
            range_with_start, (r(4, 2),), {"x": [0]}, [(r(1, 2),), (r(6, 2),)]
        ),
        "grow_by_rows": _case(grow_by_rows, (r(4, 3),), {"x": [0]}, [(r(6, 3),), (r(1, 3),)]),
        "nested_loops": _case(nested_loops, (r(3, 2),), {"x": [0, 1]}, [(r(5, 4),)]),
        "over_rows": _case(over_rows, (r(3, 2),), {"x": [0]}, [(r(5, 2),)]),
        "branch_on_shape": _case(branch_on_shape, (r(3, 2),), {"x": [0]}, [(r(1, 2),)]),
        "doubling_with_counter": _case(
            doubling_with_counter,
            (r(3).abs() + 0.1,),
            {},
            [(r(3).abs() * 0.01 + 0.001,), (r(3).abs() + 200,)],
        ),
        "branches_of_other_shapes": _case(
            branches_of_other_shapes, (r(3, 2).abs(),), {"x": [0]}, [(-r(3, 2).abs(),)]
        ),
        "recurrent_module": _case(
            Recurrent, (r(5, 2, 6),), {"x": [0, 1]}, [(r(2, 3, 6),), (r(1, 1, 6),)]
        ),
    }
