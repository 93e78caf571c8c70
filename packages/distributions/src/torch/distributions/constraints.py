"""Constraints: the sets a distribution's parameters and samples live in.

A constraint's ``check(value)`` returns a boolean tensor saying, for each event of
``value``, whether it lies in the set; ``event_dim`` is the number of rightmost dims an
event spans and ``is_discrete`` whether the set is countable. Ready-made instances
(``real``, ``positive``, ``simplex``, ``lower_cholesky``, ...) sit beside the factories of
parameterised ones (``interval(0, 1)``, ``greater_than(2.0)``, ``independent(real, 1)``,
``cat``, ``stack``). ``constraint_registry`` maps each to a transform onto it.

Examples::

    >>> constraints.positive.check(torch.tensor([1.0, -1.0]))
    tensor([ True, False])
    >>> constraints.interval(0.0, 2.0)
    Interval(lower_bound=0.0, upper_bound=2.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from .utils import _forwarded

__all__ = [
    "Constraint",
    "boolean",
    "cat",
    "corr_cholesky",
    "dependent",
    "dependent_property",
    "greater_than",
    "greater_than_eq",
    "independent",
    "integer_interval",
    "interval",
    "half_open_interval",
    "is_dependent",
    "less_than",
    "lower_cholesky",
    "lower_triangular",
    "MixtureSameFamilyConstraint",
    "multinomial",
    "nonnegative",
    "nonnegative_integer",
    "one_hot",
    "positive",
    "positive_semidefinite",
    "positive_definite",
    "positive_integer",
    "real",
    "real_vector",
    "simplex",
    "square",
    "stack",
    "symmetric",
    "unit_interval",
]


class Constraint:
    """A region of values; ``check`` tests membership event by event.

    Attributes:
        is_discrete (bool): whether the region is discrete. Default: ``False``.
        event_dim (int): how many rightmost dims form one event. Default: 0.
    """

    is_discrete = False
    event_dim = 0

    def check(self, value):
        """A boolean tensor of ``value``'s batch shape: whether each event is inside."""
        raise NotImplementedError

    def __repr__(self):
        # the private class name without its leading underscore: "Real()", "Simplex()"
        return type(self).__name__[1:] + "()"


class _Dependent(Constraint):
    """A placeholder for a region that depends on other parameters (a ``Uniform``'s
    support depends on its bounds): it cannot be checked on its own."""

    def __init__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        self._is_discrete = is_discrete
        self._event_dim = event_dim
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self) -> int:
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        """A dependent constraint with the given static attributes (others inherited)."""
        return _Dependent(
            is_discrete=self._is_discrete if is_discrete is NotImplemented else is_discrete,
            event_dim=self._event_dim if event_dim is NotImplemented else event_dim,
        )

    def check(self, x):
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint) -> bool:
    """Whether ``constraint`` is a dependent (uncheckable) placeholder."""
    return isinstance(constraint, _Dependent)


class _DependentProperty(property, _Dependent):
    """A property that is also a dependent constraint: on the class it stands for the
    constraint, on an instance it computes the actual one (``Uniform.support``)."""

    def __init__(
        self,
        fn: Callable[..., Any] | None = None,
        *,
        is_discrete: bool | None = NotImplemented,
        event_dim: int | None = NotImplemented,
    ) -> None:
        property.__init__(self, fn)
        self._is_discrete = is_discrete
        self._event_dim = event_dim

    def __call__(self, fn: Callable[..., Any]) -> _DependentProperty:
        """Decorate ``fn`` with the static attributes given to the factory."""
        return _DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


def _check_constraint(value, what: str) -> None:
    if not isinstance(value, Constraint):
        raise AssertionError(f"{what} must be a Constraint, got {type(value).__name__}")


