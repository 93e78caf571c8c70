"""``torch.jit.save`` / ``torch.jit.load``: a compiled program as a zip archive.

The archive (see ``docs/packages/jit.md``) holds, under the folder ``archive/``:

- ``version``: the format version (``1``);
- ``model.json``: the module tree (type name, training flag, plain attributes, the names
  of parameters and buffers, submodules) and per method its graph: values, nodes (kind,
  target, inputs, outputs with types, attributes, sub-blocks), inputs and outputs;
- ``tensors.pt``: every tensor (parameters, buffers, tensor constants of the graphs),
  written by ``torch.save`` and read back with ``weights_only=True``;
- ``code/<path>.py``: the readable code of each method, for people (loading ignores it);
- ``python_modules/<path>.pt``: ``torch.nn`` library modules that a scripted module keeps
  as Python (outside the script subset, such as ``nn.LSTM``), pickled by class path;
- ``extra/<name>``: the ``_extra_files``.

Loading needs no Python class of the saved model: it rebuilds a
``RecursiveScriptModule`` tree whose methods run the stored graphs.
"""

from __future__ import annotations

import io
import json
import math
import os
import zipfile
from typing import Any

import torch

from . import _ir
from ._program import RecursiveScriptModule, ScriptFunction, ScriptModule

__all__ = ["save", "load", "FORMAT_VERSION"]

FORMAT_VERSION = 1
_ROOT = "archive"


# ---------------------------------------------------------------------- encoding


class _Encoder:
    """Turns graphs and values into JSON-able data, collecting tensors by key."""

    def __init__(self) -> None:
        self.tensors: dict[str, torch.Tensor] = {}
        self._tensor_keys: dict[int, str] = {}
        #: torch.nn library modules kept as Python in a scripted tree: path -> pickled bytes
        self.python_modules: dict[str, bytes] = {}

    def tensor(self, tensor: torch.Tensor, key: str | None = None) -> str:
        found = self._tensor_keys.get(id(tensor))
        if found is not None:
            return found
        key = key or f"constants/{len(self.tensors)}"
        self.tensors[key] = tensor.detach()
        self._tensor_keys[id(tensor)] = key
        return key

    def value(self, value: Any) -> Any:
        if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else {"float": repr(value)}
        if isinstance(value, torch.Tensor):
            return {"tensor": self.tensor(value)}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, tuple):
            return {"tuple": [self.value(v) for v in value]}
        if isinstance(value, dict):
            return {"dict": [[self.value(k), self.value(v)] for k, v in value.items()]}
        if isinstance(value, torch.dtype):
            return {"dtype": str(value).rpartition(".")[2]}
        if isinstance(value, torch.device):
            return {"device": str(value)}
        if isinstance(value, slice):
            return {"slice": [self.value(value.start), self.value(value.stop),
                              self.value(value.step)]}  # fmt: skip
        if value is Ellipsis:
            return {"ellipsis": True}
        if isinstance(value, _ir.Graph):
            return {"graph": self.graph(value)}
        name = _torch_singleton_name(value)
        if name is not None:
            return {"torch": name}
        if isinstance(value, type):  # isinstance checks of scripted code
            return {"pytype": [value.__module__, value.__qualname__]}
        raise RuntimeError(
            f"torch.jit.save cannot store a constant of type {type(value).__name__} ({value!r})"
        )

    def type(self, type_: _ir.Type) -> Any:
        if isinstance(type_, _ir.TensorType):
            return {
                "tensor": [
                    None if type_.dtype is None else str(type_.dtype).rpartition(".")[2],
                    None if type_.sizes is None else list(type_.sizes),
                    None if type_.strides is None else list(type_.strides),
                    None if type_.device is None else str(type_.device),
                    type_.requires_grad,
                ]
            }
        if isinstance(type_, _ir.ListType):
            return {"list": self.type(type_.element)}
        if isinstance(type_, _ir.TupleType):
            return {"tuple": [self.type(e) for e in type_.elements]}
        if isinstance(type_, _ir.DictType):
            return {"dict": [self.type(type_.key), self.type(type_.value)]}
        if isinstance(type_, _ir.OptionalType):
            return {"optional": self.type(type_.element)}
        if isinstance(type_, _ir.ClassType):
            return {"class": type_.name}
        return type_.name

    def graph(self, graph: _ir.Graph) -> dict:
        ids: dict[int, int] = {}

        def define(value: _ir.Value) -> list:
            ids[id(value)] = len(ids)
            return [ids[id(value)], value.debug_name, self.type(value.type)]

        def block(b: _ir.Block) -> dict:
            params = [define(v) for v in b.inputs]
            nodes = [node(n) for n in b.nodes]
            return {"inputs": params, "nodes": nodes, "outputs": [ids[id(v)] for v in b.outputs]}

        def node(n: _ir.Node) -> dict:
            if n.kind == "prim::PythonOp":
                fn = n.attrs.get("fn")
                raise RuntimeError(
                    f"Could not export Python function call '{getattr(fn, '__name__', fn)}'. "
                    "Remove calls to Python functions before export."
                )
            data = {"kind": n.kind, "inputs": [ids[id(v)] for v in n.inputs]}
            if n.target is not None:
                data["target"] = n.target
            attrs = {k: v for k, v in n.attrs.items() if k not in ("kernel", "function")}
            if attrs:
                data["attrs"] = {k: self.value(v) for k, v in attrs.items()}
            if "kernel" in n.attrs:
                data["kernel"] = _kernel_spec(n.attrs["kernel"])
            if "function" in n.attrs:
                function = n.attrs["function"]
                data["function"] = {"name": function.name, "graph": self.graph(function.graph)}
            if n.blocks:
                data["blocks"] = [block(b) for b in n.blocks]
            if n.source:
                data["source"] = n.source
            if n.scope:
                data["scope"] = n.scope
            data["outputs"] = [define(v) for v in n.outputs]
            return data

        data = block(graph.block)
        if graph.defaults:
            data["defaults"] = {k: self.value(v) for k, v in graph.defaults.items()}
        return data

    def module(self, module: ScriptModule, path: str) -> dict:
        prefix = f"{path}." if path else ""
        parameters = {}
        for name, param in module._parameters.items():
            if param is not None:
                key = self.tensor(param, f"parameters/{prefix}{name}")
                parameters[name] = [key, param.requires_grad]
        buffers = {}
        non_persistent = getattr(module, "_non_persistent_buffers_set", set())
        for name, buffer in module._buffers.items():
            if buffer is not None:
                buffers[name] = [self.tensor(buffer, f"buffers/{prefix}{name}"),
                                 name not in non_persistent]  # fmt: skip
        attributes = {}
        for name, value in vars(module).items():
            if name.startswith("_") or name in ("training", "original_name"):
                continue
            try:
                attributes[name] = self.value(value)
            except RuntimeError:
                continue  # not representable: not part of the program
        submodules = {}
        for name, child in module._modules.items():
            if isinstance(child, ScriptModule):
                submodules[name] = self.module(child, prefix + name)
            elif type(child).__module__.startswith("torch.nn."):
                # a library module outside the script subset: stored by class path, so
                # loading needs torch-nn only
                data = io.BytesIO()
                torch.save(child, data)
                self.python_modules[prefix + name] = data.getvalue()
                submodules[name] = {"python_module": prefix + name}
            else:
                raise RuntimeError(
                    f"torch.jit.save: submodule '{prefix}{name}' is a {type(child).__name__}, "
                    "not a ScriptModule"
                )
        return {
            "type": module._type_name,
            "original_name": module.original_name,
            "training": module.training,
            "parameters": parameters,
            "buffers": buffers,
            "attributes": attributes,
            "submodules": submodules,
            "methods": {name: self.graph(c.graph) for name, c in module._methods.items()},
        }


