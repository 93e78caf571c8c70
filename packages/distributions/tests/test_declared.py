"""The one declaration of a distribution's arguments (``_declared.parameters``): the
docstring's Args section, ``arg_constraints`` and ``expand`` it gives a class."""

from __future__ import annotations

import pytest

import torch
from torch.distributions import Distribution, constraints
from torch.distributions._declared import Arg, parameters
from torch.distributions.distribution import _set_broadcast


@parameters(
    Arg("low", constraints.real, "where it starts."),
    Arg("width", constraints.positive, "how wide it is,\nin the units of ``low``."),
    Arg("label", None, "a name.", kind="str"),
    expand=True,
)
class _Strip(Distribution):
    """A strip of the real line.

    Examples::

        >>> 1
        1
    """

    def __init__(self, low, width, label="", validate_args=None):
        self.label = label
        super().__init__(_set_broadcast(self, low=low, width=width), validate_args=validate_args)


def test_args_section_goes_before_the_examples():
    assert _Strip.__doc__ == (
        "A strip of the real line.\n\n"
        "    Args:\n"
        "        low (float or Tensor): where it starts.\n"
        "        width (float or Tensor): how wide it is,\n"
        "            in the units of ``low``.\n"
        "        label (str): a name.\n"
        "        validate_args (bool, optional): see :class:`Distribution`.\n\n"
        "    Examples::\n\n"
        "        >>> 1\n"
        "        1\n"
        "    "
    )


def test_args_section_ends_a_docstring_without_examples():
    @parameters(Arg("rate", constraints.positive, "the rate."))
    class Rated(Distribution):
        """Something with a rate,
        positive.
        """

    @parameters(Arg("rate", constraints.positive, "the rate."))
    class Short(Distribution):
        """Something with a rate."""

    args = (
        "Args:\n{0}    rate (float or Tensor): the rate.\n"
        "{0}    validate_args (bool, optional): see :class:`Distribution`."
    )
    indent = " " * 8
    assert Rated.__doc__ == (
        f"Something with a rate,\n{indent}positive.\n\n{indent}{args.format(indent)}\n{indent}"
    )
    assert Short.__doc__ == f"Something with a rate.\n\n{args.format('')}"


def test_constraints_are_the_constrained_arguments_in_order():
    assert _Strip.arg_constraints == {"low": constraints.real, "width": constraints.positive}
    with pytest.raises(ValueError, match="Expected parameter width"):
        _Strip(0.0, -1.0)


def test_a_class_with_its_own_constraints_declares_none():
    with pytest.raises(TypeError, match="declares arg_constraints twice"):

        @parameters(Arg("low", constraints.real, "where it starts."))
        class Twice(Distribution):
            arg_constraints = {"low": constraints.real}


def test_expand_views_the_parameters():
    strip = _Strip(torch.zeros(2), 1.0)
    wide = strip.expand((3, 2))
    assert type(wide) is _Strip and wide.batch_shape == (3, 2)
    assert wide.low.shape == (3, 2) and wide.low.data_ptr() == strip.low.data_ptr()
    assert _Strip.expand.__qualname__ == "_Strip.expand"
