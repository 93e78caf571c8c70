"""torch.onnx: export models to the ONNX format (through the ``onnx`` package, imported
only when exporting: ``pip install "torch-jit[onnx]"``).

The exporter traces the model on ``args`` into the graph IR of :mod:`torch.jit` and
translates each op with a symbolic function (``torch.onnx.register_custom_op_symbolic``
adds or replaces one) into ONNX operators, opsets 13 to the newest of the installed onnx.
"""

from __future__ import annotations

import abc
import enum
import os
from collections.abc import Mapping, Sequence
from typing import Any

import torch
from torch import nn

from . import errors

# public as in PyTorch, though not in its __all__
from ._registry import register_custom_op_symbolic as register_custom_op_symbolic
from ._registry import unregister_custom_op_symbolic as unregister_custom_op_symbolic
from ._state import is_in_onnx_export
from .errors import OnnxExporterError

__all__ = [
    "errors",
    "ops",
    "export",
    "is_in_onnx_export",
    "OnnxExporterError",
    "ONNXProgram",
    "ExportableModule",
    "InputObserver",
]

#: what PyTorch writes as the model's producer
producer_name = "pytorch"


class TrainingMode(enum.IntEnum):
    """The mode the model is exported in: ``EVAL`` (default; dropout is the identity,
    batch norm uses running statistics), ``PRESERVE`` (as it is), ``TRAINING``."""

    EVAL = 0
    PRESERVE = 1
    TRAINING = 2


class OperatorExportTypes(enum.IntEnum):
    """How ops are exported; this exporter writes standard ONNX operators (``ONNX``)."""

    ONNX = 0
    ONNX_ATEN = 1
    ONNX_ATEN_FALLBACK = 2
    ONNX_FALLTHROUGH = 3


def __getattr__(name: str):
    if name == "ops":  # custom ONNX ops of PyTorch's dynamo exporter: a namespace here
        import importlib

        return importlib.import_module("torch.onnx.ops")
    raise AttributeError(f"module 'torch.onnx' has no attribute '{name}'")


def export(
    model,
    args: tuple[Any, ...] = (),
    f: str | os.PathLike | None = None,
    *,
    kwargs: dict[str, Any] | None = None,
    verbose: bool | None = None,
    input_names: Sequence[str] | None = None,
    output_names: Sequence[str] | None = None,
    opset_version: int | None = None,
    dynamo: bool = True,
    external_data: bool = True,
    dynamic_shapes=None,
    custom_translation_table=None,
    report: bool = False,
    optimize: bool = True,
    verify: bool = False,
    profile: bool = False,
    dump_exported_program: bool = False,
    artifacts_dir: str | os.PathLike = ".",
    export_params: bool = True,
    keep_initializers_as_inputs: bool = False,
    dynamic_axes: Mapping[str, Mapping[int, str]] | Mapping[str, Sequence[int]] | None = None,
    training: TrainingMode = TrainingMode.EVAL,
    operator_export_type: OperatorExportTypes = OperatorExportTypes.ONNX,
    do_constant_folding: bool = True,
    custom_opsets: Mapping[str, int] | None = None,
    export_modules_as_functions: bool = False,
    autograd_inlining: bool = True,
):
    """Export ``model`` (an ``nn.Module``, a traced or scripted module, or a function) run
    on ``args`` to an ONNX model written to ``f``.

    The model is traced (:func:`torch.jit.trace`) on ``args`` (a scripted program: its
    run on ``args`` is recorded) and each op of the trace is translated into ONNX
    operators; :func:`is_in_onnx_export` is True meanwhile. Both
    ``dynamo=True`` (PyTorch's default) and ``dynamo=False`` take this path; with
    ``dynamo=False`` a DeprecationWarning says so, as PyTorch's does.

    Args:
        model: what to export.
        args (tuple): example positional inputs (a tensor stands for a 1-tuple; a trailing
            dict holds keyword arguments).
        f (str, path or file-like): where to write the model. With ``f=None`` nothing is
            written; the returned :class:`ONNXProgram` holds it.
        input_names, output_names (list of str): names of the graph inputs and outputs.
        opset_version (int): the ONNX opset, 13 up to the newest of the installed onnx.
            Default: 20.
        dynamic_axes (dict): per input/output name, the axes whose size varies (a list of
            axis numbers, or a dict axis -> symbolic name).
        dynamic_shapes: per input, ``{axis: name}``; added to ``dynamic_axes``.
        export_params (bool): store the parameters as initializers (else they are graph
            inputs). Default: ``True``.
        keep_initializers_as_inputs (bool): also list the initializers as graph inputs.
        training (TrainingMode): ``EVAL`` (default), ``PRESERVE`` or ``TRAINING``.
        do_constant_folding (bool): compute what depends only on constants and parameters
            at export time. Default: ``True``.
        custom_opsets (dict): domain -> version of the custom domains symbolic functions use.
        verbose (bool): print the exported graph.

    Returns:
        An :class:`ONNXProgram` when ``dynamo`` is True or ``f`` is None, else None.

    Raises:
        ImportError: the ``onnx`` package is missing (``pip install "torch-jit[onnx]"``).
        torch.onnx.errors.UnsupportedOperatorError: an op has no ONNX translation at the
            opset (the message names the first one).
        NotImplementedError: ``operator_export_type`` other than ONNX,
            ``export_modules_as_functions`` or a ``custom_translation_table``.

    Example::

        >>> import io
        >>> buffer = io.BytesIO()
        >>> torch.onnx.export(torch.nn.Linear(3, 2), (torch.randn(1, 3),), buffer,
        ...                   dynamo=False)  # doctest: +SKIP
    """
    from . import _export

    _export.check_options(
        dynamo, operator_export_type, export_modules_as_functions, custom_translation_table
    )
    proto = _export.export_to_proto(
        model,
        args,
        kwargs=kwargs,
        export_params=export_params,
        training=training,
        input_names=input_names,
        output_names=output_names,
        opset_version=opset_version,
        do_constant_folding=do_constant_folding,
        dynamic_axes=dynamic_axes,
        keep_initializers_as_inputs=keep_initializers_as_inputs,
        custom_opsets=custom_opsets,
        dynamic_shapes=dynamic_shapes,
    )
    return _export.deliver(proto, f, verbose=verbose, dynamo=dynamo)


