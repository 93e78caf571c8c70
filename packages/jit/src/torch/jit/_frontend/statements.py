"""The script compiler's statements: assignments, if/else, loops, return, raise, assert,
``with torch.no_grad()``."""

from __future__ import annotations

import ast
import sys

from torch import nn

from .. import _ir
from ._common import (
    _GRAD_MODES,
    _OPERATORS,
    Static,
    _assigned_names,
    _element_type,
    _eval_annotation,
    _merge_types,
    _merged_names,
    _Return,
    _Scope,
    _static_truth,
)
from .jumps import BREAK_FLAG
from .types import ir_type, is_tensor


class StatementCompiler:
    """Methods of :class:`~torch.jit._frontend.compiler.FunctionCompiler` (a mixin)."""

    def statements(self, statements: list[ast.stmt]) -> None:
        for statement in statements:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        method = getattr(self, f"stmt_{type(node).__name__}", None)
        if method is None:
            raise self.unsupported(node)
        method(node)

    def stmt_Pass(self, node: ast.Pass) -> None:  # noqa: N802 - dispatch on AST class names
        return None

    def stmt_Expr(self, node: ast.Expr) -> None:  # noqa: N802
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a string statement (docstring)
        value = self.expr(node.value)
        if isinstance(value, _ir.Value) and value.node is not None:
            if value.node.kind == "prim::Expr":
                value.node.attrs["effect"] = True

    def stmt_Return(self, node: ast.Return) -> None:  # noqa: N802
        value = self.constant(None) if node.value is None else self.value(node.value)
        raise _Return(value)

    def stmt_Assign(self, node: ast.Assign) -> None:  # noqa: N802
        value = self.expr(node.value)
        for target in node.targets:
            self.assign(target, value, node)

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> None:  # noqa: N802
        if node.value is None:
            return
        value = self.value(node.value)
        annotation = _eval_annotation(node.annotation, self.globals)
        value.type = ir_type(annotation)
        self.assign(node.target, value, node)

    def stmt_AugAssign(self, node: ast.AugAssign) -> None:  # noqa: N802
        target = node.target
        current = self.value(target)
        operand = self.value(node.value)
        symbol, name = _OPERATORS[type(node.op)]
        if is_tensor(current.type) and isinstance(target, ast.Name):
            # an augmented assignment updates a tensor in place, as in TorchScript
            result = self.op(f"Tensor.__i{name}__", [current, operand], node=node)
        else:
            result = self.binary(node, symbol, name, current, operand)
        self.assign(target, result, node)

    def assign(self, target: ast.expr, value, node: ast.AST) -> None:
        if isinstance(target, ast.Name):
            if isinstance(value, _ir.Value):
                if value.debug_name is None and value.node is not None:
                    value.set_debug_name(target.id)
            self.scope.vars[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            value = self.as_value(value, node)
            kind = "prim::TupleUnpack"
            unpack = self.emit(kind, [value], None, node)
            element_types = (
                value.type.elements
                if isinstance(value.type, _ir.TupleType)
                and len(value.type.elements) == len(target.elts)
                else [_element_type(value.type)] * len(target.elts)
            )
            for element, type_ in zip(target.elts, element_types):
                self.assign(element, unpack.add_output(type_), node)
        elif isinstance(target, ast.Subscript):
            container = self.value(target.value)
            index = self.index_value(target.slice)
            item = self.as_value(value, node)
            if is_tensor(container.type):
                self.op("Tensor.__setitem__", [container, index, item], node=node, output=False)
            else:
                self.expr_node("{0}[{1}] = {2}", [container, index, item], None, node, True)
        elif isinstance(target, ast.Attribute):
            owner = self.value(target.value)
            item = self.as_value(value, node)
            self.emit("prim::SetAttr", [owner, item], {"name": target.attr}, node)
        else:
            raise self.unsupported(target, f"assignment to {type(target).__name__}")

    def stmt_If(self, node: ast.If) -> None:  # noqa: N802
        condition = self.condition(node.test)
        static = _static_truth(condition)
        if static is not None:  # is_scripting(), constant flags: compile one branch
            self.statements(node.body if static else node.orelse)
            return
        refinements = self.refinements(node.test)
        self.branches(node, condition, node.body, node.orelse, refinements)

    def refinements(self, test: ast.expr):
        """Names whose Optional type a ``x is None`` / ``x is not None`` test narrows:
        (name, narrowed in the true branch?)."""
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Is, ast.IsNot))
            and isinstance(test.left, ast.Name)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        ):
            return test.left.id, isinstance(test.ops[0], ast.IsNot)
        return None

    def branches(self, node, condition, body, orelse, refinement) -> None:
        outer_scope, outer_block = self.scope, self.block
        if_node = self.emit("prim::If", [condition], None, node)
        results = []
        for index, statements in enumerate((body, orelse)):
            block = if_node.add_block()
            self.block, self.scope = block, _Scope(outer_scope)
            if refinement is not None and (index == 0) == refinement[1]:
                self.narrow(refinement[0], node)
            try:
                self.statements(statements)
                results.append(("fall", self.scope.vars))
            except _Return as returned:
                results.append(("raise" if returned.raises else "return", returned.value))
        self.block, self.scope = outer_block, outer_scope
        kinds = [r[0] for r in results]
        if "fall" not in kinds:
            values = [r[1] for r in results]
            for block, value in zip(if_node.blocks, values):
                block.register_output(value)
            types_ = [v.type for v, k in zip(values, kinds) if k == "return"] or [_ir.NONE]
            out = if_node.add_output(types_[0] if len(types_) == 1 else _merge_types(*types_))
            raise _Return(out, raises=kinds == ["raise", "raise"])
        if "return" in kinds:
            raise self.unsupported(node, "a return in only one branch, with more code after it")
        if "raise" in kinds:  # the other branch's names are the ones that live on
            falling = results[kinds.index("fall")][1]
            names = [
                n for n in falling if not n.startswith("__") and not isinstance(falling[n], Static)
            ]
        else:
            names = _merged_names(results[0][1], results[1][1], outer_scope)
        for name in names:
            pair = []
            for block, (kind, assigned) in zip(if_node.blocks, results):
                value = None if kind == "raise" else assigned.get(name)
                if value is None:
                    value = outer_scope.lookup(name)
                self.block = block
                if value is None:  # never read: this branch raised
                    value = self.constant(None)
                value = self.as_value(value, node)
                block.register_output(value)
                pair.append(value)
            self.block = outer_block
            types_ = [v.type for v, (k, _) in zip(pair, results) if k != "raise"]
            out = if_node.add_output(types_[0] if len(types_) == 1 else _merge_types(*types_))
            out.set_debug_name(name)
            self.scope.vars[name] = out

    def narrow(self, name: str, node) -> None:
        value = self.scope.lookup(name)
        if isinstance(value, _ir.Value) and isinstance(value.type, _ir.OptionalType):
            narrowed = self.expr_node("{0}", [value], value.type.element, node)
            narrowed.node.kind = "prim::Expr"
            self.scope.vars[name] = narrowed

    def condition(self, test: ast.expr) -> _ir.Value:
        value = self.value(test)
        if value.type == _ir.BOOL:
            return value
        return self.expr_node("bool({0})", [value], _ir.BOOL, test)

    def stmt_While(self, node: ast.While) -> None:  # noqa: N802
        if node.orelse:
            raise self.unsupported(node, "else branches of while loops aren't supported")
        condition = self.condition(node.test)
        trip = self.constant(sys.maxsize)

        def body(_iteration):
            self.statements(node.body)
            return self.condition(node.test)

        self.loop(node, trip, condition, node.body, body)

    def stmt_For(self, node: ast.For) -> None:  # noqa: N802
        if node.orelse:
            raise self.unsupported(node, "else branches of for loops aren't supported")
        iterable = node.iter
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name):
            if iterable.func.id == "range" and self.lookup_static("range") is range:
                return self.for_range(node, iterable)
            if iterable.func.id == "enumerate" and self.lookup_static("enumerate") is enumerate:
                return self.for_enumerate(node, iterable)
        items = self.expr(iterable)
        if isinstance(items, _ir.Value) and isinstance(items.type, _ir.ClassType):
            items = Static(self.context.module_of(self, items))
        if isinstance(items, Static):
            return self.for_unrolled(node, items.obj)
        if isinstance(items.type, _ir.TupleType):
            return self.for_unrolled(node, None, items)
        trip = self.expr_node("len({0})", [items], _ir.INT, iterable)
        element = _element_type(items.type)

        def body(iteration):
            item = self.expr_node("{0}[{1}]", [items, iteration], element, node)
            self.assign(node.target, item, node)
            self.statements(node.body)
            return None

        self.loop(node, trip, self.constant(True), node.body, body, node.target)

    def for_range(self, node: ast.For, call: ast.Call) -> None:
        args = [self.value(a) for a in call.args]
        if len(args) == 1:
            trip, start, step = args[0], None, None
        else:
            start = args[0]
            step = args[2] if len(args) > 2 else self.constant(1)
            trip = self.expr_node(
                "len(range({0}, {1}, {2}))", [start, args[1], step], _ir.INT, call
            )

        def body(iteration):
            index = iteration
            if start is not None:
                index = self.expr_node("{0} + {1} * {2}", [start, iteration, step], _ir.INT, node)
            self.assign(node.target, index, node)
            self.statements(node.body)
            return None

        self.loop(node, trip, self.constant(True), node.body, body, node.target)

    def for_enumerate(self, node: ast.For, call: ast.Call) -> None:
        items = self.value(call.args[0])
        trip = self.expr_node("len({0})", [items], _ir.INT, call)
        element = _element_type(items.type)
        if not (isinstance(node.target, ast.Tuple) and len(node.target.elts) == 2):
            raise self.unsupported(node.target, "enumerate needs a target of two names")

        def body(iteration):
            self.assign(node.target.elts[0], iteration, node)
            item = self.expr_node("{0}[{1}]", [items, iteration], element, node)
            self.assign(node.target.elts[1], item, node)
            self.statements(node.body)
            return None

        self.loop(node, trip, self.constant(True), node.body, body, node.target)

    def for_unrolled(self, node: ast.For, objects, tuple_value=None) -> None:
        """A loop over a module list (or a tuple of known length): one copy of the body
        per element."""
        if tuple_value is not None:
            count = len(tuple_value.type.elements)
            unpack = self.emit("prim::TupleUnpack", [tuple_value], None, node)
            elements = [unpack.add_output(t) for t in tuple_value.type.elements]
        else:
            if not isinstance(objects, (nn.ModuleList, nn.Sequential, list, tuple)):
                raise self.unsupported(node.iter, f"iterating over a {type(objects).__name__}")
            elements = [Static(o) for o in objects]
            count = len(elements)
        for index in range(count):
            self.assign(node.target, elements[index], node)
            self.statements(node.body)

    def loop(self, node, trip, condition, statements, run_body, target=None) -> None:
        """Emit ``prim::Loop``: the names the body assigns that exist before it are
        carried through the iterations."""
        assigned = _assigned_names(statements)
        if target is not None:
            skip = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
            assigned = [a for a in assigned if a not in skip]
        carried = [n for n in assigned if isinstance(self.scope.lookup(n), _ir.Value)]
        initial = [self.scope.lookup(n) for n in carried]
        loop = self.emit("prim::Loop", [trip, condition, *initial], None, node)
        body = loop.add_block()
        outer_scope, outer_block = self.scope, self.block
        self.block, self.scope = body, _Scope(outer_scope)
        iteration = body.add_input(_ir.INT, "i")
        for name, value in zip(carried, initial):
            self.scope.vars[name] = body.add_input(value.type, name)
        try:
            next_condition = run_body(iteration)
        except _Return:
            raise self.unsupported(node, "return inside a loop isn't supported") from None
        break_flag = getattr(node, BREAK_FLAG, None)
        if break_flag is not None:  # a for loop that may break (see _frontend.jumps)
            broke = self.as_value(self.scope.lookup(break_flag), node)
            next_condition = self.expr_node("not {0}", [broke], _ir.BOOL, node)
        body.register_output(next_condition if next_condition is not None else self.constant(True))
        for name in carried:
            body.register_output(self.as_value(self.scope.lookup(name), node))
        self.block, self.scope = outer_block, outer_scope
        for name, value in zip(carried, initial):
            out = loop.add_output(value.type)
            out.set_debug_name(name)
            self.scope.vars[name] = out

    def stmt_Raise(self, node: ast.Raise) -> None:  # noqa: N802
        exc = node.exc
        kind = exc.func if isinstance(exc, ast.Call) else exc
        name = kind.id if isinstance(kind, ast.Name) else "Exception"
        if isinstance(exc, ast.Call) and exc.args:
            message_value = self.value(exc.args[0])
        else:
            message_value = self.constant("")
        message = self._failure_message(node, f"builtins.{name}", message_value)
        self.emit("prim::RaiseException", [message], None, node)
        raise _Return(self.constant(None), raises=True)

    def stmt_Assert(self, node: ast.Assert) -> None:  # noqa: N802
        # as TorchScript: a failed assert raises torch.jit.Error, not AssertionError
        condition = self.condition(node.test)
        message = self.value(node.msg) if node.msg is not None else self.constant("")
        message = self._failure_message(node, "RuntimeError: AssertionError", message)
        self.expr_node(
            "if not {0}: raise Error({1})", [condition, message], None, node, effect=True
        )

    def _failure_message(self, node: ast.AST, kind: str, message: _ir.Value) -> _ir.Value:
        """The message of a scripted raise or assert as TorchScript's interpreter words it:
        where it failed (the source line marked), then ``kind: message``."""
        where = self.range(node).highlight().rstrip("\n")
        first, _, rest = where.partition("\n")  # '  File "...", line N' and the source
        name = getattr(self.fn, "__name__", "<script>")
        header = (
            "The following operation failed in the TorchScript interpreter.\n"
            f"Traceback of TorchScript (most recent call last):\n{first}, in {name}\n"
            f"{rest}\n{kind}: "
        )
        template = "{0} + str({1}) + '\\n'"
        return self.expr_node(template, [self.constant(header), message], _ir.STR, node)

    def stmt_With(self, node: ast.With) -> None:  # noqa: N802
        modes = []
        for item in node.items:
            context = item.context_expr
            if isinstance(context, ast.Call) and not context.args:
                found = self.static(context.func)
                if found is not None and found.obj in _GRAD_MODES:
                    modes.append(_GRAD_MODES[found.obj])
                    continue
            raise self.unsupported(
                node, "with statements other than torch.no_grad() / enable_grad() aren't supported"
            )
        saved = self.expr_node("torch.is_grad_enabled()", [], _ir.BOOL, node)
        for mode in modes:
            flag = "False" if mode == "no_grad" else "True"
            self.expr_node(f"torch.set_grad_enabled({flag})", [], None, node, effect=True)
        try:
            self.statements(node.body)
        finally:
            self.expr_node("torch.set_grad_enabled({0})", [saved], None, node, effect=True)

    # ------------------------------------------------------------------ expressions
