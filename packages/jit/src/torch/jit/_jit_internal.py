"""Decorators and annotations that mark Python code for the script compiler.

In eager Python they change nothing about how a function runs: they tag it (the
``_torchscript_modifier`` attribute) so that :func:`torch.jit.script` knows to compile
it (``export``), leave it as a Python call (``ignore``) or replace it by a raise
(``unused``).
"""

from __future__ import annotations

import collections.abc
import enum
import inspect
import typing
import warnings
from typing import Any, Final

__all__ = [
    "FunctionModifiers",
    "Final",
    "annotate",
    "export",
    "ignore",
    "unused",
    "interface",
    "isinstance",
    "get_modifier",
    "qualified_name",
    "_overload",
    "_overload_method",
    "overloads_of",
]

_builtin_isinstance = isinstance


class FunctionModifiers(enum.Enum):
    """How the script compiler treats a function."""

    UNUSED = "unused (ignored and replaced with raising of an exception)"
    IGNORE = "ignore (leave as a call to Python, cannot be torch.jit.save'd)"
    EXPORT = "export (compile this function even if nothing calls it)"
    DEFAULT = "default (compile if called from a exported function / forward)"
    COPY_TO_SCRIPT_WRAPPER = (
        "if this method is not scripted, copy the python method onto the scripted model"
    )
    _DROP = "_drop (function is fully ignored, declaration can be unscriptable)"

    def __str__(self) -> str:
        return self.value


def get_modifier(fn: Any) -> FunctionModifiers | None:
    """The modifier a decorator of this module put on ``fn``, or None."""
    return getattr(fn, "_torchscript_modifier", None)


def _tag(fn: Any, modifier: FunctionModifiers) -> Any:
    if _builtin_isinstance(fn, property):
        for accessor in (fn.fget, fn.fset):
            if accessor is not None:
                accessor._torchscript_modifier = modifier
        return fn
    fn._torchscript_modifier = modifier
    return fn


def export(fn):
    """Compile this method of a scripted module even if ``forward`` does not call it.

    >>> @torch.jit.export
    ... def helper(x):
    ...     return x + 1
    >>> helper(1)
    2
    """
    return _tag(fn, FunctionModifiers.EXPORT)


def unused(fn):
    """Leave this function or method out of compilation; calling it from scripted code
    raises. Eager calls run it as usual. Works on properties too."""
    return _tag(fn, FunctionModifiers.UNUSED)


def ignore(drop=False, **kwargs):
    """Leave this function as a call back into Python in scripted code (which then cannot
    be saved). Used bare (``@torch.jit.ignore``) or called (``@torch.jit.ignore()``).

    Args:
        drop (bool): deprecated; the same as :func:`unused`. Default: ``False``.
    """
    if callable(drop):
        return _tag(drop, FunctionModifiers.IGNORE)
    if not _builtin_isinstance(drop, bool):
        raise RuntimeError(
            f"Argument to @torch.jit.ignore must be a bool or a function but got {drop}"
        )
    drop_on_export = kwargs.pop("drop_on_export", None)
    if drop_on_export:
        warnings.warn(
            "ignore(drop_on_export=True) has been deprecated. TorchScript will now drop the "
            "function call on compilation. Use torch.jit.unused now. {}",
            category=FutureWarning,
            stacklevel=2,
        )
        drop = drop_on_export
    elif drop:
        warnings.warn(
            "ignore(True) has been deprecated. TorchScript will now drop the function call "
            "on compilation. Use torch.jit.unused now. {}",
            category=FutureWarning,
            stacklevel=2,
        )
    modifier = FunctionModifiers.UNUSED if drop else FunctionModifiers.IGNORE

    def decorator(fn):
        return _tag(fn, modifier)

    return decorator


def _drop(fn):
    return _tag(fn, FunctionModifiers._DROP)


def annotate(the_type, the_value):
    """Tell the script compiler the type of ``the_value`` (an empty list or dict, a None
    that is an ``Optional``); in eager Python it returns ``the_value``.

        >>> from typing import List
        >>> torch.jit.annotate(List[int], [])
        []
    """
    return the_value


def qualified_name(obj) -> str:
    """The name TorchScript gives a Python class or function: ``__torch__.`` then its
    module (``__main__`` left out) and qualified name."""
    module = obj.__module__
    name = obj.__qualname__
    if module == "__main__":
        return f"__torch__.{name}"
    return f"__torch__.{module}.{name}"


def interface(obj):
    """Declare a class (or module class) as a script interface: a type that scripted
    code can hold any implementation of. Returns the class."""
    if not inspect.isclass(obj):
        raise RuntimeError("interface must be applied to a class")
    obj.__torch_script_interface__ = qualified_name(obj)
    return obj


# ------------------------------------------------------------------- overloads

_overloaded_functions: dict[str, list] = {}
_overloaded_methods: dict[str, list] = {}


def _overload_key(fn) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


def _overload(func):
    """Declare one typed overload of a function (the body is ``...``); the undecorated
    definition that follows implements them. Eager code calls the implementation."""
    _overloaded_functions.setdefault(_overload_key(func), []).append(func)
    return func


def _overload_method(func):
    """:func:`_overload` for methods of a module class."""
    _overloaded_methods.setdefault(_overload_key(func), []).append(func)
    return func


def overloads_of(fn) -> list:
    """The declarations recorded by :func:`_overload` / :func:`_overload_method` for
    the function of the same qualified name as ``fn``."""
    key = _overload_key(fn)
    return _overloaded_functions.get(key, []) or _overloaded_methods.get(key, [])


# ------------------------------------------------------------------- isinstance


def isinstance(obj, target_type) -> bool:  # noqa: A001 - torch.jit.isinstance
    """``isinstance`` that understands parametrised container types (``List[int]``,
    ``Dict[str, Tensor]``, ``Optional[int]``, ``Tuple[int, str]``) by checking the
    elements.

        >>> from typing import Dict, List
        >>> torch.jit.isinstance([1, 2], List[int]), torch.jit.isinstance({"a": 1}, Dict[str, str])
        (True, False)
    """
    return _matches(obj, target_type)


def _matches(obj, target) -> bool:
    if target is Any:
        return True
    origin = typing.get_origin(target)
    if origin is None:
        if target is float:
            return _builtin_isinstance(obj, float)
        return _builtin_isinstance(obj, target)
    args = typing.get_args(target)
    if origin is typing.Union or type(target).__name__ == "UnionType":
        return any(_matches(obj, arg) for arg in args)
    if origin is list:
        return _builtin_isinstance(obj, list) and all(_matches(x, args[0]) for x in obj)
    if origin is dict:
        return _builtin_isinstance(obj, dict) and all(
            _matches(k, args[0]) and _matches(v, args[1]) for k, v in obj.items()
        )
    if origin is tuple:
        if not _builtin_isinstance(obj, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(x, args[0]) for x in obj)
        return len(obj) == len(args) and all(_matches(x, a) for x, a in zip(obj, args))
    if origin is collections.abc.Callable:
        return callable(obj)
    return _builtin_isinstance(obj, origin)
