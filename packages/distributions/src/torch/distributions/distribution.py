"""``Distribution``, the base class of every distribution: shapes, sampling, scoring
and the validation of parameters and values."""

from __future__ import annotations

import warnings
from numbers import Number

import torch

from . import constraints
from .utils import broadcast_all, lazy_property

__all__ = ["Distribution"]


class Distribution:
    """The base class of probability distributions.

    A distribution has a ``batch_shape`` (independent, differently parameterised copies)
    and an ``event_shape`` (the shape of one draw); ``sample(sample_shape)`` returns a
    tensor of ``sample_shape + batch_shape + event_shape``.

    Args:
        batch_shape (torch.Size): the shape over which parameters are batched.
            Default: ``torch.Size()``.
        event_shape (torch.Size): the shape of a single draw. Default: ``torch.Size()``.
        validate_args (bool, optional): check parameters (here) and values (in
            ``log_prob``, ``cdf``, ...) against their constraints. Default: ``None``, the
            class-wide setting (:meth:`set_default_validate_args`; on unless Python runs
            with ``-O``).
    """

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Turn argument validation on or off for every distribution created later
        without an explicit ``validate_args``.

        Args:
            value (bool): whether to validate.
        """
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(
        self,
        batch_shape=torch.Size(),
        event_shape=torch.Size(),
        validate_args: bool | None = None,
    ) -> None:
        self._batch_shape = batch_shape
        self._event_shape = event_shape
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            self._check_parameters()
        super().__init__()

    def _check_parameters(self) -> None:
        try:
            arg_constraints = self.arg_constraints
        except NotImplementedError:
            arg_constraints = {}
            warnings.warn(
                f"{self.__class__} does not define `arg_constraints`. Please set "
                "`arg_constraints = {}` or initialize the distribution with "
                "`validate_args=False` to turn off validation.",
                stacklevel=3,
            )
        for param, constraint in arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue  # depends on other parameters: nothing to check alone
            if param not in self.__dict__ and isinstance(getattr(type(self), param), lazy_property):
                continue  # not computed yet (given in the other parameterisation)
            value = getattr(self, param)
            if not bool(constraint.check(value).all()):
                raise ValueError(
                    f"Expected parameter {param} "
                    f"({type(value).__name__} of shape {tuple(value.shape)}) "
                    f"of distribution {self!r} "
                    f"to satisfy the constraint {constraint!r}, "
                    f"but found invalid values:\n{value}"
                )

    def expand(self, batch_shape, _instance=None):
        """A new distribution whose parameters are expanded (views, not copies) to
        ``batch_shape``; arguments are not validated again.

        Args:
            batch_shape (torch.Size): the new batch shape.
        """
        raise NotImplementedError

    @property
    def batch_shape(self):
        """The shape over which parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self):
        """The shape of a single draw."""
        return self._event_shape

    @property
    def arg_constraints(self) -> dict:
        """The constraint each tensor parameter must satisfy, by name."""
        raise NotImplementedError

    @property
    def support(self):
        """The constraint the values of the distribution satisfy."""
        raise NotImplementedError

    @property
    def mean(self):
        """The mean."""
        raise NotImplementedError

    @property
    def mode(self):
        """The mode."""
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self):
        """The variance."""
        raise NotImplementedError

    @property
    def stddev(self):
        """The standard deviation."""
        return self.variance.sqrt()

    def sample(self, sample_shape=torch.Size()):
        """Draws of shape ``sample_shape + batch_shape + event_shape``, without gradient.

        Args:
            sample_shape (torch.Size): how many draws (and their arrangement).
                Default: ``torch.Size()``.
        """
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=torch.Size()):
        """Reparameterised draws: differentiable in the parameters.

        Args:
            sample_shape (torch.Size): see :meth:`sample`. Default: ``torch.Size()``.
        """
        raise NotImplementedError

    def sample_n(self, n: int):
        """``n`` draws (deprecated: use ``sample((n,))``)."""
        warnings.warn(
            "`sample_n(n)` will be deprecated. Use `sample((n,))` instead.",
            FutureWarning,
            stacklevel=2,
        )
        return self.sample(torch.Size((n,)))

    def log_prob(self, value):
        """The log of the density (or mass) at ``value``.

        Args:
            value (Tensor): values broadcastable with ``batch_shape + event_shape``.
        """
        raise NotImplementedError

    def cdf(self, value):
        """The cumulative distribution function at ``value``."""
        raise NotImplementedError

    def icdf(self, value):
        """The inverse of the cumulative distribution function at ``value``."""
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True):
        """Every value of a discrete distribution, along a new dim 0 (of shape
        ``(cardinality,) + batch_shape + event_shape``, or with size-1 batch dims when
        ``expand=False``).

        Args:
            expand (bool): expand over the batch dims. Default: ``True``.
        """
        raise NotImplementedError

    def entropy(self):
        """The entropy, of shape ``batch_shape``."""
        raise NotImplementedError

    def perplexity(self):
        """``exp(entropy)``, of shape ``batch_shape``."""
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape=torch.Size()):
        """``sample_shape + batch_shape + event_shape``."""
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        return torch.Size(sample_shape + self._batch_shape + self._event_shape)

    def _validate_sample(self, value) -> None:
        """Check that ``value`` is a tensor, that its rightmost dims match the event shape
        and broadcast with the batch shape, and that it lies in the support."""
        if not isinstance(value, torch.Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_start:] != self._event_shape:
            raise ValueError(
                "The right-most size of value must match event_shape: "
                f"{value.size()} vs {self._event_shape}."
            )
        actual = value.size()
        expected = self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(
                    "Value is not broadcastable with batch_shape+event_shape: "
                    f"{actual} vs {expected}."
                )
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(
                f"{self.__class__} does not define `support` to enable sample validation. "
                "Please initialize the distribution with `validate_args=False` to turn off "
                "validation.",
                stacklevel=2,
            )
            return
        if support is None:
            raise AssertionError("support is unexpectedly None")
        if not bool(support.check(value).all()):
            raise ValueError(
                "Expected value argument "
                f"({type(value).__name__} of shape {tuple(value.shape)}) "
                f"to be within the support ({support!r}) "
                f"of the distribution {self!r}, "
                f"but found invalid values:\n{value}"
            )

    def _get_checked_instance(self, cls, _instance=None):
        """A blank instance for ``expand``: subclasses with their own ``__init__`` must
        define their own ``expand``."""
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                "__init__ method must also define a custom .expand() method."
            )
        return self.__new__(type(self)) if _instance is None else _instance

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        shown = ", ".join(
            f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
            for p in names
        )
        return f"{type(self).__name__}({shown})"


