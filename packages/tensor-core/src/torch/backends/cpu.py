"""torch.backends.cpu: what the processor offers the CPU kernels."""

from __future__ import annotations

__all__ = ["get_cpu_capability"]


def get_cpu_capability() -> str:
    """The widest vector instruction set the CPU kernels can use, as PyTorch names it:
    ``"AVX512"``, ``"AVX2"`` or ``"DEFAULT"`` on x86 (``"SVE256"``/``"DEFAULT"`` on ARM),
    read from NumPy's detection of the processor's features.

    Examples::

        >>> torch.backends.cpu.get_cpu_capability() in ("AVX512", "AVX2", "SVE256", "DEFAULT")
        True
    """
    features = _cpu_features()
    if all(features.get(f) for f in ("AVX512F", "AVX512BW", "AVX512VL", "AVX512DQ")):
        return "AVX512"
    if features.get("AVX2") and features.get("FMA3"):
        return "AVX2"
    if features.get("SVE"):
        return "SVE256"
    return "DEFAULT"


def _cpu_features() -> dict:
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:  # NumPy 1.x
        from numpy.core._multiarray_umath import __cpu_features__
    return __cpu_features__
