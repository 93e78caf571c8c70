"""Registries from constraints to transforms onto them.

``biject_to(constraint)`` gives a bijective transform from the unconstrained reals onto
``constraint`` (its inverse exists: for optimisation of constrained parameters and for
change-of-variables with ``log_abs_det_jacobian``); ``transform_to(constraint)`` gives
some transform onto it, not necessarily bijective (``SoftmaxTransform`` for the simplex,
cheaper than stick-breaking). A registry is keyed by the constraint's class, so every
instance of a parameterised constraint (``interval(a, b)``) shares one factory, which
receives the instance. Extend them with ``register``.

Examples::

    >>> t = biject_to(constraints.interval(0.0, 1.0))
    >>> t(torch.tensor([0.0]))
    tensor([0.5000])
"""

from __future__ import annotations

from numbers import Number

from . import constraints, transforms

__all__ = ["ConstraintRegistry", "biject_to", "transform_to"]


class ConstraintRegistry:
    """A registry from constraint classes to factories of transforms."""

    def __init__(self):
        self._registry = {}
        super().__init__()

    def register(self, constraint, factory=None):
        """Register ``factory(constraint) -> Transform`` for ``constraint`` (a Constraint
        subclass, or an instance standing for its class); usable as a decorator.

        Examples::

            >>> registry = ConstraintRegistry()
            >>> @registry.register(constraints.positive)
            ... def _to_positive(constraint):
            ...     return transforms.ExpTransform()
            >>> registry(constraints.positive)
            ExpTransform()
        """
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint, constraints.Constraint):
            raise TypeError(
                "Expected constraint to be either a Constraint subclass or instance, "
                f"but got {constraint}"
            )
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint):
        """The registered factory's transform for ``constraint``."""
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(
                f"Cannot transform {type(constraint).__name__} constraints"
            ) from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


def _register_both(*keys, biject=True, transform=True):
    def decorate(factory):
        for key in keys:
            if biject:
                biject_to.register(key, factory)
            if transform:
                transform_to.register(key, factory)
        return factory

    return decorate


@_register_both(constraints.real)
def _to_real(constraint):
    return transforms.identity_transform


@_register_both(constraints.independent, transform=False)
def _biject_to_independent(constraint):
    base = biject_to(constraint.base_constraint)
    return transforms.IndependentTransform(base, constraint.reinterpreted_batch_ndims)


@_register_both(constraints.independent, biject=False)
def _transform_to_independent(constraint):
    base = transform_to(constraint.base_constraint)
    return transforms.IndependentTransform(base, constraint.reinterpreted_batch_ndims)


# positive and nonnegative are instances of greater_than(_eq): they share its factory
@_register_both(constraints.greater_than, constraints.greater_than_eq)
def _to_greater_than(constraint):
    return transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(constraint.lower_bound, 1)]
    )


@_register_both(constraints.less_than)
def _to_less_than(constraint):
    return transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(constraint.upper_bound, -1)]
    )


@_register_both(constraints.interval, constraints.half_open_interval)
def _to_interval(constraint):
    lower, upper = constraint.lower_bound, constraint.upper_bound
    if isinstance(lower, Number) and lower == 0 and isinstance(upper, Number) and upper == 1:
        return transforms.SigmoidTransform()
    return transforms.ComposeTransform(
        [transforms.SigmoidTransform(), transforms.AffineTransform(lower, upper - lower)]
    )


@_register_both(constraints.simplex, transform=False)
def _biject_to_simplex(constraint):
    return transforms.StickBreakingTransform()


@_register_both(constraints.simplex, biject=False)
def _transform_to_simplex(constraint):
    return transforms.SoftmaxTransform()


@_register_both(constraints.lower_cholesky, biject=False)
def _transform_to_lower_cholesky(constraint):
    return transforms.LowerCholeskyTransform()


@_register_both(constraints.positive_definite, constraints.positive_semidefinite, biject=False)
def _transform_to_positive_definite(constraint):
    return transforms.PositiveDefiniteTransform()


@_register_both(constraints.corr_cholesky)
def _to_corr_cholesky(constraint):
    return transforms.CorrCholeskyTransform()


@_register_both(constraints.cat, transform=False)
def _biject_to_cat(constraint):
    parts = [biject_to(c) for c in constraint.cseq]
    return transforms.CatTransform(parts, constraint.dim, constraint.lengths)


@_register_both(constraints.cat, biject=False)
def _transform_to_cat(constraint):
    parts = [transform_to(c) for c in constraint.cseq]
    return transforms.CatTransform(parts, constraint.dim, constraint.lengths)


@_register_both(constraints.stack, transform=False)
def _biject_to_stack(constraint):
    return transforms.StackTransform([biject_to(c) for c in constraint.cseq], constraint.dim)


@_register_both(constraints.stack, biject=False)
def _transform_to_stack(constraint):
    return transforms.StackTransform([transform_to(c) for c in constraint.cseq], constraint.dim)
