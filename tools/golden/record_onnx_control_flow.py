"""Record the node structure PyTorch 2.13's TorchScript-based exporter writes for scripted
programs with control flow (packages/jit/tests/cases_onnx_control_flow.py), for
packages/jit/tests/test_onnx_control_flow.py. Needs the ``onnx`` package in the reference
interpreter (``~/.cache/ptdiff/ref/bin/pip install onnx``):

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_onnx_control_flow.py

Writes packages/jit/tests/golden/onnx_control_flow.json: per case, the op types of the
main graph in order (Constant nodes left out), an If or Loop as ``[op_type, {subgraph
name: its structure}]``, and the names of the main graph's inputs.
"""

from __future__ import annotations

import io
import json
import pathlib
import sys
import warnings

import onnx

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "jit" / "tests"
sys.path.insert(0, str(TESTS))

import cases_onnx_control_flow  # noqa: E402

warnings.simplefilter("ignore")


def structure(graph) -> list:
    """The op types of ``graph`` (Constant left out), subgraphs nested."""
    out = []
    for node in graph.node:
        if node.op_type == "Constant":
            continue
        subgraphs = {
            a.name: structure(a.g) for a in node.attribute if a.type == onnx.AttributeProto.GRAPH
        }
        out.append([node.op_type, dict(sorted(subgraphs.items()))] if subgraphs else node.op_type)
    return out


def record() -> dict:
    result = {}
    for name, (program, args, names, axes, _) in cases_onnx_control_flow.cases().items():
        torch.manual_seed(0)
        if isinstance(program, type):
            program = program().eval()
        scripted = torch.jit.script(program)
        buffer = io.BytesIO()
        torch.onnx.export(
            scripted, args, buffer, dynamo=False, input_names=names, dynamic_axes=axes
        )
        proto = onnx.load_from_string(buffer.getvalue())
        result[name] = {
            "structure": structure(proto.graph),
            "inputs": [i.name for i in proto.graph.input],
        }
    return result


if __name__ == "__main__":
    path = TESTS / "golden" / "onnx_control_flow.json"
    path.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {path}")