class ONNXProgram:
    """An exported model: ``model_proto`` (an ``onnx.ModelProto``); :meth:`save` writes it."""

    def __init__(self, model_proto, exported_program=None) -> None:
        self.model_proto = model_proto
        self.exported_program = exported_program

    def save(self, destination: str | os.PathLike, **options) -> None:
        import onnx

        onnx.save(self.model_proto, os.fspath(destination))

    def __call__(self, *args):
        """Run the model in onnxruntime on tensor ``args``; returns tensors."""
        import onnxruntime

        session = onnxruntime.InferenceSession(
            self.model_proto.SerializeToString(), providers=["CPUExecutionProvider"]
        )
        names = [i.name for i in session.get_inputs()]
        feeds = {n: a.detach().numpy() for n, a in zip(names, args)}
        return [torch.from_numpy(o) for o in session.run(None, feeds)]


class ExportableModule(nn.Module, abc.ABC):
    """A module that knows how to export itself: it names its example arguments (and
    optionally dynamic shapes and input/output names); :meth:`to_onnx` exports it."""

    @abc.abstractmethod
    def example_arguments(self) -> tuple:
        """Example positional arguments of ``forward``."""

    def dynamic_shapes(self):
        return None

    def input_names(self) -> list[str] | None:
        return None

    def output_names(self) -> list[str] | None:
        return None

    def to_onnx(self, f=None, **options):
        return export(
            self,
            self.example_arguments(),
            f,
            input_names=self.input_names(),
            output_names=self.output_names(),
            **options,
        )


class InputObserver:
    """Observe the inputs a model is called with (``with observer(model): ...``), to
    choose export arguments and the axes that vary between calls."""

    def __init__(self, value_if_missing: dict[str | int, Any] | None = None) -> None:
        self.value_if_missing = dict(value_if_missing or {})
        self.observations: list[tuple[tuple, dict]] = []

    @property
    def num_obs(self) -> int:
        return len(self.observations)

    def __call__(self, model: nn.Module):
        import contextlib

        observer = self

        @contextlib.contextmanager
        def observing():
            original = model.forward

            def forward(*args, **kwargs):
                observer.observations.append((args, kwargs))
                return original(*args, **kwargs)

            model.forward = forward
            try:
                yield observer
            finally:
                del model.forward

        return observing()

    def infer_arguments(self) -> tuple:
        """The positional arguments of the first observed call."""
        if not self.observations:
            raise RuntimeError("InputObserver saw no call of the model")
        return self.observations[0][0]

    def infer_dynamic_shapes(self) -> dict:
        """Per positional argument, the axes whose size differed between calls
        (``{index: {axis: "dim_<axis>"}}``)."""
        dynamic: dict = {}
        for index, first in enumerate(self.infer_arguments()):
            if not isinstance(first, torch.Tensor):
                continue
            axes = {}
            for args, _ in self.observations[1:]:
                other = args[index]
                for axis, (a, b) in enumerate(zip(first.shape, other.shape)):
                    if a != b:
                        axes[axis] = f"dim_{axis}"
            if axes:
                dynamic[index] = axes
        return dynamic

    def check_discrepancies(self, *args, **kwargs):
        raise NotImplementedError(
            "InputObserver.check_discrepancies is not built in this version of torch-jit: "
            "call the exported ONNXProgram on the observed inputs and compare"
        )
