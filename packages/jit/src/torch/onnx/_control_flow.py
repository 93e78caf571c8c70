"""Export of scripted programs whose control flow depends on their inputs: ``prim::If``
and ``prim::Loop`` become ONNX ``If`` and ``Loop`` nodes with subgraphs.

A scripted graph has no shapes, and the symbolic functions need the dtype and rank of
what they translate. So the graph is run on the example inputs while it is translated
(:class:`_Examples`, one concrete value per IR value) and each node's outputs get the
dtype and sizes of their example values. Control flow whose condition or trip count is
known at export time is resolved as a trace would resolve it: the taken branch is
translated in place, a loop is unrolled. Otherwise:

- ``prim::If`` on a graph value: both branches are translated into ``then_branch`` /
  ``else_branch`` subgraphs; branch results are cast to the dtype of the branch the
  example takes. A branch that only raises (``if x.dim() != 2: raise ...``) is taken to
  not happen: the other branch is translated in place.
- ``prim::Loop`` with a trip count or condition on graph values: an ONNX ``Loop`` whose
  body takes (iteration, condition, carried values) and returns (condition, carried
  values); a ``while`` loop keeps its maximal trip count, as PyTorch writes it.
- ``prim::Expr`` (Python arithmetic, comparisons, ``bool()``, ``len()`` ... of the
  script compiler) on graph values becomes ONNX ops on 0-dim tensors.

What ONNX ``If``/``Loop`` cannot carry (lists, tuples, dicts changed inside a loop or
returned by a branch, list indexing by a loop counter) raises
:class:`~torch.onnx.errors.SymbolicValueError` naming the construct and its source line.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import torch
from torch.jit import _ir

from ._graph import GraphContext, SymbolicValue, onnx_dtype
from ._translate import _Translator
from .errors import OnnxExporterError, SymbolicValueError

__all__ = ["has_dynamic_control_flow", "translate_script"]

# ------------------------------------------------------------------- which values vary

# prim::Expr templates whose result is known at export time whatever the input tensors
_STATIC_EXPRS = (
    "{0} is None",
    "{0} is not None",
    "({0} is None)",
    "({0} is not None)",
    "{0}.dtype",
    "{0}.device",
    "{0}.ndim",
    "{0}.is_cuda",
    "{0}.requires_grad",
    "torch.jit.isinstance(",
    "isinstance(",
)
_STATIC_KINDS = {"aten::dim", "prim::Constant", "prim::GetAttr"}


def _is_static_node(node: _ir.Node) -> bool:
    if node.kind in _STATIC_KINDS:
        return True
    if node.kind == "prim::Expr":
        return node.attrs["expr"].startswith(_STATIC_EXPRS)
    return False


def _varying_values(graph: _ir.Graph) -> set:
    """The IR values that depend on the tensors given to the program (numbers and flags
    among its inputs are constants of the export), to a fixed point through loops and
    branches."""
    varying = {v for v in graph.inputs if "Tensor" in str(v.type)}
    changed = True

    def mark(value) -> None:
        nonlocal changed
        if value not in varying:
            varying.add(value)
            changed = True

    def walk(block: _ir.Block) -> None:
        for node in block.nodes:
            for sub in node.blocks:
                walk(sub)
            if node.kind == "prim::Loop":
                body = node.blocks[0]
                loop_varies = _loop_varies(node, varying)
                if loop_varies:
                    mark(body.inputs[0])
                for param, initial, result, out in zip(
                    body.inputs[1:], node.inputs[2:], body.outputs[1:], node.outputs
                ):
                    if loop_varies or initial in varying or result in varying:
                        mark(param)
                        mark(out)
            elif node.kind == "prim::If":
                branch_varies = node.inputs[0] in varying
                for index, out in enumerate(node.outputs):
                    if branch_varies or any(b.outputs[index] in varying for b in node.blocks):
                        mark(out)
            elif not _is_static_node(node) and any(v in varying for v in node.inputs):
                for out in node.outputs:
                    mark(out)

    while changed:
        changed = False
        walk(graph.block)
    return varying


def _loop_varies(node: _ir.Node, varying: set) -> bool:
    body = node.blocks[0]
    return any(v in varying for v in (node.inputs[0], node.inputs[1], body.outputs[0]))


def _control_nodes(block: _ir.Block):
    for node in block.nodes:
        if node.kind in ("prim::If", "prim::Loop"):
            yield node
        for sub in node.blocks:
            yield from _control_nodes(sub)


def has_dynamic_control_flow(graph: _ir.Graph) -> bool:
    """Whether a branch condition or loop trip count/condition of ``graph`` depends on
    its tensor inputs (the program then exports to ONNX ``If``/``Loop``)."""
    nodes = list(_control_nodes(graph.block))
    if not nodes:
        return False
    varying = _varying_values(graph)
    for node in nodes:
        if node.kind == "prim::If" and node.inputs[0] in varying:
            return True
        if node.kind == "prim::Loop" and _loop_varies(node, varying):
            return True
    return False


# ------------------------------------------------------------------- example values


class _Unknown:
    """The example value of a node the example run could not compute (a branch it
    does not take failed on the example)."""

    def __repr__(self) -> str:
        return "<unknown>"


UNKNOWN = _Unknown()
_EXPR_GLOBALS = {"torch": torch, "Tensor": torch.Tensor}
_compiled_exprs: dict[str, Any] = {}


def _compile_expr(template: str, count: int, statement: bool):
    key = (template, count, statement)
    code = _compiled_exprs.get(key)
    if code is None:
        text = template.format(*(f"_a{i}" for i in range(count)))
        code = compile(text, "<prim::Expr>", "exec" if statement else "eval")
        _compiled_exprs[key] = code
    return code


def run_expr(node: _ir.Node, args: list):
    """A ``prim::Expr`` node on Python values."""
    local = {f"_a{i}": a for i, a in enumerate(args)}
    statement = not node.outputs
    result = eval(_compile_expr(node.attrs["expr"], len(args), statement), _EXPR_GLOBALS, local)  # noqa: S307
    return None if statement else result


class _Examples:
    """The program run on the example inputs, node by node: ``values`` maps each IR
    value to its example (:data:`UNKNOWN` where it could not be computed)."""

    def __init__(self, values: dict) -> None:
        self.values = values

    def get(self, value: _ir.Value):
        return self.values.get(value, UNKNOWN)

    def run_node(self, node: _ir.Node, tolerant: bool) -> None:
        """Compute ``node``'s outputs; ``tolerant``: a failure (on a path the example
        does not take) leaves them unknown instead of raising."""
        args = [self.get(v) for v in node.inputs]
        if any(a is UNKNOWN for a in args):
            self._set(node.outputs, [UNKNOWN] * len(node.outputs))
            return
        try:
            with torch.no_grad():
                results = self._compute(node, args)
        except Exception:
            if not tolerant:
                raise
            results = [UNKNOWN] * len(node.outputs)
        self._set(node.outputs, results)

    def _set(self, outputs, results) -> None:
        for value, result in zip(outputs, results):
            self.values[value] = result

    def run_block(self, block: _ir.Block, tolerant: bool) -> list:
        for node in block.nodes:
            self.run_node(node, tolerant)
        return [self.get(v) for v in block.outputs]

    def _compute(self, node: _ir.Node, args: list) -> list:
        kind = node.kind
        if kind == "prim::Constant":
            return [node.attrs.get("value")]
        if kind == "prim::GetAttr":
            return [getattr(args[0], node.attrs["name"])]
        if kind in ("prim::ListConstruct", "prim::TupleConstruct"):
            return [list(args) if kind == "prim::ListConstruct" else tuple(args)]
        if kind == "prim::DictConstruct":
            return [dict(zip(args[0::2], args[1::2]))]
        if kind in ("prim::ListUnpack", "prim::TupleUnpack"):
            return list(args[0])
        if kind in ("prim::TupleIndex", "aten::__getitem__.list"):
            return [args[0][args[1]]]
        if kind == "prim::SliceConstruct":
            return [slice(*args)]
        if kind == "prim::Expr":
            return [run_expr(node, args)]
        if kind == "prim::Print":
            return []
        if kind == "prim::RaiseException":
            raise torch.jit.Error(args[0] if args else "Exception")
        if kind == "prim::If":
            return self.run_block(node.blocks[0 if args[0] else 1], tolerant=False)
        if kind == "prim::Loop":
            return self._loop(node, args)
        if node.target is not None:
            result = _ir.resolve_target(node.target)(*_call(node, args)[0], **_call(node, args)[1])
            if len(node.outputs) == 1 and "returns" not in node.attrs:
                return [result]
            return list(result)
        raise OnnxExporterError(f"the ONNX exporter cannot run a node of kind {node.kind}")

    def _loop(self, node: _ir.Node, args: list) -> list:
        body = node.blocks[0]
        trip, condition, carried = args[0], args[1], list(args[2:])
        iteration = 0
        while condition and iteration < trip:
            self._set(body.inputs, [iteration, *carried])
            results = self.run_block(body, tolerant=False)
            condition, carried = results[0], results[1:]
            iteration += 1
        return carried


def _call(node: _ir.Node, args: list) -> tuple[list, dict]:
    kwnames = node.attrs.get("kwnames", ())
    split = len(args) - len(kwnames)
    return args[:split], dict(zip(kwnames, args[split:]))


def _example_type(example) -> tuple:
    """(dtype, sizes) of an example value as an ONNX tensor (Python numbers are 0-dim:
    int -> int64, float -> float64 as TorchScript's, bool -> bool)."""
    if isinstance(example, torch.Tensor):
        return example.dtype, tuple(example.shape)
    if isinstance(example, bool):
        return torch.bool, ()
    if isinstance(example, int):
        return torch.int64, ()
    if isinstance(example, float):
        return torch.float64, ()
    return None, None


# --------------------------------------------------------------- Python expressions

_COMPARE_OPS = {
    ast.Lt: ("Less", False),
    ast.LtE: ("LessOrEqual", False),
    ast.Gt: ("Greater", False),
    ast.GtE: ("GreaterOrEqual", False),
    ast.Eq: ("Equal", False),
    ast.NotEq: ("Equal", True),
}
_BINARY_OPS = {ast.Add: "Add", ast.Sub: "Sub", ast.Mult: "Mul", ast.Pow: "Pow"}


class _ExprTranslator:
    """A ``prim::Expr`` template (Python over its inputs) on 0-dim graph values."""

    def __init__(self, t: _ScriptTranslator, node: _ir.Node, args: list) -> None:
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
            dtype = _example_type(value)[0]
        return self.g.constant(value, dtype)

    def common(self, *values) -> tuple[torch.dtype, list]:
        dtypes = [v.dtype if isinstance(v, SymbolicValue) else _example_type(v)[0]
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
                out = self.g.cast(_typed(quotient, torch.float64, ()), dtype)
            else:  # Python's modulo takes the divisor's sign: a - floor(a / b) * b
                product = self.g.cast(
                    _typed(
                        self.g.op("Mul", quotient, self.g.cast(b, torch.float64)), torch.float64, ()
                    ),
                    dtype,
                )  # noqa: E501
                out = self.g.op("Sub", a, product)
        elif type(tree.op) in _BINARY_OPS:
            out = self.g.op(_BINARY_OPS[type(tree.op)], a, b)
        else:
            raise self.fail(f"the operator in '{_shown(tree)}'")
        return _typed(out, dtype, ())

    def visit_UnaryOp(self, tree: ast.UnaryOp):  # noqa: N802
        operand = self.visit(tree.operand)
        if isinstance(tree.op, ast.Not):
            return _typed(self.g.op("Not", self.number(operand, torch.bool)), torch.bool, ())
        if isinstance(tree.op, ast.USub):
            value = self.number(operand)
            return _typed(self.g.op("Neg", value), value.dtype, ())
        if isinstance(tree.op, ast.UAdd):
            return operand
        raise self.fail(f"the operator in '{_shown(tree)}'")

    def visit_BoolOp(self, tree: ast.BoolOp):  # noqa: N802
        op_type = "And" if isinstance(tree.op, ast.And) else "Or"
        values = [self.number(self.visit(v), torch.bool) for v in tree.values]
        out = values[0]
        for value in values[1:]:
            out = _typed(self.g.op(op_type, out, value), torch.bool, ())
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
                value = _typed(self.g.op("Mul", sign, self.g.op("Floor", self.g.op(
                    "Abs", value))), value.dtype, value.sizes)  # fmt: skip
            return _typed(self.number(value, casts[name]), casts[name], ())
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
        return _typed(g.op("Max", count, g.constant(0, torch.int64)), torch.int64, ())

    def visit_Subscript(self, tree: ast.Subscript):  # noqa: N802
        container, index = self.visit(tree.value), self.visit(tree.slice)
        if isinstance(container, (SymbolicValue, torch.Tensor)) and not isinstance(
            index, (slice, tuple)
        ):  # a row of a tensor (``for row in x``): Gather on the first axis
            data = container if isinstance(container, SymbolicValue) else self.g.constant(container)
            out = self.g.op("Gather", data, self.number(index, torch.int64), axis_i=0)
            sizes = None if data.sizes is None else data.sizes[1:]
            return _typed(out, data.dtype, sizes)
        raise self.fail(
            "indexing a list by a value computed from the inputs (a loop over a list whose "
            "length depends on them)"
        )


def _shown(tree: ast.AST) -> str:
    """``tree`` as the template's text (``{0} << {1}``)."""
    return re.sub(r"_a(\d+)", r"{\1}", ast.unparse(tree))


def _names(tree: ast.AST) -> list[ast.Name]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id.startswith("_a")]


def _typed(value: SymbolicValue, dtype, sizes) -> SymbolicValue:
    value.dtype, value.sizes = dtype, sizes
    return value


# ------------------------------------------------------------------- the translator


class _ScriptTranslator(_Translator):
    """:class:`~torch.onnx._translate._Translator` for scripted graphs: example values
    give each output its type, and control flow on graph values becomes ``If``/``Loop``."""

    def __init__(self, g, fold: bool, parameter_value, examples: _Examples):
        super().__init__(g, fold, parameter_value)
        self.examples = examples
        self.tolerant = False  # inside a branch the example does not take
        self.outer: set | None = None  # IR values defined outside the subgraph being built

    # -- types from the example run
    def output_type(self, value: _ir.Value) -> tuple:
        return _example_type(self.examples.get(value))

    def translate_node(self, node: _ir.Node) -> None:
        kind = node.kind
        if kind == "prim::If":
            self.translate_if(node)
        elif kind == "prim::Loop":
            self.translate_loop(node)
        else:
            self.examples.run_node(node, self.tolerant)
            if kind == "prim::Expr":
                self.translate_expr(node)
            elif kind == "aten::dim":  # ranks are fixed in the exported model
                self.env[node.output()] = self.examples.get(node.output())
            elif kind in ("aten::__getitem__.list",):
                self.env[node.output()] = self.env[node.inputs[0]][self.index(node)]
            elif kind == "prim::Print":
                pass
            elif kind == "prim::RaiseException":
                if not self.tolerant:  # the example run raised already
                    raise OnnxExporterError("prim::RaiseException reached")
            else:
                super().translate_node(node)

    def run_subgraph_block(self, block: _ir.Block) -> None:
        saved = self.outer
        self.outer = set(self.env)
        try:
            self.run_block(block)
        finally:
            self.outer = saved

    def index(self, node: _ir.Node):
        index = self.env[node.inputs[1]]
        if isinstance(index, SymbolicValue):
            raise SymbolicValueError(
                f"ONNX export of a scripted program: indexing a list by a value computed "
                f"from the inputs (a loop counter over a list whose length depends on them) "
                f"is not supported ({node.kind} at {node.source or 'an unknown line'})"
            )
        return index

    # -- prim::Expr
    def translate_expr(self, node: _ir.Node) -> None:
        args = [self.env[v] for v in node.inputs]
        if node.attrs.get("effect") and self.outer is not None and node.inputs:
            if node.inputs[0] in self.outer and isinstance(args[0], (list, dict)):
                raise SymbolicValueError(
                    f"ONNX export of a scripted program: changing a list or dict made outside "
                    f"a loop or branch that depends on the inputs ('{node.attrs['expr']}' at "
                    f"{node.source or 'an unknown line'}) is not supported (ONNX sequences are "
                    f"not written)"
                )
        if _is_static_node(node) or not _contains_symbolic(args):
            result = run_expr(node, args)
        elif node.attrs["expr"].startswith("assert "):
            return  # an assertion on graph values: ONNX has none (as PyTorch drops them)
        elif node.attrs["expr"] == "{0}":  # Optional narrowed to its element
            result = args[0]
        elif not any(isinstance(a, SymbolicValue) for a in args):
            result = run_expr(node, args)  # containers holding graph values
        else:
            result = _ExprTranslator(self, node, args).translate()
        if node.outputs:
            self.env[node.output()] = result

    # -- prim::If
    def translate_if(self, node: _ir.Node) -> None:
        condition = self.env[node.inputs[0]]
        taken = self.examples.get(node.inputs[0])
        if not isinstance(condition, SymbolicValue):
            self.inline_branch(node, 0 if condition else 1)
            return
        raising = [_only_raises(b) for b in node.blocks]
        if any(raising) and not all(raising):
            self.inline_branch(node, raising.index(False))  # the raise is taken not to happen
            return
        taken_index = None if taken is UNKNOWN else (0 if taken else 1)
        branches = []
        for index, block in enumerate(node.blocks):
            saved = self.tolerant
            self.tolerant = saved or index != taken_index
            try:
                with self.g.subgraph() as nodes:
                    self.run_subgraph_block(block)
                    results = [self.env[v] for v in block.outputs]
            finally:
                self.tolerant = saved
            branches.append((nodes, results, [self.examples.get(v) for v in block.outputs]))
        order = [taken_index or 0, 1 - (taken_index or 0)]
        outputs = []
        graphs = {}
        types = [
            self.branch_output_type(node, i, branches, order) for i in range(len(node.outputs))
        ]
        for index in order:
            nodes, results, _ = branches[index]
            with self.g.subgraph() as sub_nodes:
                sub_nodes.extend(nodes)
                names = [self.subgraph_output(r, t, node, i)
                         for i, (r, t) in enumerate(zip(results, types))]  # fmt: skip
            graphs[index] = _make_graph(sub_nodes, f"if_branch_{index}", [], names, types)
        outputs = self.g.op("If", self.condition(condition), outputs=len(node.outputs),
                            then_branch=graphs[0], else_branch=graphs[1])  # fmt: skip
        outputs = [outputs] if len(node.outputs) == 1 else list(outputs)
        for value, out, (dtype, sizes) in zip(node.outputs, outputs, types):
            out.dtype, out.sizes = dtype, sizes
            self.env[value] = out
            example = branches[taken_index][2] if taken_index is not None else None
            self.examples.values[value] = (
                example[node.outputs.index(value)] if example is not None else UNKNOWN
            )

    def inline_branch(self, node: _ir.Node, index: int) -> None:
        block = node.blocks[index]
        self.run_block(block)
        for value, result in zip(node.outputs, block.outputs):
            self.env[value] = self.env[result]
            self.examples.values[value] = self.examples.get(result)

    def branch_output_type(self, node, i: int, branches, order) -> tuple:
        for index in order:
            example = branches[index][2][i]
            dtype, sizes = _example_type(example)
            if dtype is not None:
                return dtype, sizes
            result = branches[index][1][i]
            if isinstance(result, SymbolicValue) and result.dtype is not None:
                return result.dtype, result.sizes
        raise SymbolicValueError(
            f"ONNX export of a scripted program: output {i} of prim::If at "
            f"{node.source or 'an unknown line'} is not a tensor or number (ONNX If "
            f"returns tensors)"
        )

    def subgraph_output(self, result, type_: tuple, node: _ir.Node, i: int) -> str:
        """The name of ``result`` as an output of the subgraph being built: cast to the
        dtype ``type_`` wants, made inside the subgraph (an Identity of an outer value)."""
        dtype, sizes = type_
        if isinstance(result, (list, tuple, dict)) or (
            not isinstance(result, (SymbolicValue, torch.Tensor, int, float, bool))
        ):
            raise SymbolicValueError(
                f"ONNX export of a scripted program: {type(result).__name__} value number "
                f"{i} of {node.kind} at {node.source or 'an unknown line'} cannot be an "
                f"ONNX {'If' if node.kind == 'prim::If' else 'Loop'} output (only tensors and "
                f"numbers can)"
            )
        if not isinstance(result, SymbolicValue):
            result = self.g.constant(result, dtype)
        elif result.dtype != dtype:
            result = self.g.cast(result, dtype)
        if not any(result.name in n.output for n in self.g.nodes):
            result = self.g.op("Identity", result)
        return result.name

    def condition(self, value) -> SymbolicValue:
        """A bool graph value of one element (ONNX If/Loop conditions)."""
        if not isinstance(value, SymbolicValue):
            return self.g.constant(bool(value))
        if value.dtype != torch.bool:
            value = _typed(self.g.op("Cast", value, to_i=onnx_dtype(torch.bool)), torch.bool,
                           value.sizes)  # fmt: skip
        return value

    # -- prim::Loop
    def translate_loop(self, node: _ir.Node) -> None:
        trip, condition = self.env[node.inputs[0]], self.env[node.inputs[1]]
        if not isinstance(trip, SymbolicValue) and not isinstance(condition, SymbolicValue):
            # a loop of known length is unrolled, as a trace records it, unless its
            # condition turns out to depend on the inputs (a `break` on a tensor value)
            if self.unroll(node, trip, condition):
                return
        self.onnx_loop(node, trip, condition)

    def unroll(self, node: _ir.Node, trip: int, condition) -> bool:
        """Run a loop whose trip count and condition are known at export time once per
        iteration (as a trace does); False where its condition turns into a graph value
        in the first iteration (nothing emitted then)."""
        body = node.blocks[0]
        carried = [self.env[v] for v in node.inputs[2:]]
        examples = [self.examples.get(v) for v in node.inputs[2:]]
        iteration = 0
        checkpoint = self.g.checkpoint()
        while condition and iteration < trip:
            for param, value, example in zip(body.inputs, [iteration, *carried],
                                             [iteration, *examples]):  # fmt: skip
                self.env[param], self.examples.values[param] = value, example
            self.run_block(body)
            condition = self.env[body.outputs[0]]
            if isinstance(condition, SymbolicValue):
                if iteration == 0:
                    self.g.rollback(checkpoint)
                    return False
                raise SymbolicValueError(
                    f"ONNX export of a scripted program: the condition of the loop at "
                    f"{node.source or 'an unknown line'} turns into a value computed from the "
                    f"inputs after {iteration} iterations"
                )
            carried = [self.env[v] for v in body.outputs[1:]]
            examples = [self.examples.get(v) for v in body.outputs[1:]]
            iteration += 1
        for value, result, example in zip(node.outputs, carried, examples):
            self.env[value], self.examples.values[value] = result, example
        return True

    def onnx_loop(self, node: _ir.Node, trip, condition) -> None:
        g, body = self.g, node.blocks[0]
        initial = [self.env[v] for v in node.inputs[2:]]
        examples = [self.examples.get(v) for v in node.inputs[2:]]
        types = []
        for i, (value, example) in enumerate(zip(initial, examples)):
            dtype, sizes = _example_type(example)
            if dtype is None and isinstance(value, SymbolicValue):
                dtype, sizes = value.dtype, value.sizes
            if dtype is None or isinstance(value, (list, tuple, dict)):
                raise SymbolicValueError(
                    f"ONNX export of a scripted program: the loop at "
                    f"{node.source or 'an unknown line'} carries a {type(value).__name__} "
                    f"(value {i}: {body.inputs[i + 1].name}) through iterations whose number "
                    f"depends on the inputs; ONNX Loop carries tensors and numbers only"
                )
            types.append((dtype, sizes))
        initial_values = [
            v
            if isinstance(v, SymbolicValue) and v.dtype == t[0]
            else g.cast(v, t[0])
            if isinstance(v, SymbolicValue)
            else g.constant(v, t[0])
            for v, t in zip(initial, types)
        ]
        trip_value = g.cast(trip, torch.int64) if isinstance(trip, SymbolicValue) else (
            g.constant(int(trip), torch.int64))  # fmt: skip
        params = [_typed(SymbolicValue(g.fresh_name("i")), torch.int64, ()),
                  _typed(SymbolicValue(g.fresh_name("cond")), torch.bool, ())]  # fmt: skip
        params += [_typed(SymbolicValue(g.fresh_name(body.inputs[i + 1].name)), *t)
                   for i, t in enumerate(types)]  # fmt: skip
        saved = self.tolerant
        self.tolerant = True  # the example's first iteration (there may be none)
        self.env[body.inputs[0]], self.examples.values[body.inputs[0]] = params[0], 0
        for param, carried, example in zip(body.inputs[1:], params[2:], examples):
            self.env[param], self.examples.values[param] = carried, example
        try:
            with g.subgraph() as nodes:
                self.run_subgraph_block(body)
                out_types = [(torch.bool, ()), *types]
                results = [self.env[v] for v in body.outputs]
                results[0] = self.condition(results[0])
                names = [self.subgraph_output(r, t, node, i)
                         for i, (r, t) in enumerate(zip(results, out_types))]  # fmt: skip
        finally:
            self.tolerant = saved
        inputs = [_value_info(p.name, p.dtype, p.sizes) for p in params]
        graph = _make_graph(nodes, "loop_body", inputs, names, out_types)
        outs = g.op("Loop", trip_value, self.condition(condition), *initial_values,
                    outputs=len(node.outputs), body=graph)  # fmt: skip
        outs = [outs] if len(node.outputs) == 1 else list(outs)
        # the loop's results on the example: the whole loop run on it
        self.examples.run_node(node, self.tolerant)
        for value, out, (dtype, _) in zip(node.outputs, outs, types):
            example = self.examples.get(value)
            out.dtype = dtype
            out.sizes = _example_type(example)[1] if example is not UNKNOWN else None
            self.env[value] = out


def _only_raises(block: _ir.Block) -> bool:
    return any(n.kind == "prim::RaiseException" for n in block.nodes)


def _contains_symbolic(value) -> bool:
    if isinstance(value, SymbolicValue):
        return True
    if isinstance(value, (list, tuple)):
        return any(_contains_symbolic(v) for v in value)
    if isinstance(value, dict):
        return any(_contains_symbolic(v) for v in value.values())
    return False


def _value_info(name: str, dtype, sizes):
    """A value of ``dtype`` of the example's rank, its dimensions left unknown."""
    from onnx import helper

    shape = [None] * len(sizes) if sizes is not None else None
    return helper.make_tensor_value_info(name, onnx_dtype(dtype), shape)


def _make_graph(nodes, name: str, inputs, output_names, types):
    """A subgraph; its outputs have their dtype and no fixed shape (a branch or an
    iteration may give other sizes than the example's)."""
    from onnx import helper

    outputs = [_value_info(n, dtype, sizes) for n, (dtype, sizes) in zip(output_names, types)]
    return helper.make_graph(list(nodes), name, inputs, outputs)


# ------------------------------------------------------------------------ entry point


def translate_script(graph: _ir.Graph, g: GraphContext, inputs: dict, examples: dict,
                     fold: bool, parameter_value):  # fmt: skip
    """Translate the scripted ``graph`` into ``g``: ``inputs`` maps its inputs to their
    export values (graph values for tensors), ``examples`` to the example arguments.
    Returns the Python structure of the graph outputs."""
    translator = _ScriptTranslator(g, fold, parameter_value, _Examples(dict(examples)))
    translator.env.update(inputs)
    translator.run_block(graph.block)
    return [translator.env[v] for v in graph.outputs]
