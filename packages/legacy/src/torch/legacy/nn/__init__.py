"""torch.legacy.nn: Lua Torch style modules that compute their gradients by hand.

Each module keeps its last ``output`` and ``gradInput``; ``forward(input)`` and
``backward(input, gradOutput)`` drive it, parameters and their gradient buffers come from
``parameters()`` or, as one flat vector each, from ``flattenParameters()``. Dimensions
and indices count from 0 (Lua Torch counted from 1). No autograd is involved.
"""

from .activation import LogSoftMax, ReLU, Sigmoid, SoftMax, Tanh, Threshold
from .containers import Concat, ConcatTable, Container, ParallelTable, Sequential
from .conv import SpatialConvolution
from .criterion import Criterion
from .criterions import (
    AbsCriterion,
    BCECriterion,
    ClassNLLCriterion,
    CrossEntropyCriterion,
    DistKLDivCriterion,
    MarginCriterion,
    MSECriterion,
    SmoothL1Criterion,
)
from .dropout import Dropout
from .linear import Add, CMul, Linear, LookupTable, Mul
from .module import Module
from .normalization import BatchNormalization, SpatialBatchNormalization
from .pooling import SpatialAveragePooling, SpatialMaxPooling
from .reduction import Max, Mean, Sum
from .shape import Identity, Narrow, Reshape, Transpose, View
from .table import CAddTable, CMulTable, JoinTable, SelectTable

__all__ = [
    "Module",
    "Criterion",
    # containers
    "Container",
    "Sequential",
    "Concat",
    "ConcatTable",
    "ParallelTable",
    "JoinTable",
    "SelectTable",
    "CAddTable",
    "CMulTable",
    # layers
    "Linear",
    "SpatialConvolution",
    "SpatialMaxPooling",
    "SpatialAveragePooling",
    "BatchNormalization",
    "SpatialBatchNormalization",
    "LookupTable",
    "CMul",
    "Add",
    "Mul",
    # activations
    "ReLU",
    "Tanh",
    "Sigmoid",
    "SoftMax",
    "LogSoftMax",
    "Threshold",
    "Dropout",
    # shape and reductions
    "Identity",
    "Reshape",
    "View",
    "Narrow",
    "Transpose",
    "Sum",
    "Mean",
    "Max",
    # criterions
    "MSECriterion",
    "ClassNLLCriterion",
    "CrossEntropyCriterion",
    "BCECriterion",
    "AbsCriterion",
    "SmoothL1Criterion",
    "MarginCriterion",
    "DistKLDivCriterion",
]
