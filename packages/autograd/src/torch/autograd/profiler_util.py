"""What a profile holds: one :class:`FunctionEvent` per op call or ``record_function``
block, their averages per name (:class:`FunctionEventAvg`), and :class:`EventList`,
which prints them as PyTorch's table and writes them as a Chrome trace."""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "Interval"]


class Interval:
    """A time span in microseconds from the start of the profile."""

    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = start, end

    def elapsed_us(self) -> float:
        return self.end - self.start


class FunctionEvent:
    """One op call (``aten::mm``) or ``record_function`` block, with its children (the
    calls made inside it) and what was recorded of it."""

    def __init__(
        self,
        id: int,
        name: str,
        thread: int,
        start_us: float,
        end_us: float,
        input_shapes=None,
        stack=None,
        cpu_memory_usage: int = 0,
        is_user_annotation: bool = False,
        concrete_inputs=None,
    ) -> None:
        self.id, self.name, self.thread = id, name, thread
        self.time_range = Interval(start_us, end_us)
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.concrete_inputs = concrete_inputs or []
        self.stack = stack if stack is not None else []
        self.cpu_memory_usage = cpu_memory_usage
        self.device_memory_usage = 0
        self.is_user_annotation = is_user_annotation
        self.cpu_children: list[FunctionEvent] = []
        self.cpu_parent: FunctionEvent | None = None
        self.count = 1
        self.node_id = -1
        self.is_async = self.is_remote = self.is_legacy = False
        self.overload_name = ""
        self.scope = 0
        self.flops = 0

    def append_cpu_child(self, child: FunctionEvent) -> None:
        self.cpu_children.append(child)
        child.cpu_parent = self

    @property
    def key(self) -> str:
        return self.name

    @property
    def cpu_time_total(self) -> float:
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total / self.count

    @property
    def self_cpu_memory_usage(self) -> int:
        return self.cpu_memory_usage - sum(c.cpu_memory_usage for c in self.cpu_children)

    device_time_total = self_device_time_total = self_device_memory_usage = 0

    def __repr__(self) -> str:
        return (
            f"<FunctionEvent id={self.id} name={self.name} thread={self.thread} "
            f"cpu_time={_format_time(self.cpu_time_total)} start_us={self.time_range.start:.3f} "
            f"end_us={self.time_range.end:.3f} input_shapes={self.input_shapes} "
            f"cpu_memory_usage={self.cpu_memory_usage}>"
        )


class FunctionEventAvg:
    """The events of one key (name, and input shapes or stack when grouped by them)
    summed: totals, and averages per call."""

    def __init__(self) -> None:
        self.key: str | None = None
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.input_shapes = None
        self.stack = None
        self.is_user_annotation = False
        self.cpu_parent = None
        self.node_id = -1
        self.device_time_total = self.self_device_time_total = 0
        self.device_memory_usage = self.self_device_memory_usage = 0
        self.flops = 0

    def add(self, other) -> FunctionEventAvg:
        if self.key is None:
            self.key = other.key
            self.input_shapes = other.input_shapes
            self.stack = other.stack
            self.is_user_annotation = other.is_user_annotation
            self.cpu_parent = other.cpu_parent
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        return self

    def __iadd__(self, other) -> FunctionEventAvg:
        return self.add(other)

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self) -> str:
        return (
            f"<FunctionEventAvg key={self.key} "
            f"self_cpu_time={_format_time(self.self_cpu_time_total)}"
            f" cpu_time={_format_time(self.cpu_time)} input_shapes={self.input_shapes} "
            f"cpu_memory_usage={self.cpu_memory_usage}>"
        )


_STEP_NAME = re.compile(r"ProfilerStep#\d+")


