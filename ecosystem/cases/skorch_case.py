"""skorch: scikit-learn style NeuralNetClassifier.fit of a small MLP, then predict."""

import json

import numpy as np
import skorch
from skorch import NeuralNetClassifier

import torch


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3)
        )

    def forward(self, x):
        return self.layers(x)


def main():
    torch.manual_seed(0)
    rng = np.random.RandomState(0)
    x = rng.randn(120, 4).astype(np.float32)
    y = (x[:, 0] + 2 * x[:, 1] > 0).astype(np.int64) + (x[:, 2] > 1).astype(np.int64)
    net = NeuralNetClassifier(
        MLP,
        criterion=torch.nn.CrossEntropyLoss,
        max_epochs=5,
        lr=0.1,
        batch_size=32,
        train_split=None,
        verbose=0,
        iterator_train__shuffle=False,
    )
    net.fit(x, y)
    result = {
        "version": skorch.__version__,
        "train_loss": [row["train_loss"] for row in net.history],
        "accuracy": float((net.predict(x) == y).mean()),
        "proba_sum": float(net.predict_proba(x[:5]).sum()),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
