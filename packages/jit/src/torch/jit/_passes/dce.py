"""Dead-code elimination: remove nodes whose outputs nobody reads and that have no
side effects (in-place writes, prints, raises, calls into Python or other methods)."""

from __future__ import annotations

from .._ir import Block, Graph

__all__ = ["eliminate_dead_code"]


def eliminate_dead_code(graph: Graph) -> int:
    """Remove dead nodes from every block; returns how many were removed."""
    return _sweep(graph.block)


def _sweep(block: Block) -> int:
    removed = 0
    for node in reversed(list(block.nodes)):
        for sub in node.blocks:
            removed += _sweep(sub)
        if node.has_side_effects():
            continue
        if any(value.uses or _is_block_output(value) for value in node.outputs):
            continue
        node.destroy()
        removed += 1
    return removed


def _is_block_output(value) -> bool:
    return any(any(v is value for v in block.outputs) for block in value.graph.all_blocks())
