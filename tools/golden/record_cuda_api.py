"""Record how real PyTorch's CPU-only build answers the ``torch.cuda`` and ``torch.backends``
API when no CUDA device exists (run under real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_cuda_api.py

Writes packages/tensor-core/tests/golden/cuda_api.json:

- ``names``: per module, each public name with its kind (``module``, ``class``,
  ``function``, ``value``, or ``import`` for a name that is only a module-level import of
  the standard library or typing in PyTorch's source);
- ``signatures``: per public function, its parameter names;
- ``cases``: Python snippets (statements joined by "; ", the last an expression) with the
  value they give or the exception type and first message line. Most are generated: every
  public function and class called with no argument and, when its first parameter names
  a device, with device 0; the rest are common script idioms and flag round trips.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib
import sys
import types

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "tensor-core" / "tests"
sys.path.insert(0, str(TESTS))

import golden_describe  # noqa: E402

# torch.cuda.amp belongs to the autocast part; the ones below are launchers or private
MODULES = [
    "torch.cuda",
    "torch.cuda.comm",
    "torch.cuda.gds",
    "torch.cuda.graphs",
    "torch.cuda.green_contexts",
    "torch.cuda.jiterator",
    "torch.cuda.memory",
    "torch.cuda.nccl",
    "torch.cuda.nvtx",
    "torch.cuda.profiler",
    "torch.cuda.random",
    "torch.cuda.sparse",
    "torch.cuda.streams",
    "torch.cuda.tunable",
    "torch.backends",
    "torch.backends.cpu",
    "torch.backends.cuda",
    "torch.backends.cudnn",
    "torch.backends.cudnn.rnn",
    "torch.backends.cusparselt",
    "torch.backends.kleidiai",
    "torch.backends.mha",
    "torch.backends.miopen",
    "torch.backends.mkl",
    "torch.backends.mkldnn",
    "torch.backends.mps",
    "torch.backends.nnpack",
    "torch.backends.openmp",
    "torch.backends.opt_einsum",
    "torch.backends.python_native",
    "torch.backends.quantized",
    "torch.backends.xeon",
    "torch.backends.xnnpack",
    "torch.version",
]

# modules whose names are only imports when they appear in another module's namespace
_IMPORT_SOURCES = (
    "typing",
    "typing_extensions",
    "collections.abc",
    "functools",
    "contextlib",
    "inspect",
    "posixpath",
    "argparse",
    "logging",
    "__future__",
    "types",
)

# generated calls left out: they need real arguments to mean anything, or change
# process-wide state that a later case would see
_NOT_CALLED = {
    "torch.cuda.set_sync_debug_mode",
    "torch.cuda.tunable.enable",
    "torch.cuda.tunable.tuning_enable",
    "torch.cuda.tunable.record_untuned_enable",
    "torch.cuda.tunable.set_max_tuning_duration",
    "torch.cuda.tunable.set_max_tuning_iterations",
    "torch.cuda.tunable.set_filename",
    "torch.cuda.tunable.set_rotating_buffer_size",
    "torch.cuda.tunable.set_numerical_check_tolerances",
    "torch.cuda.tunable.tune_gemm_in_file",
    "torch.cuda.tunable.mgpu_tune_gemm_in_file",
    "torch.cuda.tunable.read_file",
    "torch.cuda.tunable.write_file",
    "torch.cuda.tunable.write_file_on_exit",
    "torch.backends.disable_global_flags",
    "torch.backends.mha.set_fastpath_enabled",
    "torch.backends.nnpack.set_flags",
    "torch.backends.cudnn.set_flags",
    "torch.backends.mkldnn.set_flags",
    "torch.backends.miopen.set_flags",
    "torch.backends.opt_einsum.set_flags",
    "torch.backends.set_flags",
    "torch.backends.cuda.enable_cudnn_sdp",
    "torch.backends.cuda.enable_flash_sdp",
    "torch.backends.cuda.enable_math_sdp",
    "torch.backends.cuda.enable_mem_efficient_sdp",
    "torch.backends.cuda.allow_fp16_bf16_reduction_math_sdp",
    "torch.backends.cuda.preferred_linalg_library",
    "torch.backends.cuda.preferred_blas_library",
    "torch.backends.cuda.preferred_rocm_fa_library",
    "torch.backends.xeon.run_cpu",
}

_DEVICE_PARAMETERS = ("device", "device_id", "idx", "device_index")


def real_module(name: str):
    """The module object behind ``name`` (PyTorch wraps some in a property-holding module)."""
    module = importlib.import_module(name)
    return getattr(module, "m", module) if type(module) is not types.ModuleType else module


# names PyTorch's modules import for their own use (the torch module, its Tensor, ...)
_INCIDENTAL = {"torch", "Tensor", "Storage", "classproperty", "TYPE_CHECKING"}


def kind_of(owner: str, name: str, value) -> str:
    if name in _INCIDENTAL:
        return "import"
    if isinstance(value, types.ModuleType):
        root = ".".join(owner.split(".")[:2]) + "."
        return "module" if value.__name__.startswith(root) else "import"
    source = getattr(value, "__module__", None) or ""
    if source in _IMPORT_SOURCES or source.split(".")[0] in ("typing", "collections"):
        return "import"
    if inspect.isclass(value):
        return "class"
    if callable(value):
        return "function"
    return "value"


def public_names(name: str) -> dict[str, str]:
    module = importlib.import_module(name)
    names = {
        n: kind_of(name, n, getattr(real_module(name), n))
        for n in dir(real_module(name))
        if not n.startswith("_")
    }
    # module-level properties of PyTorch's wrapped modules (cudnn.enabled, ...)
    for n, value in vars(type(module)).items():
        if not n.startswith("_") and type(module) is not types.ModuleType:
            names.setdefault(n, "property" if hasattr(value, "__get__") else "value")
    names.pop("m", None)  # the wrapped module itself
    return dict(sorted(names.items()))


def signature_of(function) -> list[str] | None:
    try:
        return [
            str(p).split(":")[0].split("=")[0]
            for p in inspect.signature(function).parameters.values()
        ]
    except (TypeError, ValueError):
        return None


def generated_cases(module_name: str, names: dict[str, str]) -> dict[str, str]:
    cases = {}
    module = real_module(module_name)
    for n, kind in names.items():
        path = f"{module_name}.{n}"
        if kind in ("value", "property"):
            cases[path] = path
        if kind not in ("function", "class") or path in _NOT_CALLED:
            continue
        if kind == "class" and n.endswith(("Storage", "Tensor", "Error")):
            continue  # the legacy types and errors get their own cases
        cases[f"{path}()"] = f"{path}()"
        parameters = signature_of(getattr(module, n)) or []
        if parameters and parameters[0] in _DEVICE_PARAMETERS:
            cases[f"{path}(0)"] = f"{path}(0)"
    return cases


# the idioms of CPU scripts, flag round trips and the legacy types
HAND_CASES = {
    "device idiom": "torch.device('cuda' if torch.cuda.is_available() else 'cpu')",
    "cudnn benchmark idiom": (
        "import torch.backends.cudnn as cudnn; old = cudnn.benchmark; "
        "cudnn.benchmark = True; got = cudnn.benchmark; cudnn.benchmark = old; got"
    ),
    "cudnn deterministic": (
        "old = torch.backends.cudnn.deterministic; torch.backends.cudnn.deterministic = True; "
        "got = torch.backends.cudnn.deterministic; torch.backends.cudnn.deterministic = old; got"
    ),
    "cudnn enabled default": "torch.backends.cudnn.enabled",
    "cudnn flags inside": (
        "cm = torch.backends.cudnn.flags(enabled=False, benchmark=True); cm.__enter__(); "
        "got = (torch.backends.cudnn.enabled, torch.backends.cudnn.benchmark, "
        "torch.backends.cudnn.deterministic, torch.backends.cudnn.allow_tf32); "
        "cm.__exit__(None, None, None); got"
    ),
    "cudnn flags restored": (
        "cm = torch.backends.cudnn.flags(enabled=False, deterministic=True); cm.__enter__(); "
        "cm.__exit__(None, None, None); (torch.backends.cudnn.enabled, "
        "torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)"
    ),
    "cudnn set_flags returns old": (
        "old = torch.backends.cudnn.set_flags(False, True); "
        "torch.backends.cudnn.set_flags(*old); old"
    ),
    "cudnn fp32_precision": "torch.backends.cudnn.fp32_precision",
    "cudnn tensor dtypes": "sorted(map(str, torch.backends.cudnn.CUDNN_TENSOR_DTYPES))",
    "cudnn conv fp32_precision": "torch.backends.cudnn.conv.fp32_precision",
    "cudnn rnn fp32_precision": "torch.backends.cudnn.rnn.fp32_precision",
    "cudnn benchmark_limit": "torch.backends.cudnn.benchmark_limit",
    "cudnn depthwise_kernel": "torch.backends.cudnn.depthwise_kernel",
    "cudnn allow_tf32 round trip": (
        "c = torch.backends.cudnn; old = c.allow_tf32; c.allow_tf32 = False; "
        "got = (c.allow_tf32, c.fp32_precision, c.conv.fp32_precision); c.allow_tf32 = old; "
        "got + (c.allow_tf32, c.fp32_precision)"
    ),
    "cudnn bad bool": "torch.backends.cudnn.enabled = 0; None",
    "cudnn bad benchmark": "torch.backends.cudnn.benchmark = 1; None",
    "cudnn bad deterministic": "torch.backends.cudnn.deterministic = 1; None",
    "cudnn bad allow_tf32": "torch.backends.cudnn.allow_tf32 = 1; None",
    "cudnn depthwise bad": "torch.backends.cudnn.depthwise_kernel = 'fast'; None",
    "cudnn conv bf16": "torch.backends.cudnn.conv.fp32_precision = 'bf16'; None",
    "cudnn conv unknown": "torch.backends.cudnn.conv.speed",
    "cudnn rnn mode": "torch.backends.cudnn.rnn.get_cudnn_mode('LSTM')",
    "cudnn rnn mode bad": "torch.backends.cudnn.rnn.get_cudnn_mode('LSTMX')",
    "generic precision round trip": (
        "b = torch.backends; b.fp32_precision = 'ieee'; "
        "got = (b.fp32_precision, b.cudnn.fp32_precision, b.mkldnn.fp32_precision, "
        "b.mkldnn.conv.fp32_precision, b.cuda.matmul.fp32_precision, "
        "b.cudnn.conv.fp32_precision); b.fp32_precision = 'none'; "
        "got + (b.fp32_precision, b.cudnn.fp32_precision, b.mkldnn.rnn.fp32_precision)"
    ),
    "generic precision bad": "torch.backends.fp32_precision = 'fast'; None",
    "generic precision not str": "torch.backends.fp32_precision = 1; None",
    "generic flags": (
        "cm = torch.backends.flags('tf32'); cm.__enter__(); got = torch.backends.fp32_precision; "
        "cm.__exit__(None, None, None); (got, torch.backends.fp32_precision)"
    ),
    "mkldnn bad bool": "torch.backends.mkldnn.enabled = 1; None",
    "mkldnn precision sets generic": (
        "b = torch.backends; b.mkldnn.fp32_precision = 'tf32'; "
        "got = (b.fp32_precision, b.cudnn.fp32_precision, b.mkldnn.matmul.fp32_precision); "
        "b.mkldnn.fp32_precision = 'none'; got"
    ),
    "miopen bad bool": "torch.backends.miopen.immediate = 1; None",
    "miopen round trip": (
        "m = torch.backends.miopen; m.immediate = True; got = m.immediate; m.immediate = False; got"
    ),
    "nnpack bad bool": "torch.backends.nnpack.set_flags(1)",
    "sdp bad bool": "torch.backends.cuda.enable_mem_efficient_sdp(1)",
    "matmul fp16 accumulation bad": "torch.backends.cuda.matmul.allow_fp16_accumulation = 1; None",
    "matmul fp16 reduction tuple": (
        "mm = torch.backends.cuda.matmul; "
        "mm.allow_fp16_reduced_precision_reduction = (False, False); "
        "got = (mm.allow_fp16_reduced_precision_reduction, "
        "mm.allow_fp16_reduced_precision_reduction_split_k); "
        "mm.allow_fp16_reduced_precision_reduction = True; got"
    ),
    "matmul fp16 reduction empty": (
        "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = (); None"
    ),
    "matmul allow_tf32 bad": "torch.backends.cuda.matmul.allow_tf32 = 1; None",
    "cufft cache set size": "torch.backends.cuda.cufft_plan_cache.size = 3; None",
    "preferred linalg bad type": "torch.backends.cuda.preferred_linalg_library(3)",
    "preferred linalg magma": "torch.backends.cuda.preferred_linalg_library('magma')",
    "preferred blas cublas": (
        "got = torch.backends.cuda.preferred_blas_library('cublas'); "
        "torch.backends.cuda.preferred_blas_library('default'); got"
    ),
    "preferred rocm fa bad type": "torch.backends.cuda.preferred_rocm_fa_library(3)",
    "SDPBackend members": (
        "[(k, int(v)) for k, v in torch.backends.cuda.SDPBackend.__members__.items()]"
    ),
    "SDPBackend MATH": (
        "(repr(torch.backends.cuda.SDPBackend.MATH), str(torch.backends.cuda.SDPBackend(2)))"
    ),
    "quantized supported set": "torch.backends.quantized.supported_engines = []; None",
    "xnnpack enabled": "import torch.backends.xnnpack; torch.backends.xnnpack.enabled",
    "xnnpack set": "import torch.backends.xnnpack; torch.backends.xnnpack.enabled = True; None",
    "cudnn is_acceptable cpu": "torch.backends.cudnn.is_acceptable(torch.zeros(1))",
    "matmul allow_tf32": "torch.backends.cuda.matmul.allow_tf32",
    "matmul allow_tf32 round trip": (
        "mm = torch.backends.cuda.matmul; mm.allow_tf32 = True; "
        "got = (mm.allow_tf32, mm.fp32_precision); "
        "mm.allow_tf32 = False; got = got + (mm.allow_tf32, mm.fp32_precision); "
        "mm.fp32_precision = 'none'; got"
    ),
    "matmul fp16 reduction": (
        "mm = torch.backends.cuda.matmul; "
        "(mm.allow_fp16_reduced_precision_reduction, mm.allow_bf16_reduced_precision_reduction, "
        "mm.allow_fp16_accumulation, mm.fp32_precision)"
    ),
    "matmul bf16 round trip": (
        "mm = torch.backends.cuda.matmul; mm.allow_bf16_reduced_precision_reduction = False; "
        "got = mm.allow_bf16_reduced_precision_reduction; "
        "mm.allow_bf16_reduced_precision_reduction = True; got"
    ),
    "matmul fp16 split-k round trip": (
        "mm = torch.backends.cuda.matmul; mm.allow_fp16_reduced_precision_reduction = 1; "
        "got = mm.allow_fp16_reduced_precision_reduction; "
        "mm.allow_fp16_reduced_precision_reduction = True; got"
    ),
    "matmul unknown attribute": "torch.backends.cuda.matmul.nonexistent",
    "matmul set unknown": "torch.backends.cuda.matmul.nonexistent = 1; None",
    "matmul fp32_precision bad": "torch.backends.cuda.matmul.fp32_precision = 'fast'; None",
    "generic fp32_precision": "torch.backends.fp32_precision",
    "sdp toggles": (
        "b = torch.backends.cuda; (b.flash_sdp_enabled(), b.mem_efficient_sdp_enabled(), "
        "b.math_sdp_enabled(), b.cudnn_sdp_enabled(), b.fp16_bf16_reduction_math_sdp_allowed())"
    ),
    "sdp toggle round trip": (
        "b = torch.backends.cuda; b.enable_flash_sdp(False); got = b.flash_sdp_enabled(); "
        "b.enable_flash_sdp(True); (got, b.flash_sdp_enabled())"
    ),
    "sdp_kernel": (
        "import warnings; warnings.simplefilter('ignore'); b = torch.backends.cuda; "
        "cm = b.sdp_kernel(enable_flash=False); cm.__enter__(); "
        "got = (b.flash_sdp_enabled(), b.math_sdp_enabled()); cm.__exit__(None, None, None); "
        "got + (b.flash_sdp_enabled(),)"
    ),
    "preferred linalg default": "torch.backends.cuda.preferred_linalg_library()",
    "preferred linalg set": (
        "got = torch.backends.cuda.preferred_linalg_library('cusolver'); "
        "torch.backends.cuda.preferred_linalg_library('default'); got"
    ),
    "preferred linalg bad": "torch.backends.cuda.preferred_linalg_library('lapack')",
    "preferred blas default": "torch.backends.cuda.preferred_blas_library()",
    "preferred blas set": (
        "got = torch.backends.cuda.preferred_blas_library('cublaslt'); "
        "torch.backends.cuda.preferred_blas_library('default'); got"
    ),
    "preferred blas bad": "torch.backends.cuda.preferred_blas_library('mkl')",
    "preferred rocm fa": "torch.backends.cuda.preferred_rocm_fa_library()",
    "cufft cache size": "torch.backends.cuda.cufft_plan_cache.size",
    "cufft cache max_size": "torch.backends.cuda.cufft_plan_cache.max_size",
    "cufft cache index": "torch.backends.cuda.cufft_plan_cache[0]",
    "cufft cache clear": "torch.backends.cuda.cufft_plan_cache.clear()",
    "cuda is_built": "torch.backends.cuda.is_built()",
    "mkl available": "torch.backends.mkl.is_available()",
    "mkl verbose": "v = torch.backends.mkl.verbose(torch.backends.mkl.VERBOSE_ON); v.__enter__()",
    "mkldnn flags": (
        "m = torch.backends.mkldnn; (m.enabled, m.deterministic, m.allow_tf32, "
        "m.fp32_precision, m.matmul.fp32_precision, m.conv.fp32_precision)"
    ),
    "mkldnn flags cm": (
        "m = torch.backends.mkldnn; cm = m.flags(enabled=False); cm.__enter__(); "
        "got = m.enabled; cm.__exit__(None, None, None); (got, m.enabled)"
    ),
    "mkldnn enabled round trip": (
        "m = torch.backends.mkldnn; m.enabled = False; got = m.enabled; m.enabled = True; got"
    ),
    "nnpack flags cm": (
        "cm = torch.backends.nnpack.flags(enabled=True); cm.__enter__(); "
        "cm.__exit__(None, None, None)"
    ),
    "openmp available": "torch.backends.openmp.is_available()",
    "opt_einsum state": (
        "o = torch.backends.opt_einsum; (o.enabled, o.strategy, o.is_available())"
    ),
    "opt_einsum strategy bad": "torch.backends.opt_einsum.strategy = 'fast'; None",
    "opt_einsum enabled round trip": (
        "o = torch.backends.opt_einsum; o.enabled = False; got = o.enabled; o.enabled = True; got"
    ),
    "quantized engine": "torch.backends.quantized.engine",
    "quantized engines": "torch.backends.quantized.supported_engines",
    "quantized engine set bad": "torch.backends.quantized.engine = 'tpu'; None",
    "mha fastpath round trip": (
        "torch.backends.mha.set_fastpath_enabled(False); "
        "got = torch.backends.mha.get_fastpath_enabled(); "
        "torch.backends.mha.set_fastpath_enabled(True); got"
    ),
    "cpu capability type": "type(torch.backends.cpu.get_cpu_capability()).__name__",
    "flags frozen": "torch.backends.flags_frozen()",
    "version cuda": "torch.version.cuda",
    "version hip": "torch.version.hip",
    "version debug": "torch.version.debug",
    "version git type": "len(torch.version.git_version)",
    # torch.cuda idioms
    "synchronize": "torch.cuda.synchronize()",
    "empty_cache": "torch.cuda.empty_cache()",
    "manual_seed_all": "torch.cuda.manual_seed_all(1)",
    "manual_seed": "torch.cuda.manual_seed(1)",
    "get_device_name 0": "torch.cuda.get_device_name(0)",
    "get_device_properties 0": "torch.cuda.get_device_properties(0)",
    "get_device_capability 0": "torch.cuda.get_device_capability(0)",
    "set_device 0": "torch.cuda.set_device(0)",
    "set_device cpu": "torch.cuda.set_device('cpu')",
    "set_device -1": "torch.cuda.set_device(-1)",
    "device context 0": "with torch.cuda.device(0): pass; None",
    "device context -1": "with torch.cuda.device(-1): pass; None",
    "device context None": "d = torch.cuda.device(None); d.__enter__(); d.idx",
    "device idx": "torch.cuda.device(1).idx",
    "device cpu": "torch.cuda.device('cpu')",
    "device cuda:1 idx": "torch.cuda.device('cuda:1').idx",
    "device_of cpu": "d = torch.cuda.device_of(torch.zeros(1)); d.__enter__(); d.idx",
    "stream None": "s = torch.cuda.stream(None); s.__enter__(); s.__exit__(None, None, None)",
    "stream context None": "torch.cuda.StreamContext(None).stream",
    "Stream()": "torch.cuda.Stream()",
    "Stream(priority)": "torch.cuda.Stream(priority=-1)",
    "Event()": "torch.cuda.Event()",
    "Event(timing)": "torch.cuda.Event(enable_timing=True)",
    "ExternalStream": "torch.cuda.ExternalStream(0)",
    "set_stream None": "torch.cuda.set_stream(None)",
    "current_stream 0": "torch.cuda.current_stream(0)",
    "memory_allocated 0": "torch.cuda.memory_allocated(0)",
    "memory_reserved cuda:0": "torch.cuda.memory_reserved('cuda:0')",
    "memory_stats": "torch.cuda.memory_stats()",
    "memory_summary": "torch.cuda.memory_summary()",
    "memory_snapshot": "torch.cuda.memory_snapshot()",
    "max_memory_cached": "torch.cuda.max_memory_cached()",
    "mem_get_info": "torch.cuda.mem_get_info()",
    "host_memory_stats": "torch.cuda.host_memory_stats()",
    "set_per_process_memory_fraction": "torch.cuda.set_per_process_memory_fraction(0.5)",
    "caching_allocator_alloc": "torch.cuda.caching_allocator_alloc(16)",
    "seed": "torch.cuda.seed()",
    "seed_all": "torch.cuda.seed_all()",
    "initial_seed": "torch.cuda.initial_seed()",
    "get_rng_state": "torch.cuda.get_rng_state()",
    "get_rng_state_all": "torch.cuda.get_rng_state_all()",
    "set_rng_state": "torch.cuda.set_rng_state(torch.get_rng_state())",
    "set_rng_state_all empty": "torch.cuda.set_rng_state_all([])",
    "default_generators": "torch.cuda.default_generators",
    "is_bf16_supported": "torch.cuda.is_bf16_supported()",
    "is_bf16_supported no emulation": "torch.cuda.is_bf16_supported(False)",
    "is_tf32_supported": "torch.cuda.is_tf32_supported()",
    "get_arch_list": "torch.cuda.get_arch_list()",
    "get_gencode_flags": "torch.cuda.get_gencode_flags()",
    "has_half": "torch.cuda.has_half",
    "has_magma": "torch.cuda.has_magma",
    "is_initialized": "torch.cuda.is_initialized()",
    "set_sync_debug_mode warn": "torch.cuda.set_sync_debug_mode('warn')",
    "set_sync_debug_mode bad": "torch.cuda.set_sync_debug_mode('loud')",
    "can_device_access_peer": "torch.cuda.can_device_access_peer(0, 1)",
    "CudaError": "str(torch.cuda.CudaError(2))",
    "cudaStatus": "(torch.cuda.cudaStatus.SUCCESS, torch.cuda.cudaStatus.ERROR_NOT_READY)",
    "check_error 0": "torch.cuda.check_error(0)",
    "OutOfMemoryError base": "torch.cuda.OutOfMemoryError.__mro__[1].__name__",
    "DeferredCudaCallError base": "torch.cuda.DeferredCudaCallError.__mro__[1].__name__",
    "CUDAGraph()": "torch.cuda.CUDAGraph()",
    "graph()": "torch.cuda.graph(None)",
    "is_current_stream_capturing": "torch.cuda.is_current_stream_capturing()",
    "graph_pool_handle": "torch.cuda.graph_pool_handle()",
    "make_graphed_callables": "torch.cuda.make_graphed_callables(abs, (torch.zeros(1),))",
    "nvtx range_push": "torch.cuda.nvtx.range_push('a')",
    "nvtx mark": "torch.cuda.nvtx.mark('a')",
    "nvtx range": "with torch.cuda.nvtx.range('a'): pass; None",
    "profiler start": "torch.cuda.profiler.start()",
    "profiler profile": "with torch.cuda.profiler.profile(): pass; None",
    "tunable is_enabled": "torch.cuda.tunable.is_enabled()",
    "tunable filename": "torch.cuda.tunable.get_filename()",
    "tunable iterations": "torch.cuda.tunable.get_max_tuning_iterations()",
    "tunable duration": "torch.cuda.tunable.get_max_tuning_duration()",
    "tunable results": "torch.cuda.tunable.get_results()",
    "green context": "torch.cuda.green_contexts.GreenContext.create(1, 0)",
    "green context kw": "torch.cuda.green_contexts.GreenContext.create(num_sms=1)",
    "green context stream": "torch.cuda.GreenContext().max_workqueue_concurrency()",
    "releases code cc": (
        "sorted((k, sorted(v['x86_64']), sorted(v['aarch64'])) "
        "for k, v in torch.cuda.PYTORCH_RELEASES_CODE_CC.items())"
    ),
    "device requirement": (
        "sorted((k, [c for c in range(30, 140) if c in v]) "
        "for k, v in torch.cuda.DEVICE_REQUIREMENT.items())"
    ),
    "set_sync_debug_mode 1": "torch.cuda.set_sync_debug_mode(1)",
    "can_device_access_peer cpu": "torch.cuda.can_device_access_peer('cpu', 0)",
    "get_device_name cpu": "torch.cuda.get_device_name('cpu')",
    "device_of cuda tensor fails": "torch.cuda.device_of(torch.zeros(1, device='cuda'))",
    "memory_allocated cpu": "torch.cuda.memory_allocated('cpu')",
    "stream exit": "s = torch.cuda.stream(None); s.__enter__(); s.__exit__(None, None, None)",
    "reset_max_memory_allocated": "torch.cuda.reset_max_memory_allocated()",
    "caching_allocator_delete 0": "torch.cuda.caching_allocator_delete(0)",
    "caching_allocator_disabled": "with torch.cuda.caching_allocator_disabled(): pass; None",
    "change_current_allocator None": "torch.cuda.change_current_allocator(None)",
    "gds register": "torch.cuda.gds.gds_register_buffer(None)",
    "GdsFile": "torch.cuda.gds.GdsFile('/nonexistent/file', 0)",
    "tunable enable": "torch.cuda.tunable.enable(True)",
    "tunable tune file": "torch.cuda.tunable.tune_gemm_in_file('x.csv')",
    "nvtx range_start": "torch.cuda.nvtx.range_start('a')",
    "nvtx range_end": "torch.cuda.nvtx.range_end(0)",
    "nvtx range_pop": "torch.cuda.nvtx.range_pop()",
    "ipc_collect": "torch.cuda.ipc_collect()",
    "Event.from_ipc_handle": "torch.cuda.Event.from_ipc_handle(0, b'')",
    "get_stream_from_external": "torch.cuda.get_stream_from_external(0)",
    "FloatTensor Size": "torch.cuda.FloatTensor(torch.Size([2]))",
    "FloatStorage list": "torch.cuda.FloatStorage([1.0])",
    "is_available type": "type(torch.cuda.is_available()).__name__",
    "cuda module type": "type(torch.backends.cudnn).__name__",
    "MemPool()": "torch.cuda.MemPool()",
    "use_mem_pool": "with torch.cuda.use_mem_pool(None): pass; None",
    "CUDAPluggableAllocator": "torch.cuda.CUDAPluggableAllocator('x.so', 'a', 'f')",
    "allocator backend": "torch.cuda.get_allocator_backend()",
    "list_gpu_processes": "torch.cuda.list_gpu_processes()",
    # legacy types
    "FloatTensor repr": "torch.cuda.FloatTensor",
    "sparse FloatTensor repr": "torch.cuda.sparse.FloatTensor",
    "FloatTensor isinstance cpu": "isinstance(torch.zeros(2), torch.cuda.FloatTensor)",
    "LongTensor isinstance cpu": "isinstance(torch.zeros(2).long(), torch.cuda.LongTensor)",
    "FloatTensor()": "torch.cuda.FloatTensor()",
    "FloatTensor(2, 3)": "torch.cuda.FloatTensor(2, 3)",
    "FloatTensor([1, 2])": "torch.cuda.FloatTensor([1.0, 2.0])",
    "LongTensor(2)": "torch.cuda.LongTensor(2)",
    "sparse FloatTensor()": "torch.cuda.sparse.FloatTensor()",
    "FloatTensor dtype": "torch.cuda.FloatTensor.dtype",
    "FloatTensor is_cuda": "torch.cuda.FloatTensor.is_cuda",
    "FloatTensor is_sparse": "torch.cuda.FloatTensor.is_sparse",
    "sparse FloatTensor is_sparse": "torch.cuda.sparse.FloatTensor.is_sparse",
    "FloatTensor name": "torch.cuda.FloatTensor.__name__",
    "FloatTensor module": "torch.cuda.FloatTensor.__module__",
    "FloatTensor issubclass": "issubclass(torch.cuda.FloatTensor, torch.Tensor)",
    "FloatTensor type()": "torch.zeros(2).type(torch.cuda.FloatTensor)",
    "type cuda string": "torch.zeros(2).type('torch.cuda.FloatTensor')",
    "FloatStorage()": "torch.cuda.FloatStorage()",
    "FloatStorage(2)": "torch.cuda.FloatStorage(2)",
    "FloatStorage repr": "torch.cuda.FloatStorage",
    "FloatStorage isinstance": (
        "isinstance(torch.zeros(2).untyped_storage(), torch.cuda.FloatStorage)"
    ),
    # queries through torch and tensors that the CPU build answers
    "zeros device cuda": "torch.zeros(2, device='cuda')",
    "lazy init twice": "torch.cuda.init()",
}


# run last: freezing the switches cannot be undone through the public API
FINAL_CASES = {
    "frozen flags": (
        "torch.backends.disable_global_flags(); b = torch.backends; "
        "cm = b.cudnn.flags(enabled=True); cm.__enter__(); cm.__exit__(None, None, None); "
        "b.cudnn.benchmark = True; None"
    ),
    "frozen flags state": "torch.backends.flags_frozen()",
}


def main() -> None:
    names = {m: public_names(m) for m in MODULES}
    signatures = {}
    for module_name, module_names in names.items():
        module = real_module(module_name)
        for n, kind in module_names.items():
            if kind == "function":
                sig = signature_of(getattr(module, n))
                if sig is not None:
                    signatures[f"{module_name}.{n}"] = sig
    codes = {}
    for module_name, module_names in names.items():
        codes.update(generated_cases(module_name, module_names))
    codes.update(HAND_CASES)
    codes.update(FINAL_CASES)
    cases = {
        label: {"code": code, **golden_describe.outcome(torch, code)}
        for label, code in codes.items()
    }
    data = {"torch": torch.__version__, "names": names, "signatures": signatures, "cases": cases}
    path = TESTS / "golden" / "cuda_api.json"
    # cases stay in the order they ran: some read switches that earlier ones set
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT), f"({len(cases)} cases)")


if __name__ == "__main__":
    main()
