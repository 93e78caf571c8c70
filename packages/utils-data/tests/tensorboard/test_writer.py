"""SummaryWriter: what TensorBoard reads back from its event files is what it reads from
PyTorch 2.13's (golden/tensorboard.json, tools/golden/record_tensorboard.py), and the
writer's own behaviours (default run folder, flush/close, errors)."""

from __future__ import annotations

import json
import math
import os
import pathlib
import re
import socket
import sys

import pytest

# (the package's reader: "tensorboard" alone could be this test folder, a namespace package)
pytest.importorskip(
    "tensorboard.backend.event_processing.event_accumulator",
    reason="torch.utils.tensorboard needs the tensorboard package",
)

import tensorboard_cases  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

import torch  # noqa: E402
from torch.utils.tensorboard import SummaryWriter  # noqa: E402

GOLDEN = json.loads((pathlib.Path(__file__).parents[1] / "golden" / "tensorboard.json").read_text())


def _can_trace() -> bool:
    try:
        import torch.jit  # noqa: F401
        import torch.nn  # noqa: F401
    except ImportError:
        return False
    return True


CAN_TRACE = _can_trace()


def _same(ours, expected, path=""):
    """Equal, floats to 1e-6 relative (the logged float32 inputs differ in their last bit
    between the two implementations' linspace and pow)."""
    if isinstance(expected, float) and isinstance(ours, float):
        assert math.isclose(ours, expected, rel_tol=1e-6), path
    elif isinstance(expected, dict):
        assert sorted(ours) == sorted(expected), path
        for key in expected:
            _same(ours[key], expected[key], f"{path}/{key}")
    elif isinstance(expected, list):
        assert len(ours) == len(expected), path
        for i, (a, b) in enumerate(zip(ours, expected)):
            _same(a, b, f"{path}[{i}]")
    else:
        assert ours == expected, path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return tensorboard_cases.describe(torch, tmp_path_factory.mktemp("tb"), CAN_TRACE)


@pytest.mark.parametrize("run", sorted(GOLDEN["runs"]))
@pytest.mark.parametrize(
    "kind", ["scalars", "histograms", "images", "audio", "tensors", "plugins", "hparams", "graph"]
)
def test_read_back_as_from_pytorch(runs, run, kind):
    if kind == "graph" and not CAN_TRACE:
        pytest.skip("add_graph needs torch-jit (torch.jit.trace) and torch-nn, not installed")
    _same(runs[run][kind], GOLDEN["runs"][run][kind], f"{run}/{kind}")


def test_event_files_and_run_metadata(runs):
    for run, expected in GOLDEN["runs"].items():
        assert runs[run]["event_files"] == expected["event_files"]
        if CAN_TRACE:  # the graph's step statistics
            assert runs[run]["run_metadata"] == expected["run_metadata"]


def test_missing_tensorboard_gives_pytorchs_error():
    got = tensorboard_cases.import_without_tensorboard(sys.executable)
    assert (
        got == GOLDEN["without_tensorboard"] == "ModuleNotFoundError: No module named 'tensorboard'"
    )


def test_default_log_dir_names_the_time_and_host(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    writer = SummaryWriter(comment="_lr0.1")
    writer.close()
    folder = writer.get_logdir()
    pattern = r"runs/[A-Z][a-z]{2}\d{2}_\d{2}-\d{2}-\d{2}_" + re.escape(socket.gethostname())
    assert re.fullmatch(pattern + r"_lr0\.1", folder)
    assert os.path.isdir(tmp_path / folder)


def test_flush_makes_events_readable_and_close_is_idempotent(tmp_path):
    writer = SummaryWriter(str(tmp_path), flush_secs=3600)
    writer.add_scalar("x", 1.5, 0)
    writer.flush()
    accumulator = EventAccumulator(str(tmp_path))
    accumulator.Reload()
    assert [e.value for e in accumulator.Scalars("x")] == [1.5]
    writer.close()
    writer.close()
    writer.add_scalar("x", 2.5, 1)  # logging after close opens a new event file
    writer.close()
    assert len(list(tmp_path.glob("events.out.tfevents.*"))) == 2


def test_purge_step_marks_a_restart(tmp_path):
    with SummaryWriter(str(tmp_path), purge_step=5) as writer:
        writer.add_scalar("x", 1.0, 5)
    accumulator = EventAccumulator(str(tmp_path))
    accumulator.Reload()
    assert [e.step for e in accumulator.Scalars("x")] == [5]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda w: w.add_scalar("x", torch.ones(2)), AssertionError, "one element"),
        (lambda w: w.add_hparams([], {}), TypeError,
         "hparam_dict and metric_dict should be dictionary."),
        (lambda w: w.add_hparams({"a": [1]}, {}), ValueError,
         "value should be one of int, float, str, bool, or torch.Tensor"),
        (lambda w: w.add_hparams({"a": 1}, {}, {"a": ["x"]}), TypeError,
         re.escape("parameter: hparam_domain_discrete[a] should be a list of same type as "
                   "hparam_dict[a].")),
        (lambda w: w.add_histogram("h", torch.tensor([])), ValueError,
         "The input has no element."),
        (lambda w: w.add_histogram_raw("h", 0, 1, 1, 1, 1, [1.0], [1, 2]), ValueError,
         re.escape("len(bucket_limits) != len(bucket_counts), see the document.")),
        (lambda w: w.add_image("i", torch.zeros(3, 4, 4), dataformats="CHWW"), AssertionError,
         "You can not use the same dimension shorthand twice."),
        (lambda w: w.add_image("i", torch.zeros(4, 4)), AssertionError,
         "size of input tensor and input format are different."),
        (lambda w: w.add_custom_scalars_marginchart(["a"]), AssertionError, "Expected 3 tags"),
        (lambda w: w.add_embedding(torch.zeros(2, 2)), NotImplementedError, "add_embedding"),
    ],
)  # fmt: skip
def test_bad_input(tmp_path, call, error, message):
    with SummaryWriter(str(tmp_path)) as writer, pytest.raises(error, match=message):
        call(writer)
