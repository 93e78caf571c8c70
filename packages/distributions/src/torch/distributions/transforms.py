"""Transforms: invertible (or not) maps between constrained spaces, with the log of the
absolute Jacobian determinant that change-of-variables needs.

A ``Transform`` maps ``x`` to ``y = t(x)``; ``t.inv`` is its inverse (``t.inv(y)``),
``t.log_abs_det_jacobian(x, y)`` the log-density correction, ``domain``/``codomain`` the
constraints of ``x`` and ``y`` (their ``event_dim`` says how many rightmost dims one
event spans). ``cache_size=1`` remembers the last pair so that ``t.inv(t(x))`` returns
``x`` itself (which keeps samples' gradients exact through non-invertible numerics).

Examples::

    >>> t = ExpTransform()
    >>> t(torch.tensor([0.0, 1.0]))
    tensor([1.0000, 2.7183])
    >>> t.inv(torch.tensor([1.0]))
    tensor([0.])
    >>> AffineTransform(1.0, 2.0)(torch.tensor([3.0]))
    tensor([7.])
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Sequence
from numbers import Number

import torch

from . import constraints
from .distribution import Distribution  # noqa: F401 (the type CumulativeDistributionTransform takes)
from .utils import (
    _forwarded,
    _logsigmoid,
    _pad_last,
    _softplus,
    _sum_rightmost,
    broadcast_all,
    lazy_property,
    tril_matrix_to_vec,
    vec_to_tril_matrix,
)

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "CatTransform",
    "ComposeTransform",
    "CorrCholeskyTransform",
    "CumulativeDistributionTransform",
    "ExpTransform",
    "IndependentTransform",
    "LowerCholeskyTransform",
    "PositiveDefiniteTransform",
    "PowerTransform",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftplusTransform",
    "TanhTransform",
    "SoftmaxTransform",
    "StackTransform",
    "StickBreakingTransform",
    "Transform",
    "identity_transform",
]


class Transform:
    """Base class of transforms.

    Subclasses define ``_call`` (forward), ``_inverse`` and ``log_abs_det_jacobian``,
    and the class attributes ``domain``, ``codomain`` and ``bijective``.

    Args:
        cache_size (int): 0 (no cache) or 1 (remember the last ``x``/``y`` pair).
            Default: 0.
    """

    bijective = False

    def __init__(self, cache_size: int = 0) -> None:
        self._cache_size = cache_size
        self._inv = None
        if cache_size == 1:
            self._cached_x_y = (None, None)
        elif cache_size != 0:
            raise ValueError("cache_size must be 0 or 1")
        super().__init__()

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_inv"] = None  # the inverse is rebuilt lazily (it refers back to self)
        return state

    @property
    def event_dim(self) -> int:
        if self.domain.event_dim == self.codomain.event_dim:
            return self.domain.event_dim
        raise ValueError("Please use either .domain.event_dim or .codomain.event_dim")

    @property
    def inv(self) -> Transform:
        """The inverse transform (``t.inv.inv is t``)."""
        if self._inv is None:
            self._inv = _InverseTransform(self)
        return self._inv

    @property
    def sign(self):
        """The sign of the Jacobian determinant of a bijective monotone transform."""
        raise NotImplementedError

    def with_cache(self, cache_size=1):
        """This transform with ``cache_size`` (a copy when it differs)."""
        if self._cache_size == cache_size:
            return self
        if type(self).__init__ is Transform.__init__:
            return type(self)(cache_size=cache_size)
        raise NotImplementedError(f"{type(self)}.with_cache is not implemented")

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = object.__hash__

    def __call__(self, x):
        """``y = t(x)`` (from the cache when ``x`` is the last input)."""
        return self._through_cache(x, forward=True)

    def _inv_call(self, y):
        return self._through_cache(y, forward=False)

    def _through_cache(self, value, forward: bool):
        """``_call(value)`` or ``_inverse(value)``; with the cache on, the last pair
        ``(x, y)`` is kept and a repeated input gets its partner back."""
        compute = self._call if forward else self._inverse
        if self._cache_size == 0:
            return compute(value)
        x_old, y_old = self._cached_x_y
        if value is (x_old if forward else y_old):
            return y_old if forward else x_old
        result = compute(value)
        self._cached_x_y = (value, result) if forward else (result, value)
        return result

    def _call(self, x):
        raise NotImplementedError

    def _inverse(self, y):
        raise NotImplementedError

    def log_abs_det_jacobian(self, x, y):
        """``log |dy/dx|`` for the pair ``x``, ``y = t(x)``."""
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__ + "()"

    def forward_shape(self, shape):
        """The shape of ``t(x)`` for an ``x`` of ``shape``."""
        return shape

    def inverse_shape(self, shape):
        """The shape of ``t.inv(y)`` for a ``y`` of ``shape``."""
        return shape


class _ParameterFreeTransform(Transform):
    """A transform without parameters: any two of the same class are equal.

    A subclass that is an increasing bijection of the reals onto a constraint says so
    in its bases, ``class ExpTransform(_ParameterFreeTransform, increasing_onto=positive)``,
    and gets the class attributes that say it (domain, codomain, bijective, sign)."""

    def __init_subclass__(cls, increasing_onto=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if increasing_onto is not None:
            cls.domain = constraints.real
            cls.codomain = increasing_onto
            cls.bijective = True
            cls.sign = +1

    def __eq__(self, other):
        return isinstance(other, type(self))

    __hash__ = object.__hash__


class _InverseTransform(Transform):
    """The inverse of a transform: calls its ``_inv_call`` and negates its Jacobian."""

    def __init__(self, transform: Transform) -> None:
        super().__init__(cache_size=transform._cache_size)
        self._inv = transform

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return self._inv.codomain

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return self._inv.domain

    bijective = _forwarded("_inv.bijective")
    sign = _forwarded("_inv.sign")

    @property
    def inv(self) -> Transform:
        return self._inv

    def with_cache(self, cache_size=1):
        return self.inv.with_cache(cache_size).inv

    def __eq__(self, other):
        return isinstance(other, _InverseTransform) and self._inv == other._inv

    __hash__ = object.__hash__

    def __repr__(self):
        return f"{type(self).__name__}({self._inv!r})"

    def __call__(self, x):
        return self._inv._inv_call(x)

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

    def forward_shape(self, shape):
        return self._inv.inverse_shape(shape)

    def inverse_shape(self, shape):
        return self._inv.forward_shape(shape)


def _composed_event_dim(parts, forward: bool) -> int:
    """The event dim of a chain's domain (``forward=False``: walking back from the end)
    or codomain (``forward=True``): each part may add or remove event dims, and never
    has fewer than its own."""
    if forward:
        event_dim = parts[0].domain.event_dim
        for part in parts:
            event_dim += part.codomain.event_dim - part.domain.event_dim
            event_dim = max(event_dim, part.codomain.event_dim)
    else:
        event_dim = parts[-1].codomain.event_dim
        for part in reversed(parts):
            event_dim += part.domain.event_dim - part.codomain.event_dim
            event_dim = max(event_dim, part.domain.event_dim)
    return event_dim


def _widen(constraint, event_dim: int):
    if event_dim > constraint.event_dim:
        return constraints.independent(constraint, event_dim - constraint.event_dim)
    return constraint


class ComposeTransform(Transform):
    """The transforms ``parts`` applied in order (``identity_transform`` when empty).

    Args:
        parts (list of Transform): the transforms, first applied first.
        cache_size (int): see :class:`Transform`. Default: 0.
    """

    def __init__(self, parts, cache_size: int = 0) -> None:
        if cache_size:
            parts = [part.with_cache(cache_size) for part in parts]
        super().__init__(cache_size=cache_size)
        self.parts = parts

    def __eq__(self, other):
        return isinstance(other, ComposeTransform) and self.parts == other.parts

    __hash__ = object.__hash__

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        if not self.parts:
            return constraints.real
        return _widen(self.parts[0].domain, _composed_event_dim(self.parts, forward=False))

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        if not self.parts:
            return constraints.real
        return _widen(self.parts[-1].codomain, _composed_event_dim(self.parts, forward=True))

    @lazy_property
    def bijective(self) -> bool:
        return all(p.bijective for p in self.parts)

    @lazy_property
    def sign(self):
        sign = 1
        for part in self.parts:
            sign = sign * part.sign
        return sign

    @property
    def inv(self) -> Transform:
        if self._inv is None:
            inverse = ComposeTransform([p.inv for p in reversed(self.parts)])
            self._inv = inverse
            inverse._inv = self
        return self._inv

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return ComposeTransform(self.parts, cache_size=cache_size)

    def __call__(self, x):
        for part in self.parts:
            x = part(x)
        return x

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            return torch.zeros_like(x)
        values = [x]
        for part in self.parts[:-1]:
            values.append(part(values[-1]))
        values.append(y)
        terms = []
        event_dim = self.domain.event_dim
        for part, x_i, y_i in zip(self.parts, values[:-1], values[1:]):
            term = part.log_abs_det_jacobian(x_i, y_i)
            terms.append(_sum_rightmost(term, event_dim - part.domain.event_dim))
            event_dim += part.codomain.event_dim - part.domain.event_dim
        return functools.reduce(operator.add, terms)

    def forward_shape(self, shape):
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape):
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __repr__(self):
        inner = ",\n    ".join(repr(p) for p in self.parts)
        return f"{type(self).__name__}(\n    {inner}\n)"


identity_transform = ComposeTransform([])


class IndependentTransform(Transform):
    """``base_transform`` with ``reinterpreted_batch_ndims`` rightmost batch dims made
    part of the event (their Jacobian terms are summed).

    Args:
        base_transform (Transform): the transform to wrap.
        reinterpreted_batch_ndims (int): how many batch dims join the event.
        cache_size (int): see :class:`Transform`. Default: 0.
    """

    def __init__(self, base_transform, reinterpreted_batch_ndims: int, cache_size: int = 0):
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return IndependentTransform(
            self.base_transform, self.reinterpreted_batch_ndims, cache_size=cache_size
        )

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return constraints.independent(self.base_transform.domain, self.reinterpreted_batch_ndims)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return constraints.independent(self.base_transform.codomain, self.reinterpreted_batch_ndims)

    bijective = _forwarded("base_transform.bijective")
    sign = _forwarded("base_transform.sign")

    def _call(self, x):
        if x.dim() < self.domain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform(x)

    def _inverse(self, y):
        if y.dim() < self.codomain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x, y):
        result = self.base_transform.log_abs_det_jacobian(x, y)
        return _sum_rightmost(result, self.reinterpreted_batch_ndims)

    def __repr__(self):
        return f"{type(self).__name__}({self.base_transform!r}, {self.reinterpreted_batch_ndims})"

    def forward_shape(self, shape):
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape):
        return self.base_transform.inverse_shape(shape)


def _check_trailing(shape, expected) -> int:
    if len(shape) < len(expected):
        raise ValueError("Too few dimensions on input")
    cut = len(shape) - len(expected)
    if shape[cut:] != expected:
        raise ValueError(f"Shape mismatch: expected {shape[cut:]} but got {expected}")
    return cut


class ReshapeTransform(Transform):
    """Reshape the rightmost ``in_shape`` dims to ``out_shape`` (a Jacobian of 1).

    Args:
        in_shape (torch.Size): the event shape of the input.
        out_shape (torch.Size): the event shape of the output (as many elements).
        cache_size (int): see :class:`Transform`. Default: 0.
    """

    bijective = True

    def __init__(self, in_shape, out_shape, cache_size: int = 0) -> None:
        self.in_shape = torch.Size(in_shape)
        self.out_shape = torch.Size(out_shape)
        if self.in_shape.numel() != self.out_shape.numel():
            raise ValueError("in_shape, out_shape have different numbers of elements")
        super().__init__(cache_size=cache_size)

    @constraints.dependent_property
    def domain(self):
        return constraints.independent(constraints.real, len(self.in_shape))

    @constraints.dependent_property
    def codomain(self):
        return constraints.independent(constraints.real, len(self.out_shape))

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return ReshapeTransform(self.in_shape, self.out_shape, cache_size=cache_size)

    def _call(self, x):
        return x.reshape(x.shape[: x.dim() - len(self.in_shape)] + self.out_shape)

    def _inverse(self, y):
        return y.reshape(y.shape[: y.dim() - len(self.out_shape)] + self.in_shape)

    def log_abs_det_jacobian(self, x, y):
        return x.new_zeros(x.shape[: x.dim() - len(self.in_shape)])

    def forward_shape(self, shape):
        return shape[: _check_trailing(shape, self.in_shape)] + self.out_shape

    def inverse_shape(self, shape):
        return shape[: _check_trailing(shape, self.out_shape)] + self.in_shape


class ExpTransform(_ParameterFreeTransform, increasing_onto=constraints.positive):
    """``y = exp(x)``."""

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class PowerTransform(Transform):
    """``y = x ** exponent`` on the positive reals.

    Args:
        exponent (Tensor or float): the power.
        cache_size (int): see :class:`Transform`. Default: 0.
    """

    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        (self.exponent,) = broadcast_all(exponent)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return PowerTransform(self.exponent, cache_size=cache_size)

    @lazy_property
    def sign(self):
        return self.exponent.sign()

    def __eq__(self, other):
        if not isinstance(other, PowerTransform):
            return False
        return self.exponent.eq(other.exponent).all().item()

    __hash__ = object.__hash__

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape):
        return torch.broadcast_shapes(shape, getattr(self.exponent, "shape", ()))

    inverse_shape = forward_shape


def _clipped_sigmoid(x):
    """The sigmoid kept inside [tiny, 1 - eps], so that its inverse stays finite."""
    info = torch.finfo(x.dtype)
    return torch.clamp(torch.sigmoid(x), min=info.tiny, max=1.0 - info.eps)


class SigmoidTransform(_ParameterFreeTransform, increasing_onto=constraints.unit_interval):
    """``y = 1 / (1 + exp(-x))``."""

    def _call(self, x):
        return _clipped_sigmoid(x)

    def _inverse(self, y):
        info = torch.finfo(y.dtype)
        y = y.clamp(min=info.tiny, max=1.0 - info.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        return -_softplus(-x) - _softplus(x)


class SoftplusTransform(_ParameterFreeTransform, increasing_onto=constraints.positive):
    """``y = log(1 + exp(x))``."""

    def _call(self, x):
        return _softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -_softplus(-x)


class TanhTransform(_ParameterFreeTransform, increasing_onto=constraints.interval(-1.0, 1.0)):
    """``y = tanh(x)``; its Jacobian is written with softplus for stability."""

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return torch.atanh(y)

    def log_abs_det_jacobian(self, x, y):
        # log(1 - tanh(x)^2) = 2 (log 2 - x - softplus(-2x))
        return 2.0 * (math.log(2.0) - x - _softplus(-2.0 * x))


class AbsTransform(_ParameterFreeTransform):
    """``y = |x|`` (not injective: the inverse gives the nonnegative preimage)."""

    domain = constraints.real
    codomain = constraints.positive

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


def _equal_parameter(a, b) -> bool:
    if isinstance(a, Number) and isinstance(b, Number):
        return a == b
    return bool((a == b).all().item())


class AffineTransform(Transform):
    """``y = loc + scale * x``.

    Args:
        loc (Tensor or float): the shift.
        scale (Tensor or float): the scale.
        event_dim (int): how many rightmost dims form one event. Default: 0.
        cache_size (int): see :class:`Transform`. Default: 0.
    """

    bijective = True

    def __init__(self, loc, scale, event_dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.loc = loc
        self.scale = scale
        self._event_dim = event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return _widen(constraints.real, self.event_dim)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return _widen(constraints.real, self.event_dim)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return AffineTransform(self.loc, self.scale, self.event_dim, cache_size=cache_size)

    def __eq__(self, other):
        return (
            isinstance(other, AffineTransform)
            and _equal_parameter(self.loc, other.loc)
            and _equal_parameter(self.scale, other.scale)
        )

    __hash__ = object.__hash__

    @property
    def sign(self):
        if isinstance(self.scale, Number):
            scale = float(self.scale)
            return 1 if scale > 0 else -1 if scale < 0 else 0
        return self.scale.sign()

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        shape = x.shape
        if isinstance(self.scale, Number):
            result = torch.full_like(x, math.log(abs(self.scale)))
        else:
            result = torch.abs(self.scale).log()
        if self.event_dim:
            result = result.reshape(result.size()[: -self.event_dim] + (-1,)).sum(-1)
            shape = shape[: -self.event_dim]
        return result.expand(shape)

    def forward_shape(self, shape):
        return torch.broadcast_shapes(
            shape, getattr(self.loc, "shape", ()), getattr(self.scale, "shape", ())
        )

    inverse_shape = forward_shape


class CorrCholeskyTransform(Transform):
    """Unconstrained vectors of length ``D (D - 1) / 2`` to Cholesky factors of ``D x D``
    correlation matrices: tanh to partial correlations in (-1, 1), then stick-breaking
    along each row so that rows have unit norm."""

    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x):
        eps = torch.finfo(x.dtype).eps
        partial = torch.tanh(x).clamp(min=-1 + eps, max=1 - eps)
        r = vec_to_tril_matrix(partial, diag=-1)
        # the remaining length of each row after the entries before it
        remaining = (1 - r**2).sqrt().cumprod(-1)
        r = r + torch.eye(r.shape[-1], dtype=r.dtype, device=r.device)
        return r * _pad_last(remaining[..., :-1], 1, 0, 1.0)

    def _inverse(self, y):
        left = 1 - torch.cumsum(y * y, dim=-1)
        left_shifted = _pad_last(left[..., :-1], 1, 0, 1.0)
        partial = tril_matrix_to_vec(y, diag=-1) / tril_matrix_to_vec(left_shifted, diag=-1).sqrt()
        return (partial.log1p() - partial.neg().log1p()) / 2  # atanh

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        left = 1 - (y * y).cumsum(dim=-1)
        stick_breaking = 0.5 * tril_matrix_to_vec(left, diag=-2).log().sum(-1)
        tanh = -2 * (x + _softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick_breaking + tanh

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        n = shape[-1]
        side = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if side * (side - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return shape[:-1] + (side, side)

    def inverse_shape(self, shape):
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        side = shape[-1]
        return shape[:-2] + (side * (side - 1) // 2,)


def _at_least_one_dim(shape):
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")
    return shape


class SoftmaxTransform(_ParameterFreeTransform):
    """Unconstrained vectors to the simplex by exponentiating and normalising (not
    bijective: the inverse returns the log)."""

    domain = constraints.real_vector
    codomain = constraints.simplex

    def _call(self, x):
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        return _at_least_one_dim(shape)

    def inverse_shape(self, shape):
        return _at_least_one_dim(shape)


def _stick_offset(x):
    """``K, K-1, ..., 1`` for vectors of length ``K``: centres the stick-breaking sigmoids
    so that zeros map to the simplex's centre."""
    return x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)


