"""The namespace ``Tensor.__array_namespace__()`` returns: the array API standard's
names for what torch-core provides (functions the standard has and torch-core does not
yet are absent rather than faked)."""

from __future__ import annotations

import torch

__array_api_version__ = "2023.12"

# data types
bool = torch.bool  # noqa: A001
int8, int16, int32, int64, uint8 = torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8
float32, float64 = torch.float32, torch.float64
complex64, complex128 = torch.complex64, torch.complex128

# creation
asarray = torch.as_tensor
arange, empty, empty_like, eye, full, full_like = (
    torch.arange,
    torch.empty,
    torch.empty_like,
    torch.eye,
    torch.full,
    torch.full_like,
)
linspace, ones, ones_like, zeros, zeros_like = (
    torch.linspace,
    torch.ones,
    torch.ones_like,
    torch.zeros,
    torch.zeros_like,
)
from_dlpack = torch.from_dlpack

# data type functions
can_cast, finfo, iinfo, result_type = torch.can_cast, torch.finfo, torch.iinfo, torch.result_type

# elementwise
abs, add, subtract, multiply, divide = (
    torch.abs,
    torch.add,
    torch.sub,  # noqa: A001
    torch.mul,
    torch.div,
)
floor_divide, remainder, pow, negative, positive = (
    torch.floor_divide,  # noqa: A001
    torch.remainder,
    torch.pow,
    torch.neg,
    torch.positive,
)
exp, log, sign = torch.exp, torch.log, torch.sign
equal, not_equal, less, less_equal, greater, greater_equal = (
    torch.eq,
    torch.ne,
    torch.lt,
    torch.le,
    torch.gt,
    torch.ge,
)
bitwise_and, bitwise_or, bitwise_xor, bitwise_invert = (
    torch.bitwise_and,
    torch.bitwise_or,
    torch.bitwise_xor,
    torch.bitwise_not,
)
bitwise_left_shift, bitwise_right_shift = torch.bitwise_left_shift, torch.bitwise_right_shift
logical_and, logical_or, logical_xor, logical_not = (
    torch.logical_and,
    torch.logical_or,
    torch.logical_xor,
    torch.logical_not,
)

# linear algebra, reductions, manipulation
matmul = torch.matmul
sum, mean = torch.sum, torch.mean  # noqa: A001


def reshape(x, /, shape, *, copy=None):
    return x.reshape(shape) if copy is not True else x.clone().reshape(shape)


def permute_dims(x, /, axes):
    return x.permute(*axes)


def expand_dims(x, /, *, axis=0):
    return x.unsqueeze(axis)


def squeeze(x, /, axis):
    return x.squeeze(axis)


def broadcast_to(x, /, shape):
    return x.expand(*shape)


def astype(x, dtype, /, *, copy=True):
    return x.to(dtype, copy=copy)
