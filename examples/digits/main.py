"""Train a small CNN on the handwritten digits that scikit-learn ships (1797 8x8
images, no download), in the style of PyTorch's MNIST example.

    python examples/digits/main.py [--epochs 12] [--workers 2] [--plot digits_curve.png]

The images are split with torch.utils.data.random_split and fed by DataLoaders (the
training batches shuffled and loaded by worker processes). Prints a progress bar per
epoch, the test loss and accuracy after each epoch, and writes the training-loss /
test-accuracy curve as a PNG.
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
from torch.utils.data import DataLoader, TensorDataset, random_split  # noqa: E402


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
    """The digits as (N, 1, 8, 8) float images scaled to [0, 1] with their labels,
    split at random into a training and a held-out test set."""
    digits = load_digits()
    images = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0
    labels = torch.tensor(digits.target, dtype=torch.int64)
    dataset = TensorDataset(images, labels)
    generator = torch.Generator().manual_seed(seed)
    return random_split(dataset, [1 - test_fraction, test_fraction], generator=generator)


def train(model, optimizer, loader, epoch: int) -> float:
    model.train()
    total, count = 0.0, 0
    progress = tqdm(loader, desc=f"epoch {epoch}")
    for x, y in progress:
        optimizer.zero_grad()
        loss = F.nll_loss(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(y)
        count += len(y)
        progress.set_postfix(loss=f"{loss.item():.4f}")
    return total / count


def test(model, loader) -> tuple[float, float]:
    model.eval()
    loss, correct, count = 0.0, 0, 0
    with torch.no_grad():
        for x, y in loader:
            output = model(x)
            loss += F.nll_loss(output, y, reduction="sum").item()
            correct += int((output.argmax(1) == y).sum().item())
            count += len(y)
    return loss / count, correct / count


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
    parser.add_argument(
        "--workers", type=int, default=2, help="DataLoader worker processes (0: none)"
    )
    parser.add_argument("--plot", default="digits_curve.png", help="where to write the PNG curve")
    parser.add_argument(
        "--min-accuracy", type=float, default=0.95, help="exit with an error below this"
    )
    args = parser.parse_args(argv)

    torch.manual_seed(args.seed)
    train_set, test_set = load_data(args.test_fraction, args.seed)
    print(f"digits: {len(train_set)} training and {len(test_set)} test images")
    train_loader = DataLoader(
        train_set,
        batch_size=args.batch_size,
        shuffle=True,
        num_workers=args.workers,
        persistent_workers=args.workers > 0,  # the workers are forked once, not per epoch
    )
    test_loader = DataLoader(test_set, batch_size=args.test_batch_size)
    model = Net()
    optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)

    start = time.perf_counter()
    losses, accuracies = [], []
    for epoch in range(1, args.epochs + 1):
        losses.append(train(model, optimizer, train_loader, epoch))
        test_loss, accuracy = test(model, test_loader)
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
