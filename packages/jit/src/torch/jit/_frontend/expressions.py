"""The script compiler's expressions: names, attributes, operators, comparisons, literals,
subscripts, comprehensions, f-strings."""

from __future__ import annotations

import ast
import builtins

import torch
from torch import nn

from .. import _ir
from ..frontend import NotSupportedError
from ._common import (
    _OPERATORS,
    _TENSOR_PROPERTIES,
    Static,
    _element_type,
    _merge_types,
    _static_identity,
    _static_truth,
)
from .types import is_number, is_tensor


class ExpressionCompiler:
    """Methods of :class:`~torch.jit._frontend.compiler.FunctionCompiler` (a mixin)."""

    def value(self, node: ast.expr) -> _ir.Value:
        return self.as_value(self.expr(node), node)

    def expr(self, node: ast.expr):
        method = getattr(self, f"expr_{type(node).__name__}", None)
        if method is None:
            raise self.unsupported(node)
        return method(node)

    def lookup_static(self, name: str):
        if name in self.globals:
            return self.globals[name]
        return getattr(builtins, name, None)

    def static(self, node: ast.expr) -> Static | None:
        """The compile-time object an expression names (a module, function, constant),
        or None when it is a run-time value."""
        if isinstance(node, ast.Name):
            if self.scope.lookup(node.id) is not None:
                found = self.scope.lookup(node.id)
                return found if isinstance(found, Static) else None
            if node.id in self.globals or hasattr(builtins, node.id):
                return Static(self.lookup_static(node.id))
            return None
        if isinstance(node, ast.Attribute):
            owner = self.static(node.value)
            if owner is not None and hasattr(owner.obj, node.attr):
                return Static(getattr(owner.obj, node.attr))
        return None

    def expr_Constant(self, node: ast.Constant):  # noqa: N802
        return self.constant(node.value)

    def expr_Name(self, node: ast.Name):  # noqa: N802
        found = self.scope.lookup(node.id)
        if found is not None:
            return found
        if node.id in self.globals or hasattr(builtins, node.id):
            return Static(self.lookup_static(node.id))
        raise NotSupportedError(self.range(node), f"undefined value {node.id}")

    def expr_Attribute(self, node: ast.Attribute):  # noqa: N802
        owner = self.expr(node.value)
        if isinstance(owner, Static):
            obj = owner.obj
            if isinstance(obj, nn.Module):
                return self.context.module_attribute(self, obj, node)
            if not hasattr(obj, node.attr):
                raise NotSupportedError(self.range(node), f"unknown attribute {node.attr}")
            return Static(getattr(obj, node.attr))
        if owner is self.self_value and self.context is not None:
            return self.context.self_attribute(self, owner, node)
        if isinstance(owner.type, _ir.ClassType) and self.context is not None:
            return self.context.value_attribute(self, owner, node)
        if isinstance(owner.type, _ir.NamedTupleType) and node.attr in owner.type.fields:
            type_ = owner.type.field_type(node.attr)
            return self.expr_node(f"{{0}}.{node.attr}", [owner], type_, node)
        if is_tensor(owner.type) or owner.type == _ir.ANY:
            if node.attr in _TENSOR_PROPERTIES:
                return self.expr_node(
                    f"{{0}}.{node.attr}", [owner], _TENSOR_PROPERTIES[node.attr], node
                )
            if not hasattr(torch.Tensor, node.attr):
                raise RuntimeError(
                    f"'Tensor (inferred)' object has no attribute or method '{node.attr}'.:\n"
                    + self.range(node).highlight()
                )
        return self.expr_node(f"{{0}}.{node.attr}", [owner], _ir.ANY, node)

    def expr_BinOp(self, node: ast.BinOp):  # noqa: N802
        left, right = self.value(node.left), self.value(node.right)
        symbol, name = _OPERATORS[type(node.op)]
        return self.binary(node, symbol, name, left, right)

    def binary(self, node, symbol, name, left, right) -> _ir.Value:
        if is_tensor(left.type):
            return self.op(f"Tensor.__{name}__", [left, right], node=node)
        if is_tensor(right.type):
            return self.op(f"Tensor.__r{name}__", [right, left], node=node)
        result_type = _ir.ANY
        if is_number(left.type) and is_number(right.type):
            result_type = (
                _ir.FLOAT if _ir.FLOAT in (left.type, right.type) or symbol in ("/",) else _ir.INT
            )
        elif left.type == _ir.STR and symbol == "+":
            result_type = _ir.STR
        elif isinstance(left.type, _ir.ListType) and symbol == "+":
            result_type = left.type
        return self.expr_node(f"({{0}} {symbol} {{1}})", [left, right], result_type, node)

    def expr_UnaryOp(self, node: ast.UnaryOp):  # noqa: N802
        operand = self.value(node.operand)
        if isinstance(node.op, ast.Not):
            return self.expr_node("(not {0})", [operand], _ir.BOOL, node)
        if is_tensor(operand.type):
            method = {ast.USub: "__neg__", ast.UAdd: "__pos__", ast.Invert: "__invert__"}
            return self.op(f"Tensor.{method[type(node.op)]}", [operand], node=node)
        symbol = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}[type(node.op)]
        return self.expr_node(f"({symbol}{{0}})", [operand], operand.type, node)

    def expr_BoolOp(self, node: ast.BoolOp):  # noqa: N802
        values = [self.value(v) for v in node.values]
        word = " and " if isinstance(node.op, ast.And) else " or "
        template = "(" + word.join(f"{{{i}}}" for i in range(len(values))) + ")"
        return self.expr_node(template, values, _ir.BOOL, node)

    def expr_Compare(self, node: ast.Compare):  # noqa: N802
        left = self.expr(node.left)
        results = []
        for op, comparator in zip(node.ops, node.comparators):
            right = self.expr(comparator)
            symbol, name = _OPERATORS[type(op)]
            if symbol in ("is", "is not"):
                folded = _static_identity(left, right, symbol)
                if folded is not None:
                    results.append(self.constant(folded))
                    left = right
                    continue
            left_value, right_value = self.as_value(left, node), self.as_value(right, node)
            if name is not None and (is_tensor(left_value.type) or is_tensor(right_value.type)):
                if is_tensor(left_value.type):
                    results.append(
                        self.op(f"Tensor.__{name}__", [left_value, right_value], node=node)
                    )
                else:
                    flipped = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}.get(name, name)
                    results.append(
                        self.op(f"Tensor.__{flipped}__", [right_value, left_value], node=node)
                    )
            else:
                results.append(
                    self.expr_node(
                        f"({{0}} {symbol} {{1}})", [left_value, right_value], _ir.BOOL, node
                    )
                )
            left = right
        if len(results) == 1:
            return results[0]
        template = "(" + " and ".join(f"{{{i}}}" for i in range(len(results))) + ")"
        return self.expr_node(template, results, _ir.BOOL, node)

    def expr_IfExp(self, node: ast.IfExp):  # noqa: N802
        condition = self.condition(node.test)
        static = _static_truth(condition)
        if static is not None:
            return self.expr(node.body if static else node.orelse)
        if_node = self.emit("prim::If", [condition], None, node)
        outer = self.block
        values = []
        for expression in (node.body, node.orelse):
            self.block = if_node.add_block()
            value = self.value(expression)
            self.block.register_output(value)
            values.append(value)
        self.block = outer
        return if_node.add_output(_merge_types(values[0].type, values[1].type))

    def expr_Tuple(self, node: ast.Tuple):  # noqa: N802
        items = [self.value(e) for e in node.elts]
        created = self.emit("prim::TupleConstruct", items, None, node)
        return created.add_output(_ir.TupleType(v.type for v in items))

    def expr_List(self, node: ast.List):  # noqa: N802
        items = [self.value(e) for e in node.elts]
        created = self.emit("prim::ListConstruct", items, None, node)
        element = items[0].type if items else _ir.ANY
        return created.add_output(_ir.ListType(element))

    def expr_Dict(self, node: ast.Dict):  # noqa: N802
        items = []
        for key, value in zip(node.keys, node.values):
            if key is None:
                raise self.unsupported(node, "dict unpacking (**) isn't supported")
            items += [self.value(key), self.value(value)]
        created = self.emit("prim::DictConstruct", items, None, node)
        if items:
            return created.add_output(_ir.DictType(items[0].type, items[1].type))
        return created.add_output(_ir.DictType(_ir.STR, _ir.TensorType()))

    def expr_JoinedStr(self, node: ast.JoinedStr):  # noqa: N802
        """An f-string: a concatenation of ``str``/``repr``/``format`` of its parts."""
        parts, inputs = [], []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(repr(str(value.value)).replace("{", "{{").replace("}", "}}"))
                continue
            inputs.append(self.value(value.value))
            slot = "{" + str(len(inputs) - 1) + "}"
            if value.format_spec is not None:
                spec = value.format_spec
                if not all(isinstance(v, ast.Constant) for v in spec.values):
                    raise self.unsupported(value, "computed format specifications")
                text = "".join(str(v.value) for v in spec.values)
                parts.append(f"format({slot}, {text!r})".replace("{'", "{{'"))
            elif value.conversion == ord("r"):
                parts.append(f"repr({slot})")
            else:
                parts.append(f"str({slot})")
        template = "(" + " + ".join(parts or ["''"]) + ")"
        return self.expr_node(template, inputs, _ir.STR, node)

    def expr_ListComp(self, node: ast.ListComp):  # noqa: N802
        if len(node.generators) != 1 or node.generators[0].is_async:
            raise self.unsupported(node, "comprehensions with several loops aren't supported")
        generator = node.generators[0]
        result = self.expr_node("[]", [], _ir.ListType(_ir.ANY), node)
        call = ast.Call(
            func=ast.Attribute(value=ast.Name(id="__comprehension", ctx=ast.Load()),
                               attr="append", ctx=ast.Load()),
            args=[node.elt], keywords=[],
        )  # fmt: skip
        body: list[ast.stmt] = [ast.Expr(value=call)]
        for condition in reversed(generator.ifs):
            body = [ast.If(test=condition, body=body, orelse=[])]
        loop = ast.For(target=generator.target, iter=generator.iter, body=body, orelse=[])
        ast.copy_location(loop, node)
        for child in ast.walk(loop):
            if not hasattr(child, "lineno") or child.lineno is None:
                ast.copy_location(child, node)
        self.scope.vars["__comprehension"] = result
        self.stmt_For(loop)
        return self.scope.vars.pop("__comprehension")

    def expr_GeneratorExp(self, node: ast.GeneratorExp):  # noqa: N802
        """A generator expression, computed as a list (it is consumed at once: by
        ``tuple``, ``any``, ``all``, ``sum`` or tuple unpacking)."""
        listed = ast.ListComp(elt=node.elt, generators=node.generators)
        ast.copy_location(listed, node)
        return self.expr_ListComp(listed)

    def index_value(self, index: ast.expr) -> _ir.Value:
        if isinstance(index, ast.Slice):
            parts = [self.value(p) if p is not None else self.constant(None)
                     for p in (index.lower, index.upper, index.step)]  # fmt: skip
            return self.expr_node("slice({0}, {1}, {2})", parts, _ir.ANY, index)
        if isinstance(index, ast.Tuple):
            items = [self.index_value(e) for e in index.elts]
            created = self.emit("prim::TupleConstruct", items, None, index)
            return created.add_output(_ir.TupleType(v.type for v in items))
        return self.value(index)

    def expr_Subscript(self, node: ast.Subscript):  # noqa: N802
        container = self.expr(node.value)
        if isinstance(container, Static) and isinstance(
            container.obj, (nn.ModuleList, nn.Sequential, nn.ModuleDict)
        ):  # an index or key known while compiling: the submodule itself
            index = (
                self.static(node.slice)
                if not isinstance(node.slice, ast.Constant)
                else Static(node.slice.value)
            )
            if index is None:
                raise self.unsupported(node, "indexing a module list with a run-time value")
            return Static(container.obj[index.obj])
        if (
            isinstance(container, _ir.Value)
            and isinstance(container.type, _ir.ClassType)
            and self.context is not None
        ):  # a submodule's ModuleList/ModuleDict item: that module, by a key known now
            key = _literal(node.slice) or self.static(node.slice)
            if key is not None and isinstance(key.obj, (int, str)):
                item = self.context.submodule_item(self, container, key.obj, node)
                if item is not None:
                    return item
        container = self.as_value(container, node)
        index = self.index_value(node.slice)
        if is_tensor(container.type):
            return self.op("Tensor.__getitem__", [container, index], node=node)
        type_ = _element_type(container.type)
        if isinstance(container.type, _ir.TupleType) and index.node is not None:
            constant = (
                index.node.attrs.get("value") if index.node.kind == "prim::Constant" else None
            )
            if isinstance(constant, int) and -len(container.type.elements) <= constant < len(
                container.type.elements
            ):
                type_ = container.type.elements[constant]
        if isinstance(container.type, _ir.DictType):
            type_ = container.type.value
        if isinstance(node.slice, ast.Slice):
            type_ = container.type
        return self.expr_node("{0}[{1}]", [container, index], type_, node)

    # ------------------------------------------------------------------ calls


def _literal(node: ast.AST) -> Static | None:
    """A literal index or key (``0``, ``-1``, ``"relu"``) as a Static, else None."""
    try:
        return Static(ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError):  # not a literal
        return None
