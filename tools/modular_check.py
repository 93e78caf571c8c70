"""Checks run inside the `modular` nox session's venvs, which hold only some packages.

python tools/modular_check.py core-alone|core-autograd|core-optim|everything
"""

from __future__ import annotations

import importlib
import importlib.metadata
import sys

SIBLINGS = {
    "torch.autograd": "torch-autograd",
    "torch.nn": "torch-nn",
    "torch.optim": "torch-optim",
    "torch.multiprocessing": "torch-multiprocessing",
    "torch.utils.data": "torch-utils-data",
    "torch.utils.trainer": "torch-utils-data",
    "torch.legacy": "torch-legacy",
    "torch.utils.serialization": "torch-legacy",
    "torch.distributed": "torch-distributed",
    "torch.jit": "torch-jit",
    "torch.distributions": "torch-distributions",
    "torch.profiler": "torch-autograd",
    "torch.utils.checkpoint": "torch-autograd",
}
PRESENT = {
    "core-alone": set(),
    "core-autograd": {"torch.autograd", "torch.profiler", "torch.utils.checkpoint"},
    "core-optim": {"torch.optim"},
    "everything": set(SIBLINGS),
}


def check_array_math() -> None:
    import torch

    x = torch.arange(6.0).reshape(2, 3)
    y = (x @ x.t() + 1) / 2
    assert y.tolist() == [[3.0, 7.5], [7.5, 25.5]], y
    torch.manual_seed(0)
    assert torch.rand(2).tolist() == [0.49625658988952637, 0.7682217955589294]


def check_missing(module: str, dist: str) -> None:
    import torch

    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        assert f"pip install {dist}" in str(error), error
    else:
        raise AssertionError(f"{module} imported although {dist} is not installed")
    if module.count(".") == 1:  # torch.nn, torch.optim, ...: also as attributes
        try:
            getattr(torch, module.split(".")[1])
        except ModuleNotFoundError as error:
            assert f"pip install {dist}" in str(error), error
        else:
            raise AssertionError(f"torch.{module} attribute worked without {dist}")


def check_gradients_available(available: bool) -> None:
    import torch

    if not available:
        try:
            torch.ones(2, requires_grad=True)
        except ModuleNotFoundError as error:
            assert "pip install torch-autograd" in str(error), error
        else:
            raise AssertionError("requires_grad=True worked without torch-autograd")
        return
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    loss = ((w * torch.tensor([2.0, 3.0])).sum() - 1) / 2
    loss.backward()
    assert w.grad.tolist() == [1.0, 1.5], w.grad


def check_curve_fit(without_nn: bool) -> None:
    """A downstream-style script on core + autograd alone: fit y = a*x^2 + b by gradient
    descent with plain tensors and torch.autograd.grad."""
    import torch

    x = torch.linspace(-1.0, 1.0, 21)
    y = 3.0 * x**2 - 0.5
    a = torch.zeros((), requires_grad=True)
    b = torch.zeros((), requires_grad=True)
    for _ in range(200):
        loss = ((a * x**2 + b - y) ** 2).mean()
        grad_a, grad_b = torch.autograd.grad(loss, (a, b))
        with torch.no_grad():
            a = (a - 0.5 * grad_a).requires_grad_()
            b = (b - 0.5 * grad_b).requires_grad_()
    assert abs(a.item() - 3.0) < 1e-2 and abs(b.item() + 0.5) < 1e-2, (a, b)
    if without_nn:
        assert "torch.nn" not in sys.modules, "the curve fit imported torch.nn"


def check_optim(without_autograd: bool) -> None:
    import torch

    w = torch.tensor([1.0, 2.0])
    opt = torch.optim.SGD([w], lr=0.5, momentum=0.9)
    for _ in range(3):
        w.grad = 2 * w  # the gradient of |w|^2, by hand
        opt.step()
    if without_autograd:
        assert "torch.autograd" not in sys.modules, "torch.optim imported torch.autograd"
    assert abs(w.tolist()[0]) < 1.0, w


def main(scenario: str) -> None:
    present = PRESENT[scenario]
    check_array_math()
    for module, dist in SIBLINGS.items():
        if module in present:
            importlib.import_module(module)
            importlib.metadata.version(dist)
        else:
            check_missing(module, dist)
    check_gradients_available("torch.autograd" in present)
    if "torch.autograd" in present:
        check_curve_fit(without_nn="torch.nn" not in present)
    if "torch.optim" in present:
        check_optim(without_autograd="torch.autograd" not in present)
    print(f"modular scenario {scenario}: ok")


if __name__ == "__main__":
    main(sys.argv[1])
