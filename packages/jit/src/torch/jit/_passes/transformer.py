"""Fusion of the Transformer patterns of an inference graph into native kernels.

After :mod:`~torch.jit._passes.decompose` has spelled multi-head attention out, a
Transformer layer's graph is mostly small ops around a few matrix products. Two
patterns hold most of the remaining time and become ``prim::FusionGroup`` nodes with
kernels of :mod:`torch.jit._kernels_nn`:

- attention: ``matmul(softmax(matmul(q * c, k.transpose(1, 2)), -1), v)`` over 3-d
  tensors (the scale ``c`` is optional), with a ``transpose(0, 1)`` of the result that
  nothing else reads taken in too (the kernel then writes the sequence-first layout the
  output projection reshapes without a copy);
- layer norm over the last dim with constant weight and bias, with the residual
  ``add(x, y)`` feeding it taken in when nothing else reads the sum.

Every intermediate value of a pattern must be read only inside it. A group runs its ops
where its kernel does not apply (gradients needed, other dtypes or ranks), as the
elementwise fusion groups do.
"""

from __future__ import annotations

from .._ir import Graph, Node, TensorType, Value
from ._util import arguments, constant_value, is_constant

__all__ = ["fuse_attention", "fuse_layer_norm"]

_FLOATS = ("torch.float32", "torch.float64")
_MATMULS = ("aten::matmul", "aten::bmm")


def _float_tensor(value: Value, rank: int | None = None) -> bool:
    type_ = value.type
    return (
        isinstance(type_, TensorType)
        and type_.sizes is not None
        and str(type_.dtype) in _FLOATS
        and (rank is None or len(type_.sizes) == rank)
    )


def _private(graph: Graph, value: Value, reader: Node) -> bool:
    """``value`` is read by ``reader`` alone (and is no graph output)."""
    return (
        len(value.uses) == 1
        and value.uses[0] is reader
        and not any(value is v for v in graph.outputs)
    )


def _producer(value: Value, kinds) -> Node | None:
    node = value.node
    return node if node is not None and node.kind in kinds and not node.blocks else None


def _int_constants(node: Node, count: int) -> list | None:
    values = node.inputs[1:]
    if len(values) != count or node.attrs.get("kwnames"):
        return None
    if not all(is_constant(v) and isinstance(constant_value(v), int) for v in values):
        return None
    return [constant_value(v) for v in values]


def _is_last_dims_transpose(node: Node) -> bool:
    dims = _int_constants(node, 2)
    return dims is not None and sorted(d % 3 for d in dims) == [1, 2]


def _softmax_last(node: Node) -> bool:
    args = arguments(node)
    if args is None or set(args) - {"input", "dim", "dtype", "_stacklevel"}:
        return False
    dim, dtype = args.get("dim"), args.get("dtype")
    if dim is None or not is_constant(dim) or constant_value(dim) not in (-1, 2):
        return False
    return dtype is None or (is_constant(dtype) and constant_value(dtype) is None)


