"""torch.compiler / torch.compile (eager: the callable itself), torch.fx and torch._dynamo
as far as they exist here, torch.overrides.TorchFunctionMode and
torch.utils.flop_counter, and the small names libraries probe (torch.SymInt, device
predicates, deterministic switch, constants)."""

import math

import pytest

import torch
from torch.overrides import TorchFunctionMode
from torch.utils.flop_counter import FlopCounterMode


def test_compile_returns_the_callable_and_checks_options():
    def f(x):
        return x + 1

    assert torch.compile(f) is f
    assert torch.compile(mode="max-autotune")(f) is f
    assert torch.compiler.compile is torch.compile
    with pytest.raises(RuntimeError, match="Unrecognized mode=fast, should be one of: default, "
                                           "lite, reduce-overhead"):  # fmt: skip
        torch.compile(f, mode="fast")
    with pytest.raises(RuntimeError, match="Either mode or options can be specified"):
        torch.compile(f, mode="default", options={})
    with pytest.raises(AssertionError, match="A callable function is expected, but <class 'int'>"):
        torch.compile(3)


def test_compiler_questions_and_decorators():
    assert torch.compiler.is_compiling() is False
    assert torch.compiler.is_dynamo_compiling() is False
    assert torch.compiler.is_exporting() is False

    def g():
        return 1

    assert torch.compiler.disable(g) is g and torch.compiler.disable(recursive=False)(g) is g
    assert torch.compiler.allow_in_graph(g) is g
    assert torch.compiler.assume_constant_result(g) is g


def test_fx_and_dynamo_say_what_is_missing():
    import torch._dynamo
    import torch.fx
    from torch._subclasses.fake_tensor import is_fake
    from torch.fx.experimental.proxy_tensor import get_proxy_mode

    assert get_proxy_mode() is None and is_fake(torch.ones(1)) is False
    with pytest.raises(NotImplementedError, match="torch.fx graph capture is not implemented"):
        torch.fx.symbolic_trace(lambda x: x)
    with pytest.raises(NotImplementedError, match="torch.compile"):
        torch._dynamo.OptimizedModule()
    assert not isinstance(3, torch.SymInt)
    with pytest.raises(TypeError, match="symbolic tracers"):
        torch.SymInt(None)


def test_torch_function_mode_sees_op_calls_and_nests_off():
    seen = []

    class Record(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func.__name__)
            return func(*args, **(kwargs or {}))

    with Record():
        y = torch.mm(torch.ones(2, 2), torch.ones(2, 2))
    assert "mm" in seen and y.sum().item() == 8.0
    count = len(seen)
    torch.mm(torch.ones(2, 2), torch.ones(2, 2))
    assert len(seen) == count  # nothing seen after the mode is left


@pytest.mark.nn
def test_flop_counter_matches_pytorch_formulas():
    # PyTorch 2.13 counts 120 for this mm and 972 for this conv2d
    import torch.nn.functional  # noqa: F401 (loaded before the mode: see torch.overrides)

    with FlopCounterMode(display=False) as counter:
        torch.mm(torch.ones(4, 3), torch.ones(3, 5))
        torch.nn.functional.conv2d(torch.ones(1, 2, 5, 5), torch.ones(3, 2, 3, 3))
    counts = counter.get_flop_counts()["Global"]
    assert counts["mm"] == 120 and counts["conv2d"] == 972
    assert counter.get_total_flops() == 1092


def test_names_libraries_probe():
    t = torch.ones(1)
    assert (t.is_mps, t.is_xla, t.is_meta, t.is_quantized, t.is_nested) == (False,) * 5
    assert torch.get_default_device() == torch.device("cpu")
    assert torch.torch is torch
    assert (torch.pi, torch.e, torch.newaxis) == (math.pi, math.e, None)
    assert math.isinf(torch.inf) and math.isnan(torch.nan)
    assert repr(torch.device("mps")) == "device(type='mps')"  # parsed as in PyTorch
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
        torch.device("foo")
    torch._C._log_api_usage_once("tests")  # torchmetrics calls it
    assert torch._C._TensorMeta is type(torch.Tensor)


def test_deterministic_switch_as_pytorch():
    try:
        assert torch.are_deterministic_algorithms_enabled() is False
        torch.use_deterministic_algorithms(True, warn_only=True)
        assert torch.is_deterministic_algorithms_warn_only_enabled()
        assert torch.get_deterministic_debug_mode() == 1
        torch.set_deterministic_debug_mode("error")
        assert torch.get_deterministic_debug_mode() == 2
        assert not torch.is_deterministic_algorithms_warn_only_enabled()
        with pytest.raises(
            TypeError, match=r"argument 'mode' \(position 1\) must be bool, not int"
        ):
            torch.use_deterministic_algorithms(1)
        with pytest.raises(RuntimeError, match="expected one of `default`, `warn`, `error`, but "
                                               "got x"):  # fmt: skip
            torch.set_deterministic_debug_mode("x")
        with pytest.raises(RuntimeError, match="expected 0, 1, or 2, but got 3"):
            torch.set_deterministic_debug_mode(3)
    finally:
        torch.use_deterministic_algorithms(False)


def test_file_reader_and_map_location(tmp_path):
    import typing

    import torch.serialization

    path = tmp_path / "c.pt"
    torch.save({"a": torch.arange(3.0)}, path)
    reader = torch.PyTorchFileReader(str(path))
    assert {"data.pkl", "data/0", "byteorder"} <= set(reader.get_all_records())
    assert reader.get_record("byteorder") == b"little"
    assert reader.get_storage_from_record("data/0", 3, torch.float32).tolist() == [0.0, 1.0, 2.0]
    assert str in typing.get_args(torch.serialization.MAP_LOCATION)


def test_parse_to_as_pytorch():
    # outputs printed by PyTorch 2.13's torch._C._nn._parse_to for the same calls
    parse = torch._C._nn._parse_to
    cpu = torch.device("cpu")
    assert parse("cpu") == (cpu, None, False, None)
    assert parse(torch.float64) == (None, torch.float64, False, None)
    assert parse(torch.ones(1, dtype=torch.int32)) == (cpu, torch.int32, False, None)
    assert parse("cpu", torch.half, non_blocking=True) == (cpu, torch.float16, True, None)
    assert parse(memory_format=torch.channels_last) == (None, None, False, torch.channels_last)


def test_script_module_name_comes_from_torch_jit():
    import importlib

    try:
        jit = importlib.import_module("torch.jit")
    except ModuleNotFoundError:  # torch-jit is not installed: its install hint
        with pytest.raises(ImportError, match="torch-jit"):
            torch.ScriptModule  # noqa: B018
    else:
        assert torch.ScriptModule is jit.ScriptModule
