"""What the parts of the script compiler share: operator tables, compile-time values,
scopes and small helpers over the AST and IR types."""

from __future__ import annotations

import ast
import sys
from typing import Any

import torch

from .. import _ir
from .types import is_number, is_tensor

_NAMESPACES = ("torch", "torch.nn.functional", "torch.linalg", "torch.special", "torch.fft")
# Python operators: the symbol and the name of the Tensor method (``__add__``, ``__radd__``,
# ``__iadd__`` for "add"; None where there is none)
_OPERATORS = {
    ast.Add: ("+", "add"),
    ast.Sub: ("-", "sub"),
    ast.Mult: ("*", "mul"),
    ast.Div: ("/", "truediv"),
    ast.FloorDiv: ("//", "floordiv"),
    ast.Mod: ("%", "mod"),
    ast.Pow: ("**", "pow"),
    ast.MatMult: ("@", "matmul"),
    ast.BitAnd: ("&", "and"),
    ast.BitOr: ("|", "or"),
    ast.BitXor: ("^", "xor"),
    ast.LShift: ("<<", "lshift"),
    ast.RShift: (">>", "rshift"),
    ast.Eq: ("==", "eq"),
    ast.NotEq: ("!=", "ne"),
    ast.Lt: ("<", "lt"),
    ast.LtE: ("<=", "le"),
    ast.Gt: (">", "gt"),
    ast.GtE: (">=", "ge"),
    ast.Is: ("is", None),
    ast.IsNot: ("is not", None),
    ast.In: ("in", None),
    ast.NotIn: ("not in", None),
}
# Tensor methods (and properties) whose result is not a tensor
_TENSOR_NON_TENSOR = {
    "size": None,
    "dim": _ir.INT,
    "numel": _ir.INT,
    "nelement": _ir.INT,
    "item": _ir.ANY,
    "tolist": _ir.ANY,
    "is_contiguous": _ir.BOOL,
    "is_floating_point": _ir.BOOL,
    "is_complex": _ir.BOOL,
    "element_size": _ir.INT,
    "stride": None,
    "get_device": _ir.INT,
    "__len__": _ir.INT,
}
_TENSOR_PROPERTIES = {
    "shape": _ir.ListType(_ir.INT),
    "dtype": _ir.DTYPE,
    "device": _ir.DEVICE,
    "ndim": _ir.INT,
    "requires_grad": _ir.BOOL,
    "is_cuda": _ir.BOOL,
    "T": _ir.TensorType(),
    "mT": _ir.TensorType(),
    "data": _ir.TensorType(),
    "grad": _ir.OptionalType(_ir.TensorType()),
    "real": _ir.TensorType(),
    "imag": _ir.TensorType(),
}
_CONTAINER_METHODS = {
    "append", "extend", "insert", "pop", "remove", "clear", "index", "count", "reverse",
    "sort", "copy", "keys", "values", "items", "get", "update", "setdefault", "format",
    "startswith", "endswith", "split", "join", "strip", "lower", "upper", "replace",
}  # fmt: skip
_MUTATING = {"append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort",
             "update", "setdefault"}  # fmt: skip
# the Python builtins scripted as an expression calling them, with their result's type
# (None: the argument's type for abs, else unknown)
_BUILTIN_RESULT_TYPES = {
    "len": _ir.INT, "int": _ir.INT, "hash": _ir.INT, "ord": _ir.INT, "float": _ir.FLOAT,
    "bool": _ir.BOOL, "all": _ir.BOOL, "any": _ir.BOOL, "str": _ir.STR, "chr": _ir.STR,
    "abs": None, "list": None, "tuple": None, "sum": None, "divmod": None,
    "sorted": None,
}  # fmt: skip
# the functions of Python's math module that TorchScript has (aten::sqrt.float, ...), with
# their result's type: float unless listed
_MATH_FUNCTIONS = frozenset(
    "acos acosh asin asinh atan atan2 atanh ceil copysign cos cosh degrees erf erfc exp expm1 "
    "fabs factorial floor fmod gamma gcd hypot isfinite isinf isnan ldexp lgamma log log10 "
    "log1p log2 pow radians remainder sin sinh sqrt tan tanh trunc".split()
)
_MATH_RESULT_TYPES = {
    "ceil": _ir.INT, "floor": _ir.INT, "trunc": _ir.INT, "factorial": _ir.INT,
    "gcd": _ir.INT, "isfinite": _ir.BOOL, "isinf": _ir.BOOL, "isnan": _ir.BOOL,
}  # fmt: skip
_GRAD_MODES = {torch.no_grad: "no_grad", torch.enable_grad: "enable_grad"}


