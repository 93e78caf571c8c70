"""Small enumerations that behave like PyTorch's pybind11 enums (``torch._C._LinalgBackend``,
``SDPBackend``, ...): ``repr`` ``<Name.Member: value>``, ``int()``, ``__members__``,
construction from the value."""

from __future__ import annotations

__all__ = ["native_enum"]


class _Member:
    __slots__ = ("name", "value", "_type_name")

    def __init__(self, type_name: str, name: str, value: int):
        self._type_name = type_name
        self.name = name
        self.value = value

    def __repr__(self):
        return f"<{self._type_name}.{self.name}: {self.value}>"

    def __str__(self):
        return f"{self._type_name}.{self.name}"

    def __int__(self):
        return self.value

    __index__ = __int__

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        return type(other) is type(self) and other.value == self.value

    def __reduce__(self):
        return (type(self), (self.value,))


def native_enum(type_name: str, members: dict[str, int], module: str, cpp_name: str) -> type:
    """A class whose instances are ``members``; ``Cls(value)`` gives the member with that
    value and ``Cls()`` fails as a pybind11 constructor does."""

    def __new__(cls, *args):  # noqa: N807
        if len(args) != 1 or not isinstance(args[0], int) or args[0] not in by_value:
            raise TypeError(
                "__init__(): incompatible constructor arguments. The following argument types "
                f"are supported:\n    1. {cpp_name}(value: typing.SupportsInt | "
                "typing.SupportsIndex)\n\nInvoked with: " + ", ".join(map(repr, args))
            )
        return by_value[args[0]]

    def __init__(self, *args):  # noqa: N807 - the members are made once, below
        pass

    namespace = {"__slots__": (), "__new__": __new__, "__init__": __init__, "__module__": module}
    cls = type(type_name, (_Member,), namespace)
    by_value = {}
    for name, value in members.items():
        member = object.__new__(cls)
        _Member.__init__(member, type_name, name, value)
        by_value[value] = member
        setattr(cls, name, member)
    cls.__members__ = {name: by_value[value] for name, value in members.items()}
    return cls
