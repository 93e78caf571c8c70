"""``break`` and ``continue`` in scripted loops, rewritten into flags before compiling.

The IR's ``prim::Loop`` has no jumps: a body runs to its end and yields the condition of
the next iteration. So, as TorchScript does, a loop whose body breaks or continues is
rewritten on the AST first:

- ``break`` sets a flag ``_jit_break<n>`` (False before the loop) and ``continue`` a flag
  ``_jit_continue<n>`` (False at the start of each iteration); the statements after an
  ``if``/``with`` that may have jumped run under ``if not (flags):``, the statements
  after a jump in the same list are dropped (Python never runs them);
- a ``while`` loop runs on ``_jit_loop<n>``: its test, computed before the loop and at
  the end of each iteration unless the loop broke (so the test is not evaluated after a
  ``break``, as in Python);
- a ``for`` loop's body runs under ``if not _jit_break<n>:`` and the compiler makes
  ``not _jit_break<n>`` the loop's condition (``_BREAK_FLAG`` on the node), so the loop
  stops after a ``break`` and an unrolled loop (over a module list) skips the rest.

Jumps inside a nested loop belong to that loop; ``else`` branches of loops stay
unsupported.
"""

from __future__ import annotations

import ast
import itertools

__all__ = ["desugar_jumps", "BREAK_FLAG"]

#: attribute of a rewritten ``ast.For``: the name of its break flag
BREAK_FLAG = "_jit_break_flag"
_LOOPS = (ast.For, ast.While)
_CONTAINERS = (ast.If, ast.With)


def desugar_jumps(definition: ast.FunctionDef) -> ast.FunctionDef:
    """Rewrite the loops of ``definition`` (in place) so that no ``break``/``continue``
    is left inside them."""
    counter = itertools.count()
    definition.body = _statements(definition.body, counter)
    ast.fix_missing_locations(definition)
    return definition


def _statements(statements: list[ast.stmt], counter) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for statement in statements:
        if isinstance(statement, _LOOPS):
            out += _loop(statement, counter)
            continue
        if isinstance(statement, _CONTAINERS):
            statement.body = _statements(statement.body, counter)
            if isinstance(statement, ast.If):
                statement.orelse = _statements(statement.orelse, counter)
        out.append(statement)
    return out


def _jumps(statements: list[ast.stmt]) -> set[type]:
    """The jump kinds (``ast.Break``, ``ast.Continue``) of this loop level."""
    found: set[type] = set()
    for statement in statements:
        if isinstance(statement, (ast.Break, ast.Continue)):
            found.add(type(statement))
        elif isinstance(statement, _CONTAINERS):
            found |= _jumps(statement.body)
            if isinstance(statement, ast.If):
                found |= _jumps(statement.orelse)
    return found


def _name(identifier: str, store: bool = False) -> ast.Name:
    return ast.Name(id=identifier, ctx=ast.Store() if store else ast.Load())


def _set(identifier: str, value, at: ast.AST) -> ast.Assign:
    value = value if isinstance(value, ast.expr) else ast.Constant(value=value)
    return ast.copy_location(ast.Assign(targets=[_name(identifier, True)], value=value), at)


def _loop(loop: ast.For | ast.While, counter) -> list[ast.stmt]:
    loop.body = _statements(loop.body, counter)  # inner loops first: their jumps are theirs
    kinds = _jumps(loop.body)
    if not kinds:
        return [loop]
    n = next(counter)
    flags = {
        ast.Break: f"_jit_break{n}" if ast.Break in kinds else None,
        ast.Continue: f"_jit_continue{n}" if ast.Continue in kinds else None,
    }
    body = _rewrite(loop.body, flags)
    if flags[ast.Continue]:
        body.insert(0, _set(flags[ast.Continue], False, loop))
    before = [_set(flags[ast.Break], False, loop)] if flags[ast.Break] else []
    if isinstance(loop, ast.While):
        going = f"_jit_loop{n}"
        test = loop.test
        before.append(_set(going, test, loop))
        next_test = _set(going, test, loop)
        if flags[ast.Break]:
            stopped = _set(going, False, loop)
            next_test = ast.copy_location(
                ast.If(test=_name(flags[ast.Break]), body=[stopped], orelse=[next_test]), loop
            )
        loop.body = [*body, next_test]
        loop.test = ast.copy_location(_name(going), test)
        return [*before, loop]
    if flags[ast.Break]:
        guard = ast.UnaryOp(op=ast.Not(), operand=_name(flags[ast.Break]))
        body = [ast.copy_location(ast.If(test=guard, body=body, orelse=[]), loop)]
        setattr(loop, BREAK_FLAG, flags[ast.Break])
    loop.body = body
    return [*before, loop]


def _rewrite(statements: list[ast.stmt], flags: dict) -> list[ast.stmt]:
    """``statements`` with their jumps turned into flag assignments and what follows a
    possible jump guarded by the flags."""
    out: list[ast.stmt] = []
    for index, statement in enumerate(statements):
        if isinstance(statement, (ast.Break, ast.Continue)):
            out.append(_set(flags[type(statement)], True, statement))
            return out  # the rest of this list is never reached
        if isinstance(statement, _CONTAINERS) and _jumps([statement]):
            statement.body = _rewrite(statement.body, flags) or [ast.Pass()]
            if isinstance(statement, ast.If):
                statement.orelse = _rewrite(statement.orelse, flags)
            out.append(statement)
            rest = _rewrite(statements[index + 1 :], flags)
            if rest:
                out.append(ast.copy_location(_guard(rest, flags), statement))
            return out
        out.append(statement)
    return out


def _guard(statements: list[ast.stmt], flags: dict) -> ast.If:
    names = [_name(f) for f in flags.values() if f is not None]
    jumped = names[0] if len(names) == 1 else ast.BoolOp(op=ast.Or(), values=names)
    test = ast.UnaryOp(op=ast.Not(), operand=jumped)
    return ast.If(test=test, body=statements, orelse=[])