def _torch_singleton_name(value: Any) -> str | None:
    """The name of a ``torch.<name>`` singleton (``torch.contiguous_format``, ...)."""
    for name in ("contiguous_format", "channels_last", "preserve_format", "strided"):
        if getattr(torch, name, None) is value:
            return name
    return None


def _kernel_spec(kernel) -> dict:
    from ._kernels import PoolKernel

    if isinstance(kernel, PoolKernel):
        return {"pool": [list(kernel.kernel), list(kernel.stride)]}
    return {"elementwise": True}


# ---------------------------------------------------------------------- save


def _as_module(m) -> ScriptModule:
    if isinstance(m, ScriptModule):
        return m
    if isinstance(m, ScriptFunction):  # stored as a module whose forward is the function
        wrapper = RecursiveScriptModule()
        object.__setattr__(wrapper, "_type_name", m.qualified_name)
        object.__setattr__(wrapper, "original_name", m.name)
        graph = m.graph.copy()
        self_value = _ir.Value(graph, _ir.ClassType(m.qualified_name))
        self_value.set_debug_name("self")
        graph.block.inputs.insert(0, self_value)
        wrapper._define_method("forward", graph)
        return wrapper
    raise AttributeError(f"'{type(m).__name__}' object has no attribute 'save_to_buffer'")


