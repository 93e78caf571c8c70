"""Nested containers as flat lists of leaves plus a structure: ``torch.utils._pytree``.

Private in PyTorch, but libraries built on it import it (x-transformers, lightning,
torch.func users), so its main functions are here with the same behaviour: ``list``,
``tuple``, ``dict`` (keys in insertion order), ``OrderedDict``, ``defaultdict``,
``deque`` and namedtuples are containers; everything else (``None`` included) is a leaf;
more container types can be added with :func:`register_pytree_node`.

Examples::

    >>> from torch.utils._pytree import tree_flatten, tree_map, tree_unflatten
    >>> leaves, spec = tree_flatten({"a": (1, 2), "b": [3]})
    >>> leaves
    [1, 2, 3]
    >>> tree_unflatten([10, 20, 30], spec)
    {'a': (10, 20), 'b': [30]}
    >>> tree_map(lambda x: x * 2, [1, (2, 3)])
    [2, (4, 6)]
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Callable
from typing import Any

__all__ = [
    "LeafSpec",
    "NodeDef",
    "PyTree",
    "SUPPORTED_NODES",
    "TreeSpec",
    "register_pytree_node",
    "tree_all",
    "tree_any",
    "tree_flatten",
    "tree_leaves",
    "tree_map",
    "tree_map_only",
    "tree_structure",
    "tree_unflatten",
]


PyTree = Any  # any nested structure of containers and leaves


@dataclasses.dataclass(frozen=True)
class NodeDef:
    """How one container type is taken apart and rebuilt."""

    type: Any
    flatten_fn: Callable[[Any], tuple[list, Any]]  # node -> (children, context)
    unflatten_fn: Callable[[list, Any], Any]  # (children, context) -> node


# container type -> NodeDef; namedtuples share the key collections.namedtuple (PyTorch's
# layout, which lightning reads)
SUPPORTED_NODES: dict[Any, NodeDef] = {}
_NAMEDTUPLE = collections.namedtuple


def register_pytree_node(cls, flatten_fn, unflatten_fn, *, serialized_type_name=None, **kwargs):
    """Make ``cls`` a container: ``flatten_fn(node) -> (children, context)`` and
    ``unflatten_fn(children, context) -> node``."""
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    SUPPORTED_NODES[cls] = NodeDef(cls, flatten_fn, unflatten_fn)


def _dict_flatten(d):
    return list(d.values()), list(d.keys())


register_pytree_node(list, lambda x: (list(x), None), lambda c, _: list(c))
register_pytree_node(tuple, lambda x: (list(x), None), lambda c, _: tuple(c))
register_pytree_node(dict, _dict_flatten, lambda c, keys: dict(zip(keys, c)))
register_pytree_node(
    collections.OrderedDict, _dict_flatten, lambda c, keys: collections.OrderedDict(zip(keys, c))
)
register_pytree_node(
    collections.defaultdict,
    lambda d: (list(d.values()), (d.default_factory, list(d.keys()))),
    lambda c, ctx: collections.defaultdict(ctx[0], zip(ctx[1], c)),
)
register_pytree_node(_NAMEDTUPLE, lambda x: (list(x), type(x)), lambda c, cls: cls(*c))
register_pytree_node(
    collections.deque,
    lambda d: (list(d), d.maxlen),
    lambda c, maxlen: collections.deque(c, maxlen=maxlen),
)


def _is_namedtuple(node) -> bool:
    return isinstance(node, tuple) and hasattr(type(node), "_fields")


def _get_node_type(node):
    """The key of ``node``'s container type in SUPPORTED_NODES (``collections.namedtuple``
    for any namedtuple), or its type when it is a leaf."""
    return _NAMEDTUPLE if _is_namedtuple(node) else type(node)


def _node_kind(node):
    """The SUPPORTED_NODES key of ``node``, or None for a leaf."""
    kind = _get_node_type(node)
    return kind if kind in SUPPORTED_NODES else None


class TreeSpec:
    """The structure of a pytree: a container type, its context (dict keys, the
    namedtuple class...) and the specs of its children; a leaf is :class:`LeafSpec`."""

    def __init__(self, type, context, children_specs) -> None:
        self.type = type
        self.context = context
        self.children_specs = list(children_specs)
        self.num_nodes = 1 + sum(c.num_nodes for c in self.children_specs)
        self.num_leaves = sum(c.num_leaves for c in self.children_specs)
        self.num_children = len(self.children_specs)

    def is_leaf(self) -> bool:
        return False

    def _unflatten(self, leaves):
        children = [child._unflatten(leaves) for child in self.children_specs]
        return SUPPORTED_NODES[self.type].unflatten_fn(children, self.context)

    def unflatten(self, leaves):
        """The pytree of this structure holding ``leaves``."""
        leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(
                f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec "
                f"refers to a pytree that holds {self.num_leaves} items ({self})."
            )
        return self._unflatten(iter(leaves))

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, TreeSpec)
            and self.is_leaf() == other.is_leaf()
            and self.type == other.type
            and self.context == other.context
            and self.children_specs == other.children_specs
        )

    def __hash__(self) -> int:
        return hash((self.type, self.num_nodes, self.num_leaves))

    def __repr__(self, indent: int = 0) -> str:
        name = self.type.__name__
        children = [c.__repr__(indent + 2) for c in self.children_specs]
        joined = (",\n" + " " * (indent + 2)).join(children)
        return f"TreeSpec({name}, {self.context}, [{joined}])"


class LeafSpec(TreeSpec):
    """The structure of a leaf."""

    def __init__(self) -> None:
        super().__init__(None, None, [])
        self.num_nodes = 1
        self.num_leaves = 1

    def is_leaf(self) -> bool:
        return True

    def _unflatten(self, leaves):
        return next(leaves)

    def __repr__(self, indent: int = 0) -> str:
        return "*"


def _flatten(tree, leaves: list, is_leaf) -> TreeSpec:
    kind = None if is_leaf is not None and is_leaf(tree) else _node_kind(tree)
    if kind is None:
        leaves.append(tree)
        return LeafSpec()
    children, context = SUPPORTED_NODES[kind].flatten_fn(tree)
    return TreeSpec(kind, context, [_flatten(c, leaves, is_leaf) for c in children])


def tree_flatten(tree, is_leaf=None) -> tuple[list, TreeSpec]:
    """``(leaves, spec)``: the leaves in order and the structure holding them.
    ``is_leaf(node)`` returning True stops the descent at ``node``."""
    leaves: list = []
    spec = _flatten(tree, leaves, is_leaf)
    return leaves, spec


def tree_unflatten(leaves, treespec: TreeSpec):
    """The pytree of structure ``treespec`` holding ``leaves``."""
    if not isinstance(treespec, TreeSpec):
        raise TypeError(
            f"tree_unflatten(leaves, treespec): Expected `treespec` to be instance of "
            f"TreeSpec but got item of type {type(treespec)}."
        )
    return treespec.unflatten(leaves)


def tree_leaves(tree, is_leaf=None) -> list:
    """The leaves of ``tree``, in order."""
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None) -> TreeSpec:
    """The structure of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def tree_map(func, tree, *rests, is_leaf=None):
    """A pytree of the same structure with ``func`` applied to each leaf (to the
    matching leaves of ``tree`` and of each of ``rests``, which must have its structure
    or a finer one)."""
    leaves, spec = tree_flatten(tree, is_leaf)
    others = [_flatten_like(spec, r) for r in rests]
    return spec.unflatten(func(*args) for args in zip(leaves, *others))


