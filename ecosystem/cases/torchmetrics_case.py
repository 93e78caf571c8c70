"""torchmetrics: classification and regression metrics accumulated over batches."""

import json

import torchmetrics
from torchmetrics.classification import (
    MulticlassAccuracy,
    MulticlassConfusionMatrix,
    MulticlassF1Score,
)
from torchmetrics.regression import MeanSquaredError, PearsonCorrCoef

import torch


def main():
    torch.manual_seed(0)
    accuracy = MulticlassAccuracy(num_classes=3)
    f1 = MulticlassF1Score(num_classes=3, average="macro")
    confusion = MulticlassConfusionMatrix(num_classes=3)
    mse, pearson = MeanSquaredError(), PearsonCorrCoef()
    batches = []
    for _ in range(4):
        logits = torch.randn(8, 3)
        target = torch.randint(0, 3, (8,))
        batches.append(accuracy(logits, target).item())
        f1.update(logits, target)
        confusion.update(logits, target)
        x = torch.randn(8)
        y = 2 * x + 0.1 * torch.randn(8)
        mse.update(x, y)
        pearson.update(x, y)
    result = {
        "version": torchmetrics.__version__,
        "batch_accuracy": batches,
        "accuracy": accuracy.compute().item(),
        "f1": f1.compute().item(),
        "confusion": confusion.compute().tolist(),
        "mse": mse.compute().item(),
        "pearson": pearson.compute().item(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
