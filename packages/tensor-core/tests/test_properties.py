"""Property tests against NumPy: broadcasting, promotion of same-kind operands, basic and
advanced indexing, views."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import torch

settings.register_profile("ci", max_examples=60, deadline=None)
settings.load_profile("ci")

FLOATS = st.sampled_from([np.float32, np.float64])


@given(st.data(), FLOATS)
def test_broadcasting_binary_ops(data, dtype):
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=4))
    a = data.draw(hnp.arrays(dtype, shapes.input_shapes[0], elements=st.floats(-5, 5, width=32)))
    b = data.draw(hnp.arrays(dtype, shapes.input_shapes[1], elements=st.floats(-5, 5, width=32)))
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    for got, expected in [(ta + tb, a + b), (ta * tb, a * b), (ta - tb, a - b)]:
        assert tuple(got.shape) == shapes.result_shape
        np.testing.assert_array_equal(got.numpy(), expected)


@given(
    st.sampled_from(["int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"]),
    st.sampled_from(["int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"]),
)
def test_promotion_of_numeric_types_matches_numpy_where_they_agree(a, b):
    # NumPy and PyTorch agree on these pairs except int + float16/float32 (PyTorch keeps
    # the float type; NumPy widens it)
    ours = torch.promote_types(getattr(torch, a), getattr(torch, b))
    theirs = np.promote_types(a, b)
    kinds = {np.dtype(a).kind, np.dtype(b).kind}
    if kinds == {"f"} or kinds <= {"i", "u"}:
        assert ours.name == theirs.name
    else:
        assert ours.is_floating_point


def _basic_index(draw, shape):
    parts = []
    for size in shape:
        choice = draw(st.integers(0, 2))
        if choice == 0 and size:
            parts.append(draw(st.integers(-size, size - 1)))
        elif choice == 1:
            start = draw(st.integers(0, size))
            stop = draw(st.integers(start, size))
            parts.append(slice(start, stop, draw(st.integers(1, 3))))
        else:
            parts.append(slice(None))
    if draw(st.booleans()):
        parts.insert(draw(st.integers(0, len(parts))), None)
    return tuple(parts)


@given(st.data())
def test_basic_indexing_views(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=4, max_side=5))
    array = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    index = _basic_index(data.draw, shape)
    tensor = torch.from_numpy(array.copy())
    view = tensor[index]
    np.testing.assert_array_equal(view.numpy(), array[index])
    if view.numel():
        view.fill_(-1) if hasattr(view, "fill_") else view.copy_(
            torch.full(view.shape, -1.0, dtype=torch.float64)
        )
        assert (tensor.numpy()[index] == -1).all()  # writes through the view


@given(st.data())
def test_advanced_indexing_copies(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=5))
    array = np.arange(int(np.prod(shape))).reshape(shape)
    rows = data.draw(st.lists(st.integers(-shape[0], shape[0] - 1), min_size=1, max_size=4))
    tensor = torch.from_numpy(array.copy())
    result = tensor[torch.tensor(rows)]
    np.testing.assert_array_equal(result.numpy(), array[rows])
    mask = array % 2 == 0
    np.testing.assert_array_equal(tensor[torch.from_numpy(mask)].numpy(), array[mask])


@given(st.data())
def test_permute_and_reshape(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=4, max_side=4))
    array = np.arange(int(np.prod(shape))).reshape(shape)
    order = data.draw(st.permutations(range(len(shape))))
    tensor = torch.from_numpy(array.copy())
    permuted = tensor.permute(*order)
    np.testing.assert_array_equal(permuted.numpy(), array.transpose(order))
    np.testing.assert_array_equal(permuted.reshape(-1).numpy(), array.transpose(order).reshape(-1))
    assert permuted.data_ptr() == tensor.data_ptr()