def save(m, f, _extra_files=None) -> None:
    """Write script module (or function) ``m`` to ``f`` (a path or a writable binary file)
    as an archive that :func:`load` reads without the model's Python code.

    Args:
        m (ScriptModule or ScriptFunction): what to save.
        f: a file name or a file object.
        _extra_files (dict): file name -> contents (str or bytes) stored beside it.

    Examples::

        >>> import io
        >>> traced = torch.jit.trace(torch.nn.Linear(2, 1), torch.ones(1, 2))
        >>> buffer = io.BytesIO()
        >>> torch.jit.save(traced, buffer)
        >>> _ = buffer.seek(0)
        >>> loaded = torch.jit.load(buffer)
        >>> torch.equal(loaded(torch.ones(1, 2)), traced(torch.ones(1, 2)))
        True
    """
    from ._state import warn_deprecated

    warn_deprecated("save", "`torch.export`")
    module = _as_module(m)
    encoder = _Encoder()
    tree = encoder.module(module, "")
    tensors = io.BytesIO()
    torch.save(encoder.tensors, tensors)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as file:
            _write(file, tree, tensors.getvalue(), module, _extra_files, encoder.python_modules)
    else:
        _write(f, tree, tensors.getvalue(), module, _extra_files, encoder.python_modules)


def _write(file, tree, tensors: bytes, module, extra_files, python_modules) -> None:
    with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr(f"{_ROOT}/version", f"{FORMAT_VERSION}\n")
        archive.writestr(f"{_ROOT}/model.json", json.dumps(tree))
        archive.writestr(f"{_ROOT}/tensors.pt", tensors)
        for path, data in python_modules.items():
            archive.writestr(f"{_ROOT}/python_modules/{path}.pt", data)
        for path, child in _named_script_modules(module):
            for name, compiled in child._methods.items():
                where = (path.replace(".", "/") + "/") if path else ""
                archive.writestr(f"{_ROOT}/code/{where}{name}.py", compiled.code())
        for name, content in (extra_files or {}).items():
            data = content.encode() if isinstance(content, str) else bytes(content)
            archive.writestr(f"{_ROOT}/extra/{name}", data)


def _named_script_modules(module: ScriptModule):
    yield "", module
    for name, child in module.named_modules():
        if name and isinstance(child, ScriptModule):
            yield name, child


# ---------------------------------------------------------------------- load


class _Decoder:
    def __init__(self, tensors: dict[str, torch.Tensor], python_modules=None) -> None:
        self.tensors = tensors
        self.python_modules = python_modules or {}

    def value(self, data: Any) -> Any:
        if isinstance(data, list):
            return [self.value(v) for v in data]
        if not isinstance(data, dict):
            return data
        ((tag, payload),) = data.items()
        if tag == "float":
            return float(payload)
        if tag == "tensor":
            return self.tensors[payload]
        if tag == "tuple":
            return tuple(self.value(v) for v in payload)
        if tag == "dict":
            return {self.value(k): self.value(v) for k, v in payload}
        if tag == "dtype":
            return getattr(torch, payload)
        if tag == "device":
            return torch.device(payload)
        if tag == "slice":
            return slice(*(self.value(v) for v in payload))
        if tag == "ellipsis":
            return Ellipsis
        if tag == "graph":
            return self.graph(payload)
        if tag == "torch":
            return getattr(torch, payload)
        if tag == "pytype":
            import importlib

            found = importlib.import_module(payload[0])
            for part in payload[1].split("."):
                found = getattr(found, part)
            return found
        raise RuntimeError(f"torch.jit.load: unknown value tag '{tag}' in the archive")

    def type(self, data: Any) -> _ir.Type:
        if isinstance(data, str):
            return _SCALAR_TYPES.get(data) or _ir.ScalarType(data)
        ((tag, payload),) = data.items()
        if tag == "tensor":
            dtype, sizes, strides, device, requires_grad = payload
            return _ir.TensorType(
                None if dtype is None else getattr(torch, dtype),
                sizes,
                strides,
                None if device is None else torch.device(device),
                requires_grad,
            )
        if tag == "list":
            return _ir.ListType(self.type(payload))
        if tag == "tuple":
            return _ir.TupleType(self.type(e) for e in payload)
        if tag == "dict":
            return _ir.DictType(self.type(payload[0]), self.type(payload[1]))
        if tag == "optional":
            return _ir.OptionalType(self.type(payload))
        if tag == "class":
            return _ir.ClassType(payload)
        raise RuntimeError(f"torch.jit.load: unknown type tag '{tag}' in the archive")

    def graph(self, data: dict) -> _ir.Graph:
        graph = _ir.Graph()
        values: dict[int, _ir.Value] = {}

        def define(value: _ir.Value, spec: list) -> None:
            number, name, _ = spec
            if name is not None:
                value.debug_name = name
                graph._names.setdefault(name, 0)
            values[number] = value

        def fill(block: _ir.Block, spec: dict) -> None:
            for param in spec["inputs"]:
                define(block.add_input(self.type(param[2])), param)
            for node_spec in spec["nodes"]:
                node = block.append(
                    node_spec["kind"],
                    [values[i] for i in node_spec["inputs"]],
                    {k: self.value(v) for k, v in node_spec.get("attrs", {}).items()},
                )
                node.target = node_spec.get("target")
                node.source = node_spec.get("source")
                node.scope = node_spec.get("scope")
                if "kwnames" in node.attrs:
                    node.attrs["kwnames"] = tuple(node.attrs["kwnames"])
                for sub in node_spec.get("blocks", ()):
                    fill(node.add_block(), sub)
                for out in node_spec["outputs"]:
                    define(node.add_output(self.type(out[2])), out)
                if "function" in node_spec:
                    function = node_spec["function"]
                    node.attrs["function"] = ScriptFunction(
                        self.graph(function["graph"]), function["name"]
                    )
                if "kernel" in node_spec:
                    node.attrs["kernel"] = _rebuild_kernel(node, node_spec["kernel"])
            block.outputs = [values[i] for i in spec["outputs"]]

        fill(graph.block, data)
        graph.defaults = {k: self.value(v) for k, v in data.get("defaults", {}).items()}
        return graph

    def module(self, data: dict) -> RecursiveScriptModule:
        module = RecursiveScriptModule()
        object.__setattr__(module, "_type_name", data["type"])
        object.__setattr__(module, "original_name", data["original_name"])
        for name, (key, requires_grad) in data["parameters"].items():
            # as in PyTorch, a loaded module's parameters are tensors that require grad
            module._parameters[name] = self.tensors[key].requires_grad_(requires_grad)
        for name, (key, persistent) in data["buffers"].items():
            module.register_buffer(name, self.tensors[key], persistent=persistent)
        for name, child in data["submodules"].items():
            if "python_module" in child:
                module._modules[name] = self.python_modules[child["python_module"]]
            else:
                module._modules[name] = self.module(child)
        for name, value in data["attributes"].items():
            object.__setattr__(module, name, self.value(value))
        for name, graph in data["methods"].items():
            module._define_method(name, self.graph(graph))
        object.__setattr__(module, "training", data["training"])
        return module


