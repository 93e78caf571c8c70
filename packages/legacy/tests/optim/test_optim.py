"""torch.legacy.optim: each algorithm that torch.optim also has follows the same
trajectory on Rosenbrock's function and on a small least-squares regression (the
cross-check PyTorch's own optim tests used before 1.0); nag and cg, which torch.optim
lacks, against their definitions and by converging."""

import math

import pytest

import torch
from torch.legacy import optim

START = [1.5, 1.5]


def rosenbrock(x):
    """f and its gradient, by hand (the legacy side uses no autograd)."""
    a, b = float(x[0]), float(x[1])
    f = (1 - a) ** 2 + 100 * (b - a * a) ** 2
    grad = torch.tensor([-2 * (1 - a) - 400 * a * (b - a * a), 200 * (b - a * a)], dtype=x.dtype)
    return f, grad


def rosenbrock_autograd(x):
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2


def regression_problem():
    gen = torch.Generator().manual_seed(0)
    a = torch.randn(20, 5, dtype=torch.float64, generator=gen)
    b = a @ torch.randn(5, dtype=torch.float64, generator=gen) + 0.1 * torch.randn(
        20, dtype=torch.float64, generator=gen
    )

    def by_hand(x):
        residual = a @ x - b
        return float(residual.pow(2).mean()), 2 * a.t() @ residual / len(b)

    def with_autograd(x):
        return (a @ x - b).pow(2).mean()

    return by_hand, with_autograd, torch.zeros(5, dtype=torch.float64)


# legacy name, legacy config, torch.optim class name, its arguments, relative tolerance
PAIRS = {
    "sgd": ({"learningRate": 1e-3}, "SGD", {"lr": 1e-3}, 1e-12),
    "sgd-momentum": (
        {"learningRate": 1e-3, "momentum": 0.9, "dampening": 0.1, "weightDecay": 0.01},
        "SGD",
        {"lr": 1e-3, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01},
        1e-12,
    ),
    "sgd-nesterov": (
        {"learningRate": 1e-3, "momentum": 0.9, "dampening": 0, "nesterov": True},
        "SGD",
        {"lr": 1e-3, "momentum": 0.9, "nesterov": True},
        1e-12,
    ),
    # Lua adds epsilon to sqrt(v) before the bias correction, PyTorch after: ~eps apart
    "adam": (
        {"learningRate": 1e-2, "beta1": 0.8, "beta2": 0.99, "weightDecay": 0.01},
        "Adam",
        {"lr": 1e-2, "betas": (0.8, 0.99), "weight_decay": 0.01},
        1e-6,
    ),
    "adagrad": (
        {"learningRate": 0.1, "learningRateDecay": 0.01, "weightDecay": 0.01},
        "Adagrad",
        {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.01},
        1e-12,
    ),
    "adadelta": (
        {"rho": 0.95, "eps": 1e-6, "weightDecay": 0.01},
        "Adadelta",
        {"lr": 1.0, "rho": 0.95, "eps": 1e-6, "weight_decay": 0.01},
        1e-12,
    ),
    "rmsprop": (
        {"learningRate": 1e-3, "alpha": 0.95, "epsilon": 1e-8},
        "RMSprop",
        {"lr": 1e-3, "alpha": 0.95, "eps": 1e-8},
        1e-12,
    ),
    # torch.optim.ASGD keeps eta_t as a float32 tensor (PyTorch's scalar dtype)
    "asgd": (
        {"eta0": 1e-3, "lambda": 1e-3, "alpha": 0.75, "t0": 50},
        "ASGD",
        {"lr": 1e-3, "lambd": 1e-3, "alpha": 0.75, "t0": 50},
        1e-6,
    ),
    # etas exact in float32: torch.optim.Rprop picks them through a float32 torch.where
    "rprop": (
        {"stepsize": 1e-3, "etaplus": 1.25, "etaminus": 0.5, "stepsizemax": 1, "stepsizemin": 1e-6},
        "Rprop",
        {"lr": 1e-3, "etas": (0.5, 1.25), "step_sizes": (1e-6, 1)},
        1e-12,
    ),
    "adamax": (
        {"learningRate": 2e-3, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8},
        "Adamax",
        {"lr": 2e-3, "betas": (0.9, 0.999), "eps": 1e-8},
        1e-12,
    ),
}

STEPS = 120


def _legacy_trajectory(method, config, opfunc, start):
    x = start.clone()
    state = {}
    path = []
    for _ in range(STEPS):
        result = getattr(optim, method)(opfunc, x, dict(config), state)
        assert result[0] is x  # updated in place, as in Lua
        path.append(x.clone())
    return torch.stack(path), state


def _torch_trajectory(name, kwargs, loss_fn, start):
    torch_optim = pytest.importorskip("torch.optim", reason="the cross-check needs torch-optim")
    x = start.clone().requires_grad_()
    opt = getattr(torch_optim, name)([x], **kwargs)
    path = []

    def closure():
        opt.zero_grad()
        loss = loss_fn(x)
        loss.backward()
        return loss

    for _ in range(STEPS):
        opt.step(closure)
        path.append(x.detach().clone())
    return torch.stack(path), opt.state[x]