def _flatten_like(spec: TreeSpec, tree) -> list:
    """The subtrees of ``tree`` at the places of ``spec``'s leaves."""
    if spec.is_leaf():
        return [tree]
    kind = _node_kind(tree)
    if kind != spec.type:
        raise ValueError(f"Node type mismatch; expected {spec.type}, but got {kind}.")
    children = SUPPORTED_NODES[kind].flatten_fn(tree)[0]
    if len(children) != spec.num_children:
        raise ValueError(
            f"Node arity mismatch; expected {spec.num_children}, but got {len(children)}."
        )
    return [leaf for c, s in zip(children, spec.children_specs) for leaf in _flatten_like(s, c)]


def _type_matcher(types):
    if isinstance(types, tuple) and types and isinstance(types[0], tuple):
        types = tuple(t for group in types for t in group)
    return lambda x: isinstance(x, types)


def tree_map_only(type_or_types, func, tree, is_leaf=None):
    """:func:`tree_map` applying ``func`` only to leaves of the given type(s); other
    leaves are kept."""
    matches = _type_matcher(type_or_types)
    return tree_map(lambda x: func(x) if matches(x) else x, tree, is_leaf=is_leaf)


def tree_all(pred, tree, is_leaf=None) -> bool:
    """Whether ``pred`` holds for every leaf."""
    return all(map(pred, tree_leaves(tree, is_leaf)))


def tree_any(pred, tree, is_leaf=None) -> bool:
    """Whether ``pred`` holds for some leaf."""
    return any(map(pred, tree_leaves(tree, is_leaf)))
