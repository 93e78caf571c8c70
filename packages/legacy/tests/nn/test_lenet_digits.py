"""A LeNet built of torch.legacy.nn trains on scikit-learn's 8x8 digits with
torch.legacy.optim.sgd (hand-written gradients, no autograd) to above 90% held-out
accuracy."""

import pytest

import torch
from torch.legacy import nn, optim

datasets = pytest.importorskip(
    "sklearn.datasets", reason="the digits data ship with scikit-learn (the test extra)"
)


def lenet():
    return (
        nn.Sequential()
        .add(nn.SpatialConvolution(1, 8, 3, 3, 1, 1, 1))  # 8x8x8
        .add(nn.ReLU())
        .add(nn.SpatialMaxPooling(2, 2))  # 8x4x4
        .add(nn.SpatialConvolution(8, 16, 3, 3, 1, 1, 1))  # 16x4x4
        .add(nn.ReLU())
        .add(nn.SpatialMaxPooling(2, 2))  # 16x2x2
        .add(nn.View(64).setNumInputDims(3))
        .add(nn.Linear(64, 32))
        .add(nn.ReLU())
        .add(nn.Linear(32, 10))
        .add(nn.LogSoftMax())
    )


def test_lenet_learns_digits_with_legacy_sgd():
    digits = datasets.load_digits()
    images = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0
    labels = torch.tensor(digits.target, dtype=torch.int64)
    torch.manual_seed(0)
    order = torch.randperm(len(labels))
    train, test = order[:1400], order[1400:]

    model = lenet()
    criterion = nn.ClassNLLCriterion()
    params, grads = model.flattenParameters()
    config = {"learningRate": 0.03, "momentum": 0.9, "dampening": 0}
    state = {}
    for _epoch in range(8):
        model.training()
        shuffled = train[torch.randperm(len(train))]
        for start in range(0, len(shuffled), 32):
            batch = shuffled[start : start + 32]
            x, y = images[batch], labels[batch]

            def feval(_params, x=x, y=y):
                grads.zero_()
                output = model.forward(x)
                loss = criterion.forward(output, y)
                model.backward(x, criterion.backward(output, y))
                return loss, grads

            optim.sgd(feval, params, config, state)

    model.evaluate()
    predictions = model.forward(images[test]).argmax(1)
    accuracy = float((predictions == labels[test]).float().mean())
    print(f"LeNet (torch.legacy) held-out accuracy on digits: {accuracy:.3f}")
    assert accuracy > 0.9
