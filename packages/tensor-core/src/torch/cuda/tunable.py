"""torch.cuda.tunable: TunableOp, PyTorch's run-time choice among GEMM implementations.

This project's CUDA matrix products go to cuBLAS through the runtime and are not tuned.
Without CUDA every call fails as in PyTorch's CPU build; with a runtime the settings are
kept and read back, there are no results, and offline tuning raises
``NotImplementedError``.
"""

from __future__ import annotations

from . import _state

__all__ = [
    "enable",
    "is_enabled",
    "tuning_enable",
    "tuning_is_enabled",
    "record_untuned_enable",
    "record_untuned_is_enabled",
    "set_max_tuning_duration",
    "get_max_tuning_duration",
    "set_max_tuning_iterations",
    "get_max_tuning_iterations",
    "set_filename",
    "get_filename",
    "get_results",
    "get_validators",
    "read_file",
    "tune_gemm_in_file",
    "mgpu_tune_gemm_in_file",
    "set_rotating_buffer_size",
    "get_rotating_buffer_size",
    "set_numerical_check_tolerances",
]

# PyTorch's defaults
_settings = {
    "enabled": False,
    "tuning": True,
    "record_untuned": False,
    "duration": 30,
    "iterations": 100,
    "filename": "tunableop_results.csv",
    "rotating_buffer_size": -1,
    "tolerances": (False, 1e-5, 1e-5),
}


def _require(binding: str) -> None:
    if _state.runtime() is None:
        raise _state.missing_binding(binding)


def _set(binding: str, key: str, value) -> None:
    _require(binding)
    _settings[key] = value


def _get(binding: str, key: str):
    _require(binding)
    return _settings[key]


def enable(val: bool = True) -> None:
    """Turn TunableOp on or off."""
    _set("_cuda_tunableop_enable", "enabled", val)


def is_enabled() -> bool:
    """Whether TunableOp is on."""
    return _get("_cuda_tunableop_is_enabled", "enabled")


def tuning_enable(val: bool = True) -> None:
    """Allow or forbid tuning new GEMM shapes."""
    _set("_cuda_tunableop_tuning_enable", "tuning", val)


def tuning_is_enabled() -> bool:
    """Whether new GEMM shapes are tuned."""
    return _get("_cuda_tunableop_tuning_is_enabled", "tuning")


def record_untuned_enable(val: bool = True) -> None:
    """Record the GEMM shapes seen, for offline tuning."""
    _set("_cuda_record_untuned_enable", "record_untuned", val)


def record_untuned_is_enabled() -> bool:
    """Whether untuned GEMM shapes are recorded."""
    return _get("_cuda_record_untuned_is_enabled", "record_untuned")


def set_max_tuning_duration(duration: int) -> None:
    """Cap the time spent tuning one GEMM, in milliseconds."""
    _set("_cuda_tunableop_set_max_tuning_duration", "duration", duration)


def get_max_tuning_duration() -> int:
    """The cap on the time spent tuning one GEMM, in milliseconds."""
    return _get("_cuda_tunableop_get_max_tuning_duration", "duration")


def set_max_tuning_iterations(iterations: int) -> None:
    """Cap the number of trial runs per GEMM."""
    _set("_cuda_tunableop_set_max_tuning_iterations", "iterations", iterations)


def get_max_tuning_iterations() -> int:
    """The cap on trial runs per GEMM."""
    return _get("_cuda_tunableop_get_max_tuning_iterations", "iterations")


def set_filename(filename: str, insert_device_ordinal: bool = False) -> None:
    """The results file (the device's ordinal is added to the name when asked)."""
    _set("_cuda_tunableop_set_filename", "filename", filename)


def get_filename() -> str:
    """The results file's name."""
    return _get("_cuda_tunableop_get_filename", "filename")


def get_results() -> tuple:
    """The tuning results so far (none: nothing is tuned here)."""
    _require("_cuda_tunableop_get_results")
    return ()


def get_validators() -> tuple:
    """The validators (library versions) recorded with results (none here)."""
    _require("_cuda_tunableop_get_validators")
    return ()


def read_file(filename: str | None = None) -> bool:
    """Load tuning results from a file; not supported."""
    _require("_cuda_tunableop_read_file")
    raise NotImplementedError("TunableOp results are not used by this project's CUDA GEMMs")


def tune_gemm_in_file(filename: str) -> None:
    """Tune the GEMMs recorded in ``filename`` offline; not supported."""
    _require("_cuda_tunableop_is_enabled")
    raise NotImplementedError("TunableOp offline tuning is not supported by this project")


def mgpu_tune_gemm_in_file(filename_pattern: str, num_gpus: int) -> None:
    """Tune recorded GEMMs offline on several GPUs; not supported."""
    _require("_cuda_tunableop_is_enabled")
    raise NotImplementedError("TunableOp offline tuning is not supported by this project")


def set_rotating_buffer_size(buffer_size: int) -> None:
    """The rotating buffer size used while tuning, in MB."""
    _set("_cuda_tunableop_set_rotating_buffer_size", "rotating_buffer_size", buffer_size)


def get_rotating_buffer_size() -> int:
    """The rotating buffer size used while tuning, in MB."""
    return _get("_cuda_tunableop_get_rotating_buffer_size", "rotating_buffer_size")


def set_numerical_check_tolerances(enable: bool, atol: float = 1e-5, rtol: float = 1e-5) -> None:
    """Check each candidate's result against the default GEMM within these tolerances."""
    _set("_cuda_tunableop_set_numerical_check_tolerances", "tolerances", (enable, atol, rtol))
