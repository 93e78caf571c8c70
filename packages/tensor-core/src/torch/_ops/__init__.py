"""Core ops, one file per family. Importing a family registers its ops in
``torch._interface.ops``."""

from . import (  # noqa: F401
    binary_math,
    decompositions,
    fill,
    gather_scatter,
    linalg,
    nn_functional,
    nn_kernels,
    pointwise,
    pointwise_composites,
    reduction,
    resampling,
    scatter,
    shape_ops,
    sorting,
    ternary,
    unary_math,
    views,
)  # noqa: F401
