"""The ONNX exporter: trace the model into the graph IR of :mod:`torch.jit`, translate
the graph node by node (:mod:`torch.onnx._translate`), and assemble an ``onnx.ModelProto``
(inputs, outputs with their dynamic axes, initializers, opset imports), checked by
``onnx.checker`` and written to ``f``."""

from __future__ import annotations

import contextlib
import inspect
import io
import os
import warnings
from collections.abc import Mapping

import torch
from torch import nn

from . import _constants
from ._graph import GraphContext, SymbolicValue, onnx_dtype
from ._state import exporting
from .errors import OnnxExporterError

__all__ = ["check_options", "deliver", "export_to_proto", "require_onnx"]

_LEGACY_WARNING = (
    "You are using the legacy TorchScript-based ONNX export. Starting in PyTorch 2.9, the new "
    "torch.export-based ONNX exporter has become the default. Learn more about the new export "
    "logic: https://docs.pytorch.org/docs/stable/onnx_export.html. For exporting control flow: "
    "https://pytorch.org/tutorials/beginner/onnx/export_control_flow_model_to_onnx_tutorial.html"
)


def require_onnx():
    """The ``onnx`` module, or an ImportError that names the extra to install."""
    try:
        import onnx
    except ImportError as error:
        raise ImportError(
            "torch.onnx.export needs the 'onnx' package: pip install \"torch-jit[onnx]\" "
            "(it installs onnx and onnxruntime)"
        ) from error
    return onnx


# ------------------------------------------------------------------------- arguments


def _check_opset(opset_version: int | None) -> int:
    newest = _constants.max_opset()
    if opset_version is None:
        return min(_constants.DEFAULT_OPSET, newest)
    if not _constants.MIN_OPSET <= opset_version <= newest:
        raise ValueError(
            f"Unsupported ONNX opset version: {opset_version}. This exporter supports opset "
            f"versions {_constants.MIN_OPSET} to {newest} (the newest of the installed onnx)"
        )
    return int(opset_version)


def _as_args(args) -> tuple:
    if isinstance(args, torch.Tensor):
        return (args,)
    if isinstance(args, list):
        return tuple(args)
    return tuple(args)


def _split_kwargs(args: tuple, kwargs: dict | None) -> tuple[tuple, dict]:
    """PyTorch allows a trailing dict in ``args`` for keyword arguments."""
    kwargs = dict(kwargs or {})
    if args and isinstance(args[-1], dict):
        kwargs.update(args[-1])
        args = args[:-1]
    return args, kwargs


def _normalize_dynamic_axes(dynamic_axes, names: set[str]) -> dict[str, dict[int, str]]:
    """``{name: [axes]}`` or ``{name: {axis: label}}`` -> ``{name: {axis: label}}``;
    a list gets labels ``<name>_dynamic_axes_<n>``, as PyTorch names them."""
    result: dict[str, dict[int, str]] = {}
    for name, axes in (dynamic_axes or {}).items():
        if name not in names:
            warnings.warn(
                f"Provided key {name} for dynamic axes is not a valid input/output name",
                stacklevel=4,
            )
            continue
        if isinstance(axes, Mapping):
            result[name] = {int(a): str(label) for a, label in axes.items()}
        else:
            result[name] = {int(a): f"{name}_dynamic_axes_{i + 1}" for i, a in enumerate(axes)}
    return result


def _dynamic_shapes_to_axes(dynamic_shapes, input_names: list[str]) -> dict:
    """The axes of ``dynamic_shapes`` (per input: ``{axis: name or Dim}``) keyed by input
    name, for the exporter's ``dynamic_axes``."""
    if dynamic_shapes is None:
        return {}
    items = (
        list(dynamic_shapes.values())
        if isinstance(dynamic_shapes, Mapping)
        else list(dynamic_shapes)
    )
    axes = {}
    for name, spec in zip(input_names, items):
        if isinstance(spec, Mapping) and spec:
            axes[name] = {int(a): getattr(d, "__name__", None) or str(d) for a, d in spec.items()}
    return axes


