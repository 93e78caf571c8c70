"""Sizes in a trace: ``x.size(0)``, ``x.shape`` and arithmetic on them are recorded.

While a trace runs, a size read from a traced tensor is a :class:`TracedInt`: an ``int``
(the code computes with it as usual) that also knows the graph value it is, an
``aten::size`` node. Arithmetic between such ints records ``aten::add`` / ``mul`` / ...
nodes (targets ``operator.add`` ...), and an op that receives one reads that value, so
``x.view(x.size(0), -1)`` or ``q.reshape(tgt_len, bsz * heads, dim)`` follows the input's
sizes instead of freezing the example's, as in PyTorch. Outside the trace they are plain
ints (their recording stops with the trace).
"""

from __future__ import annotations

import operator

from . import _ir, _state

__all__ = ["TracedInt", "traced_size"]

_OPERATORS = {
    "add": (operator.add, "aten::add"),
    "sub": (operator.sub, "aten::sub"),
    "mul": (operator.mul, "aten::mul"),
    "floordiv": (operator.floordiv, "aten::floordiv"),
    "mod": (operator.mod, "aten::remainder"),
}


class TracedInt(int):
    """An ``int`` that is a value of the graph being traced; its arithmetic operators
    (those of ``_OPERATORS``, set below the class) record nodes."""

    def __new__(cls, number: int, value: _ir.Value, tracer) -> TracedInt:
        self = super().__new__(cls, number)
        self._value = value
        self._tracer = tracer
        return self

    def _live(self) -> bool:
        return _state.tracing.tracer is self._tracer

    def _record(self, name: str, other, reflected: bool):
        function, kind = _OPERATORS[name]
        plain = function(int(other), int(self)) if reflected else function(int(self), int(other))
        if not self._live() or not isinstance(other, int) or isinstance(other, bool):
            return plain
        tracer = self._tracer
        left, right = (other, self) if reflected else (self, other)
        node = tracer.graph.append(kind, [tracer.value_of(left), tracer.value_of(right)])
        node.target = f"operator.{function.__name__}"
        return TracedInt(plain, node.add_output(_ir.INT), tracer)

    def __reduce__(self):  # pickles (and copies) as the plain number
        return (int, (int(self),))


def _recording_operator(name: str, reflected: bool):
    """``TracedInt.__<name>__`` (``__r<name>__`` when ``reflected``): records the op."""

    def operator_method(self, other):
        return self._record(name, other, reflected)

    dunder = f"__{'r' if reflected else ''}{name}__"
    operator_method.__name__ = dunder
    operator_method.__qualname__ = f"TracedInt.{dunder}"
    return operator_method


for _name in _OPERATORS:
    for _reflected in (False, True):
        _method = _recording_operator(_name, _reflected)
        setattr(TracedInt, _method.__name__, _method)
del _name, _reflected, _method


def traced_size(tracer, number: int, tensor_value: _ir.Value, dim: int) -> TracedInt:
    """``tensor.size(dim)`` (which is ``number``) as a recorded ``aten::size`` node."""
    dim_value = tracer.graph.constant(dim)
    node = tracer.graph.append("aten::size", [tensor_value, dim_value])
    node.target = "Tensor.size"
    return TracedInt(int(number), node.add_output(_ir.INT), tracer)