class StickBreakingTransform(_ParameterFreeTransform):
    """Vectors of length ``K`` to the ``K + 1`` simplex by stick breaking: each entry's
    sigmoid is the fraction taken of what is left. Bijective."""

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    def _call(self, x):
        fractions = _clipped_sigmoid(x - _stick_offset(x).log())
        left = (1 - fractions).cumprod(-1)
        return _pad_last(fractions, 0, 1, 1.0) * _pad_last(left, 1, 0, 1.0)

    def _inverse(self, y):
        head = y[..., :-1]
        offset = y.shape[-1] - y.new_ones(head.shape[-1]).cumsum(-1)
        left = torch.clamp(1 - head.cumsum(-1), min=torch.finfo(y.dtype).tiny)
        return head.log() - left.log() + offset.log()

    def log_abs_det_jacobian(self, x, y):
        x = x - _stick_offset(x).log()
        return (-x + _logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        shape = _at_least_one_dim(shape)
        return shape[:-1] + (shape[-1] + 1,)

    def inverse_shape(self, shape):
        shape = _at_least_one_dim(shape)
        return shape[:-1] + (shape[-1] - 1,)


class LowerCholeskyTransform(_ParameterFreeTransform):
    """Square matrices to lower-triangular ones with a positive diagonal: the strict
    lower triangle is kept and the diagonal exponentiated."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def _call(self, x):
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y):
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(_ParameterFreeTransform):
    """Square matrices to positive definite ones: ``L L^T`` of the lower Cholesky
    transform's ``L``."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def _call(self, x):
        lower = LowerCholeskyTransform()(x)
        return lower @ lower.mT

    def _inverse(self, y):
        return LowerCholeskyTransform().inv(torch.linalg.cholesky(y))


class _SliceWiseTransform(Transform):
    """What CatTransform and StackTransform share: one transform per slice of the input
    along ``dim``; a subclass says how many entries that dim needs (``_size_needed``)
    and how the parts' constraints join (``_joined``)."""

    def __init__(self, tseq: Sequence, dim: int, cache_size: int) -> None:
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError("All elements of tseq must be Transform instances")
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.dim = dim

    def _check(self, value, name: str, size_name: str) -> None:
        """``dim`` must be a dim of ``value`` (called ``name`` in the message) and of the
        size needed (``size_name`` there)."""
        if not -value.dim() <= self.dim < value.dim():
            raise AssertionError(
                f"dim {self.dim} out of range for {name} with {value.dim()} dimensions"
            )
        needed, what = self._size_needed()
        if value.size(self.dim) != needed:
            raise AssertionError(
                f"{size_name}.size({self.dim}) = {value.size(self.dim)} must equal {what} {needed}"
            )

    @property
    def bijective(self) -> bool:
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self):
        return self._joined([t.domain for t in self.transforms])

    @constraints.dependent_property
    def codomain(self):
        return self._joined([t.codomain for t in self.transforms])


