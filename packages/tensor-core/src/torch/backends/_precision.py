"""The float32 precision settings behind ``torch.backends.*.fp32_precision`` and the
``allow_tf32`` switches.

PyTorch keeps one precision per (backend, operator): ``generic``/``all`` at the top,
``cuda`` and ``mkldnn`` each with ``all``, ``matmul``, ``conv`` and ``rnn``. Setting an
``all`` entry passes the value down to the entries below it that were not set on their
own; setting an entry to ``"none"`` makes it follow its parent again. The legacy
``allow_tf32`` switches are views of the same entries.
"""

from __future__ import annotations

__all__ = [
    "get",
    "set",
    "cublas_allow_tf32",
    "set_cublas_allow_tf32",
    "cudnn_allow_tf32",
    "set_cudnn_allow_tf32",
    "check_bool",
]

_KNOWN = ("ieee", "tf32", "bf16", "none")
_SUPPORTED = {
    "generic": frozenset(_KNOWN),
    "cuda": frozenset(("ieee", "tf32", "none")),
    "mkldnn": frozenset(_KNOWN),
}
_OPERATORS = ("matmul", "conv", "rnn")

_values: dict[tuple[str, str], str] = {("generic", "all"): "none"}
for _backend in ("cuda", "mkldnn"):
    _values[(_backend, "all")] = "none"
    for _op in _OPERATORS:
        _values[(_backend, _op)] = "none"
# cuDNN convolutions and RNNs default to TF32, as PyTorch's do
_values[("cuda", "conv")] = _values[("cuda", "rnn")] = "tf32"
_explicit = {("cuda", "conv"), ("cuda", "rnn")}

_MIXED_CUDNN = (
    "PyTorch is checking whether allow_tf32 is enabled for cuDNN without a specific operator "
    "name,but the current flag(s) indicate that cuDNN conv and cuDNN RNN have different TF32 "
    "flags.This combination indicates that you have used a mix of the legacy and new APIs to "
    "set the TF32 flags. We suggest only using the new API to set the TF32 flag(s). See also: "
    "https://pytorch.org/docs/main/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices"
)


def check_bool(setter: str, value) -> None:
    """PyTorch's switches take a real bool only (not 0/1)."""
    if not isinstance(value, bool):
        raise RuntimeError(f"{setter} expects a bool, but got {type(value).__name__}")


def get(backend: str, op: str) -> str:
    """The precision of ``op`` on ``backend``."""
    return _values[(backend, op)]


def _children(backend: str, op: str):
    if op != "all":
        return []
    if backend == "generic":
        return [("cuda", "all"), ("mkldnn", "all")]
    return [(backend, o) for o in _OPERATORS]


def _assign(key: tuple[str, str], precision: str) -> None:
    _values[key] = precision
    for child in _children(*key):
        if child not in _explicit and precision in _SUPPORTED[child[0]]:
            _assign(child, precision)


def set(backend: str, op: str, precision) -> str:  # noqa: A001 - mirrors the C setter's name
    """Set the precision of ``op`` on ``backend`` (checked as PyTorch checks it)."""
    if not isinstance(precision, str):
        raise TypeError(
            "_set_fp32_precision_setter(): incompatible function arguments. The following "
            "argument types are supported:\n    1. (arg0: str, arg1: str, arg2: str) -> str\n\n"
            f"Invoked with: {backend!r}, {op!r}, {precision!r}"
        )
    if precision not in _KNOWN:
        raise RuntimeError(f"Unknown precision: {precision}")
    if precision not in _SUPPORTED[backend]:
        raise RuntimeError(f"backend '{backend}' does not support precision '{precision}'")
    if op != "all":
        # "none" hands the entry back to its parent
        (_explicit.add if precision != "none" else _explicit.discard)((backend, op))
    _assign((backend, op), precision)
    return precision


def cublas_allow_tf32() -> bool:
    return _values[("cuda", "matmul")] == "tf32"


def set_cublas_allow_tf32(value) -> None:
    check_bool("set_allow_tf32_cublas", value)
    set("cuda", "matmul", "tf32" if value else "ieee")


def cudnn_allow_tf32() -> bool:
    conv, rnn = _values[("cuda", "conv")], _values[("cuda", "rnn")]
    if (conv == "tf32") != (rnn == "tf32"):
        raise RuntimeError(_MIXED_CUDNN)
    return conv == "tf32"


def set_cudnn_allow_tf32(value) -> None:
    check_bool("set_allow_tf32_cublas", value)  # PyTorch's message names cuBLAS here too
    for op in ("conv", "rnn"):
        set("cuda", op, "tf32" if value else "none")