def _attention_members(graph: Graph, out_matmul: Node):
    """``(members, scale, seq_first)`` of the attention pattern ending in ``out_matmul``."""
    if len(out_matmul.inputs) != 2 or out_matmul.attrs.get("kwnames"):
        return None
    probs, v = out_matmul.inputs
    softmax = _producer(probs, ("aten::softmax",))
    if softmax is None or not _private(graph, probs, out_matmul) or not _softmax_last(softmax):
        return None
    scores = softmax.inputs[0]
    in_matmul = _producer(scores, _MATMULS)
    if in_matmul is None or not _private(graph, scores, softmax) or len(in_matmul.inputs) != 2:
        return None
    if in_matmul.attrs.get("kwnames"):
        return None
    query, keys_t = in_matmul.inputs
    transpose = _producer(keys_t, ("aten::transpose",))
    if transpose is None or not _private(graph, keys_t, in_matmul):
        return None
    if not _is_last_dims_transpose(transpose):
        return None
    members, scale = [transpose, in_matmul, softmax, out_matmul], 1.0
    scaling = _producer(query, ("aten::mul",))
    if scaling is not None and _private(graph, query, in_matmul) and len(scaling.inputs) == 2:
        factor = scaling.inputs[1]
        if (
            is_constant(factor)
            and type(constant_value(factor)) in (int, float)
            and _float_tensor(scaling.inputs[0], 3)
        ):
            members.insert(0, scaling)
            scale = float(constant_value(factor))
    if not all(_float_tensor(t, 3) for t in (query, transpose.inputs[0], v)):
        return None
    if not _float_tensor(out_matmul.output(), 3):
        return None
    seq_first = False
    result = out_matmul.output()
    if len(result.uses) == 1 and not any(result is o for o in graph.outputs):
        after = result.uses[0]
        if after.kind == "aten::transpose" and not after.blocks:
            dims = _int_constants(after, 2)
            if dims is not None and sorted(d % 3 for d in dims) == [0, 1]:
                members.append(after)
                seq_first = True
    return members, scale, seq_first


def fuse_attention(graph: Graph) -> int:
    """Replace the attention patterns of the top-level block; returns how many."""
    from .._kernels_nn import AttentionKernel
    from .fusion import replace_with_group

    made = 0
    for node in list(graph.nodes):
        if node.owner is not graph.block or node.kind not in _MATMULS:
            continue
        found = _attention_members(graph, node)
        if found is None:
            continue
        members, scale, seq_first = found
        members.sort(key=graph.block.nodes.index)
        replace_with_group(
            graph, members, lambda sub, s=scale, f=seq_first: AttentionKernel(sub, s, f)
        )
        made += 1
    return made


def _layer_norm_parts(graph: Graph, node: Node):
    """The ``eps`` of a layer norm this pass compiles, else None."""
    args = arguments(node)
    if args is None or "input" not in args or not _float_tensor(args["input"]):
        return None
    shape, eps = args.get("normalized_shape"), args.get("eps")
    if shape is None or not is_constant(shape):
        return None
    shape = constant_value(shape)
    shape = [shape] if isinstance(shape, int) else list(shape)
    sizes = args["input"].type.sizes
    if len(shape) != 1 or not sizes or sizes[-1] != shape[0] or len(sizes) > 4:
        return None
    if eps is not None and not is_constant(eps):
        return None
    eps = 1e-5 if eps is None else constant_value(eps)
    for name in ("weight", "bias"):
        value = args.get(name)
        if value is None:
            continue
        if not is_constant(value):
            return None  # the kernel holds its weight and bias: frozen graphs only
        tensor = constant_value(value)
        if tensor is not None and not _float_tensor(value, 1):
            return None
    return float(eps)


def fuse_layer_norm(graph: Graph) -> int:
    """Replace the layer norms (with their residual adds) of the top-level block."""
    from .._kernels_nn import LayerNormKernel
    from .fusion import replace_with_group

    made = 0
    for node in list(graph.nodes):
        if node.owner is not graph.block or node.kind != "aten::layer_norm":
            continue
        eps = _layer_norm_parts(graph, node)
        if eps is None:
            continue
        members = [node]
        x = arguments(node)["input"]
        add = _producer(x, ("aten::add",))
        residual = (
            add is not None
            and _private(graph, x, node)
            and len(add.inputs) == 2
            and not add.attrs.get("kwnames")
            and all(_float_tensor(t) and t.type.sizes == x.type.sizes for t in add.inputs)
            and add.inputs[0] is not add.inputs[1]
            and add.inputs[0].type.dtype == add.inputs[1].type.dtype == x.type.dtype
        )
        if residual:
            members.insert(0, add)
        replace_with_group(
            graph, members, lambda sub, e=eps, r=residual: LayerNormKernel(sub, e, r)
        )
        made += 1
    return made
