"""The Python attributes a checkpoint restores on a tensor or parameter.

PyTorch's ``_rebuild_parameter_with_state`` and ``_rebuild_from_type_v2`` hand the
state a tensor carried when it was saved (``__dict__``, slots) to ``setattr``. In PyTorch
the tensor's real fields live in C++, out of reach of ``setattr``; here they are Python
slots (``_dtype``, ``_offset_``, ``_version_``, ``grad``, ...), so a file could make a
tensor lie about its dtype or point outside its storage. Only what PyTorch lets such
state change is accepted: the public, settable attributes ``requires_grad`` and ``grad``
(type-checked), and attributes the framework does not define (kept where the object
has a ``__dict__``). Any other field raises ``pickle.UnpicklingError`` naming it.
"""

from __future__ import annotations

import pickle
import warnings

__all__ = ["apply_tensor_state"]


def _state_error(detail: str) -> pickle.UnpicklingError:
    return pickle.UnpicklingError(f"torch.load: refused tensor state in the checkpoint: {detail}")


def _check_requires_grad(obj, value) -> None:
    if type(value) is not bool:
        raise _state_error(
            f"field 'requires_grad' must be a bool, got {type(value).__name__} {value!r:.50}"
        )


def _check_grad(obj, value) -> None:
    from .._tensor import Tensor

    if value is None:
        return
    if not isinstance(value, Tensor):
        raise _state_error(f"field 'grad' must be a Tensor or None, got {type(value).__name__}")
    if value.shape != obj.shape or value.dtype != obj.dtype or value.device != obj.device:
        raise _state_error(
            f"field 'grad' of shape {list(value.shape)}, dtype {value.dtype} and device "
            f"{value.device} does not match its tensor's shape {list(obj.shape)}, dtype "
            f"{obj.dtype} and device {obj.device}"
        )


# the framework's own attributes a saved state may set, each with its type check
_SETTABLE = {"requires_grad": _check_requires_grad, "grad": _check_grad}


def _framework_names(cls) -> frozenset:
    """Every attribute name that the framework's classes in ``cls``'s MRO define
    (Tensor's slots and properties, Parameter's, object's); a user's subclass adds none."""
    names = _FRAMEWORK_NAMES.get(cls)
    if names is None:
        found: set[str] = set()
        for klass in cls.__mro__:
            module = getattr(klass, "__module__", "") or ""
            if klass is object or module == "torch" or module.startswith("torch."):
                found.update(vars(klass))
                found.update(getattr(klass, "__slots__", ()))
        names = _FRAMEWORK_NAMES[cls] = frozenset(found)
    return names


_FRAMEWORK_NAMES: dict[type, frozenset] = {}


def _merged_state(state) -> dict:
    """``state`` as one dict: a ``__dict__``, or a ``(__dict__, slots)`` pair."""
    if isinstance(state, tuple):
        if len(state) != 2:
            raise _state_error(f"a tuple state must be a (dict, slots) pair, not {len(state)}")
        parts = [part for part in state if part]
    else:
        parts = [state]
    merged: dict = {}
    for part in parts:
        if not isinstance(part, dict):
            raise _state_error(f"tensor state must be a dict, got {type(part).__name__}")
        merged.update(part)
    return merged


def apply_tensor_state(obj, state) -> None:
    """Set the attributes ``state`` recorded for the tensor ``obj`` that a checkpoint may
    set; raise ``pickle.UnpicklingError`` naming the first one it may not."""
    if not state:
        return
    framework = _framework_names(type(obj))
    for name, value in _merged_state(state).items():
        if not isinstance(name, str) or not name.isidentifier():
            raise _state_error(f"field name {name!r:.50} is not an attribute name")
        check = _SETTABLE.get(name)
        if check is not None:
            check(obj, value)
            setattr(obj, name, value)
        elif name in framework:
            raise _state_error(
                f"field '{name}' of {type(obj).__name__} is not a public settable attribute "
                f"(only {sorted(_SETTABLE)} and attributes of the tensor's own subclass are)"
            )
        elif hasattr(obj, "__dict__"):
            # not a framework name: a plain attribute of a user's subclass, set as
            # PyTorch would (through the subclass's own descriptors, if it has any)
            setattr(obj, name, value)
        else:
            warnings.warn(
                f"torch.load: attribute '{name}' saved on a {type(obj).__name__} could not "
                f"be restored here; it was dropped",
                stacklevel=4,
            )