@contextlib.contextmanager
def _training_mode(model, training):
    """Put ``model`` in the mode ``training`` asks for (EVAL by default) while exporting."""
    from . import TrainingMode

    if not isinstance(model, nn.Module) or training == TrainingMode.PRESERVE:
        yield
        return
    was_training = model.training
    model.train(training == TrainingMode.TRAINING)
    try:
        yield
    finally:
        model.train(was_training)


# ------------------------------------------------------------------------- tracing


def _trace(model, args: tuple, kwargs: dict):
    """The inlined graph of ``model`` on ``args``, and the object its first input (the
    module, if any) stands for."""
    from torch.jit import ScriptFunction, ScriptModule

    if isinstance(model, ScriptModule) and not _has_shapes(model):
        # a script module without control flow on its inputs: its graph has no shapes,
        # so record a run of it on ``args`` (its parameters are found by identity)
        graph, _ = _trace(_run_of(model), args, kwargs)
        return graph, None
    if isinstance(model, (ScriptModule, ScriptFunction)):
        graph = model.inlined_graph
        return graph, model if isinstance(model, ScriptModule) else None
    if kwargs:  # the tracer takes keyword inputs alone: bind the positional ones by name
        forward = model.forward if isinstance(model, nn.Module) else model
        bound = inspect.signature(forward).bind_partial(*args, **kwargs)
        args, kwargs = (), dict(bound.arguments)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning,
                                message=r"`torch.jit.trace` is deprecated")  # fmt: skip
        traced = torch.jit.trace(
            model,
            args if args else None,
            check_trace=False,
            strict=False,
            example_kwarg_inputs=kwargs or None,
        )
    graph = traced.inlined_graph
    return graph, model if isinstance(model, nn.Module) else None


def _has_shapes(program) -> bool:
    """Whether the graph of a traced or scripted ``program`` knows its tensors' sizes (a
    trace does, a script does not)."""
    from torch.jit import _ir

    inputs = [v for v in program.graph.inputs if isinstance(v.type, _ir.TensorType)]
    return all(v.type.sizes is not None for v in inputs)


def _run_of(program):
    """A plain function running the script module ``program`` (traced as a function; a
    scripted function is translated from its graph instead, see ``_translate_script``)."""

    def run(*args, **kwargs):
        return program(*args, **kwargs)

    # the program's input names name the graph inputs of the trace
    names = [v.name for v in program.graph.inputs][1:]  # without self
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    names = [n if n.isidentifier() else f"input_{i}" for i, n in enumerate(names)]
    run.__signature__ = inspect.Signature([inspect.Parameter(n, kind) for n in names])
    return run


def _examples_in_graph_order(model, args: tuple, kwargs: dict) -> list:
    """The example arguments in the order of the graph inputs (keyword arguments bound
    to the signature's order, as :func:`_trace` passes them)."""
    if not kwargs:
        return list(args)
    forward = model.forward if isinstance(model, nn.Module) else model
    return list(inspect.signature(forward).bind_partial(*args, **kwargs).arguments.values())


def _parameter_names(module) -> dict[int, str]:
    names: dict[int, str] = {}
    if module is None or not hasattr(module, "named_parameters"):
        return names
    for name, tensor in module.named_parameters(remove_duplicate=False):
        names.setdefault(id(tensor), name)
    for name, tensor in module.named_buffers(remove_duplicate=False):
        names.setdefault(id(tensor), name)
    return names