class _IndependentConstraint(Constraint):
    """``base_constraint`` with its rightmost ``reinterpreted_batch_ndims`` batch dims
    made part of the event: an event is inside when all its parts are."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        _check_constraint(base_constraint, "base_constraint")
        if not isinstance(reinterpreted_batch_ndims, int):
            raise AssertionError(
                "reinterpreted_batch_ndims must be an int, got "
                f"{type(reinterpreted_batch_ndims).__name__}"
            )
        if reinterpreted_batch_ndims < 0:
            raise AssertionError(
                f"reinterpreted_batch_ndims must be >= 0, got {reinterpreted_batch_ndims}"
            )
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__()

    is_discrete = _forwarded("base_constraint.is_discrete")

    @property
    def event_dim(self) -> int:
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        inside = self.base_constraint.check(value)
        ndims = self.reinterpreted_batch_ndims
        if inside.dim() < ndims:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        return inside.reshape(inside.shape[: inside.dim() - ndims] + (-1,)).all(-1)

    def __repr__(self):
        return (
            f"{type(self).__name__[1:]}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"
        )


class MixtureSameFamilyConstraint(Constraint):
    """The support of a ``MixtureSameFamily``: a value is inside when it lies in the
    support of every component (checked against the component dim)."""

    def __init__(self, base_constraint):
        _check_constraint(base_constraint, "base_constraint")
        self.base_constraint = base_constraint
        super().__init__()

    is_discrete = _forwarded("base_constraint.is_discrete")
    event_dim = _forwarded("base_constraint.event_dim")

    def check(self, value):
        """Check ``value`` against each mixture component's support."""
        inside = self.base_constraint.check(value.unsqueeze(-1 - self.event_dim))
        if value.dim() < self.event_dim:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        kept = value.dim() - self.event_dim
        return inside.reshape(inside.shape[:kept] + (-1,)).all(-1)

    def __repr__(self):
        return f"{type(self).__name__}({self.base_constraint!r})"


class _Boolean(Constraint):
    """The values 0 and 1."""

    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _OneHot(Constraint):
    """Vectors of zeros with a single one."""

    is_discrete = True
    event_dim = 1

    def check(self, value):
        zeros_and_ones = ((value == 0) | (value == 1)).all(-1)
        return zeros_and_ones & value.sum(-1).eq(1)


def _is_integer(value):
    return value % 1 == 0


class _Bounded(Constraint):
    """What the constraints with bounds share: showing them, named by ``_bounds`` in
    the order of the constructor's arguments."""

    _bounds: tuple[str, ...] = ()

    def __repr__(self):
        shown = ", ".join(f"{name}={getattr(self, name)}" for name in self._bounds)
        return f"{type(self).__name__[1:]}({shown})"


class _LowerBounded(_Bounded):
    """The constraints with only a ``lower_bound``."""

    _bounds = ("lower_bound",)

    def __init__(self, lower_bound):
        self.lower_bound = lower_bound
        super().__init__()


class _UpperBounded(_Bounded):
    """The constraints with only an ``upper_bound``."""

    _bounds = ("upper_bound",)

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound
        super().__init__()


class _TwoBounded(_Bounded):
    """The constraints with a ``lower_bound`` and an ``upper_bound`` (the half-open
    interval is no closed interval, as in PyTorch: neither derives from the other)."""

    _bounds = ("lower_bound", "upper_bound")

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        super().__init__()


class _IntegerInterval(_TwoBounded):
    """Integers in ``[lower_bound, upper_bound]``."""

    is_discrete = True

    def check(self, value):
        return _is_integer(value) & (self.lower_bound <= value) & (value <= self.upper_bound)


class _IntegerLessThan(_UpperBounded):
    """Integers up to ``upper_bound``."""

    is_discrete = True

    def check(self, value):
        return _is_integer(value) & (value <= self.upper_bound)


class _IntegerGreaterThan(_LowerBounded):
    """Integers from ``lower_bound`` on."""

    is_discrete = True

    def check(self, value):
        return _is_integer(value) & (value >= self.lower_bound)


class _Real(Constraint):
    """The extended real line (anything but NaN)."""

    def check(self, value):
        return value == value  # False exactly at NaN


class _GreaterThan(_LowerBounded):
    """Reals above ``lower_bound`` (strictly)."""

    def check(self, value):
        return self.lower_bound < value


class _GreaterThanEq(_LowerBounded):
    """Reals from ``lower_bound`` on."""

    def check(self, value):
        return self.lower_bound <= value


class _LessThan(_UpperBounded):
    """Reals below ``upper_bound`` (strictly)."""

    def check(self, value):
        return value < self.upper_bound


class _Interval(_TwoBounded):
    """Reals in ``[lower_bound, upper_bound]``."""

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)


