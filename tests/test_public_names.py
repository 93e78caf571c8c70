"""Every public name of the PyTorch 2.13 modules this project ships exists here too, or is
listed below with the reason it is missing.

tests/golden/public_names.json holds ``dir()`` of each module as recorded from PyTorch
2.13 by tools/golden/record_public_names.py (names PyTorch merely imports for its own
use, such as ``typing.Optional`` or ``os``, left out). A module whose distribution is not
installed is skipped. The test fails on a new gap (a name neither here nor allowed) and
on a stale entry (an allowed name that now exists: delete it from ``MISSING``).

Run with every package installed: ``python -m pytest tests/test_public_names.py``.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import pathlib
import warnings

import pytest

import torch
from torch._siblings import SIBLINGS

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "public_names.json").read_text())
RECORDED = GOLDEN["modules"]

# ------------------------------------------------------------------------ reasons
# Areas other helpers of issue 20 (and the jit/cuda/distributed issues) are building:
CUDA = "owned by torch.cuda/backends (devices, streams, matmul precision), in progress"
JIT = "owned by torch.jit/onnx (TorchScript's IR and C++ classes), in progress"
DISTRIBUTED = "owned by torch.distributed, in progress"
PROFILER = (
    "the profiler's C++ plumbing (the Kineto and ITT tracers, execution-trace observers, "
    "profiler configs and event records) is not built: torch.profiler.profile times ops in "
    "Python"
)
EINOPS = "functorch's einops-style rearrange is not built (the einops package works here)"
# Features this project does not build (yet):
QUANTIZED = "quantized tensors, dtypes and kernels are not built"
SUB_BYTE = "bit-packed and sub-byte dtypes (no kernels in PyTorch 2.13 either) are not provided"
KERNELS = "kernels of one backend (cuDNN, MIOpen, oneDNN, FBGEMM, SyncBatchNorm's CUDA ones)"
COMPRESSED = "compressed sparse layouts (CSR, CSC, BSR, BSC) are not built"
NESTED = "nested, jagged and masked tensors are not built"
OLD_SPARSE = "the old sparse products (smm, hspmm, sspaddmm, ...) and sparse resizing"
SPARSE_MORE = "sparse softmax, semi-structured sparsity and sparse solvers are not built"
COMPILE = (
    "torch.compile/export, custom-op registration (torch.library, torch.ops) and the "
    "dispatcher's Python API (dispatch keys, tags, __torch_function__ guards) are not built"
)
TORCH_FUNCTION = "the __torch_function__/__torch_dispatch__ override protocol is not built"
ATEN_NN = (
    "ATen's whole-sequence recurrent kernels behind nn.RNN/LSTM/GRU (torch-nn runs the layers; "
    "its LSTM work is in progress)"
)
SPARSE_ONLY = "PyTorch 2.13 has this kernel for sparse tensors only (strided input raises)"
LOWRANK = "the iterative eigensolver lobpcg is not built (svd_lowrank and pca_lowrank are)"
MONITOR = "torch.monitor, the throughput benchmark and the C++ backtrace helpers are not built"
SERIALIZATION_CPP = "C++ classes of PyTorch's serialization (its zip writer, storage contexts)"
MODULE_LAYOUT = (
    "a submodule of PyTorch's file layout; the classes live in this project's own files "
    "and are public at their documented home"
)
IMPORTED = "a name PyTorch's module only imports for its own use (public at its real home)"
DOCS = "a docstring fragment PyTorch keeps in the module"
TYPING = "a typing alias or flag of PyTorch's sources"
INTERNAL = "an internal helper of PyTorch's implementation without an underscore"
NEW_IN_2X = "added in PyTorch 2.x and not built yet"
DATAPIPES = "torch.utils.data.datapipes (DataPipes, deprecated in PyTorch) are not built"
INFERENCE_FLAG = "tensors do not record that inference_mode made them"
MODULES_NOT_PROVIDED = (
    "torch.package (packaging models with their code into one archive) is not provided"
)
LEGACY_STORAGE = "the C++ base class of the legacy storages (use TypedStorage/UntypedStorage)"
LEGACY_TYPES = "the legacy sparse tensor types stop at the dtypes of PyTorch 0.4 (no bfloat16)"
PARALLEL_START = "starting spawned workers in parallel (TORCH_MP_PARALLEL_START) is not built"

#: module -> {reason: names missing for that reason}
MISSING: dict[str, dict[str, str]] = {
    "torch": {
        JIT: """
            AliasDb AnyType Argument ArgumentSpec AwaitType Block BoolType BufferDict CallStack
            Capsule ClassType Code CompilationUnit CompleteArgumentSpec ComplexType
            ConcreteModuleType ConcreteModuleTypeBuilder DeepCopyMemoTable DeviceObjType
            DictType EnumType ErrorReport ExecutionPlan FatalError FileCheck FloatType
            FunctionSchema Future FutureType Gradient Graph GraphExecutorState IODescriptor
            InferredType IntType InterfaceType JITException ListType LiteScriptModule
            ModuleDict Node NoneType NumberType OperatorInfo OptionalType ParameterDict
            PyObjectType RRefType ScriptClass ScriptClassFunction ScriptDict
            ScriptDictIterator ScriptDictKeyIterator ScriptFunction ScriptList
            ScriptListIterator ScriptMethod ScriptModuleSerializer ScriptObject
            ScriptObjectProperty StaticModule StreamObjType StringType SymBoolType SymIntType
            TensorType TracingState TupleType Type UnionType Use Value classes cpp fork
            futures import_ir_module import_ir_module_from_buffer merge_type_from_type_comment
            parse_ir parse_schema parse_type_comment unify_type_list wait
        """,
        CUDA: """
            AcceleratorError Event OutOfMemoryError Stream accelerator get_device_module
            get_float32_matmul_precision mps mtia profiler_allow_cudagraph_cupti_lazy_reinit_cuda12
            set_default_device set_float32_matmul_precision xpu
        """,
        COMPILE: """
            DispatchKey DispatchKeySet ExcludeDispatchKeyGuard PRIVATE_OPS Tag cond export
            library ops sym_constrain_range sym_constrain_range_for_size sym_fresh_size
            while_loop
        """,
        TORCH_FUNCTION: "DisableTorchFunction DisableTorchFunctionSubclass",
        QUANTIZED: """
            QInt32Storage QInt8Storage QUInt2x4Storage QUInt4x2Storage QUInt8Storage ao
            choose_qparams_optimized dequantize empty_quantized fake_quantize_per_channel_affine
            fake_quantize_per_tensor_affine fbgemm_linear_fp16_weight
            fbgemm_linear_fp16_weight_fp32_activation fbgemm_linear_int8_weight
            fbgemm_linear_int8_weight_fp32_activation fbgemm_linear_quantize_weight
            fbgemm_pack_gemm_matrix_fp16 fbgemm_pack_quantized_matrix
            fused_moving_avg_obs_fake_quant int_repr per_channel_affine
            per_channel_affine_float_qparams per_channel_symmetric per_tensor_affine
            per_tensor_symmetric q_per_channel_axis q_per_channel_scales
            q_per_channel_zero_points q_scale q_zero_point qint32 qint8 qscheme quantization
            quantize_per_channel quantize_per_tensor quantize_per_tensor_dynamic
            quantized_batch_norm quantized_gru quantized_gru_cell quantized_lstm
            quantized_lstm_cell quantized_max_pool1d quantized_max_pool2d quantized_max_pool3d
            quantized_rnn_relu_cell quantized_rnn_tanh_cell quint2x4 quint4x2 quint8
        """,
        SUB_BYTE: """
            bit bits16 bits1x8 bits2x4 bits4x2 bits8 float4_e2m1fn_x2 int1 int2 int3 int4 int5
            int6 int7 uint1 uint2 uint3 uint4 uint5 uint6 uint7
        """,
        KERNELS: """
            batch_norm_backward_elemt batch_norm_backward_reduce batch_norm_elemt
            batch_norm_gather_stats batch_norm_gather_stats_with_counts batch_norm_stats
            batch_norm_update_stats cudnn_affine_grid_generator cudnn_batch_norm
            cudnn_convolution cudnn_convolution_add_relu cudnn_convolution_relu
            cudnn_convolution_transpose cudnn_grid_sampler cudnn_is_acceptable
            miopen_batch_norm miopen_convolution miopen_convolution_add_relu
            miopen_convolution_relu miopen_convolution_transpose miopen_ctc_loss
            miopen_depthwise_convolution miopen_rnn mkldnn_adaptive_avg_pool2d
            mkldnn_convolution mkldnn_linear_backward_weights mkldnn_max_pool2d
            mkldnn_max_pool3d mkldnn_rnn_layer
        """,
        COMPRESSED: """
            ccol_indices_copy col_indices_copy crow_indices_copy row_indices_copy sparse_bsc
            sparse_bsc_tensor sparse_bsr sparse_bsr_tensor sparse_compressed_tensor sparse_csc
            sparse_csc_tensor sparse_csr sparse_csr_tensor
        """,
        NESTED: "jagged masked nested",
        OLD_SPARSE: """
            dsmm hsmm hspmm indices_copy resize_as_sparse_ saddmm smm spmm sspaddmm values_copy
        """,
        ATEN_NN: "gru lstm rnn_relu rnn_tanh",
        SPARSE_ONLY: "native_norm",
        LOWRANK: "lobpcg",
        MONITOR: """
            AVG AggregationType BenchmarkConfig BenchmarkExecutionStats LockingLogger LoggerBase
            NoopLogger SUM ThroughputBenchmark monitor
        """,
        SERIALIZATION_CPP: """
            DeserializationStorageContext PyTorchFileWriter SerializationStorageContext
        """,
        LEGACY_STORAGE: "StorageBase",
        MODULES_NOT_PROVIDED: "package",
        INFERENCE_FLAG: "is_inference",
        TYPING: "TYPE_CHECKING USE_GLOBAL_DEPS USE_RTLD_GLOBAL_WITH_LIBTORCH",
        INTERNAL: """
            classproperty get_file_path legacy_contiguous_format prepare_multiprocessing_environment
        """,
        NEW_IN_2X: """
            hash_tensor quasirandom segment_reduce slice_inverse thread_safe_generator
        """,
    },
    "torch.Tensor": {
        CUDA: "ipu mtia record_stream xpu",
        QUANTIZED: """
            dequantize int_repr q_per_channel_axis q_per_channel_scales q_per_channel_zero_points
            q_scale q_zero_point qscheme
        """,
        COMPRESSED: """
            ccol_indices col_indices crow_indices row_indices to_sparse_bsc to_sparse_bsr
            to_sparse_csc to_sparse_csr
        """,
        NESTED: "to_padded_tensor",
        KERNELS: "to_mkldnn",
        OLD_SPARSE: """
            resize_as_sparse_ smm sparse_mask sparse_resize_ sparse_resize_and_clear_ sspaddmm
        """,
        INFERENCE_FLAG: "is_inference",
        NEW_IN_2X: """
            grad_dtype hash_tensor index name output_nr slice_inverse
        """,
    },
}
# fmt: off
MISSING.update({
    "torch.nn": {
        QUANTIZED: "intrinsic qat quantizable quantized",
        MODULE_LAYOUT: "attention",
        NEW_IN_2X: "LinearCrossEntropyLoss LinearCrossEntropyOptions",
    },
    "torch.nn.functional": {
        TYPING: "BroadcastingList1 BroadcastingList2 BroadcastingList3 ScalingType SwizzleType",
        INTERNAL: "assert_int_or_pair boolean_dispatch",
        TORCH_FUNCTION: """
            handle_torch_function has_torch_function has_torch_function_unary
            has_torch_function_variadic
        """,
        DOCS: "reproducibility_notes sparse_support_notes tf32_notes",
        NEW_IN_2X: "grouped_mm linear_cross_entropy scaled_grouped_mm scaled_mm",
    },
    "torch.nn.modules": {
        NEW_IN_2X: """
            LinearCrossEntropyLoss LinearCrossEntropyOptions linear_cross_entropy_options
        """,
    },
    "torch.nn.parallel": {
        CUDA: "comm",
        DISTRIBUTED: "DistributedDataParallelCPU",
    },
    "torch.nn.utils.rnn": {INTERNAL: "PackedSequence_ bind copy_method_params"},
    "torch.nn.utils.parametrize": {
        TORCH_FUNCTION: "OpaqueBase is_opaque_reference_type is_traceable_wrapper_subclass",
        INTERNAL: "get_swap_module_params_on_conversion",
    },
    "torch.nn.utils.spectral_norm": {
        IMPORTED: "Module",
        INTERNAL: "SpectralNormLoadStateDictPreHook SpectralNormStateDictHook",
    },
    "torch.nn.utils.weight_norm": {IMPORTED: "Module UninitializedParameter"},
    "torch.autograd": {
        PROFILER: "DeviceType ProfilerConfig ProfilerEvent ProfilerState profiler_legacy",
        TORCH_FUNCTION: "handle_torch_function has_torch_function is_tensor_like",
        INTERNAL: "SavedTensor enforce_grad_layout_policy",
        NEW_IN_2X: "NestedIOFunction",
    },
    "torch.autograd.function": {
        INTERNAL: "AUTOGRAD_FUNCTION_COUNTER custom_function_call",
        NEW_IN_2X: "InplaceFunction NestedIOFunction",
    },
    "torch.autograd.graph": {
        IMPORTED: "RemovableHandle Variable",
        TORCH_FUNCTION: "TorchDispatchMode",
        CUDA: "set_override_stale_capture_stream set_warn_on_accumulate_grad_stream_mismatch",
        NEW_IN_2X: "allow_mutation_on_saved_tensors region_activation_memory_budget",
    },
    "torch.autograd.gradcheck": {
        INTERNAL: """
            FAILED_BATCHED_GRAD_MSG FAILED_BATCHED_GRAD_MSG_FWD_AD FAILED_NONDET_MSG
            FAST_FAIL_SLOW_OK_MSG get_analytical_jacobian get_numerical_jacobian
            get_numerical_jacobian_wrt_specific_input
        """,
        TORCH_FUNCTION: "is_tensor_like",
        IMPORTED: "vmap",
    },
    "torch.autograd.profiler": {
        PROFILER: """
            DeviceType Future KinetoStepTracker MEMORY_EVENT_NAME MemRecordsAcc
            OUT_OF_MEMORY_EVENT_NAME ProfilerConfig ProfilerState parse_nvprof_trace
        """,
    },
    "torch.optim": {
        NEW_IN_2X: "Muon swap_in_optimizer_params_and_state",
    },
    "torch.optim.lr_scheduler": {IMPORTED: "inf"},
    "torch.linalg": {DOCS: "common_notes"},
    "torch.fft": {DOCS: "common_args factory_common_args"},
    "torch.special": {
        DOCS: "common_args multi_dim_common",
    },
    "torch.sparse": {
        TYPING: "DimOrDims",
        SPARSE_MORE: """
            SparseSemiStructuredTensor SparseSemiStructuredTensorCUSPARSELT
            SparseSemiStructuredTensorCUTLASS as_sparse_gradcheck log_softmax sampled_addmm
            semi_structured softmax spsolve to_sparse_semi_structured
        """,
        LEGACY_TYPES: "BFloat16Tensor",
    },
    "torch.cuda": {CUDA: "Device classproperty"},
    "torch.cuda.amp": {INTERNAL: "amp_definitely_not_available common"},
    "torch.utils": {
        MONITOR: """
            ThroughputBenchmark collect_env cpp_backtrace get_cpp_backtrace
            throughput_benchmark
        """,
        CUDA: "backend_registration generate_methods_for_privateuse1_backend "
              "rename_privateuse1_backend",
        INTERNAL: "backcompat cmake_prefix_path deterministic set_module weak",
    },
    "torch.utils.data": {
        DATAPIPES: """
            DFIterDataPipe DataChunk IterDataPipe MapDataPipe argument_validation datapipes
            functional_datapipe graph graph_settings guaranteed_datapipes_determinism
            non_deterministic runtime_validation runtime_validation_disabled
        """,
    },
    "torch.utils.data.dataset": {IMPORTED: "Generator default_generator randperm"},
    "torch.utils.data.dataloader": {
        IMPORTED: "Dataset Sampler",
        DATAPIPES: "IterDataPipe MapDataPipe",
        INTERNAL: "ExceptionWrapper",
    },
    "torch.utils.data.distributed": {IMPORTED: "Dataset"},
    "torch.utils.checkpoint": {
        IMPORTED: "LoggingTensorMode SavedTensor TorchDispatchMode capture_logs tree_map",
        NEW_IN_2X: "GraphExecGroup",
    },
    "torch.utils.dlpack": {TYPING: "DLDeviceType"},
    "torch.utils.hooks": {INTERNAL: "BackwardHook warn_if_has_hooks"},
    "torch.multiprocessing": {PARALLEL_START: "ENV_VAR_PARALLEL_START"},
    "torch.distributions.transforms": {IMPORTED: "pad softplus"},
    "torch.func": {
        EINOPS: "rearrange",
    },
    "torch.jit": {
        JIT: """
            ONNXTracedModule RecursiveScriptClass annotations jit_module_from_flatbuffer
            last_executed_optimized_graph save_jit_module_to_flatbuffer set_module
        """,
    },
    "torch.onnx": {
        JIT: """
            JitScalarType TensorProtoDataType producer_version select_model_mode_for_export
            symbolic_helper symbolic_opset10 symbolic_opset9 utils
        """,
    },
    "torch.distributed": {
        DISTRIBUTED: """
            AllToAllOptions AllreduceCoalescedOptions AllreduceOptions BackendConfig
            BarrierOptions BroadcastOptions BuiltinCommHookType DebugLevel DeviceMesh
            GatherOptions GradBucket Logger ProcessGroupGloo QueueEmptyError RankType
            ReduceOptions ReduceScatterOptions Reducer ScatterOptions all_gather_coalesced
            all_gather_single all_reduce_coalesced autograd breakpoint c10d_logger config
            device_mesh get_backend_config get_debug_level get_default_backend_for_device
            get_node_local_rank get_pg_count init_device_mesh is_backend_available
            is_ucc_available is_xccl_available logging_handlers new_subgroups
            new_subgroups_by_enumeration record_comm recv_object_list reduce_op
            reduce_scatter_single register_rendezvous_handler remote_device rpc
            send_object_list set_debug_level set_debug_level_from_env shrink_group split_group
            supports_complex utils
        """,
    },
    "torch.testing": {JIT: "FileCheck"},
    "torch.profiler": {
        PROFILER: "DeviceType ExecutionTraceObserver KinetoStepTracker RecordScope itt",
        IMPORTED: "Optimizer register_optimizer_step_post_hook",
        INTERNAL: "is_fbcode",
    },
    "torch.hub": {IMPORTED: "MAP_LOCATION"},
    "torch.serialization": {
        INTERNAL: """
            INT_SIZE LONG_SIZE MAGIC_NUMBER MAP_PRIVATE MAP_SHARED PROTOCOL_VERSION SHORT_SIZE
            STORAGE STORAGE_KEY_SEPARATOR Storage UNSAFE_MESSAGE get_source_lines_and_file
        """,
    },
    "torch.random": {NEW_IN_2X: "thread_safe_generator"},
})
# fmt: on

#: modules of PyTorch 2.13 that no package here ships
MISSING_MODULES = {
    "torch.utils.cpp_extension": (
        "not built: docs/DESIGN list it under torch-core, but building C++ extensions "
        "against this project's native core has no API yet"
    ),
}


def _allowed(module: str) -> dict[str, str]:
    """name -> reason, from ``MISSING``."""
    return {
        name: reason for reason, names in MISSING.get(module, {}).items() for name in names.split()
    }


def _owner(module: str) -> str:
    """The distribution that ships ``module`` (torch-core unless a sibling does)."""
    for prefix, dist in sorted(SIBLINGS.items(), key=lambda item: -len(item[0])):
        if module == prefix or module.startswith(prefix + "."):
            return dist
    return "torch-core"


def _installed(dist: str) -> bool:
    try:
        importlib.metadata.distribution(dist)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def _load(module: str):
    if module == "torch.Tensor":
        return torch.Tensor
    if module in MISSING_MODULES:
        with pytest.raises(ImportError):
            importlib.import_module(module)
        pytest.skip(f"{module} is not shipped: {MISSING_MODULES[module]}")
    try:
        return importlib.import_module(module)
    except ImportError:
        # a sibling that is not installed (a dev checkout may put its source on sys.path
        # without metadata, so only a failed import tells)
        dist = _owner(module)
        if dist != "torch-core" and not _installed(dist):
            pytest.skip(f"{dist} is not installed")
        raise


def _has(obj, module: str, name: str, kind: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated names warn when touched
        try:
            if hasattr(obj, name):
                return True
        except Exception:  # noqa: BLE001 - a property that raises still exists
            return True
        if kind == "module":  # a submodule not imported yet
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                return False
            return True
    return False


def _missing(module: str) -> set[str]:
    obj = _load(module)
    return {name for name, kind in RECORDED[module].items() if not _has(obj, module, name, kind)}


@pytest.mark.parametrize("module", sorted(RECORDED))
def test_no_public_name_is_missing_without_a_reason(module):
    new = sorted(_missing(module) - set(_allowed(module)))
    assert not new, (
        f"{module} lacks {len(new)} public name(s) of PyTorch 2.13 that are not in MISSING: "
        f"{' '.join(new)}"
    )


@pytest.mark.parametrize("module", sorted(RECORDED))
def test_allowed_names_are_still_missing(module):
    stale = sorted(set(_allowed(module)) - _missing(module))
    assert not stale, f"{module} has these now; delete them from MISSING: {' '.join(stale)}"


def test_every_allowed_name_has_a_reason():
    for module, reasons in MISSING.items():
        for reason, names in reasons.items():
            assert isinstance(reason, str) and len(reason.split()) >= 4, (module, reason)
            assert names.split(), f"{module}: a reason without names: {reason}"
    assert all(len(reason.split()) >= 4 for reason in MISSING_MODULES.values())


def test_allow_list_names_only_recorded_names():
    for module in MISSING:
        unknown = sorted(set(_allowed(module)) - set(RECORDED.get(module, {})))
        assert not unknown, f"{module}: not public names of PyTorch 2.13: {unknown}"
    assert set(MISSING_MODULES) <= set(RECORDED)


def test_the_golden_covers_the_modules_of_the_issue():
    issue = {
        "torch", "torch.Tensor", "torch.nn", "torch.nn.functional", "torch.distributions",
        "torch.func", "torch.linalg", "torch.fft", "torch.special", "torch.cuda",
        "torch.utils.data",
    }  # fmt: skip
    assert issue <= set(RECORDED)
    assert GOLDEN["torch_version"].startswith("2.13")
