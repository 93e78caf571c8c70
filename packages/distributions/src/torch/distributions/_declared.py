"""Constructor arguments declared once.

A distribution lists its arguments in the :func:`parameters` class decorator, each as an
:class:`Arg` (name, constraint, what it means). From that one declaration come the
class's ``arg_constraints`` (the constrained arguments, in order), the ``Args:`` section
of its docstring (with the ``validate_args`` line every distribution shares), and, when
asked, its ``expand`` (the parameter tensors expanded as views, as ``_expand_params``
does)."""

from __future__ import annotations

from typing import NamedTuple

from .distribution import _expand_params

__all__ = ["Arg", "parameters"]


class Arg(NamedTuple):
    """One constructor argument of a distribution."""

    name: str
    #: the Constraint its values satisfy; None for an argument that is no constrained
    #: parameter (a temperature, a base distribution, a setting)
    constraint: object
    #: its line in the docstring; a "\n" starts a continuation line
    meaning: str
    kind: str = "float or Tensor"


_VALIDATE_ARGS = Arg("validate_args", None, "see :class:`Distribution`.", "bool, optional")


def parameters(*args: Arg, expand: bool = False, expand_also=(), expand_keeps=()):
    """Class decorator: ``arg_constraints``, the docstring's ``Args:`` section and (with
    ``expand=True``) ``expand`` from ``args``. A class whose constraints depend on the
    instance defines ``arg_constraints`` itself and declares no constraint here.

    ``expand`` expands the constrained arguments and the attributes ``expand_also``
    (inner distributions, parameters whose constraints the instance computes) to the new
    batch shape and shares the attributes ``expand_keeps`` (settings, values computed
    without the batch) as they are; either implies ``expand=True``."""

    def declare(cls):
        if cls.__doc__ is not None:  # None under python -OO
            cls.__doc__ = _with_args_section(cls.__doc__, (*args, _VALIDATE_ARGS))
        constrained = {a.name: a.constraint for a in args if a.constraint is not None}
        if "arg_constraints" in vars(cls):
            if constrained:
                raise TypeError(f"{cls.__name__} declares arg_constraints twice")
        else:
            cls.arg_constraints = constrained
        if expand or expand_also or expand_keeps:
            names = (*constrained, *expand_also)
            cls.expand = _expand_method(cls, names, tuple(expand_keeps))
        return cls

    return declare


def _expand_method(cls, names, keeps):
    def expand(self, batch_shape, _instance=None):
        return _expand_params(self, cls, batch_shape, _instance, names, keeps)

    expand.__qualname__ = f"{cls.__qualname__}.expand"
    expand.__module__ = cls.__module__
    return expand


def _with_args_section(doc: str, args) -> str:
    """``doc`` with an ``Args:`` section before its ``Examples::`` (or at its end),
    indented as the docstring is."""
    lines = doc.split("\n")
    indent = _indent_of(lines)
    section = [f"{indent}Args:"]
    for a in args:
        first, *rest = a.meaning.split("\n")
        section.append(f"{indent}    {a.name} ({a.kind}): {first}")
        section.extend(f"{indent}        {line}" for line in rest)
    examples = [i for i, line in enumerate(lines) if line.strip() == "Examples::"]
    if examples:
        at = examples[0]
        lines[at:at] = [*section, ""]
    elif len(lines) > 1 and not lines[-1].strip():  # the closing quotes' indentation
        lines[-1:-1] = ["", *section]
    else:
        lines += ["", *section]
    return "\n".join(lines)


def _indent_of(lines) -> str:
    body = lines[1:]
    widths = [len(line) - len(line.lstrip()) for line in body if line.strip()]
    if widths:
        return " " * min(widths)
    return body[-1] if body else ""
