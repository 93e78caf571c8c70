"""Inlining: replace each ``prim::CallMethod`` of a submodule (and ``prim::CallFunction``
of a ScriptFunction) by a copy of the callee's graph, recursively."""

from __future__ import annotations

from .._ir import Block, Graph, Node, Value

__all__ = ["inlined", "inline_calls"]


def inlined(graph: Graph, module=None) -> Graph:
    """A copy of ``graph`` with every call inlined. ``module`` is the script module whose
    method ``graph`` is (needed to find the callees of ``prim::CallMethod``)."""
    copy = graph.copy()
    inline_calls(copy, module)
    return copy


def inline_calls(graph: Graph, module=None) -> int:
    """Inline calls in place; returns how many were inlined."""
    count = 0
    modules: dict[Value, object] = {}
    if module is not None and graph.inputs:
        modules[graph.inputs[0]] = module
    count += _inline_block(graph.block, modules)
    return count


def _inline_block(block: Block, modules: dict) -> int:
    count = 0
    index = 0
    while index < len(block.nodes):
        node = block.nodes[index]
        index += 1
        if node.kind == "prim::GetAttr" and node.inputs[0] in modules:
            owner = modules[node.inputs[0]]
            child = getattr(owner, "_modules", {}).get(node.attrs["name"])
            if child is not None:
                modules[node.output()] = child
        elif node.kind == "prim::CallMethod" and node.inputs[0] in modules:
            callee = modules[node.inputs[0]]
            compiled = getattr(callee, "_methods", {}).get(node.attrs["name"])
            if compiled is not None:
                _splice(node, compiled.graph, modules, callee)
                index -= 1  # the callee's nodes now start here: visit them
                count += 1
                continue
        elif node.kind == "prim::CallFunction":
            function = node.attrs["function"]
            _splice(node, function.graph, modules, None)
            index -= 1
            count += 1
            continue
        for sub in node.blocks:
            count += _inline_block(sub, modules)
    return count


def _splice(call: Node, callee_graph: Graph, modules: dict, callee_module) -> None:
    """Copy ``callee_graph`` in front of ``call`` with its inputs bound to the call's
    inputs, redirect the call's output to the copy's output and remove the call."""
    block = call.owner
    kwnames = call.attrs.get("kwnames", ())
    arguments = list(call.inputs)
    params = callee_graph.inputs
    mapping: dict[Value, Value] = dict(zip(params, arguments))
    positional = arguments[: len(arguments) - len(kwnames)]
    by_name = dict(zip(kwnames, arguments[len(positional) :]))
    mapping = dict(zip(params, positional))
    for param in params[len(positional) :]:  # by name, else the callee's default
        if param.debug_name in by_name:
            mapping[param] = by_name[param.debug_name]
        else:
            default = callee_graph.defaults[param.debug_name]
            mapping[param] = block.graph.constant(default, block, before=call)
    if callee_module is not None:
        modules[arguments[0]] = callee_module
    index = block.nodes.index(call)
    new_nodes = _copy_nodes(callee_graph.block, block, mapping)
    block.nodes[index:index] = new_nodes
    result = mapping[callee_graph.outputs[0]]
    call.replace_with(result)
    # calls inside the callee are inlined as the caller's loop reaches them


def _copy_nodes(source: Block, target: Block, mapping: dict) -> list[Node]:
    copies = []
    for node in source.nodes:
        copy = Node(target, node.kind, [mapping[v] for v in node.inputs], node.attrs)
        copy.target, copy.source, copy.scope = node.target, node.source, node.scope
        for sub in node.blocks:
            new_block = copy.add_block()
            _copy_sub(sub, new_block, mapping)
        for value in node.outputs:
            out = copy.add_output(value.type)
            if value.debug_name is not None:
                out.set_debug_name(value.debug_name)
            mapping[value] = out
        copies.append(copy)
    return copies


def _copy_sub(source: Block, target: Block, mapping: dict) -> None:
    for value in source.inputs:
        new = target.add_input(value.type)
        new.debug_name = value.debug_name
        mapping[value] = new
    target.nodes.extend(_copy_nodes(source, target, mapping))
    target.outputs = [mapping[v] for v in source.outputs]
