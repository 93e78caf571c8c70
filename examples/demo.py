"""Smoke demo, the first half of the main job (``nox -s demo``): array math, gradients
and an SGD fit of a linear model with every package installed together. The second half
is examples/digits/main.py, a CNN trained on scikit-learn's 8x8 digits."""

import torch


def main() -> None:
    print(
        f"torch-core {torch.__version__}, autograd {torch.autograd.__version__}, "
        f"nn {torch.nn.__version__}, optim {torch.optim.__version__}"
    )

    # array math
    torch.manual_seed(0)
    a = torch.rand(3, 4)
    b = torch.arange(8.0).reshape(4, 2)
    print("rand(3, 4) @ arange(8).reshape(4, 2) =")
    print(a @ b)
    print("column means:", (a @ b).mean(0))

    # linear regression by gradient descent: recover w = [2, -3], b = 0.5
    x = torch.rand(256, 2)
    y = x @ torch.tensor([2.0, -3.0]) + 0.5
    w = torch.nn.Parameter(torch.zeros(2))
    bias = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([w, bias], lr=0.5, momentum=0.9)
    for step in range(201):
        opt.zero_grad()
        error = x @ w + bias - y
        loss = (error * error).mean()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            print(f"step {step:3d}  loss {loss.item():.6f}")
    print("fitted w =", w.detach(), " bias =", bias.detach())
    assert loss.item() < 1e-4, "the fit did not converge"


if __name__ == "__main__":
    main()
