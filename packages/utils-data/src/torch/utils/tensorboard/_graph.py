"""A model's traced graph as the ``GraphDef`` TensorBoard's graph tab draws.

The model is traced with ``torch.jit.trace`` (torch-jit). The traced graph of the top
module calls its submodules' graphs (``prim::CallMethod``); they are walked recursively
so that each operation is named after the module it runs in, as
``Net/Sequential[features]/Conv2d[0]/<value>``, which TensorBoard folds into boxes.
Graph inputs and outputs are ``IO Node`` s named ``input/...`` and ``output/...``;
tensors with known sizes carry an ``_output_shapes`` attribute.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import torch
from tensorboard.compat.proto.attr_value_pb2 import AttrValue
from tensorboard.compat.proto.config_pb2 import RunMetadata
from tensorboard.compat.proto.graph_pb2 import GraphDef
from tensorboard.compat.proto.node_def_pb2 import NodeDef
from tensorboard.compat.proto.step_stats_pb2 import DeviceStepStats, StepStats
from tensorboard.compat.proto.tensor_shape_pb2 import TensorShapeProto
from tensorboard.compat.proto.versions_pb2 import VersionDef


@dataclass
class _ModuleRef:
    """A value of the traced graph that is a (traced) submodule, with its scope."""

    module: object
    scope: str


class _GraphBuilder:
    def __init__(self) -> None:
        self.nodes: list[NodeDef] = []
        self.by_name: dict[str, NodeDef] = {}
        self._ids = itertools.count()

    def name_for(self, scope: str, value) -> str:
        label = getattr(value, "debug_name", None) or str(next(self._ids))
        return f"{scope}/{label}"

    def add(self, name, op, inputs, value=None, attrs=None) -> str:
        text = "" if op == "IO Node" else _attr_text(attrs)
        attr = {"attr": AttrValue(s=text.encode())}
        shape = _shape_of(value)
        if shape is not None:
            attr["_output_shapes"] = AttrValue(list=AttrValue.ListValue(shape=[shape]))
        self.nodes.append(NodeDef(name=name, op=op, input=inputs, attr=attr))
        self.by_name[name] = self.nodes[-1]
        return name

    def add_output(self, index: int, source: str | None) -> None:
        """An output IO node fed by ``source``, with its shape (the top graph's own
        output value has none: the submodule that made it knows it)."""
        name = self.add(f"output/output.{index}", "IO Node", [source] if source else [])
        shapes = self.by_name[source].attr.get("_output_shapes") if source else None
        if shapes is not None:
            self.by_name[name].attr["_output_shapes"].CopyFrom(shapes)


def _attr_text(attrs) -> str:
    if not attrs:
        return "{}"
    return "{ " + ", ".join(f"{k} :  {v}" for k, v in attrs.items()) + " }"


def _shape_of(value):
    sizes = getattr(getattr(value, "type", None), "sizes", None)
    if sizes is None:
        return None
    return TensorShapeProto(dim=[TensorShapeProto.Dim(size=int(s)) for s in sizes])


def _scope_name(module, attribute: str | None, parent: str | None) -> str:
    kind = getattr(module, "original_name", type(module).__name__)
    return kind if parent is None else f"{parent}/{kind}[{attribute}]"


def _walk(builder: _GraphBuilder, graph, env: dict, scope: str) -> list:
    """Emit the nodes of ``graph`` (a module's forward) into ``builder``; ``env`` maps
    the graph's values to node names or submodule references. Returns what the graph
    returns, as node names or references."""
    for node in graph.nodes:
        if node.kind == "prim::GetAttr" and isinstance(env.get(node.inputs[0]), _ModuleRef):
            owner = env[node.inputs[0]]
            attribute = node.attrs["name"]
            child = getattr(owner.module, attribute)
            if hasattr(child, "graph"):  # a submodule: resolved when it is called
                env[node.outputs[0]] = _ModuleRef(child, _scope_name(child, attribute, owner.scope))
            else:  # a parameter or buffer
                name = f"{owner.scope}/{attribute}"
                env[node.outputs[0]] = builder.add(name, node.kind, [], node.outputs[0], node.attrs)
            continue
        if node.kind == "prim::CallMethod":
            callee = env[node.inputs[0]]
            forward = callee.module.graph
            inner = {forward.inputs[0]: callee}
            inner.update({p: env.get(a) for p, a in zip(forward.inputs[1:], node.inputs[1:])})
            results = _walk(builder, forward, inner, callee.scope)
            env.update(zip(node.outputs, results))
            continue
        inputs = [env[v] for v in node.inputs if isinstance(env.get(v), str)]
        for value in node.outputs or [None]:
            name = builder.add(builder.name_for(scope, value), node.kind, inputs, value, node.attrs)
            if value is not None:
                env[value] = name
    return [env.get(v) for v in graph.outputs]


def _trace(model, args, use_strict_trace):
    args = args if isinstance(args, tuple) else (args,)
    try:
        return torch.jit.trace(model, args, strict=use_strict_trace)
    except TypeError:  # a trace without the strict option
        return torch.jit.trace(model, args)


def graph(model, args, verbose=False, use_strict_trace=True):
    """``(GraphDef, RunMetadata)`` of ``model`` traced on ``args``."""
    import warnings

    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # torch.jit.trace's notice
        traced = _trace(model, args, use_strict_trace)
    if verbose:
        print(traced.graph)
    top = traced.graph
    builder = _GraphBuilder()
    env: dict = {top.inputs[0]: _ModuleRef(traced, _scope_name(traced, None, None))}
    for value in top.inputs[1:]:
        env[value] = builder.add(f"input/{value.debug_name}", "IO Node", [], value)
    results = _walk(builder, top, env, env[top.inputs[0]].scope)
    for index, name in enumerate(results, start=1):
        builder.add_output(index, name if isinstance(name, str) else None)
    stats = RunMetadata(step_stats=StepStats(dev_stats=[DeviceStepStats(device="/device:CPU:0")]))
    return GraphDef(node=builder.nodes, versions=VersionDef(producer=22)), stats
