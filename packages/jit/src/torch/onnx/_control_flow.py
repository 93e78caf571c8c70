"""Export of scripted programs whose control flow depends on their inputs: ``prim::If``
and ``prim::Loop`` become ONNX ``If`` and ``Loop`` nodes with subgraphs.

A scripted graph has no shapes, and the symbolic functions need the dtype and rank of
what they translate. So the graph is run on the example inputs while it is translated
(:class:`~torch.onnx._script_examples.Examples`, one concrete value per IR value) and
each node's outputs get the dtype and sizes of their example values. Control flow whose
condition or trip count is known at export time is resolved as a trace would resolve
it: the taken branch is translated in place, a loop is unrolled. Otherwise:

- ``prim::If`` on a graph value: both branches are translated into ``then_branch`` /
  ``else_branch`` subgraphs; branch results are cast to the dtype of the branch the
  example takes. A branch that only raises (``if x.dim() != 2: raise ...``) is taken to
  not happen: the other branch is translated in place.
- ``prim::Loop`` with a trip count or condition on graph values: an ONNX ``Loop`` whose
  body takes (iteration, condition, carried values) and returns (condition, carried
  values); a ``while`` loop keeps its maximal trip count, as PyTorch writes it.
- ``prim::Expr`` (Python arithmetic, comparisons, ``bool()``, ``len()`` ... of the
  script compiler) on graph values becomes ONNX ops on 0-dim tensors
  (:mod:`torch.onnx._script_exprs`).

What ONNX ``If``/``Loop`` cannot carry (lists, tuples, dicts changed inside a loop or
returned by a branch, list indexing by a loop counter) raises
:class:`~torch.onnx.errors.SymbolicValueError` naming the construct and its source line.
"""

from __future__ import annotations

import torch
from torch.jit import _ir
from torch.jit._nested import contains

from ._graph import GraphContext, SymbolicValue, onnx_dtype
from ._script_examples import UNKNOWN, Examples, example_type, run_expr
from ._script_exprs import ExprTranslator, typed
from ._translate import _Translator
from .errors import OnnxExporterError, SymbolicValueError

__all__ = ["has_dynamic_control_flow", "translate_script"]

# ------------------------------------------------------------------- which values vary

# prim::Expr templates whose result is known at export time whatever the input tensors
_STATIC_EXPRS = (
    "({0} is {1})",  # `x is None`: whether an Optional input was given
    "({0} is not {1})",
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


# ------------------------------------------------------------------- the translator


class _ScriptTranslator(_Translator):
    """:class:`~torch.onnx._translate._Translator` for scripted graphs: example values
    give each output its type, and control flow on graph values becomes ``If``/``Loop``."""

    def __init__(self, g, fold: bool, parameter_value, examples: Examples):
        super().__init__(g, fold, parameter_value)
        self.examples = examples
        self.tolerant = False  # inside a branch the example does not take
        self.outer: set | None = None  # IR values defined outside the subgraph being built

    # -- types from the example run
    def output_type(self, value: _ir.Value) -> tuple:
        return example_type(self.examples.get(value))

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
            for value in node.outputs:  # e.g. the parts of a tuple a symbolic returned
                _fill_types(self.env.get(value), self.examples.get(value))

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
        if _is_static_node(node) and node.outputs:  # a dtype, a device, `is None` ...
            result = self.examples.get(node.output())
            if result is UNKNOWN:
                result = run_expr(node, args)
        elif not contains(args, SymbolicValue):
            result = run_expr(node, args)
        elif node.attrs["expr"].startswith("assert "):
            return  # an assertion on graph values: ONNX has none (as PyTorch drops them)
        elif node.attrs["expr"] == "{0}":  # Optional narrowed to its element
            result = args[0]
        elif not any(isinstance(a, SymbolicValue) for a in args) or (
            isinstance(args[0], (list, dict)) and node.attrs["expr"].startswith("{0}.")
        ):  # containers holding graph values, a method of a list or dict (append ...)
            result = run_expr(node, args)
        else:
            result = ExprTranslator(self, node, args).translate()
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
        # outputs both branches give as the same known value (None, a flag) stay Python
        kept = [i for i in range(len(node.outputs))
                if not _same_known(branches[0][1][i], branches[1][1][i])]  # fmt: skip
        for i in range(len(node.outputs)):
            if i not in kept:
                value = node.outputs[i]
                self.env[value] = branches[0][1][i]
                self.examples.values[value] = branches[order[0]][2][i]
        if not kept:
            return
        types = [self.branch_output_type(node, i, branches, order) for i in kept]
        graphs = {}
        for index in order:
            nodes, results, _ = branches[index]
            with self.g.subgraph() as sub_nodes:
                sub_nodes.extend(nodes)
                names = [self.subgraph_output(results[i], t, node, i)
                         for i, t in zip(kept, types)]  # fmt: skip
            graphs[index] = _make_graph(sub_nodes, f"if_branch_{index}", [], names, types)
        outputs = self.g.op("If", self.condition(condition), outputs=len(kept),
                            then_branch=graphs[0], else_branch=graphs[1])  # fmt: skip
        outputs = [outputs] if len(kept) == 1 else list(outputs)
        for i, out, (dtype, sizes) in zip(kept, outputs, types):
            out.dtype, out.sizes = dtype, sizes
            self.env[node.outputs[i]] = out
            example = UNKNOWN if taken_index is None else branches[taken_index][2][i]
            self.examples.values[node.outputs[i]] = example

    def inline_branch(self, node: _ir.Node, index: int) -> None:
        block = node.blocks[index]
        self.run_block(block)
        for value, result in zip(node.outputs, block.outputs):
            self.env[value] = self.env[result]
            self.examples.values[value] = self.examples.get(result)

    def branch_output_type(self, node, i: int, branches, order) -> tuple:
        for index in order:
            example = branches[index][2][i]
            dtype, sizes = example_type(example)
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
            value = typed(self.g.op("Cast", value, to_i=onnx_dtype(torch.bool)), torch.bool,
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
            dtype, sizes = example_type(example)
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
        params = [typed(SymbolicValue(g.fresh_name("i")), torch.int64, ()),
                  typed(SymbolicValue(g.fresh_name("cond")), torch.bool, ())]  # fmt: skip
        params += [typed(SymbolicValue(g.fresh_name(body.inputs[i + 1].name)), *t)
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
            out.sizes = example_type(example)[1] if example is not UNKNOWN else None
            self.env[value] = out


def _fill_types(value, example) -> None:
    """Give the graph values in ``value`` without a dtype those of ``example`` (the same
    structure of example values)."""
    if isinstance(value, SymbolicValue):
        if value.dtype is None:
            value.dtype, value.sizes = example_type(example)
    elif isinstance(value, (list, tuple)) and isinstance(example, (list, tuple)):
        for item, item_example in zip(value, example):
            _fill_types(item, item_example)


def _same_known(a, b) -> bool:
    """Whether two branch results are the same value known at export time."""
    if contains(a, SymbolicValue) or contains(b, SymbolicValue) or isinstance(a, torch.Tensor):
        return False
    try:
        return a is b or (type(a) is type(b) and bool(a == b))
    except Exception:  # noqa: BLE001 - values without a plain equality
        return False


def _only_raises(block: _ir.Block) -> bool:
    return any(n.kind == "prim::RaiseException" for n in block.nodes)


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
    translator = _ScriptTranslator(g, fold, parameter_value, Examples(dict(examples)))
    translator.env.update(inputs)
    translator.run_block(graph.block)
    return [translator.env[v] for v in graph.outputs]