_SCALAR_TYPES = {
    t.name: t for t in (_ir.INT, _ir.FLOAT, _ir.BOOL, _ir.STR, _ir.NONE, _ir.DEVICE, _ir.ANY)
}


def _rebuild_kernel(node: _ir.Node, spec: dict):
    from ._kernels import FusedKernel, PoolKernel

    subgraph = node.attrs["subgraph"]
    if "pool" in spec:
        kernel, stride = spec["pool"]
        return PoolKernel(subgraph, tuple(kernel), tuple(stride))
    return FusedKernel(subgraph)


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    """Read a program written by :func:`save`; returns a ``RecursiveScriptModule``.

    Args:
        f: a file name or a readable binary file.
        map_location: where to put the tensors (as for ``torch.load``). Default: where
            they were saved.
        _extra_files (dict): names to read from the archive's extra files; their
            contents (bytes) are filled in.
    """
    from ._state import warn_deprecated

    warn_deprecated("load", "`torch.export`")
    if isinstance(f, (str, os.PathLike)):
        if not os.path.exists(f):
            raise ValueError(f"The provided filename {f} does not exist")
        if os.path.isdir(f):
            raise ValueError(f"The provided filename {f} is a directory")
    try:
        archive = zipfile.ZipFile(f)
    except zipfile.BadZipFile:
        raise RuntimeError(
            "PytorchStreamReader failed reading zip archive: not a ZIP archive"
        ) from None
    with archive:
        names = set(archive.namelist())
        if f"{_ROOT}/model.json" not in names:
            raise RuntimeError(
                "torch.jit.load: this archive was not written by this project's torch.jit.save "
                "(no archive/model.json)"
            )
        version = int(archive.read(f"{_ROOT}/version").decode().strip())
        if version > FORMAT_VERSION:
            raise RuntimeError(
                f"torch.jit.load: archive format version {version} is newer than this "
                f"torch-jit reads ({FORMAT_VERSION}); upgrade torch-jit"
            )
        tree = json.loads(archive.read(f"{_ROOT}/model.json"))
        tensors = torch.load(
            io.BytesIO(archive.read(f"{_ROOT}/tensors.pt")),
            map_location=map_location,
            weights_only=True,
        )
        if _extra_files is not None:
            for name in list(_extra_files):
                _extra_files[name] = archive.read(f"{_ROOT}/extra/{name}")
        python_modules = {}
        prefix = f"{_ROOT}/python_modules/"
        for name in names:
            if name.startswith(prefix):
                # torch.nn library modules (saved by torch.jit.save itself)
                python_modules[name[len(prefix) : -3]] = torch.load(
                    io.BytesIO(archive.read(name)), map_location=map_location, weights_only=False
                )
    return _Decoder(tensors, python_modules).module(tree)
