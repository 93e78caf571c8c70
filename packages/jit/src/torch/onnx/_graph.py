"""The ONNX graph under construction and the ``g`` that symbolic functions emit into.

A symbolic function receives ``g`` (a :class:`GraphContext`) and the node's arguments:
tensors computed from the model inputs are :class:`SymbolicValue` s, everything known at
export time (numbers, lists, ``None``, dtypes, constant tensors and, with constant
folding, parameters) arrives as the Python value. ``g.op("Name", *inputs, **attributes)``
appends an ONNX node and returns its output (a tuple with ``outputs=n``); Python numbers,
lists and tensors given as inputs become constants.
"""

from __future__ import annotations

import contextlib
import itertools
from typing import Any

import torch

__all__ = ["SymbolicValue", "SymbolicInt", "GraphContext", "onnx_dtype", "torch_dtype"]

#: a slice end meaning "to the end" (ONNX clamps it)
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)

_ONNX_TYPE_NAMES = {
    torch.float32: "FLOAT",
    torch.float64: "DOUBLE",
    torch.float16: "FLOAT16",
    torch.bfloat16: "BFLOAT16",
    torch.int64: "INT64",
    torch.int32: "INT32",
    torch.int16: "INT16",
    torch.int8: "INT8",
    torch.uint8: "UINT8",
    torch.bool: "BOOL",
    torch.complex64: "COMPLEX64",
    torch.complex128: "COMPLEX128",
}

# attribute name suffixes of PyTorch's ``g.op`` (``alpha_f=0.5``, ``perm_i=[1, 0]``)
_ATTRIBUTE_SUFFIXES = ("_i", "_f", "_s", "_t", "_is", "_fs", "_ss", "_ts", "_g", "_gs")


def onnx_dtype(dtype: torch.dtype) -> int:
    """The ``onnx.TensorProto`` element type of a torch dtype."""
    from onnx import TensorProto

    name = _ONNX_TYPE_NAMES.get(dtype)
    if name is None:
        from .errors import OnnxExporterError

        raise OnnxExporterError(f"ONNX has no element type for {dtype}")
    return getattr(TensorProto, name)


def torch_dtype(element_type: int) -> torch.dtype:
    from onnx import TensorProto

    for dtype, name in _ONNX_TYPE_NAMES.items():
        if getattr(TensorProto, name) == element_type:
            return dtype
    raise KeyError(element_type)


class SymbolicValue:
    """A value of the ONNX graph: its ``name``, and the ``dtype`` and ``sizes`` the
    trace saw (None where unknown, as for intermediate values of a symbolic function)."""

    # no __slots__: SymbolicInt derives from int as well

    def __init__(self, name: str, dtype: torch.dtype | None = None, sizes=None) -> None:
        self.name = name
        self.dtype = dtype
        self.sizes = None if sizes is None else tuple(sizes)

    @property
    def rank(self) -> int | None:
        return None if self.sizes is None else len(self.sizes)

    def __repr__(self) -> str:
        return f"SymbolicValue({self.name!r}, {self.dtype}, {self.sizes})"


class SymbolicInt(int, SymbolicValue):
    """A size the trace recorded (``x.size(0)`` and arithmetic on it): a 0-dim int64
    value of the graph that is also the ``int`` the trace saw, so that a symbolic function
    that needs a fixed number gets one and one that can follow the input's sizes (view,
    expand, zeros ...) reads the graph value."""

    def __new__(cls, number: int, name: str) -> SymbolicInt:
        return int.__new__(cls, int(number))

    def __init__(self, number: int, name: str) -> None:
        SymbolicValue.__init__(self, name, torch.int64, ())

    def __repr__(self) -> str:
        return f"SymbolicInt({int(self)}, {self.name!r})"


def is_symbolic(value: Any) -> bool:
    return isinstance(value, SymbolicValue)


