"""``prim::Expr`` nodes of the script compiler (Python arithmetic, comparisons,
``bool()``, ``int()``, ``len()``, indexing ... over their inputs) on graph values during
ONNX export: translated into ONNX ops on 0-dim tensors."""

from __future__ import annotations

import ast
import re

import torch
from torch.jit import _ir

from ._graph import SymbolicValue
from ._script_examples import _EXPR_GLOBALS, example_type
from .errors import SymbolicValueError

__all__ = ["ExprTranslator", "typed"]

_COMPARE_OPS = {
    ast.Lt: ("Less", False),
    ast.LtE: ("LessOrEqual", False),
    ast.Gt: ("Greater", False),
    ast.GtE: ("GreaterOrEqual", False),
    ast.Eq: ("Equal", False),
    ast.NotEq: ("Equal", True),
}
_BINARY_OPS = {ast.Add: "Add", ast.Sub: "Sub", ast.Mult: "Mul", ast.Pow: "Pow"}


class ExprTranslator:
    """A ``prim::Expr`` template (Python over its inputs) on 0-dim graph values."""

    def __init__(self, t, node: _ir.Node, args: list) -> None:
        # t: the script translator (its graph context and size translation)
        self.t, self.g, self.node = t, t.g, node
        self.args = args

    def translate(self):
        text = self.node.attrs["expr"].format(*(f"_a{i}" for i in range(len(self.args))))
        tree = ast.parse(text, mode="eval").body
        return self.visit(tree)

    def fail(self, what: str):
        return SymbolicValueError(
            f"ONNX export of a scripted program: {what} on a value computed from the "
            f"inputs is not supported (prim::Expr '{self.node.attrs['expr']}' at "
            f"{self.node.source or 'an unknown line'})"
        )

    def visit(self, tree: ast.expr):
        if isinstance(tree, ast.Name) and tree.id.startswith("_a"):
            return self.args[int(tree.id[2:])]
        if isinstance(tree, ast.Constant):
            return tree.value
        if not any(isinstance(self.value_of(n), SymbolicValue) for n in _names(tree)):
            return eval(compile(ast.Expression(tree), "<expr>", "eval"), _EXPR_GLOBALS,  # noqa: S307
                        {f"_a{i}": a for i, a in enumerate(self.args)})  # fmt: skip
        method = getattr(self, f"visit_{type(tree).__name__}", None)
        if method is None:
            raise self.fail(f"the Python construct '{_shown(tree)}'")
        return method(tree)

    def value_of(self, name: ast.Name):
        return self.args[int(name.id[2:])]

    def number(self, value, dtype=None) -> SymbolicValue:
        """``value`` as a 0-dim graph value (in ``dtype`` when given)."""
        if isinstance(value, SymbolicValue):
            if value.sizes not in (None, ()):
                value = self.g.op("Reshape", value, self.g.int64s([]))
                value.dtype, value.sizes = value.dtype, ()
            return self.g.cast(value, dtype) if dtype is not None else value
        if dtype is None:
            dtype = example_type(value)[0]
        return self.g.constant(value, dtype)

    def common(self, *values) -> tuple[torch.dtype, list]:
        dtypes = [v.dtype if isinstance(v, SymbolicValue) else example_type(v)[0]
                  for v in values]  # fmt: skip
        if any(d is not None and d.is_floating_point for d in dtypes):
            dtype = torch.float64
        elif all(d == torch.bool for d in dtypes):
            dtype = torch.bool
        else:
            dtype = torch.int64
        return dtype, [self.number(v, dtype) for v in values]

    def visit_Compare(self, tree: ast.Compare):  # noqa: N802
        if len(tree.ops) != 1 or type(tree.ops[0]) not in _COMPARE_OPS:
            raise self.fail(f"the comparison '{_shown(tree)}'")
        op_type, negate = _COMPARE_OPS[type(tree.ops[0])]
        _, (a, b) = self.common(self.visit(tree.left), self.visit(tree.comparators[0]))
        out = self.g.op(op_type, a, b)
        if negate:
            out = self.g.op("Not", out)
        out.dtype, out.sizes = torch.bool, ()
        return out

    def visit_BinOp(self, tree: ast.BinOp):  # noqa: N802
        left, right = self.visit(tree.left), self.visit(tree.right)
        dtype, (a, b) = self.common(left, right)
        if isinstance(tree.op, ast.Div):
            out = self.g.op("Div", self.number(a, torch.float64), self.number(b, torch.float64))
            dtype = torch.float64
        elif isinstance(tree.op, (ast.FloorDiv, ast.Mod)):
            quotient = self.g.op("Floor", self.g.op("Div", *(self.g.cast(v, torch.float64)
                                                               for v in (a, b))))  # fmt: skip
            if isinstance(tree.op, ast.FloorDiv):
                out = self.g.cast(typed(quotient, torch.float64, ()), dtype)
            else:  # Python's modulo takes the divisor's sign: a - floor(a / b) * b
                product = self.g.cast(
                    typed(
                        self.g.op("Mul", quotient, self.g.cast(b, torch.float64)), torch.float64, ()
                    ),
                    dtype,
                )  # noqa: E501
                out = self.g.op("Sub", a, product)
        elif type(tree.op) in _BINARY_OPS:
            out = self.g.op(_BINARY_OPS[type(tree.op)], a, b)
        else:
            raise self.fail(f"the operator in '{_shown(tree)}'")
        return typed(out, dtype, ())

    def visit_UnaryOp(self, tree: ast.UnaryOp):  # noqa: N802
        operand = self.visit(tree.operand)
        if isinstance(tree.op, ast.Not):
            return typed(self.g.op("Not", self.number(operand, torch.bool)), torch.bool, ())
        if isinstance(tree.op, ast.USub):
            value = self.number(operand)
            return typed(self.g.op("Neg", value), value.dtype, ())
        if isinstance(tree.op, ast.UAdd):
            return operand
        raise self.fail(f"the operator in '{_shown(tree)}'")

    def visit_BoolOp(self, tree: ast.BoolOp):  # noqa: N802
        op_type = "And" if isinstance(tree.op, ast.And) else "Or"
        values = [self.number(self.visit(v), torch.bool) for v in tree.values]
        out = values[0]
        for value in values[1:]:
            out = typed(self.g.op(op_type, out, value), torch.bool, ())
        return out

    def visit_Call(self, tree: ast.Call):  # noqa: N802
        name = tree.func.id if isinstance(tree.func, ast.Name) else None
        casts = {"bool": torch.bool, "int": torch.int64, "float": torch.float64}
        if name in casts and len(tree.args) == 1 and not tree.keywords:
            value = self.visit(tree.args[0])
            if (
                name == "int"
                and isinstance(value, SymbolicValue)
                and (value.dtype is not None and value.dtype.is_floating_point)
            ):  # Python's int() truncates towards zero
                sign = self.g.op("Sign", value)
                value = typed(self.g.op("Mul", sign, self.g.op("Floor", self.g.op(
                    "Abs", value))), value.dtype, value.sizes)  # fmt: skip
            return typed(self.number(value, casts[name]), casts[name], ())
        if name == "slice" and not tree.keywords:  # x[a:b] with bounds on graph values
            return slice(*(self.visit(a) for a in tree.args))
        if name == "len" and len(tree.args) == 1:
            inner = tree.args[0]
            if isinstance(inner, ast.Call) and getattr(inner.func, "id", None) == "range":
                return self.range_length([self.visit(a) for a in inner.args])
            value = self.visit(inner)
            if isinstance(value, SymbolicValue) and value.sizes:
                return self.t.size(value, 0)
        raise self.fail(f"the call '{_shown(tree)}'")

    def range_length(self, bounds: list):
        """``len(range(start, end, step))`` on int64 values: max(0, (end - start + step
        -+ 1) / step) (the truncating division agrees with floor wherever it counts)."""
        start, end, step = (bounds + [1])[:3] if len(bounds) == 2 else bounds
        if isinstance(step, SymbolicValue):
            raise self.fail("a range whose step is computed from the inputs")
        g = self.g
        _, (start, end) = self.common(start, end)
        adjust = int(step) - 1 if step > 0 else int(step) + 1
        span = g.op("Add", g.op("Sub", self.number(end, torch.int64),
                                self.number(start, torch.int64)),
                    g.constant(adjust, torch.int64))  # fmt: skip
        count = g.op("Div", span, g.constant(int(step), torch.int64))
        return typed(g.op("Max", count, g.constant(0, torch.int64)), torch.int64, ())

    def visit_Attribute(self, tree: ast.Attribute):  # noqa: N802
        value = self.visit(tree.value)
        if tree.attr == "shape" and isinstance(value, SymbolicValue) and value.sizes is not None:
            return [self.t.size(value, d) for d in range(len(value.sizes))]
        raise self.fail(f"the attribute '{_shown(tree)}'")

    def visit_Subscript(self, tree: ast.Subscript):  # noqa: N802
        container, index = self.visit(tree.value), self.visit(tree.slice)
        if isinstance(container, (SymbolicValue, torch.Tensor)) and not isinstance(
            index, (slice, tuple)
        ):  # a row of a tensor (``for row in x``): Gather on the first axis
            data = container if isinstance(container, SymbolicValue) else self.g.constant(container)
            out = self.g.op("Gather", data, self.number(index, torch.int64), axis_i=0)
            sizes = None if data.sizes is None else data.sizes[1:]
            return typed(out, data.dtype, sizes)
        raise self.fail(
            "indexing a list by a value computed from the inputs (a loop over a list whose "
            "length depends on them)"
        )


def _shown(tree: ast.AST) -> str:
    """``tree`` as the template's text (``{0} << {1}``)."""
    return re.sub(r"_a(\d+)", r"{\1}", ast.unparse(tree))


def _names(tree: ast.AST) -> list[ast.Name]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id.startswith("_a")]


def typed(value: SymbolicValue, dtype, sizes) -> SymbolicValue:
    value.dtype, value.sizes = dtype, sizes
    return value