def _set_broadcast(self, **params) -> torch.Size:
    """Give ``self`` the parameters ``params`` as attributes, broadcast together (numbers
    become tensors); return the batch shape: ``torch.Size()`` when every one was given as
    a number, else the broadcast shape."""
    tensors = broadcast_all(*params.values())
    for name, tensor in zip(params, tensors):
        setattr(self, name, tensor)
    if all(isinstance(v, Number) for v in params.values()):
        return torch.Size()
    return tensors[0].size()


def _expand_params(self, cls, batch_shape, _instance, names, keeps=()):
    """``expand`` for a distribution whose parameters ``names`` (those present: a
    probs/logits pair has one) are tensors of ``batch_shape + param_event_shape`` or
    inner distributions of ``batch_shape``; the attributes ``keeps`` (settings, values
    computed without the batch) are shared as they are."""
    new = self._get_checked_instance(cls, _instance)
    batch_shape = torch.Size(batch_shape)
    for name in names:
        if name in self.__dict__:
            value = self.__dict__[name]
            trailing = ()
            if isinstance(value, torch.Tensor):
                trailing = value.shape[value.dim() - _param_event_dims(self, name) :]
            setattr(new, name, value.expand(batch_shape + trailing))
    if "_param" in self.__dict__:
        new._param = new.probs if "probs" in new.__dict__ else new.logits
    for name in keeps:
        setattr(new, name, getattr(self, name))
    return _init_expanded(self, new, batch_shape)


def _init_expanded(self, new, batch_shape, event_shape=None):
    """Initialise ``new``, a copy of ``self`` expanded to ``batch_shape``, without
    validating its parameters again, with ``self``'s validation setting; return it."""
    event_shape = self._event_shape if event_shape is None else event_shape
    Distribution.__init__(new, batch_shape, event_shape, validate_args=False)
    new._validate_args = self._validate_args
    return new


def _expand_attributes(self, new, batch_shape, names) -> None:
    """Give ``new`` the attributes ``names`` of ``self`` expanded to ``batch_shape``: the
    parameters a transformed distribution keeps beside its base and transforms."""
    for name in names:
        setattr(new, name, getattr(self, name).expand(batch_shape))


def _draw_elementwise(self, sampler, sample_shape, *params):
    """``sample`` through a core sampler that draws one value per element of its
    arguments (``torch.bernoulli``, ``torch.poisson``, ...): ``params`` expanded to the
    sample's shape, without gradient."""
    shape = self._extended_shape(sample_shape)
    with torch.no_grad():
        return sampler(*(param.expand(shape) for param in params))


def _param_event_dims(dist, name) -> int:
    """How many rightmost dims of parameter ``name`` are not batch dims: the event dims
    of its constraint (none for an attribute without one)."""
    constraint = dist.arg_constraints.get(name)
    return 0 if constraint is None else constraint.event_dim
