"""Helpers shared by the distributions: broadcasting parameters, converting between
probabilities and logits, lazily computed attributes, and packing lower triangles."""

from __future__ import annotations

import math
from functools import update_wrapper
from numbers import Number
from operator import attrgetter

import torch

__all__ = [
    "broadcast_all",
    "logits_to_probs",
    "clamp_probs",
    "probs_to_logits",
    "lazy_property",
    "tril_matrix_to_vec",
    "vec_to_tril_matrix",
]


#: the Euler-Mascheroni constant (Gumbel's mean, Weibull's entropy, ...)
euler_constant = 0.57721566490153286060


def _is_tensor_like(value) -> bool:
    return isinstance(value, torch.Tensor) or hasattr(type(value), "__torch_function__")


def broadcast_all(*values):
    """Broadcast tensors and numbers together.

    Numbers become tensors of the first tensor's dtype (of the default dtype when all are
    numbers), then everything is broadcast with ``torch.broadcast_tensors``.

    Args:
        values: tensors or numbers.

    Raises:
        ValueError: for a value that is neither.

    Examples::

        >>> loc, scale = broadcast_all(torch.zeros(2), 1.0)
        >>> scale
        tensor([1., 1.])
    """
    if not all(_is_tensor_like(v) or isinstance(v, Number) for v in values):
        raise ValueError(
            "Input arguments must all be instances of Number, "
            "torch.Tensor or objects implementing __torch_function__."
        )
    if not all(_is_tensor_like(v) for v in values):
        options = {"dtype": torch.get_default_dtype()}
        first = next((v for v in values if isinstance(v, torch.Tensor)), None)
        if first is not None:
            options = {"dtype": first.dtype, "device": first.device}
        values = [v if _is_tensor_like(v) else torch.tensor(v, **options) for v in values]
    return torch.broadcast_tensors(*values)


def _standard_normal(shape, dtype, device):
    """Standard normal draws of ``shape``, made as ``Tensor.normal_`` makes them."""
    return torch.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim: int):
    """Sum out the ``dim`` rightmost dims of ``value``."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary: bool = False):
    """Probabilities from logits: the sigmoid of log-odds (``is_binary``), else the
    softmax of unnormalised log-probabilities over the last dim."""
    if is_binary:
        return torch.sigmoid(logits)
    return torch.softmax(logits, dim=-1)


def clamp_probs(probs):
    """Clamp ``probs`` into ``[eps, 1 - eps]`` (``eps`` of its dtype), keeping logarithms
    finite.

    Examples::

        >>> clamp_probs(torch.tensor([0.0, 0.5, 1.0]))
        tensor([1.1921e-07, 5.0000e-01, 1.0000e+00])
    """
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary: bool = False):
    """Logits from probabilities (clamped first): log-odds for ``is_binary``, else the
    log of each event's probability."""
    clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(clamped) - torch.log1p(-clamped)
    return torch.log(clamped)


class lazy_property:
    """A method computed on first access (with grad enabled) and then stored on the
    instance, replacing the descriptor for that instance."""

    def __init__(self, wrapped) -> None:
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def _forwarded(path: str):
    """A read-only property returning ``self.<path>`` (a dotted path such as
    ``"base_dist.loc"``): a value held by the distribution this one is built on."""
    get = attrgetter(path)
    return property(lambda self: get(self))  # a lambda: no docstring of attrgetter's


class _lazy_property_and_property(lazy_property, property):
    """What a ``lazy_property`` looks like on the class: both a lazy property (for the
    argument validation, which skips it) and a property (for documentation tools)."""

    def __init__(self, wrapped) -> None:
        property.__init__(self, wrapped)


def _tril_mask(n: int, diag: int, device=None):
    rows = torch.arange(n, device=device)
    return rows < rows.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag: int = 0):
    """The lower triangle (up to diagonal offset ``diag``) of square matrices, row by row,
    as vectors."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec, diag: int = 0):
    """Square lower-triangular matrices filled row by row from vectors (the inverse of
    :func:`tril_matrix_to_vec`)."""
    # the side n solves n (n + 1) / 2 + diag-dependent terms = vec.shape[-1]
    b = 1 + 2 * diag
    n = (-b + math.sqrt(b * b + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1))) / 2
    if round(n) - n > torch.finfo(vec.dtype).eps:
        raise ValueError(
            f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
            "the lower triangular part of a square D x D matrix."
        )
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + torch.Size((n, n)))
    mat[..., _tril_mask(n, diag, vec.device)] = vec
    return mat


# ---- the few torch.nn.functional pieces the distributions need (torch-nn is not a
# dependency): written on core ops, with PyTorch's thresholds


def _softplus(x):
    """``log(1 + exp(x))``, and ``x`` itself above 20 (PyTorch's softplus threshold)."""
    return torch.where(x > 20, x, torch.log1p(torch.exp(torch.clamp(x, max=20))))


def _logsigmoid(x):
    """``log(sigmoid(x))`` without overflow."""
    return torch.clamp(x, max=0) - torch.log1p(torch.exp(-x.abs()))


def _pad_last(x, before: int, after: int, value: float):
    """``x`` with ``before``/``after`` entries of ``value`` added along its last dim."""
    return torch.constant_pad_nd(x, [before, after], value)


def _one_hot(indices, num_classes: int):
    """int64 one-hot vectors of ``indices`` along a new last dim."""
    eye = torch.eye(num_classes, dtype=torch.int64, device=indices.device)
    return eye[indices]
