"""The exceptions and warnings of torch.onnx."""

from __future__ import annotations

__all__ = [
    "OnnxExporterError",
    "OnnxExporterWarning",
    "SymbolicValueError",
    "UnsupportedOperatorError",
]


class OnnxExporterError(RuntimeError):
    """An export failed."""


OnnxExporterError.__module__ = "torch.onnx"


class OnnxExporterWarning(UserWarning):
    """Something an export did that the user may not expect."""


class UnsupportedOperatorError(OnnxExporterError):
    """The graph holds an op the exporter has no ONNX translation for (at the requested
    opset)."""

    def __init__(self, name: str, version: int, supported_version: int | None = None) -> None:
        if supported_version is not None:
            message = (
                f"Exporting the operator '{name}' to ONNX opset version {version} is not "
                f"supported. Support for this operator was added in version "
                f"{supported_version}, try exporting with this version."
            )
        else:
            message = (
                f"Exporting the operator '{name}' to ONNX opset version {version} is not supported"
            )
        super().__init__(message)


class SymbolicValueError(OnnxExporterError):
    """A value of the graph cannot be translated (its type or shape is unknown)."""

    def __init__(self, msg: str, value=None) -> None:
        if value is not None:
            msg = f"{msg}  [Caused by the value '{value}']"
        super().__init__(msg)
