"""The graph and the engine: nodes recorded per op, and an iterative, dependency-counted
backward pass (no recursion, so graph depth is unlimited)."""

from __future__ import annotations

import torch
from torch._interface import GradEngine

from ._derivatives import DERIVATIVES

__all__ = ["Engine", "Node", "AccumulateGrad", "run_backward"]

_FREED = (
    "Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the graph "
    "are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if "
    "you need to backward through the graph a second time or if you need to access saved "
    "tensors after calling backward."
)


class Node:
    """One recorded op: its derivative entry, what the formulas need, and edges to the
    nodes of its inputs (``next_functions``, as in PyTorch)."""

    __slots__ = ("_derivative", "_inputs", "_saved", "next_functions", "__weakref__")

    def __init__(self, derivative, inputs, saved, edges):
        self._derivative = derivative
        self._inputs = inputs
        self._saved = saved
        self.next_functions = edges

    def name(self) -> str:
        return type(self).__name__

    def apply(self, grad):
        if self._inputs is None:
            raise RuntimeError(_FREED)
        inputs, saved, derivative = self._inputs, self._saved, self._derivative
        if derivative.variadic:
            formula = derivative.formulas[0]
            return tuple(
                None if edge[0] is None else formula(grad, inputs, saved, index)
                for index, edge in enumerate(self.next_functions)
            )
        return tuple(
            None if edge[0] is None else formula(grad, inputs, saved)
            for formula, edge in zip(derivative.formulas, self.next_functions)
        )

    def release(self) -> None:
        self._inputs = None
        self._saved = None

    def __repr__(self) -> str:
        return f"<{self.name()} object at {id(self):#x}>"


class AccumulateGrad:
    """The node of a leaf: adds the incoming gradient to ``variable.grad``."""

    __slots__ = ("variable", "next_functions", "__weakref__")

    def __init__(self, variable):
        self.variable = variable
        self.next_functions = ()

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def accumulate(self, grad, create_graph: bool) -> None:
        leaf = self.variable
        if not create_graph:
            grad = grad.detach()
        leaf.grad = grad if leaf.grad is None else leaf.grad + grad

    def release(self) -> None:
        pass


_node_classes: dict[str, type] = {}


def _node_class(name: str) -> type:
    cls = _node_classes.get(name)
    if cls is None:
        cls = _node_classes[name] = type(name, (Node,), {"__slots__": ()})
    return cls


def _edge(x):
    if not isinstance(x, torch.Tensor) or not x._requires_grad:
        return (None, 0)
    if x.grad_fn is not None:
        return (x.grad_fn, 0)
    return (AccumulateGrad(x), 0)


class Engine(GradEngine):
    """torch-autograd's implementation of core's grad-engine hook."""

    def record(self, op, inputs, output, saved) -> None:
        derivative = DERIVATIVES.get(op.name)
        if derivative is None:
            raise NotImplementedError(f"the derivative of '{op.name}' is not implemented")
        edges = tuple(_edge(x) for x in inputs)
        node = _node_class(derivative.node_name)(derivative, inputs, saved, edges)
        output.grad_fn = node
        output._requires_grad = True

    def backward(self, tensors, grad_tensors, retain_graph, create_graph, inputs) -> None:
        run_backward(tensors, grad_tensors, retain_graph, create_graph, inputs, capture=False)


def _root_grads(tensors, grad_tensors):
    roots = []
    for i, (tensor, grad) in enumerate(zip(tensors, grad_tensors)):
        if not tensor._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
        if grad is None:
            if tensor.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            grad = torch.ones_like(tensor)
        elif tuple(grad.shape) != tuple(tensor.shape):
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of "
                f"{grad.shape} and output[{i}] has a shape of {tensor.shape}."
            )
        node = tensor.grad_fn if tensor.grad_fn is not None else AccumulateGrad(tensor)
        roots.append((node, grad))
    return roots


def _count_dependencies(roots) -> dict:
    dependencies: dict = {}
    stack = [node for node, _ in roots]
    seen = set(stack)
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            dependencies[child] = dependencies.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return dependencies


def run_backward(tensors, grad_tensors, retain_graph, create_graph, inputs, capture):
    """Run the backward pass. With ``capture``, return the gradients of ``inputs`` instead
    of accumulating into leaves (``torch.autograd.grad``)."""
    if retain_graph is None:
        retain_graph = create_graph
    roots = _root_grads(tensors, grad_tensors)
    wanted = None if inputs is None else {id(t): i for i, t in enumerate(inputs)}
    if inputs is not None:
        for t in inputs:
            if not t._requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
    captured = [None] * (len(inputs) if inputs is not None else 0)
    nonleaf_wanted = (
        {} if not capture else {t.grad_fn: i for i, t in enumerate(inputs) if t.grad_fn is not None}
    )

    dependencies = _count_dependencies(roots)
    buffers: dict = {}
    for node, grad in roots:
        buffers[node] = grad if node not in buffers else buffers[node] + grad
    ready = [node for node in buffers if dependencies.get(node, 0) == 0]

    with torch.set_grad_enabled(create_graph):
        while ready:
            node = ready.pop()
            grad = buffers.pop(node, None)
            if node in nonleaf_wanted and grad is not None:
                i = nonleaf_wanted[node]
                captured[i] = grad if captured[i] is None else captured[i] + grad
            if isinstance(node, AccumulateGrad):
                _deliver(node, grad, wanted, captured, capture, create_graph)
                continue
            grads = node.apply(grad) if grad is not None else (None,) * len(node.next_functions)
            if not retain_graph:
                node.release()
            for (child, _), child_grad in zip(node.next_functions, grads):
                if child is None:
                    continue
                if child_grad is not None:
                    previous = buffers.get(child)
                    buffers[child] = child_grad if previous is None else previous + child_grad
                dependencies[child] -= 1
                if dependencies[child] == 0:
                    ready.append(child)
    return tuple(captured) if capture else None


def _deliver(node, grad, wanted, captured, capture, create_graph) -> None:
    if grad is None:
        return
    leaf = node.variable
    if wanted is not None:
        index = wanted.get(id(leaf))
        if index is None:
            return
        if capture:
            captured[index] = grad if captured[index] is None else captured[index] + grad
            return
    node.accumulate(grad, create_graph)
