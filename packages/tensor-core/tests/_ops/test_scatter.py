"""The view gradients' scatter (torch._ops.scatter.view_scatter): the strided write it
takes for views that read each element once must equal the accumulating reference."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch._ops import scatter

# (input geometry, view geometry): (shape, strides, offset) in elements
GEOMETRIES = [
    (((6, 4), (4, 1), 0), ((2, 4), (4, 1), 8)),  # chunk of rows
    (((6, 4), (4, 1), 0), ((6,), (4,), 1)),  # a column
    (((6, 4), (4, 1), 0), ((4, 6), (1, 4), 0)),  # transpose
    (((3, 4, 5), (20, 5, 1), 0), ((3, 2, 5), (20, 10, 1), 5)),  # strided slice
    (((5,), (1,), 0), ((3, 5), (0, 1), 0)),  # expand: read three times
    (((8,), (1,), 0), ((3, 4), (2, 1), 0)),  # overlapping windows (unfold)
    (((4, 4), (4, 1), 0), ((4,), (5,), 0)),  # diagonal
    (((1, 5), (5, 1), 0), ((1, 5), (7, 1), 0)),  # a size-1 dim with any stride
]


@pytest.mark.parametrize("geometries", GEOMETRIES)
def test_view_scatter_equals_the_accumulating_reference(geometries):
    input_geometry, view_geometry = geometries
    grad = torch.from_numpy(np.random.default_rng(0).standard_normal(view_geometry[0]))
    result = scatter.view_scatter(grad, input_geometry, view_geometry)
    buffer, base = scatter._buffer(input_geometry, view_geometry, np.float64)
    positions = scatter._flat_positions(view_geometry[0], view_geometry[1], view_geometry[2] - base)
    np.add.at(buffer, positions.reshape(-1), grad.numpy().reshape(-1))
    shape, strides, offset = input_geometry
    expected = scatter._strided(buffer, shape, strides, offset - base)
    np.testing.assert_array_equal(result.numpy(), expected)


@pytest.mark.parametrize(
    ("shape", "strides", "once"),
    [
        ((3, 4), (4, 1), True),
        ((3, 4), (1, 3), True),
        ((3, 4), (0, 1), False),
        ((3, 4), (2, 1), False),
        ((3, 4), (4, 2), False),
        ((1, 5), (0, 1), True),
        ((), (), True),
        ((2, 2, 2), (1, 4, 2), True),
    ],
)
def test_reads_each_once(shape, strides, once):
    assert scatter._reads_each_once(shape, strides) is once
