"""torch.backends switches: they read back what was set, ``flags()`` restores them, bad
values fail as in PyTorch, and the module is reachable both ways (``torch.backends.cudnn``
after ``import torch``, and ``import torch.backends.cudnn as cudnn``)."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

import torch


@pytest.fixture
def restore_switches():
    """Put back the switches a test changes (they are process-wide)."""
    cudnn, matmul = torch.backends.cudnn, torch.backends.cuda.matmul
    saved = (cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32)
    yield
    cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32 = saved
    matmul.fp32_precision = "none"
    torch.backends.fp32_precision = "none"


def test_attribute_after_import_torch_and_import_as():
    code = (
        "import torch\n"
        "assert torch.backends.cudnn.enabled is True\n"
        "import torch.backends.cudnn as cudnn\n"
        "cudnn.benchmark = True\n"
        "assert torch.backends.cudnn.benchmark is True\n"
        "import sys; assert sys.modules['torch.backends.cudnn'] is cudnn\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_import_torch_does_not_import_backends_or_cuda():
    code = (
        "import sys, torch\n"
        "loaded = [m for m in sys.modules if m.startswith(('torch.backends', 'torch.cuda'))]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_cudnn_switches_read_back(restore_switches):
    cudnn = torch.backends.cudnn
    cudnn.benchmark = True
    cudnn.deterministic = True
    assert (cudnn.benchmark, cudnn.deterministic) == (True, True)
    with pytest.raises(RuntimeError, match="set_benchmark_cudnn expects a bool, but got int"):
        cudnn.benchmark = 1


def test_cudnn_flags_set_and_restore(restore_switches):
    cudnn = torch.backends.cudnn
    with cudnn.flags(enabled=False, benchmark=True, deterministic=True):
        assert (cudnn.enabled, cudnn.benchmark, cudnn.deterministic) == (False, True, True)
    assert (cudnn.enabled, cudnn.benchmark, cudnn.deterministic) == (True, False, False)


def test_cudnn_allow_tf32_is_a_view_of_fp32_precision(restore_switches):
    cudnn = torch.backends.cudnn
    cudnn.allow_tf32 = False
    assert cudnn.conv.fp32_precision == "none" and cudnn.rnn.fp32_precision == "none"
    cudnn.allow_tf32 = True
    cudnn.conv.fp32_precision = "ieee"  # conv and RNN now disagree
    with pytest.raises(RuntimeError, match="different TF32"):
        cudnn.allow_tf32  # noqa: B018
    cudnn.conv.fp32_precision = "tf32"


def test_matmul_switches(restore_switches):
    matmul = torch.backends.cuda.matmul
    matmul.allow_tf32 = True
    assert matmul.allow_tf32 and matmul.fp32_precision == "tf32"
    matmul.allow_tf32 = False
    assert matmul.fp32_precision == "ieee"
    matmul.allow_bf16_reduced_precision_reduction = (False, False)
    assert matmul.allow_bf16_reduced_precision_reduction is False
    assert matmul.allow_bf16_reduced_precision_reduction_split_k is False
    matmul.allow_bf16_reduced_precision_reduction = True
    with pytest.raises(AttributeError, match="Unknown attribute nonexistent"):
        matmul.nonexistent = 1
    with pytest.raises(RuntimeError, match="backend 'cuda' does not support precision 'bf16'"):
        matmul.fp32_precision = "bf16"


def test_generic_precision_reaches_the_backends(restore_switches):
    torch.backends.fp32_precision = "ieee"
    assert torch.backends.cudnn.fp32_precision == "ieee"
    assert torch.backends.mkldnn.matmul.fp32_precision == "ieee"
    assert torch.backends.cudnn.conv.fp32_precision == "tf32"  # set on its own: kept
    with torch.backends.flags(fp32_precision="tf32"):
        assert torch.backends.mkldnn.fp32_precision == "tf32"
    assert torch.backends.fp32_precision == "ieee"


def test_sdp_toggles_and_deprecated_sdp_kernel():
    cuda = torch.backends.cuda
    with pytest.warns(FutureWarning, match="sdp_kernel"):
        context = cuda.sdp_kernel(enable_flash=False, enable_math=False)
    with context:
        assert not cuda.flash_sdp_enabled() and not cuda.math_sdp_enabled()
        assert cuda.mem_efficient_sdp_enabled()
    assert cuda.flash_sdp_enabled() and cuda.math_sdp_enabled()


def test_build_facts_tell_the_truth():
    from torch import _native

    assert torch.backends.openmp.is_available() is False
    assert torch.backends.mkldnn.is_available() is False
    uses_mkl = _native.ENABLED and _native._mkl_library_path() is not None
    assert torch.backends.mkl.is_available() is (
        uses_mkl and _native.blas_library_path() is not None
    )
    assert torch.backends.cpu.get_cpu_capability() in ("AVX512", "AVX2", "SVE256", "DEFAULT")
    assert torch.backends.quantized.supported_engines == ["none"]
    with pytest.raises(RuntimeError, match="quantized engine FBGEMM is not supported"):
        torch.backends.quantized.engine = "fbgemm"


def test_opt_einsum_follows_the_package():
    import importlib.util

    installed = importlib.util.find_spec("opt_einsum") is not None
    assert torch.backends.opt_einsum.is_available() is installed
    assert torch.backends.opt_einsum.enabled is installed
    if not installed:
        with pytest.raises(ValueError, match="opt_einsum is not available"):
            torch.backends.opt_einsum.set_flags(True)


def test_mkldnn_allow_tf32_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.backends.mkldnn.allow_tf32 = True
    assert "Intel GPU" in str(caught[0].message)


def test_disable_global_flags_freezes_assignment():
    code = (
        "import torch\n"
        "torch.backends.disable_global_flags()\n"
        "with torch.backends.cudnn.flags(enabled=False):\n"
        "    assert torch.backends.cudnn.enabled is False\n"
        "try:\n"
        "    torch.backends.cudnn.benchmark = True\n"
        "except RuntimeError as e:\n"
        "    assert 'after disable_global_flags' in str(e)\n"
        "else:\n"
        "    raise SystemExit('not frozen')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