class GraphContext:
    """What a symbolic function emits into: ``op`` appends nodes, ``constant`` and
    ``initializer`` make values of Python ones. ``opset`` is the target opset."""

    def __init__(self, opset: int, custom_opsets: dict[str, int] | None = None) -> None:
        self.opset = opset
        self.custom_opsets = dict(custom_opsets or {})
        self.nodes: list = []
        self.initializers: dict[str, Any] = {}  # name -> TensorProto
        self.parameter_names: dict[int, str] = {}  # id(tensor) -> state_dict name
        self._tensor_values: dict[int, SymbolicValue] = {}
        self._constants: dict[tuple, SymbolicValue] = {}
        self._counter = itertools.count()
        self._keep_alive: list = []
        self.domains_used: set[str] = set()
        #: whether ONNX If/Loop nodes were written (their outputs' sizes may vary)
        self.has_control_flow = False
        #: the IR node being translated (its kind names the nodes it produces) and the
        #: (dtype, sizes) of its outputs as traced
        self.current_kind = "Constant"
        self.current_outputs: list[tuple] = []

    # -- names
    def fresh_name(self, hint: str) -> str:
        return f"onnx::{hint}_{next(self._counter)}"

    # -- nodes
    def op(self, op_type: str, *inputs, outputs: int = 1, **attributes):
        """Append ONNX node ``op_type`` (``"domain::Name"`` for a custom domain) on
        ``inputs`` (``None`` leaves an optional input out); returns its output value, or
        a tuple of ``outputs`` values."""
        from onnx import helper

        domain = ""
        if "::" in op_type:
            domain, op_type = op_type.split("::", 1)
            if domain == "onnx":
                domain = ""
        if domain:
            self.domains_used.add(domain)
        names = [self._input_name(v) for v in inputs]
        while names and names[-1] == "":
            names.pop()
        results = [SymbolicValue(self.fresh_name(op_type)) for _ in range(outputs)]
        attrs = {self._attribute_name(k): self._attribute_value(v) for k, v in attributes.items()}
        attrs = {k: v for k, v in attrs.items() if v is not None}
        node = helper.make_node(
            op_type,
            names,
            [r.name for r in results],
            name=f"/{op_type}_{len(self.nodes)}",
            domain=domain or None,
            **attrs,
        )
        self.nodes.append(node)
        return results[0] if outputs == 1 else tuple(results)

    def _input_name(self, value) -> str:
        if value is None:
            return ""
        if isinstance(value, SymbolicValue):
            return value.name
        return self.constant(value).name

    @staticmethod
    def _attribute_name(name: str) -> str:
        for suffix in _ATTRIBUTE_SUFFIXES:
            if name.endswith(suffix):
                return name[: -len(suffix)]
        return name

    def _attribute_value(self, value):
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, torch.Tensor):
            return self._tensor_proto(value, self.fresh_name("attr"))
        if isinstance(value, tuple):
            return list(value)
        return value

    @contextlib.contextmanager
    def subgraph(self):
        """Emit into a fresh node list (the body of an ONNX ``If`` branch or ``Loop``),
        yielded; constants made inside stay inside, those of the enclosing graphs are
        read from there (ONNX subgraphs see the values of the graphs around them)."""
        saved = self.nodes, self._constants
        self.nodes, self._constants = [], dict(self._constants)
        self.has_control_flow = True
        try:
            yield self.nodes
        finally:
            self.nodes, self._constants = saved

    def checkpoint(self) -> tuple:
        """What :meth:`rollback` restores: the nodes and constants made so far."""
        return len(self.nodes), dict(self._constants), self.has_control_flow

    def rollback(self, checkpoint: tuple) -> None:
        """Forget the nodes (and their constants) made since ``checkpoint``."""
        count, constants, flag = checkpoint
        del self.nodes[count:]
        self._constants, self.has_control_flow = constants, flag

    # -- constants
    def constant(self, value, dtype: torch.dtype | None = None) -> SymbolicValue:
        """A ``Constant`` node of ``value`` (a number, bool, list or tensor), in ``dtype``
        when given; the same constant is emitted once."""
        if isinstance(value, SymbolicValue):
            return value
        if isinstance(value, torch.Tensor):
            if id(value) in self.parameter_names or value.numel() > 16:
                return self.initializer(value if dtype is None else value.to(dtype))
            tensor = value.detach()
        else:
            tensor = torch.tensor(value)
        if dtype is not None:
            tensor = tensor.to(dtype)
        key = (str(tensor.dtype), tuple(tensor.shape), tensor.detach().numpy().tobytes())
        found = self._constants.get(key)
        if found is not None:
            return found
        out = SymbolicValue(self.fresh_name("Constant"), tensor.dtype, tuple(tensor.shape))
        from onnx import helper

        proto = self._tensor_proto(tensor, out.name)
        self.nodes.append(
            helper.make_node(
                "Constant", [], [out.name], name=f"/Constant_{len(self.nodes)}", value=proto
            )  # fmt: skip
        )
        self._constants[key] = out
        return out

    def int64s(self, values) -> SymbolicValue:
        """A 1-D int64 constant (axes, shapes, slice bounds)."""
        return self.constant(torch.tensor(list(values), dtype=torch.int64))

    def initializer(self, tensor: torch.Tensor, name: str | None = None) -> SymbolicValue:
        """``tensor`` as an initializer: a parameter keeps its state_dict name, a folded
        constant gets a fresh one; each tensor object is stored once."""
        found = self._tensor_values.get(id(tensor))
        if found is not None:
            return found
        name = (
            name or self.parameter_names.get(id(tensor)) or self.fresh_name(f"{self.current_kind}")
        )
        self.initializers[name] = self._tensor_proto(tensor, name)
        value = SymbolicValue(name, tensor.dtype, tuple(tensor.shape))
        self._tensor_values[id(tensor)] = value
        self._keep_alive.append(tensor)
        return value

    @staticmethod
    def _tensor_proto(tensor: torch.Tensor, name: str):
        from onnx import numpy_helper

        array = tensor.detach().contiguous().numpy()
        return numpy_helper.from_array(array, name)

    # -- conveniences for symbolic functions
    def out_dtype(self, index: int = 0) -> torch.dtype | None:
        """The dtype of output ``index`` of the node being translated, as traced."""
        if index < len(self.current_outputs):
            return self.current_outputs[index][0]
        return None

    def out_sizes(self, index: int = 0) -> tuple | None:
        """The sizes of output ``index`` of the node being translated, as traced."""
        if index < len(self.current_outputs):
            return self.current_outputs[index][1]
        return None

    def cast(self, value, dtype: torch.dtype | None):
        """``value`` in ``dtype``: a Cast node only where its dtype differs."""
        if dtype is None:
            return value
        if not isinstance(value, SymbolicValue):
            return self.constant(value, dtype)
        if value.dtype == dtype:
            return value
        out = self.op("Cast", value, to_i=onnx_dtype(dtype))
        out.dtype, out.sizes = dtype, value.sizes
        return out

    def shape_tensor(self, sizes) -> SymbolicValue:
        """A 1-D int64 value of ``sizes``: constant where all are numbers, else the
        recorded sizes (:class:`SymbolicInt`) concatenated with the numbers."""
        sizes = list(sizes)
        if not any(isinstance(s, SymbolicValue) for s in sizes):
            return self.int64s(int(s) for s in sizes)
        parts = [
            self.unsqueeze(self.cast(s, torch.int64), [0])
            if isinstance(s, SymbolicValue)
            else self.int64s([int(s)])
            for s in sizes
        ]
        out = self.op("Concat", *parts, axis_i=0)
        out.dtype, out.sizes = torch.int64, (len(sizes),)
        return out

    def unsqueeze(self, value, axes) -> SymbolicValue:
        return self.op("Unsqueeze", value, self.int64s(axes))

    def squeeze(self, value, axes=None) -> SymbolicValue:
        if axes is None:
            return self.op("Squeeze", value)
        return self.op("Squeeze", value, self.int64s(axes))

    def reduce(self, op_type: str, value, axes, keepdims: bool) -> SymbolicValue:
        """``op_type`` (``ReduceMean`` ...) over ``axes`` (None: all). The axes are an
        input from opset 18 on (ReduceSum: 13), an attribute before."""
        as_input = self.opset >= 18 or op_type == "ReduceSum"
        if axes is None:
            return self.op(op_type, value, keepdims_i=int(keepdims))
        if as_input:
            return self.op(op_type, value, self.int64s(axes), keepdims_i=int(keepdims))
        return self.op(op_type, value, axes_i=list(axes), keepdims_i=int(keepdims))