class Static:
    """A value known while compiling: a module, function, class, submodule, number..."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj


class _Scope:
    def __init__(self, parent: _Scope | None = None) -> None:
        self.parent = parent
        self.vars: dict[str, Any] = {}

    def lookup(self, name: str):
        scope = self
        while scope is not None:
            if name in scope.vars:
                return scope.vars[name]
            scope = scope.parent
        return None

    def assigned_here(self) -> dict[str, Any]:
        return self.vars


class _Return(Exception):  # noqa: N818 - control flow, not an error
    """Control flow of the compiler: a block ended with ``return value`` (or a raise)."""

    def __init__(self, value, raises: bool = False) -> None:
        self.value = value
        self.raises = raises


def _always_returns(statements: list[ast.stmt]) -> bool:
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return _always_returns(last.body) and _always_returns(last.orelse)
    return False


def _normalize_returns(statements: list[ast.stmt]) -> list[ast.stmt]:
    """Move the statements after an ``if`` with a returning branch into its other branch,
    so that every ``return`` ends a block (``if c: return a`` / ``return b`` becomes
    ``if c: return a else: return b``)."""
    out: list[ast.stmt] = []
    for index, statement in enumerate(statements):
        if isinstance(statement, ast.If):
            statement.body = _normalize_returns(statement.body)
            statement.orelse = _normalize_returns(statement.orelse)
            rest = statements[index + 1 :]
            body_returns = _always_returns(statement.body)
            else_returns = _always_returns(statement.orelse)
            if rest and body_returns != else_returns:
                if body_returns:
                    statement.orelse = _normalize_returns(statement.orelse + rest)
                else:
                    statement.body = _normalize_returns(statement.body + rest)
                out.append(statement)
                return out
        out.append(statement)
        if isinstance(statement, (ast.Return, ast.Raise)):
            return out
    return out


def _assigned_names(statements: list[ast.stmt]) -> list[str]:
    names: list[str] = []
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                if node.id not in names:
                    names.append(node.id)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                if node.target.id not in names:
                    names.append(node.target.id)
    return names


_TARGETS: dict[int, str] = {}
_TARGETS_BUILT: set[str] = set()


def _target_of(obj: Any) -> str | None:
    """``"torch.add"``-style name of a public torch function (None when it is none)."""
    for namespace in _NAMESPACES:
        if namespace in _TARGETS_BUILT:
            continue
        module = sys.modules.get(namespace)
        if module is None:
            continue
        for name, value in list(vars(module).items()):
            if not name.startswith("_") and callable(value) and not isinstance(value, type):
                _TARGETS.setdefault(id(value), f"{namespace}.{name}")
        _TARGETS_BUILT.add(namespace)
    target = _TARGETS.get(id(obj))
    if target is not None:
        namespace, _, name = target.rpartition(".")
        if getattr(sys.modules.get(namespace), name, None) is obj:
            return target
    return None


def _kind_of(target: str) -> str:
    from .._trace import _op_kind

    return _op_kind(target)


def _strip_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        if isinstance(body[0].value.value, str):
            return body[1:]
    return body


def _annotations(fn) -> dict:
    try:
        return dict(typing_get_type_hints(fn))
    except Exception:  # noqa: BLE001 - unresolvable hints: read them raw
        return dict(getattr(fn, "__annotations__", {}))


def typing_get_type_hints(fn):
    import typing

    return typing.get_type_hints(fn)


def _eval_annotation(node: ast.expr, namespace: dict):
    source = ast.unparse(node)
    try:
        return eval(source, dict(namespace), {})  # noqa: S307 - an annotation of the user's code
    except Exception:  # noqa: BLE001
        return source


def _element_type(type_: _ir.Type) -> _ir.Type:
    if isinstance(type_, _ir.ListType):
        return type_.element
    if isinstance(type_, _ir.TensorType):
        return _ir.TensorType()
    if isinstance(type_, _ir.TupleType) and type_.elements:
        first = type_.elements[0]
        return first if all(e == first for e in type_.elements) else _ir.ANY
    return _ir.ANY


def _merge_types(first: _ir.Type, second: _ir.Type) -> _ir.Type:
    if first == second:
        return first
    if is_tensor(first) and is_tensor(second):
        return _ir.TensorType()
    if first == _ir.NONE:
        return _ir.OptionalType(second)
    if second == _ir.NONE:
        return _ir.OptionalType(first)
    if is_number(first) and is_number(second):
        return _ir.FLOAT if _ir.FLOAT in (first, second) else _ir.INT
    return _ir.ANY


def _merged_names(first: dict, second: dict, outer: _Scope) -> list[str]:
    names = []
    for name in list(first) + list(second):
        if name in names or name.startswith("__"):
            continue
        in_both = name in first and name in second
        if in_both or outer.lookup(name) is not None:
            if isinstance(first.get(name, outer.lookup(name)), Static) or isinstance(
                second.get(name, outer.lookup(name)), Static
            ):
                continue
            names.append(name)
    return names


def _static_truth(value: _ir.Value):
    node = value.node
    if node is not None and node.kind == "prim::Constant":
        constant = node.attrs.get("value")
        if isinstance(constant, (bool, int, type(None))):
            return bool(constant)
    return None


def _static_identity(left, right, symbol: str):
    """``x is None`` decided while compiling when a side's type says so."""

    def is_none(item):
        if isinstance(item, Static):
            return item.obj is None
        if item.node is not None and item.node.kind == "prim::Constant":
            return item.node.attrs.get("value") is None
        return False

    def never_none(item):
        if isinstance(item, Static):
            return item.obj is not None
        return not isinstance(item.type, _ir.OptionalType) and item.type not in (_ir.NONE, _ir.ANY)

    if is_none(right) or is_none(left):
        other = left if is_none(right) else right
        if is_none(other):
            result = True
        elif never_none(other):
            result = False
        else:
            return None
        return result if symbol == "is" else not result
    return None