class CatTransform(_SliceWiseTransform):
    """Transforms ``tseq`` applied to consecutive slices (of ``lengths``) along ``dim``.

    Args:
        tseq (sequence of Transform): one transform per slice.
        dim (int): the dim sliced. Default: 0.
        lengths (sequence of int, optional): the slice lengths. Default: all 1.
        cache_size (int): see :class:`Transform`. Default: 0.
    """

    def __init__(self, tseq: Sequence, dim: int = 0, lengths=None, cache_size: int = 0):
        super().__init__(tseq, dim, cache_size)
        self.lengths = [1] * len(self.transforms) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.transforms):
            raise AssertionError(
                f"lengths ({len(self.lengths)}) must match transforms ({len(self.transforms)})"
            )

    @lazy_property
    def event_dim(self) -> int:
        return max(t.event_dim for t in self.transforms)

    @lazy_property
    def length(self) -> int:
        return sum(self.lengths)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _size_needed(self):
        return self.length, "length"

    def _joined(self, parts):
        return constraints.cat(parts, self.dim, self.lengths)

    def _slices(self, value):
        start = 0
        for transform, length in zip(self.transforms, self.lengths):
            yield transform, value.narrow(self.dim, start, length)
            start += length

    def _call(self, x):
        self._check(x, "tensor", "x")
        return torch.cat([t(part) for t, part in self._slices(x)], dim=self.dim)

    def _inverse(self, y):
        self._check(y, "tensor", "y")
        return torch.cat([t.inv(part) for t, part in self._slices(y)], dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        self._check(x, "x", "x")
        self._check(y, "y", "y")
        terms = []
        for (transform, x_part), (_, y_part) in zip(self._slices(x), self._slices(y)):
            term = transform.log_abs_det_jacobian(x_part, y_part)
            if transform.event_dim < self.event_dim:
                term = _sum_rightmost(term, self.event_dim - transform.event_dim)
            terms.append(term)
        dim = self.dim - x.dim() if self.dim >= 0 else self.dim
        dim += self.event_dim
        # the sliced dim survives in the Jacobian only when it is a batch dim
        return torch.cat(terms, dim=dim) if dim < 0 else sum(terms)


class StackTransform(_SliceWiseTransform):
    """Transforms ``tseq`` applied to the slices of the input along ``dim``.

    Args:
        tseq (sequence of Transform): one transform per slice.
        dim (int): the dim sliced. Default: 0.
        cache_size (int): see :class:`Transform`. Default: 0.
    """

    def __init__(self, tseq: Sequence, dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(tseq, dim, cache_size)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _slice(self, z):
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _size_needed(self):
        return len(self.transforms), "len(transforms)"

    def _joined(self, parts):
        return constraints.stack(parts, self.dim)

    def _call(self, x):
        self._check(x, "tensor", "x")
        parts = [t(part) for part, t in zip(self._slice(x), self.transforms)]
        return torch.stack(parts, dim=self.dim)

    def _inverse(self, y):
        self._check(y, "tensor", "y")
        parts = [t.inv(part) for part, t in zip(self._slice(y), self.transforms)]
        return torch.stack(parts, dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        self._check(x, "x", "x")
        self._check(y, "y", "y")
        terms = [
            t.log_abs_det_jacobian(x_part, y_part)
            for x_part, y_part, t in zip(self._slice(x), self._slice(y), self.transforms)
        ]
        return torch.stack(terms, dim=self.dim)


class CumulativeDistributionTransform(Transform):
    """A univariate distribution's CDF as a transform onto the unit interval (its
    Jacobian is the distribution's density).

    Args:
        distribution (Distribution): the distribution whose ``cdf``/``icdf`` are used.
        cache_size (int): see :class:`Transform`. Default: 0.
    """

    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self):
        return self.distribution.support

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CumulativeDistributionTransform(self.distribution, cache_size=cache_size)
