"""torch.utils._pytree: flattening and rebuilding nested containers as PyTorch 2.13 does
(values below were printed by PyTorch 2.13)."""

import collections

import pytest

import torch.utils._pytree as pytree

Point = collections.namedtuple("Point", "x y")


def test_flatten_order_and_leaves():
    leaves, spec = pytree.tree_flatten([1, None, (2, {"b": 3, "a": 4})])
    assert leaves == [1, None, 2, 3, 4]  # None is a leaf; dicts keep insertion order
    assert spec.num_leaves == 5
    assert repr(spec) == (
        "TreeSpec(list, None, [*,\n  *,\n  TreeSpec(tuple, None, [*,\n"
        "    TreeSpec(dict, ['b', 'a'], [*,\n      *])])])"
    )
    assert pytree.tree_unflatten(list("vwxyz"), spec) == ["v", "w", ("x", {"b": "y", "a": "z"})]


def test_namedtuple_ordered_dict_deque_defaultdict():
    leaves, spec = pytree.tree_flatten(Point(1, [2]))
    assert leaves == [1, 2] and spec.type is collections.namedtuple
    assert pytree.tree_unflatten([5, 6], spec) == Point(5, [6])
    assert pytree.tree_leaves(collections.OrderedDict(b=1, a=2)) == [1, 2]
    rebuilt = pytree.tree_map(lambda v: v * 2, collections.deque([1, 2], maxlen=3))
    assert rebuilt == collections.deque([2, 4]) and rebuilt.maxlen == 3
    d = pytree.tree_map(str, collections.defaultdict(list, a=1))
    assert d.default_factory is list and d == {"a": "1"}


def test_map_variants():
    assert pytree.tree_map(lambda x: x * 10, {"a": (1, 2), "b": [3]}) == {"a": (10, 20), "b": [30]}
    assert pytree.tree_map(lambda a, b: a + b, (1, 2), (10, 20)) == (11, 22)
    assert pytree.tree_map_only(int, lambda x: -x, (1, 2.0, "x")) == (-1, 2.0, "x")
    assert pytree.tree_all(lambda x: x > 0, [1, (2, 3)])
    assert not pytree.tree_any(lambda x: x > 5, [1, (2, 3)])
    assert pytree.tree_flatten([1, [2, 3]], is_leaf=lambda x: x == [2, 3])[0] == [1, [2, 3]]


def test_errors_as_pytorch():
    with pytest.raises(ValueError, match=r"`leaves` has length 1 but the spec refers to a pytree "
                                         r"that holds 2 items"):  # fmt: skip
        pytree.tree_unflatten([1], pytree.tree_structure((1, 2)))
    with pytest.raises(ValueError, match="already registered"):
        pytree.register_pytree_node(list, None, None)


def test_supported_nodes_layout_lightning_reads():
    node = pytree.SUPPORTED_NODES[pytree._get_node_type({"a": 1})]
    assert node.flatten_fn({"a": 1}) == ([1], ["a"])
    assert pytree._get_node_type(Point(1, 2)) is collections.namedtuple
    assert pytree._get_node_type(3) not in pytree.SUPPORTED_NODES
    assert pytree.LeafSpec().is_leaf() and repr(pytree.tree_structure(3)) == "*"
