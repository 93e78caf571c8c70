"""Train a small CNN on the handwritten digits that scikit-learn ships (1797 8x8
images, no download), in the style of PyTorch's MNIST example.

    python examples/digits/main.py [--epochs 12] [--plot digits_curve.png]

Prints a progress bar per epoch, the test loss and accuracy after each epoch, and
writes the training-loss / test-accuracy curve as a PNG.
"""

from __future__ import annotations

import argparse
import time

import matplotlib

matplotlib.use("Agg")  # no display needed

import matplotlib.pyplot as plt  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from tqdm import tqdm  # noqa: E402

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402, N812
import torch.optim as optim  # noqa: E402


class Net(nn.Module):
    """Two 3x3 convolutions with max pooling, then two fully connected layers."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)  # 16 x 8 x 8
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)  # 32 x 4 x 4
        self.dropout = nn.Dropout(0.25)
        self.fc1 = nn.Linear(32 * 2 * 2, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = self.dropout(torch.flatten(x, 1))
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


def load_data(test_fraction: float, seed: int):
    """The digits as (N, 1, 8, 8) float tensors scaled to [0, 1], split at random into
    a training and a held-out test set."""
    digits = load_digits()
    images = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0
    labels = torch.tensor(digits.target, dtype=torch.int64)
    generator = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(labels), generator=generator)
    n_test = int(len(labels) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return (images[train], labels[train]), (images[test], labels[test])


def batches(images, labels, batch_size: int, shuffle: bool):
    """Plain mini-batching over tensors (until torch.utils.data has a DataLoader)."""
    order = torch.randperm(len(labels)) if shuffle else torch.arange(len(labels))
    for start in range(0, len(labels), batch_size):
        index = order[start : start + batch_size]
        yield images[index], labels[index]


def train(model, optimizer, data, batch_size: int, epoch: int) -> float:
    model.train()
    images, labels = data
    total, count = 0.0, 0
    steps = (len(labels) + batch_size - 1) // batch_size
    progress = tqdm(batches(images, labels, batch_size, True), total=steps, desc=f"epoch {epoch}")
    for x, y in progress:
        optimizer.zero_grad()
        loss = F.nll_loss(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(y)
        count += len(y)
        progress.set_postfix(loss=f"{loss.item():.4f}")
    return total / count


def test(model, data, batch_size: int) -> tuple[float, float]:
    model.eval()
    images, labels = data
    loss, correct = 0.0, 0
    with torch.no_grad():
        for x, y in batches(images, labels, batch_size, False):
            output = model(x)
            loss += F.nll_loss(output, y, reduction="sum").item()
            correct += int((output.argmax(1) == y).sum().item())
    return loss / len(labels), correct / len(labels)


def plot(losses, accuracies, path: str) -> None:
    epochs = range(1, len(losses) + 1)
    fig, left = plt.subplots(figsize=(6, 4))
    left.plot(epochs, losses, "o-", color="tab:blue", label="training loss")
    left.set_xlabel("epoch")
    left.set_ylabel("training loss", color="tab:blue")
    right = left.twinx()
    right.plot(epochs, [100 * a for a in accuracies], "s-", color="tab:red", label="test accuracy")
    right.set_ylabel("test accuracy (%)", color="tab:red")
    fig.suptitle("CNN on scikit-learn digits")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None) -> float:
    parser = argparse.ArgumentParser(description="CNN on scikit-learn's digits")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--test-batch-size", type=int, default=500)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--test-fraction", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="digits_curve.png", help="where to write the PNG curve")
    parser.add_argument(
        "--min-accuracy", type=float, default=0.95, help="exit with an error below this"
    )
    args = parser.parse_args(argv)

    torch.manual_seed(args.seed)
    train_data, test_data = load_data(args.test_fraction, args.seed)
    print(f"digits: {len(train_data[1])} training and {len(test_data[1])} test images")
    model = Net()
    optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)

    start = time.perf_counter()
    losses, accuracies = [], []
    for epoch in range(1, args.epochs + 1):
        losses.append(train(model, optimizer, train_data, args.batch_size, epoch))
        test_loss, accuracy = test(model, test_data, args.test_batch_size)
        accuracies.append(accuracy)
        print(
            f"epoch {epoch:2d}: train loss {losses[-1]:.4f}, test loss {test_loss:.4f}, "
            f"test accuracy {100 * accuracy:.1f}%"
        )
    elapsed = time.perf_counter() - start
    plot(losses, accuracies, args.plot)
    print(
        f"final test accuracy: {100 * accuracies[-1]:.2f}% in {elapsed:.1f} s; curve: {args.plot}"
    )
    if accuracies[-1] < args.min_accuracy:
        raise SystemExit(f"test accuracy below {100 * args.min_accuracy:.0f}%")
    return accuracies[-1]


if __name__ == "__main__":
    main()
