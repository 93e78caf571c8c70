"""Folding on the finished ONNX node list: batch normalisation after a convolution
whose weights are initializers becomes part of the convolution (what PyTorch's exporter
does in eval mode with constant folding)."""

from __future__ import annotations

from collections import Counter

__all__ = ["fold_conv_batch_norm"]


def _readers(nodes) -> Counter:
    """How often each value is read, by ``nodes`` and the subgraphs of their If and Loop
    nodes (which read the values of the graph around them)."""
    from onnx import AttributeProto

    counts: Counter = Counter()
    for node in nodes:
        counts.update(n for n in node.input if n)
        for attribute in node.attribute:
            if attribute.type == AttributeProto.GRAPH:
                counts.update(_readers(attribute.g.node))
                counts.update(o.name for o in attribute.g.output)
    return counts


def fold_conv_batch_norm(nodes: list, initializers: dict, outputs: set[str]) -> list:
    """``nodes`` with each Conv -> BatchNormalization pair (the convolution read only by
    the normalisation, every weight an initializer) replaced by one Conv."""
    from onnx import numpy_helper

    producers = {out: node for node in nodes for out in node.output}
    readers = _readers(nodes)
    dropped: set[int] = set()
    for bn in nodes:
        if bn.op_type != "BatchNormalization" or len(bn.output) != 1:
            continue
        conv = producers.get(bn.input[0])
        if conv is None or conv.op_type != "Conv" or readers[conv.output[0]] != 1:
            continue
        if conv.output[0] in outputs or not all(n in initializers for n in bn.input[1:5]):
            continue
        if not all(n in initializers for n in conv.input[1:] if n):
            continue
        arrays = [numpy_helper.to_array(initializers[n]) for n in bn.input[1:5]]
        scale, shift, mean, var = (a.astype("float64") for a in arrays)
        epsilon = next((a.f for a in bn.attribute if a.name == "epsilon"), 1e-5)
        factor = scale / (var + epsilon) ** 0.5
        weight = numpy_helper.to_array(initializers[conv.input[1]])
        bias_name = conv.input[2] if len(conv.input) > 2 and conv.input[2] else None
        bias = numpy_helper.to_array(initializers[bias_name]) if bias_name else 0.0
        new_weight = weight * factor.reshape(-1, *([1] * (weight.ndim - 1)))
        new_bias = (bias - mean) * factor + shift
        dtype = weight.dtype
        weight_name = f"{conv.input[1]}.bn_folded"
        bias_out = f"{bn.input[2]}.bn_folded"
        initializers[weight_name] = numpy_helper.from_array(new_weight.astype(dtype), weight_name)
        initializers[bias_out] = numpy_helper.from_array(new_bias.astype(dtype), bias_out)
        data = conv.input[0]
        del conv.input[:]
        conv.input.extend([data, weight_name, bias_out])
        conv.output[0] = bn.output[0]
        dropped.add(id(bn))
    kept = [n for n in nodes if id(n) not in dropped]
    used = _readers(kept)
    for name in list(initializers):  # the replaced weights, unless something else reads them
        if name not in used and name not in outputs:
            del initializers[name]
    return kept
