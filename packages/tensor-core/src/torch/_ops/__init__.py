"""Core ops, one file per family. Importing a family registers its ops in
``torch._interface.ops``."""

from . import (  # noqa: F401
    binary_math,
    combining,
    conveniences,
    decompositions,
    fill,
    gather_scatter,
    index_ops,
    linalg,
    linalg_extras,
    math_extras,
    nn_functional,
    nn_kernels,
    numeric,
    pointwise,
    pointwise_composites,
    reduction,
    resampling,
    scatter,
    shape_ops,
    sorting,
    special_functions,
    ternary,
    unary_math,
    views,
)  # noqa: F401
