"""Trainer: the loop, the plugin schedule, and a real model trained with a progress bar
(the last needs torch-nn and torch-optim, absent from this package's own CI session)."""

import io

import pytest

import torch
from torch.utils.data import DataLoader, TensorDataset, Trainer
from torch.utils.data.trainer.plugins import (
    AccuracyMonitor,
    Logger,
    LossMonitor,
    Plugin,
    ProgressMonitor,
    TimeMonitor,
)


class FakeLoss:
    def __init__(self, value):
        self.value, self.backward_calls = value, 0

    def backward(self):
        self.backward_calls += 1

    def item(self):
        return self.value


class RecordingOptimizer:
    def __init__(self, evaluations=1):
        self.evaluations, self.events = evaluations, []

    def zero_grad(self):
        self.events.append("zero_grad")

    def step(self, closure):
        for _ in range(self.evaluations):
            self.events.append(closure().value)


class Recorder(Plugin):
    def __init__(self, interval):
        super().__init__(interval)
        self.calls = []

    def iteration(self, i, *args):
        self.calls.append(("iteration", i, len(args)))

    def batch(self, i, *args):
        self.calls.append(("batch", i, len(args)))

    def update(self, i, model):
        self.calls.append(("update", i))

    def epoch(self, i):
        self.calls.append(("epoch", i))


def _fake_trainer(batches=4, evaluations=1):
    data = [(torch.tensor([[float(i)]]), torch.tensor([0])) for i in range(batches)]
    losses = iter(range(100))
    optimizer = RecordingOptimizer(evaluations)
    trainer = Trainer(lambda x: x * 2, lambda out, y: FakeLoss(next(losses)), optimizer, data)
    return trainer, optimizer


def test_loop_calls_closure_and_plugins_on_schedule():
    trainer, optimizer = _fake_trainer()
    every_other = Recorder([(2, "iteration"), (1, "epoch")])
    each = Recorder([(1, "batch"), (1, "update")])
    trainer.register_plugin(every_other)
    trainer.register_plugin(each)
    trainer.run(epochs=2)
    assert trainer.iterations == 8
    assert optimizer.events[:4] == ["zero_grad", 0, "zero_grad", 1]
    assert every_other.calls == [
        ("iteration", 2, 4),
        ("iteration", 4, 4),
        ("epoch", 1),
        ("iteration", 6, 4),
        ("iteration", 8, 4),
        ("epoch", 2),
    ]
    assert each.calls[:3] == [("batch", 1, 2), ("update", 1), ("batch", 2, 2)]


def test_plugins_see_the_first_evaluation_of_a_re_evaluating_optimizer():
    trainer, _ = _fake_trainer(batches=2, evaluations=3)
    monitor = LossMonitor(running_average=False)
    trainer.register_plugin(monitor)
    trainer.run()
    assert trainer.stats["loss"]["last"] == 3.0  # second batch's first evaluation


def test_monitor_statistics():
    trainer, _ = _fake_trainer(batches=3)
    trainer.register_plugin(LossMonitor(smoothing=0.5))
    trainer.run(epochs=1)
    stats = trainer.stats["loss"]
    assert stats["last"] == 2.0
    assert stats["running_avg"] == pytest.approx(0.5 * (0.5 * 0 + 0.5 * 1) + 0.5 * 2)
    assert stats["epoch_mean"] == 1.0 and stats["epoch_stats"] == (0, 0)


def test_unknown_trigger_unit():
    trainer, _ = _fake_trainer()
    with pytest.raises(ValueError, match="unknown plugin trigger unit 'step'"):
        trainer.register_plugin(Plugin([(1, "step")]))


def test_logger_prints_iteration_and_epoch_lines():
    trainer, _ = _fake_trainer(batches=2)
    out = io.StringIO()
    trainer.register_plugin(LossMonitor())
    trainer.register_plugin(TimeMonitor())
    trainer.register_plugin(ProgressMonitor(bar=False))
    trainer.register_plugin(Logger(["progress", "loss", "time"], file=out))
    trainer.run()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("iteration 1: progress: 1/2 (50.00%)  loss: 0.0000 (0.0000)  time: ")
    assert lines[0].endswith("ms)")
    assert lines[-1].startswith("epoch 1: loss: 0.5000  time: ")


def test_progress_bar_shows_epoch_and_loss():
    pytest.importorskip("tqdm")
    trainer, _ = _fake_trainer(batches=3)
    out = io.StringIO()
    trainer.register_plugin(LossMonitor())
    trainer.register_plugin(ProgressMonitor(file=out, mininterval=0))
    trainer.run(epochs=2)
    text = out.getvalue()
    assert "epoch 1" in text and "epoch 2" in text and "3/3" in text and "loss=2.0000" in text


def test_accuracy_monitor():
    trainer = Trainer(
        model=lambda x: x,
        criterion=lambda out, y: FakeLoss(0.0),
        optimizer=RecordingOptimizer(),
        dataset=[(torch.tensor([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]]), torch.tensor([1, 1, 1]))],
    )
    trainer.register_plugin(AccuracyMonitor())
    trainer.run()
    assert trainer.stats["accuracy"]["last"] == pytest.approx(200 / 3)


def test_trains_a_real_model_from_a_dataloader():
    nn = pytest.importorskip("torch.nn")
    optim = pytest.importorskip("torch.optim")
    torch.manual_seed(0)
    x = torch.randn(64, 2)
    y = (x[:, 0] > x[:, 1]).long()
    model = nn.Linear(2, 2)
    trainer = Trainer(
        model,
        nn.CrossEntropyLoss(),
        optim.SGD(model.parameters(), lr=0.5),
        DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True),
    )
    trainer.register_plugin(LossMonitor())
    trainer.register_plugin(AccuracyMonitor())
    trainer.register_plugin(ProgressMonitor(disable=True))
    trainer.run(epochs=15)
    assert trainer.iterations == 60
    assert trainer.stats["loss"]["epoch_mean"] < 0.3
    assert trainer.stats["accuracy"]["epoch_mean"] > 90
