"""torch.autograd.profiler and torch.profiler with core ops: PyTorch's op names, nesting
of record_function blocks, the table's layout, Chrome traces, schedules and steps, and
the bindings being the plain functions outside a profile."""

from __future__ import annotations

import json
import warnings

import pytest

import torch
from torch.autograd import profiler
from torch.profiler import ProfilerAction, ProfilerActivity, profile, record_function, schedule

#: PyTorch 2.13's column titles (recorded from its tables)
TITLES = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]


def _work(a, b):
    c = a + b
    c += 1
    d = torch.matmul(a, b)
    return torch.mm(a, b).sum() + d.sum() + c.sum()


def test_op_names_and_nesting():
    a, b = torch.rand(8, 8), torch.rand(8, 8)
    with profiler.profile() as prof:
        with profiler.record_function("block"):
            _work(a, b)
    names = [e.name for e in prof.function_events]
    assert names[0] == "block"
    for expected in ("aten::add", "aten::add_", "aten::matmul", "aten::mm", "aten::sum"):
        assert expected in names
    block = prof.function_events[0]
    assert block.is_user_annotation and block.cpu_parent is None
    assert {child.name for child in block.cpu_children} >= {"aten::matmul", "aten::mm"}
    assert all(e.self_cpu_time_total <= e.cpu_time_total + 1e-6 for e in prof.function_events)
    assert prof.self_cpu_time_total == pytest.approx(block.cpu_time_total)


def test_bindings_are_plain_functions_outside_a_profile():
    plain = (torch.add, torch.Tensor.__add__, torch.mm)
    with profiler.profile():
        assert torch.add is not plain[0] and torch.Tensor.__add__ is not plain[1]
    assert (torch.add, torch.Tensor.__add__, torch.mm) == plain
    with profiler.profile(enabled=False) as prof:
        assert torch.add is plain[0]
    assert prof.enabled is False


def test_table_layout():
    a = torch.rand(64, 64)
    with profiler.profile(record_shapes=True, profile_memory=True) as prof:
        torch.mm(a, a)
        torch.mm(a, a).relu()
    averages = prof.key_averages(group_by_input_shape=True)
    table = averages.table(sort_by="cpu_time_total", row_limit=2)
    lines = table.splitlines()
    rule, header = lines[0], lines[1]
    name_width = max(len(e.key) for e in averages) + 4
    assert rule.startswith("-" * name_width + "  " + "-" * 12 + "  ")
    titles = [title.strip() for title in header.split("  ") if title.strip()]
    assert titles == [*TITLES, "CPU Mem", "Self CPU Mem", "# of Calls", "Input Shapes"]
    rows = lines[3:-2]
    assert len(rows) == 2 and lines[-2] == rule
    assert lines[-1].startswith("Self CPU time total: ")
    mm = next(e for e in averages if e.key == "aten::mm")
    assert mm.count == 2 and mm.input_shapes == [[64, 64], [64, 64]]
    assert mm.cpu_memory_usage == 2 * 64 * 64 * 4  # the two results, 16 KB each
    assert "32.00 KB" in next(line for line in lines if "aten::mm" in line)
    plain = prof.key_averages().table()
    assert [t.strip() for t in plain.splitlines()[1].split("  ") if t.strip()][-1] == ("# of Calls")
    with pytest.raises(AttributeError):
        prof.key_averages().table(sort_by="no_such_column")


def test_chrome_trace(tmp_path):
    a = torch.rand(4, 4)
    with profiler.profile(record_shapes=True) as prof:
        with profiler.record_function("step"):
            torch.mm(a, a)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    spans = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert [e["name"] for e in spans] == ["step", "aten::mm"]
    assert spans[0]["cat"] == "user_annotation" and spans[1]["cat"] == "cpu_op"
    assert spans[1]["args"]["Input Dims"] == [[4, 4], [4, 4]]
    assert spans[0]["ts"] <= spans[1]["ts"] and spans[1]["dur"] <= spans[0]["dur"]
    assert any(e["ph"] == "M" and e["name"] == "process_name" for e in trace["traceEvents"])


def test_stack_and_decorator():
    @record_function("helper")
    def helper(x):
        return x * 2

    with profiler.profile(with_stack=True) as prof:
        helper(torch.ones(2))
    mul = next(e for e in prof.function_events if e.name == "aten::mul")
    assert mul.cpu_parent.name == "helper"
    assert any("test_profiler.py" in frame for frame in mul.stack)
    with record_function("outside a profile"):  # a no-op
        torch.ones(1)


def test_schedule_matches_pytorch():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sched = schedule(wait=1, warmup=1, active=2, repeat=1)
    actions = [sched(i) for i in range(7)]
    expected = ["NONE", "WARMUP", "RECORD", "RECORD_AND_SAVE", "NONE", "NONE", "NONE"]
    assert [a.name for a in actions] == expected
    with pytest.raises(AssertionError, match="Invalid profiler schedule arguments"):
        schedule(wait=0, warmup=0, active=0)
    skip = schedule(wait=1, warmup=1, active=1, skip_first=2)
    assert [skip(i).name for i in range(5)] == ["NONE"] * 3 + ["WARMUP", "RECORD_AND_SAVE"]
    assert ProfilerAction.RECORD.value == 2


def test_steps_and_trace_callback(tmp_path):
    a = torch.rand(4, 4)
    seen = []
    with profile(
        activities=[ProfilerActivity.CPU],
        schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
        on_trace_ready=lambda prof: seen.append(len(prof.events())),
    ) as prof:
        for _ in range(6):
            torch.add(a, a)
            prof.step()
    assert seen == [4]  # two ProfilerStep#n blocks and their two adds, as in PyTorch
    keys = [e.key for e in prof.key_averages()]
    assert keys == ["ProfilerStep*", "aten::add"]
    handler = torch.profiler.tensorboard_trace_handler(str(tmp_path), worker_name="w")
    with profile(on_trace_ready=handler):
        torch.add(a, a)
    (written,) = tmp_path.iterdir()
    assert written.name.startswith("w.") and written.name.endswith(".pt.trace.json")
    assert json.loads(written.read_text())["traceEvents"]


def test_backward_ops_are_recorded():
    x = torch.rand(3, requires_grad=True)
    with profiler.profile() as prof:
        (x.exp() * 2).sum().backward()
    names = {e.name for e in prof.function_events}
    assert {"aten::exp", "aten::mul", "aten::sum"} <= names


def test_profiler_activity_and_kineto_available_are_also_autograds():
    # PyTorch 2.13 exports both from torch.autograd and torch.autograd.profiler too
    import torch.profiler

    assert torch.autograd.ProfilerActivity is torch.profiler.ProfilerActivity
    assert torch.autograd.profiler.ProfilerActivity is torch.profiler.ProfilerActivity
    assert torch.autograd.kineto_available is torch.profiler.kineto_available
    assert torch.autograd.profiler.kineto_available() is False