class EventList(list):
    """The events of a profile, in the order they started."""

    def __init__(self, *args, profile_memory: bool = False, with_stack: bool = False):
        super().__init__(*args)
        self._profile_memory = profile_memory
        self._with_stack = with_stack

    @property
    def self_cpu_time_total(self) -> float:
        """The sum of every event's own time (its children's excluded), in microseconds."""
        return sum(event.self_cpu_time_total for event in self)

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0):
        """One :class:`FunctionEventAvg` per name (per name and input shapes, or per name
        and the top ``group_by_stack_n`` stack frames, when asked), in order of first
        appearance; the steps of ``torch.profiler`` are grouped as ``ProfilerStep*``."""
        averages: dict = defaultdict(FunctionEventAvg)
        for event in self:
            key = _STEP_NAME.sub("ProfilerStep*", event.key)
            if group_by_input_shape:
                key = (key, str(event.input_shapes))
            if group_by_stack_n > 0:
                key = (key, tuple(event.stack[:group_by_stack_n]))
            average = averages[key]
            average.add(event)
            average.key = _STEP_NAME.sub("ProfilerStep*", average.key)
        result = EventList(
            averages.values(), profile_memory=self._profile_memory, with_stack=self._with_stack
        )
        result._grouped_by_shape = group_by_input_shape
        result._grouped_by_stack = group_by_stack_n
        return result

    def total_average(self) -> FunctionEventAvg:
        """Every event summed into one, keyed ``"Total"``."""
        total = FunctionEventAvg()
        for event in self:
            total.add(event)
        total.key = "Total"
        return total

    def table(
        self,
        sort_by: str | None = None,
        row_limit: int = 100,
        max_src_column_width: int = 75,
        max_name_column_width: int = 55,
        max_shapes_column_width: int = 80,
        header: str | None = None,
        top_level_events_only: bool = False,
        time_unit: str | None = None,
    ) -> str:
        """The events as PyTorch's table: name, self and total CPU time (and their share
        of the profile's total), average time, memory when profiled, calls, input shapes
        when grouped by them; sorted by the attribute ``sort_by`` (descending), at most
        ``row_limit`` rows."""
        return _build_table(
            self,
            sort_by=sort_by,
            row_limit=row_limit,
            max_src_column_width=max_src_column_width,
            max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width,
            header=header,
            top_level_events_only=top_level_events_only,
            time_unit=time_unit,
        )

    def __str__(self) -> str:
        return self.table()

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace (open it in chrome://tracing or Perfetto)."""
        trace = chrome_trace(self, os.path.basename(path) and path)
        with open(path, "w") as file:
            json.dump(trace, file)

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        """Write one line per recorded stack: frames joined by ``;`` and ``metric`` (for
        flame graphs)."""
        with open(path, "w") as file:
            for event in self:
                if event.stack:
                    frames = ";".join(reversed(event.stack))
                    file.write(f"{frames} {int(getattr(event, metric))}\n")


def chrome_trace(events, trace_name: str) -> dict:
    """The Chrome trace (JSON object form) of ``events``."""
    pid = os.getpid()
    threads = sorted({event.thread for event in events})
    trace_events: list[dict] = [
        _metadata_event("process_name", pid, 0, {"name": "python"}),
        _metadata_event("process_labels", pid, 0, {"labels": "CPU"}),
        _metadata_event("process_sort_index", pid, 0, {"sort_index": pid}),
    ]
    for tid in threads:
        trace_events.append(
            _metadata_event("thread_name", pid, tid, {"name": f"thread {tid} (python)"})
        )
    for index, event in enumerate(events):
        args = {"External id": event.id, "Ev Idx": index}
        if event.input_shapes:
            args["Input Dims"] = event.input_shapes
        trace_events.append(
            {
                "ph": "X",
                "cat": "user_annotation" if event.is_user_annotation else "cpu_op",
                "name": event.name,
                "pid": pid,
                "tid": event.thread,
                "ts": event.time_range.start,
                "dur": event.cpu_time_total,
                "args": args,
            }
        )
    return {
        "schemaVersion": 1,
        "deviceProperties": [],
        "displayTimeUnit": "ms",
        "traceEvents": trace_events,
        "traceName": trace_name,
    }


def _metadata_event(name: str, pid: int, tid: int, args: dict) -> dict:
    return {"ph": "M", "name": name, "ts": 0, "pid": pid, "tid": tid, "args": args}


# ----------------------------------------------------------------------------- table


def _format_time(time_us: float, unit: str | None = None) -> str:
    if unit == "s" or (unit is None and time_us >= 1e6):
        return f"{time_us / 1e6:.3f}s"
    if unit == "ms" or (unit is None and time_us >= 1e3):
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_memory(nbytes: int) -> str:
    kb, mb, gb = 1024, 1024 * 1024, 1024 * 1024 * 1024
    if abs(nbytes) >= gb:
        return f"{nbytes / gb:.2f} GB"
    if abs(nbytes) >= mb:
        return f"{nbytes / mb:.2f} MB"
    if abs(nbytes) >= kb:
        return f"{nbytes / kb:.2f} KB"
    return f"{nbytes} B"


def _percent(part: float, total: float) -> str:
    return f"{part / total * 100:.2f}%" if total else "0.00%"


def _build_table(
    events,
    sort_by,
    row_limit,
    max_src_column_width,
    max_name_column_width,
    max_shapes_column_width,
    header,
    top_level_events_only,
    time_unit,
) -> str:
    if not events:
        return ""
    rows = list(events)
    if sort_by is not None:
        rows = sorted(rows, key=lambda event: getattr(event, sort_by), reverse=True)
    if top_level_events_only:
        rows = [event for event in rows if event.cpu_parent is None]
    if row_limit > 0:
        rows = rows[:row_limit]
    total = sum(event.self_cpu_time_total for event in events)
    memory = getattr(events, "_profile_memory", False)
    shapes = getattr(events, "_grouped_by_shape", False)
    stacks = getattr(events, "_grouped_by_stack", 0)

    name_width = min(max(len(event.key) for event in events) + 4, max_name_column_width)
    columns = [("Name", name_width)]
    columns += [
        (title, 12)
        for title in ("Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg")
    ]
    if memory:
        columns += [("CPU Mem", 12), ("Self CPU Mem", 12)]
    columns.append(("# of Calls", 12))
    if shapes:
        width = max(len(str(event.input_shapes)) for event in events) + 4
        columns.append(("Input Shapes", min(width, max_shapes_column_width)))
    if stacks:
        columns.append(("Source Location", max_src_column_width))

    rule = "".join("-" * width + "  " for _, width in columns)
    lines = []
    if header is not None:
        lines += ["=" * len(rule), header]
    lines += [rule, "".join(f"{title:>{width}}  " for title, width in columns), rule]
    for event in rows:
        cells = [
            _clip(event.key, name_width),
            _percent(event.self_cpu_time_total, total),
            _format_time(event.self_cpu_time_total, time_unit),
            _percent(event.cpu_time_total, total),
            _format_time(event.cpu_time_total, time_unit),
            _format_time(event.cpu_time_total / max(event.count, 1), time_unit),
        ]
        if memory:
            cells += [
                _format_memory(event.cpu_memory_usage),
                _format_memory(event.self_cpu_memory_usage),
            ]
        cells.append(str(event.count))
        if shapes:
            cells.append(_clip(str(event.input_shapes), columns[len(cells)][1]))
        if stacks:
            cells.append(_clip(event.stack[0] if event.stack else "", max_src_column_width))
        lines.append("".join(f"{cell:>{width}}  " for cell, (_, width) in zip(cells, columns)))
    lines.append(rule)
    lines.append(f"Self CPU time total: {_format_time(total, time_unit)}")
    return "\n".join(lines) + "\n"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width - 4 else text[: width - 7] + "..."