def _leaves(value, out: list) -> list:
    if isinstance(value, SymbolicValue):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _leaves(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _leaves(item, out)
    elif isinstance(value, torch.Tensor):
        out.append(value)
    return out


# ------------------------------------------------------------------------- assembly


class _Inputs:
    """The graph inputs: a value per tensor leaf of the arguments, named in order."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.values: list[tuple[SymbolicValue, torch.Tensor]] = []

    def bind(self, example, default_name: str):
        if isinstance(example, torch.Tensor):
            index = len(self.values)
            name = self.names[index] if index < len(self.names) else default_name
            value = SymbolicValue(name, example.dtype, tuple(example.shape))
            self.values.append((value, example))
            return value
        if isinstance(example, (list, tuple)):
            items = [self.bind(item, f"{default_name}.{i}") for i, item in enumerate(example)]
            return type(example)(items)
        return example  # numbers, None: constants of the export


def _value_info(onnx, name: str, dtype, sizes, axes: dict[int, str]):
    shape = None
    if sizes is not None:
        shape = [axes.get(i, s) for i, s in enumerate(sizes)]
    return onnx.helper.make_tensor_value_info(name, onnx_dtype(dtype), shape)


def _output_values(g: GraphContext, leaves: list, names: list[str], taken: set[str]):
    """The graph outputs: every leaf a distinct named value (an Identity where a value
    is an input, an initializer or returned twice; a known tensor becomes a constant)."""
    outputs = []
    for index, leaf in enumerate(leaves):
        if isinstance(leaf, torch.Tensor):
            dtype, sizes = leaf.dtype, tuple(leaf.shape)
            leaf = g.op("Identity", g.constant(leaf))
            leaf.dtype, leaf.sizes = dtype, sizes
        wanted = names[index] if index < len(names) else None
        if leaf.name in taken or leaf.name in g.initializers:
            copy = g.op("Identity", leaf)
            copy.dtype, copy.sizes = leaf.dtype, leaf.sizes
            leaf = copy
        if wanted is not None and wanted != leaf.name:
            _rename(g, leaf, wanted)
        taken.add(leaf.name)
        outputs.append(leaf)
    return outputs


def _rename(g: GraphContext, value: SymbolicValue, name: str) -> None:
    """Rename ``value`` (a node output) to ``name`` where it is made and read."""
    _rename_in(g.nodes, value.name, name)
    value.name = name


def _rename_in(nodes, old: str, new: str) -> None:
    """Rename value ``old`` in ``nodes`` and in the subgraphs of their If/Loop nodes."""
    for node in nodes:
        for names in (node.input, node.output):
            for i, current in enumerate(names):
                if current == old:
                    names[i] = new
        for attribute in node.attribute:
            if attribute.g.node:  # a subgraph (then_branch, else_branch, body)
                _rename_in(attribute.g.node, old, new)
                for output in attribute.g.output:
                    if output.name == old:
                        output.name = new


class _Parameters:
    """What a parameter or buffer read by the graph becomes: the tensor itself (known,
    so ops on it fold), an initializer (no folding), or a graph input
    (``export_params=False``)."""

    def __init__(self, g: GraphContext, fold: bool, export_params: bool) -> None:
        self.g, self.fold, self.export_params = g, fold, export_params
        self.inputs: dict[int, SymbolicValue] = {}

    def __call__(self, tensor: torch.Tensor):
        if self.fold and self.export_params:
            return tensor
        if self.export_params:
            return self.g.initializer(tensor)
        value = self.inputs.get(id(tensor))
        if value is None:
            name = self.g.parameter_names.get(id(tensor)) or self.g.fresh_name("param")
            value = SymbolicValue(name, tensor.dtype, tuple(tensor.shape))
            self.inputs[id(tensor)] = value
        return value


def _scripted_control_flow(model):
    """The inlined graph of a scripted function, or of a script module whose branches or
    loops depend on its inputs, to translate with :mod:`torch.onnx._control_flow` (ONNX
    If/Loop where control flow depends on the inputs, resolved on the example
    elsewhere); None for what is recorded on the example as a trace."""
    from torch.jit import ScriptFunction, ScriptModule

    from ._control_flow import has_dynamic_control_flow

    if not isinstance(model, (ScriptModule, ScriptFunction)) or _has_shapes(model):
        return None
    graph = model.inlined_graph
    if isinstance(model, ScriptFunction):
        return graph  # translated as it is: its graph runs without recording hops
    return graph if has_dynamic_control_flow(graph) else None


def _translate_script(model, graph, args, kwargs, g: GraphContext, input_names, parameters):
    """Translate a scripted program with control flow on its inputs (see
    :mod:`torch.onnx._control_flow`)."""
    from torch.jit import ScriptModule

    from ._control_flow import translate_script

    root = model if isinstance(model, ScriptModule) else None
    g.parameter_names = _parameter_names(root)
    graph_inputs = list(graph.inputs)
    env: dict = {}
    examples: dict = {}
    if root is not None:
        env[graph_inputs[0]] = examples[graph_inputs[0]] = root
        graph_inputs = graph_inputs[1:]
    positional = list(args)
    for value in graph_inputs[len(args) :]:  # keyword arguments, then the defaults
        if value.name in kwargs:
            positional.append(kwargs[value.name])
        elif value.name in graph.defaults:
            positional.append(graph.defaults[value.name])
    inputs = _Inputs(list(input_names or []))
    for value, example in zip(graph_inputs, positional):
        env[value] = inputs.bind(example, value.name)
        examples[value] = example
    results = translate_script(graph, g, env, examples, parameters.fold, parameters)
    return [v for v, _ in inputs.values], _leaves(results, [])


def _translate_model(model, args, kwargs, g: GraphContext, input_names, parameters):
    """Trace ``model`` and translate it into ``g``; returns the graph input values and
    the tensor leaves of the outputs."""
    from ._translate import translate

    scripted = _scripted_control_flow(model)
    if scripted is not None:
        return _translate_script(model, scripted, args, kwargs, g, input_names, parameters)
    graph, root = _trace(model, args, kwargs)
    g.parameter_names = _parameter_names(root if root is not None else model)
    inputs = _Inputs(list(input_names or []))
    graph_inputs = list(graph.inputs)
    env: dict = {}
    if root is not None and graph_inputs:
        env[graph_inputs[0]] = root
        graph_inputs = graph_inputs[1:]
    for value, example in zip(graph_inputs, _examples_in_graph_order(model, args, kwargs)):
        env[value] = inputs.bind(example, value.name)
    results = translate(graph, g, env, parameters.fold, parameters)
    return [v for v, _ in inputs.values], _leaves(results, [])


def _opset_imports(onnx, opset: int, g: GraphContext, custom_opsets) -> list:
    imports = [onnx.helper.make_opsetid("", opset)]
    for domain, version in (custom_opsets or {}).items():
        imports.append(onnx.helper.make_opsetid(domain, int(version)))
    for domain in sorted(g.domains_used - set(custom_opsets or {})):
        imports.append(onnx.helper.make_opsetid(domain, 1))
    return imports


def export_to_proto(
    model,
    args=(),
    *,
    kwargs: dict | None = None,
    export_params: bool = True,
    training=None,
    input_names=None,
    output_names=None,
    opset_version: int | None = None,
    do_constant_folding: bool = True,
    dynamic_axes=None,
    keep_initializers_as_inputs: bool = False,
    custom_opsets: Mapping[str, int] | None = None,
    dynamic_shapes=None,
):
    """Trace ``model`` on ``args`` and build its ``onnx.ModelProto``."""
    onnx = require_onnx()
    from . import TrainingMode, _symbolics  # noqa: F401 - registers the symbolics

    opset = _check_opset(opset_version)
    args, kwargs = _split_kwargs(_as_args(args), kwargs)
    training = TrainingMode.EVAL if training is None else training
    g = GraphContext(opset, custom_opsets)
    parameters = _Parameters(g, do_constant_folding, export_params)
    with _training_mode(model, training), exporting():
        input_values, leaves = _translate_model(model, args, kwargs, g, input_names, parameters)

    names = {v.name for v in input_values}
    outputs = _output_values(g, leaves, list(output_names or []), set(names))
    axes = _normalize_dynamic_axes(
        dict(dynamic_axes or {})
        | _dynamic_shapes_to_axes(dynamic_shapes, [v.name for v in input_values]),
        names | {v.name for v in outputs},
    )
    nodes = g.nodes
    if do_constant_folding and export_params and training == TrainingMode.EVAL:
        from ._fold import fold_conv_batch_norm

        nodes = fold_conv_batch_norm(nodes, g.initializers, {v.name for v in outputs})

    inputs_proto = [_value_info(onnx, v.name, v.dtype, v.sizes, axes.get(v.name, {}))
                    for v in [*input_values, *parameters.inputs.values()]]  # fmt: skip
    initializers = list(g.initializers.values())
    if keep_initializers_as_inputs:
        inputs_proto += [
            onnx.helper.make_tensor_value_info(t.name, t.data_type, list(t.dims))
            for t in initializers
        ]
    dynamic = any(axes.values()) or g.has_control_flow
    outputs_proto = [
        _value_info(
            onnx, v.name, v.dtype, _rank_only(v.sizes) if dynamic else v.sizes, axes.get(v.name, {})
        )  # fmt: skip
        for v in outputs
    ]
    proto = onnx.helper.make_model(
        onnx.helper.make_graph(nodes, "main_graph", inputs_proto, outputs_proto, initializers),
        opset_imports=_opset_imports(onnx, opset, g, custom_opsets),
        producer_name="pytorch",
        producer_version=_constants.producer_version(),
        ir_version=_ir_version(onnx, opset),
    )
    if dynamic:
        _fill_output_shapes(onnx, proto, axes)
    _check(onnx, proto)
    return proto


def _rank_only(sizes):
    """Sizes with every dimension unknown (filled by shape inference where it can)."""
    return None if sizes is None else [None] * len(sizes)


def _ir_version(onnx, opset: int) -> int:
    """The IR version the opset came with (not newer, so that runtimes read the file)."""
    try:
        return onnx.helper.find_min_ir_version_for([onnx.helper.make_opsetid("", opset)])
    except Exception:  # an opset the table does not know yet
        return onnx.IR_VERSION


def _fill_output_shapes(onnx, proto, axes: dict) -> None:
    """With dynamic axes, the output shapes ONNX shape inference finds (symbolic where
    they follow a dynamic input), then the output axes the caller named."""
    try:
        inferred = onnx.shape_inference.infer_shapes(proto)
    except Exception:  # shape inference is a nicety here
        return
    shapes = {o.name: o.type.tensor_type for o in inferred.graph.output}
    for output in proto.graph.output:
        found = shapes.get(output.name)
        if found is not None and found.HasField("shape"):
            output.type.tensor_type.shape.CopyFrom(found.shape)
        named = axes.get(output.name, {})
        if not named:
            continue
        dims = output.type.tensor_type.shape.dim
        for axis, label in named.items():
            if axis < len(dims):
                dims[axis].Clear()
                dims[axis].dim_param = label


def _check(onnx, proto) -> None:
    try:
        onnx.checker.check_model(proto)
    except onnx.checker.ValidationError as error:
        raise OnnxExporterError(f"the exported model fails onnx.checker: {error}") from error


def _write(proto, f) -> None:
    data = proto.SerializeToString()
    if isinstance(f, (str, os.PathLike)):
        with open(os.fspath(f), "wb") as handle:
            handle.write(data)
    elif isinstance(f, io.IOBase) or hasattr(f, "write"):
        f.write(data)
    else:
        raise TypeError(f"f must be a path or a file-like object, not {type(f).__name__}")


def check_options(
    dynamo: bool, operator_export_type, export_modules_as_functions, custom_translation_table
) -> None:
    """Warn that ``dynamo=False`` is the legacy path (as PyTorch does) and refuse the
    options of :func:`torch.onnx.export` that this exporter does not build."""
    from . import OperatorExportTypes

    if not dynamo:
        warnings.warn(_LEGACY_WARNING, DeprecationWarning, stacklevel=3)
    if operator_export_type not in (None, OperatorExportTypes.ONNX):
        raise NotImplementedError(
            f"operator_export_type={operator_export_type} is not supported by this exporter: "
            "only OperatorExportTypes.ONNX (standard ONNX operators) is"
        )
    if export_modules_as_functions:
        raise NotImplementedError(
            "export_modules_as_functions is not supported by this exporter: modules are "
            "inlined into one graph"
        )
    if custom_translation_table:
        raise NotImplementedError(
            "custom_translation_table belongs to the torch.export-based exporter; use "
            "torch.onnx.register_custom_op_symbolic"
        )


def deliver(proto, f, *, verbose, dynamo: bool):
    """What :func:`torch.onnx.export` does with the built ``proto``: print it when
    ``verbose``, write it to ``f``, return it as an ``ONNXProgram`` (or None)."""
    from . import ONNXProgram

    if verbose:
        import onnx

        print(onnx.helper.printable_graph(proto.graph))
    if f is not None:
        _write(proto, f)
    if dynamo or f is None:
        return ONNXProgram(proto)
    return None
