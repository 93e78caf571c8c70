"""The example run of a scripted graph during its ONNX export: each IR value gets the
value it has when the program runs on the example arguments, node by node, so that the
exporter knows the dtype and sizes of what it translates (a scripted graph has no
shapes). A node on a path the example does not take gets :data:`UNKNOWN` where it fails.
"""

from __future__ import annotations

from typing import Any

import torch
from torch.jit import _ir

from .errors import OnnxExporterError

__all__ = ["UNKNOWN", "Examples", "example_type", "run_expr"]


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


class Examples:
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


def example_type(example) -> tuple:
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