def _function_result_type(target: str) -> _ir.Type:
    name = target.rpartition(".")[2]
    if name in ("is_tensor", "is_floating_point", "is_complex", "is_grad_enabled", "equal",
                "allclose", "is_nonzero"):  # fmt: skip
        return _ir.BOOL
    if name in ("numel",):
        return _ir.INT
    if name in ("max", "min", "sort", "topk", "split", "chunk", "unbind", "broadcast_tensors",
                "meshgrid", "lstm", "gru", "max_pool2d_with_indices", "median", "mode",
                "kthvalue", "std_mean", "var_mean", "aminmax", "frexp", "slogdet", "qr",
                "svd", "eig", "eigh", "lu", "tensor_split", "hsplit", "vsplit", "dsplit",
                "unique", "where"):  # fmt: skip
        return _ir.ANY
    return _ir.TensorType()


def _node_description(node: ast.AST) -> str:
    names = {
        "Try": "try blocks",
        "With": "with statements",
        "Lambda": "Lambda",
        "GeneratorExp": "generator expressions",
        "SetComp": "set comprehensions",
        "DictComp": "dict comprehensions",
        "Set": "set literals",
        "Yield": "yield",
        "Global": "global variables",
        "Nonlocal": "nonlocal variables",
        "Delete": "del statements",
        "ClassDef": "class definitions",
        "FunctionDef": "function definitions",
        "Import": "import statements",
        "ImportFrom": "import statements",
        "Starred": "starred expressions",
        "Await": "await",
        "AsyncFunctionDef": "async function definitions",
        "NamedExpr": "assignment expressions",
        "Break": "break statements",
        "Continue": "continue statements",
    }
    return names.get(type(node).__name__, f"{type(node).__name__} nodes")
