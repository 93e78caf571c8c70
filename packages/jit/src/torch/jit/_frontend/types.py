"""Python annotations -> IR types, for the script compiler."""

from __future__ import annotations

import typing

import torch

from .. import _ir

__all__ = ["ir_type", "type_of_python_value", "is_tensor", "is_number"]


def ir_type(annotation) -> _ir.Type:
    """The IR type of an annotation (``torch.Tensor``, ``int``, ``List[int]``,
    ``Optional[Tensor]``, ...). A missing annotation means ``Tensor``, as in TorchScript."""
    if annotation is None or annotation is torch.Tensor:
        return _ir.TensorType()
    if isinstance(annotation, str):
        return _from_name(annotation)
    if annotation is int:
        return _ir.INT
    if annotation is float:
        return _ir.FLOAT
    if annotation is bool:
        return _ir.BOOL
    if annotation is str:
        return _ir.STR
    if annotation is type(None):
        return _ir.NONE
    if annotation is torch.device:
        return _ir.DEVICE
    if annotation is typing.Any:
        return _ir.ANY
    if isinstance(annotation, type) and issubclass(annotation, tuple):
        if hasattr(annotation, "_fields"):  # a NamedTuple
            return _named_tuple_type(annotation)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (list, typing.List):  # noqa: UP006 - the annotation may be typing's
        return _ir.ListType(ir_type(args[0]) if args else _ir.ANY)
    if origin in (tuple, typing.Tuple):  # noqa: UP006
        return _ir.TupleType(ir_type(a) for a in args if a is not Ellipsis)
    if origin in (dict, typing.Dict):  # noqa: UP006
        return _ir.DictType(ir_type(args[0]), ir_type(args[1]))
    if origin is typing.Union or type(annotation).__name__ == "UnionType":
        others = [a for a in args if a is not type(None)]
        if len(others) == 1 and len(args) == 2:
            return _ir.OptionalType(ir_type(others[0]))
        return _ir.ANY
    if origin is typing.Final or origin is getattr(typing, "Final", None):
        return ir_type(args[0]) if args else _ir.ANY
    return _ir.ANY


def _named_tuple_type(cls: type) -> _ir.NamedTupleType:
    """A NamedTuple class's type, named as TorchScript names it (``__torch__.Pair``)."""
    module = "" if cls.__module__ == "__main__" else cls.__module__ + "."
    hints = typing.get_type_hints(cls)
    elements = [ir_type(hints.get(field)) for field in cls._fields]
    return _ir.NamedTupleType(f"__torch__.{module}{cls.__qualname__}", cls._fields, elements)


def _from_name(name: str) -> _ir.Type:
    table = {"Tensor": _ir.TensorType(), "torch.Tensor": _ir.TensorType(), "int": _ir.INT,
             "float": _ir.FLOAT, "bool": _ir.BOOL, "str": _ir.STR}  # fmt: skip
    return table.get(name.strip(), _ir.ANY)


def type_of_python_value(value) -> _ir.Type:
    if isinstance(value, torch.Tensor):
        return _ir.TensorType()
    return _ir.type_of(value)


def is_tensor(type_: _ir.Type) -> bool:
    return isinstance(type_, _ir.TensorType)


def is_number(type_: _ir.Type) -> bool:
    return type_ in (_ir.INT, _ir.FLOAT, _ir.BOOL)