class _HalfOpenInterval(_TwoBounded):
    """Reals in ``[lower_bound, upper_bound)``."""

    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _Simplex(Constraint):
    """Nonnegative vectors summing to one (within 1e-6)."""

    event_dim = 1

    def check(self, value):
        return torch.all(value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _Multinomial(Constraint):
    """Nonnegative integer vectors whose sum is at most ``upper_bound``."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, x):
        return (x >= 0).all(dim=-1) & (x.sum(dim=-1) <= self.upper_bound)


def _is_lower_triangular(value):
    return (value.tril() == value).reshape(value.shape[:-2] + (-1,)).min(-1)[0]


class _LowerTriangular(Constraint):
    """Square lower-triangular matrices."""

    event_dim = 2

    def check(self, value):
        return _is_lower_triangular(value)


class _LowerCholesky(Constraint):
    """Lower-triangular matrices with a positive diagonal."""

    event_dim = 2

    def check(self, value):
        positive_diagonal = (value.diagonal(dim1=-2, dim2=-1) > 0).min(-1)[0]
        return _is_lower_triangular(value) & positive_diagonal


class _CorrCholesky(Constraint):
    """Cholesky factors of correlation matrices: lower Cholesky with rows of unit norm."""

    event_dim = 2

    def check(self, value):
        tolerance = torch.finfo(value.dtype).eps * value.size(-1) * 10
        row_norm = torch.linalg.norm(value.detach(), dim=-1)
        unit_rows = (row_norm - 1.0).abs().le(tolerance).all(dim=-1)
        return _LowerCholesky().check(value) & unit_rows


class _Square(Constraint):
    """Square matrices."""

    event_dim = 2

    def check(self, value):
        return torch.full(value.shape[:-2], value.shape[-2] == value.shape[-1], dtype=torch.bool)


class _Symmetric(_Square):
    """Symmetric matrices (within an absolute 1e-6)."""

    def check(self, value):
        square = super().check(value)
        if not square.all():
            return square
        return torch.isclose(value, value.mT, atol=1e-6).all(-2).all(-1)


class _PositiveSemidefinite(_Symmetric):
    """Symmetric matrices with nonnegative eigenvalues."""

    def check(self, value):
        symmetric = super().check(value)
        if not symmetric.all():
            return symmetric
        return torch.linalg.eigvalsh(value).ge(0).all(-1)


class _PositiveDefinite(_Symmetric):
    """Symmetric matrices with a Cholesky factorisation."""

    def check(self, value):
        symmetric = super().check(value)
        if not symmetric.all():
            return symmetric
        return torch.linalg.cholesky_ex(value).info.eq(0)


def _check_dim(dim: int, value) -> None:
    if not -value.dim() <= dim < value.dim():
        raise AssertionError(f"dim {dim} out of range for value with {value.dim()} dimensions")


class _SliceWise(Constraint):
    """What cat and stack share: the constraints ``cseq``, one per slice of the value
    along ``dim``; discrete when one is, of their largest event dim."""

    def __init__(self, cseq, dim=0):
        if not all(isinstance(c, Constraint) for c in cseq):
            raise AssertionError("All elements of cseq must be Constraint instances")
        self.cseq = list(cseq)
        self.dim = dim
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self) -> int:
        return max(c.event_dim for c in self.cseq)


class _Cat(_SliceWise):
    """Constraints ``cseq`` applied to consecutive slices (of ``lengths``) along ``dim``."""

    def __init__(self, cseq, dim=0, lengths=None):
        super().__init__(cseq, dim)
        self.lengths = [1] * len(self.cseq) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.cseq):
            raise AssertionError(
                f"lengths ({len(self.lengths)}) must match cseq ({len(self.cseq)})"
            )

    def check(self, value):
        _check_dim(self.dim, value)
        checks, start = [], 0
        for constraint, length in zip(self.cseq, self.lengths):
            checks.append(constraint.check(value.narrow(self.dim, start, length)))
            start += length
        return torch.cat(checks, self.dim)


class _Stack(_SliceWise):
    """Constraints ``cseq`` applied to the slices of ``value`` along ``dim``."""

    @property
    def event_dim(self) -> int:
        dim = super().event_dim
        return dim + 1 if self.dim + dim < 0 else dim

    def check(self, value):
        _check_dim(self.dim, value)
        parts = [value.select(self.dim, i) for i in range(value.size(self.dim))]
        return torch.stack([c.check(v) for v, c in zip(parts, self.cseq)], self.dim)


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean = _Boolean()
one_hot = _OneHot()
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
integer_interval = _IntegerInterval
real = _Real()
real_vector = independent(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
multinomial = _Multinomial
unit_interval = _Interval(0.0, 1.0)
interval = _Interval
half_open_interval = _HalfOpenInterval
simplex = _Simplex()
lower_triangular = _LowerTriangular()
lower_cholesky = _LowerCholesky()
corr_cholesky = _CorrCholesky()
square = _Square()
symmetric = _Symmetric()
positive_semidefinite = _PositiveSemidefinite()
positive_definite = _PositiveDefinite()
cat = _Cat
stack = _Stack
