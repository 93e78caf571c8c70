"""Max pooling as a generated native kernel (for inference graphs).

Core's ``max_pool2d`` gathers the windows with NumPy and reduces them: right for every
geometry, but on the small feature maps of inference (LeNet's 6x24x24) it costs tens of
microseconds for a few thousand comparisons. In a graph the geometry is known when the
graph is optimised, so this pass swaps a ``max_pool2d`` without padding, dilation,
``ceil_mode`` or returned indices (and a ``relu`` feeding it alone, which commutes with
the max) for a ``prim::FusionGroup`` whose kernel is one C++ loop over the windows with
the sizes compiled in. The kernel takes any batch size; any other input (other channel
or spatial sizes, non-contiguous, gradients needed) runs the group's ops.
"""

from __future__ import annotations

from .._ir import Graph, Node, TensorType
from ._util import arguments, constant_value, is_constant

__all__ = ["fuse_max_pooling"]

_POOLS = {"aten::max_pool2d", "aten::max_pool"}  # the second: core's op, ``nd`` argument
_RELUS = {"aten::relu", "aten::relu_"}
_FLOATS = ("torch.float32", "torch.float64")


def _pair(value):
    if isinstance(value, int):
        return (value, value)
    if (
        isinstance(value, (tuple, list))
        and len(value) == 2
        and all(isinstance(v, int) for v in value)
    ):
        return tuple(value)
    if isinstance(value, (tuple, list)) and len(value) == 1 and isinstance(value[0], int):
        return (value[0], value[0])
    return None


def _constant_argument(args: dict, name: str, default):
    value = args.get(name)
    if value is None:
        return default
    if not is_constant(value):
        raise LookupError(name)
    return constant_value(value)


def pool_geometry(node: Node):
    """``(kernel, stride)`` of a max pooling node this pass can compile, else None."""
    args = arguments(node)
    if args is None or "input" not in args:
        return None
    try:
        kernel = _pair(_constant_argument(args, "kernel_size", None))
        stride = _constant_argument(args, "stride", None)
        padding = _pair(_constant_argument(args, "padding", 0))
        dilation = _pair(_constant_argument(args, "dilation", 1))
        ceil_mode = _constant_argument(args, "ceil_mode", False)
        indices = _constant_argument(args, "return_indices", False)
        dims = _constant_argument(args, "nd", 2)
    except LookupError:
        return None
    stride = kernel if stride in (None, (), []) else _pair(stride)
    if kernel is None or stride is None or padding != (0, 0) or dilation != (1, 1):
        return None
    if ceil_mode or indices or dims != 2:
        return None
    source = args["input"].type
    if not isinstance(source, TensorType) or source.sizes is None or len(source.sizes) != 4:
        return None
    if str(source.dtype) not in _FLOATS:
        return None
    return kernel, stride


def fuse_max_pooling(graph: Graph) -> int:
    """Replace compilable max poolings of the top-level block; returns how many."""
    from .._kernels import PoolKernel
    from .fusion import replace_with_group

    made = 0
    for node in list(graph.nodes):
        if node.kind not in _POOLS or node.owner is not graph.block:
            continue
        geometry = pool_geometry(node)
        if geometry is None:
            continue
        members = [node]
        source = arguments(node)["input"]
        producer = source.node
        if (
            producer is not None
            and producer.kind in _RELUS
            and len(producer.inputs) == 1
            and len(source.uses) == 1
            and not any(source is v for v in graph.outputs)
        ):
            members.insert(0, producer)
        replace_with_group(graph, members, lambda sub, g=geometry: PoolKernel(sub, *g))
        made += 1
    return made
