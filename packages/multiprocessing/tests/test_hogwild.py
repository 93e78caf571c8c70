"""Hogwild: two processes train one model whose parameters live in shared memory
(nn.Module.share_memory), with torch.optim.SGD each; the parent sees the trained model."""

import pytest

import torch
import torch.multiprocessing as mp

nn = pytest.importorskip("torch.nn")
optim = pytest.importorskip("torch.optim")

FORK = mp.get_context("fork")


def make_data():
    generator = torch.Generator().manual_seed(0)
    inputs = torch.randn(256, 4, generator=generator)
    targets = inputs @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]]) + 0.25
    return inputs, targets


def loss_of(model, inputs, targets):
    with torch.no_grad():
        return nn.functional.mse_loss(model(inputs), targets).item()


def train(rank, model, steps):
    torch.manual_seed(rank)
    inputs, targets = make_data()
    optimizer = optim.SGD(model.parameters(), lr=0.05)
    for _ in range(steps):
        rows = torch.randint(0, inputs.shape[0], (32,))
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(inputs[rows]), targets[rows])
        loss.backward()
        optimizer.step()


def test_two_processes_train_one_shared_model(no_leaks):
    torch.manual_seed(1)
    model = nn.Linear(4, 1)
    model.share_memory()
    assert all(p.is_shared() for p in model.parameters())
    inputs, targets = make_data()
    before = loss_of(model, inputs, targets)
    workers = [FORK.Process(target=train, args=(rank, model, 100)) for rank in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    after = loss_of(model, inputs, targets)
    # the parent never stepped: the children's updates reached its parameters
    assert after < before / 20, (before, after)
    del model, workers