@pytest.mark.parametrize("problem", ["rosenbrock", "regression"])
@pytest.mark.parametrize("name", sorted(PAIRS))
def test_same_trajectory_as_torch_optim(name, problem):
    pytest.importorskip("torch.autograd", reason="the reference side needs torch-autograd")
    config, torch_name, kwargs, rtol = PAIRS[name]
    if problem == "rosenbrock":
        by_hand, with_autograd = rosenbrock, rosenbrock_autograd
        start = torch.tensor(START, dtype=torch.float64)
    else:
        by_hand, with_autograd, start = regression_problem()
    method = name.split("-")[0]
    legacy_path, legacy_state = _legacy_trajectory(method, config, by_hand, start)
    torch_path, torch_state = _torch_trajectory(torch_name, kwargs, with_autograd, start)
    assert float((legacy_path[-1] - start).abs().max()) > 1e-4  # it did move
    torch.testing.assert_close(legacy_path, torch_path, rtol=rtol, atol=1e-12)
    if method == "asgd":
        torch.testing.assert_close(legacy_state["ax"], torch_state["ax"], rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("problem", ["rosenbrock", "regression"])
def test_lbfgs_same_iterates_as_torch_lbfgs(problem):
    torch_optim = pytest.importorskip("torch.optim", reason="the cross-check needs torch-optim")
    pytest.importorskip("torch.autograd", reason="the reference side needs torch-autograd")
    if problem == "rosenbrock":
        by_hand, with_autograd = rosenbrock, rosenbrock_autograd
        start = torch.tensor(START, dtype=torch.float64)
    else:
        by_hand, with_autograd, start = regression_problem()
    config = {"maxIter": 15, "maxEval": 1000, "tolFun": 0, "tolX": 0, "learningRate": 0.5,
              "nCorrection": 5}  # fmt: skip
    x, state = start.clone(), {}
    y = start.clone().requires_grad_()
    opt = torch_optim.LBFGS([y], lr=0.5, max_iter=15, max_eval=1000, tolerance_grad=0,
                            tolerance_change=0, history_size=5)  # fmt: skip

    def closure():
        opt.zero_grad()
        loss = with_autograd(y)
        loss.backward()
        return loss

    for _ in range(3):  # the memory carries over between calls on both sides
        _, f_hist, evaluations = optim.lbfgs(by_hand, x, config, state)
        opt.step(closure)
        torch.testing.assert_close(x, y.detach(), rtol=1e-10, atol=1e-12)
    assert evaluations == 15 and len(f_hist) == 15
    assert f_hist[-1] < f_hist[0]


def test_lbfgs_converges_and_stops_on_tolerance():
    x, f_hist, evaluations = optim.lbfgs(
        rosenbrock, torch.tensor(START, dtype=torch.float64), {"maxIter": 200}
    )
    assert f_hist[-1] < 1e-10
    assert evaluations < 200  # tolFun/tolX ended it early
    torch.testing.assert_close(x, torch.ones(2, dtype=torch.float64), atol=1e-5, rtol=0)


def test_nag_follows_its_definition():
    # Sutskever et al.: v <- m v - lr g(x + m v); x <- x + v (x kept at the look-ahead)
    lr, m = 1e-3, 0.9
    x = torch.tensor(START, dtype=torch.float64)
    state = {}
    point, velocity = x.clone(), torch.zeros(2, dtype=torch.float64)
    for _ in range(5):
        optim.nag(rosenbrock, x, {"learningRate": lr, "momentum": m}, state)
        look_ahead = point + m * velocity
        grad = rosenbrock(look_ahead)[1]
        velocity = m * velocity - lr * grad
        point = look_ahead - lr * grad
        torch.testing.assert_close(x, point, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="Momentum must be positive"):
        optim.nag(rosenbrock, x, {"momentum": 0})


def test_nag_and_sgd_minimize_the_regression():
    by_hand, _, start = regression_problem()
    for method, config in [("nag", {"learningRate": 0.05}), ("sgd", {"learningRate": 0.1})]:
        x, state = start.clone(), {}
        first = by_hand(x)[0]
        for _ in range(300):
            getattr(optim, method)(by_hand, x, config, state)
        assert by_hand(x)[0] < 0.05 * first


def test_cg_minimizes_rosenbrock():
    x = torch.zeros(2, dtype=torch.float64)
    x, f_hist, evaluations = optim.cg(rosenbrock, x, {"maxEval": 200})
    assert f_hist[0] == 1.0 and f_hist[-1] < 1e-12
    assert all(b <= a for a, b in zip(f_hist, f_hist[1:]))  # each line search decreased f
    assert evaluations <= 200
    torch.testing.assert_close(x, torch.ones(2, dtype=torch.float64), atol=1e-6, rtol=0)


def test_cg_solves_the_regression():
    by_hand, _, start = regression_problem()
    x, f_hist, _ = optim.cg(by_hand, start.clone(), {"maxEval": 100})
    grad = by_hand(x)[1]
    assert float(grad.abs().max()) < 1e-6 and f_hist[-1] < f_hist[0]


def test_sgd_learning_rate_decay_and_per_element_rates():
    x = torch.tensor([1.0, 1.0], dtype=torch.float64)
    config = {"learningRate": 0.1, "learningRateDecay": 1.0,
              "learningRates": torch.tensor([1.0, 0.0], dtype=torch.float64)}  # fmt: skip
    linear = lambda x: (float(x.sum()), torch.ones(2, dtype=torch.float64))  # noqa: E731
    optim.sgd(linear, x, config)
    optim.sgd(linear, x, config)  # second call: rate 0.1 / (1 + 1)
    torch.testing.assert_close(x, torch.tensor([1 - 0.1 - 0.05, 1.0], dtype=torch.float64))
    assert config["evalCounter"] == 2  # without a state table, config holds the state


def test_rprop_niter_returns_each_value():
    x, values = optim.rprop(rosenbrock, torch.tensor(START, dtype=torch.float64), {"niter": 4})
    assert len(values) == 4 and values[0] == rosenbrock(torch.tensor(START))[0]
    assert not math.isnan(values[-1])
