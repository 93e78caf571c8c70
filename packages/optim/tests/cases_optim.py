"""The option sets whose trajectories are recorded from real PyTorch
(tools/golden/record_optim.py) and replayed by the tests."""

from __future__ import annotations

STEPS = 20
EPOCHS = 30

OPTIMIZERS = {
    "SGD": {
        "plain": dict(lr=0.01),
        "momentum": dict(lr=0.01, momentum=0.9),
        "dampening_wd": dict(lr=0.01, momentum=0.8, dampening=0.3, weight_decay=0.1),
        "nesterov": dict(lr=0.01, momentum=0.9, nesterov=True),
        "maximize": dict(lr=0.01, momentum=0.5, maximize=True),
    },
    "Adam": {
        "default": dict(),
        "lr": dict(lr=0.05),
        "amsgrad": dict(lr=0.05, amsgrad=True),
        "weight_decay": dict(lr=0.05, weight_decay=0.1),
        "decoupled": dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
        "maximize_amsgrad": dict(lr=0.05, maximize=True, amsgrad=True, weight_decay=0.05),
        "low_beta1": dict(lr=0.05, betas=(0.3, 0.5), eps=1e-3),
    },
    "AdamW": {
        "default": dict(lr=0.05),
        "amsgrad": dict(lr=0.05, amsgrad=True, weight_decay=0.3),
        "maximize": dict(lr=0.05, maximize=True),
    },
    "Adamax": {
        "default": dict(lr=0.05),
        "weight_decay": dict(lr=0.05, weight_decay=0.1, betas=(0.8, 0.99)),
        "maximize": dict(lr=0.05, maximize=True),
    },
    "NAdam": {
        "default": dict(lr=0.05),
        "weight_decay": dict(lr=0.05, weight_decay=0.1),
        "decoupled": dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
        "momentum_decay": dict(lr=0.05, momentum_decay=0.05, maximize=True),
    },
    "RAdam": {
        "default": dict(lr=0.05),
        "weight_decay": dict(lr=0.05, weight_decay=0.1),
        "decoupled": dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
        "maximize": dict(lr=0.05, maximize=True, betas=(0.8, 0.9)),
    },
    "RMSprop": {
        "default": dict(lr=0.01),
        "centered": dict(lr=0.01, centered=True),
        "momentum": dict(lr=0.01, momentum=0.5),
        "centered_momentum_wd": dict(lr=0.01, centered=True, momentum=0.5, weight_decay=0.1),
        "maximize": dict(lr=0.01, alpha=0.9, maximize=True),
    },
    "Adagrad": {
        "default": dict(lr=0.1),
        "lr_decay": dict(lr=0.1, lr_decay=0.05),
        "initial_accumulator": dict(lr=0.1, initial_accumulator_value=0.5, eps=1e-3),
        "weight_decay_maximize": dict(lr=0.1, weight_decay=0.1, maximize=True),
    },
    "Adadelta": {
        "default": dict(),
        "rho_eps": dict(lr=0.5, rho=0.5, eps=1e-3),
        "weight_decay": dict(weight_decay=0.1),
        "maximize": dict(maximize=True),
    },
    "Adafactor": {
        "default": dict(),
        "lr_decay": dict(lr=0.1, beta2_decay=-0.5, weight_decay=0.1),
        "eps_d_maximize": dict(lr=0.05, eps=(1e-6, 1e-2), d=2.0, maximize=True),
    },
    "ASGD": {
        "default": dict(lr=0.01),
        "averaging": dict(lr=0.01, t0=5, lambd=0.01, alpha=0.5),
        "weight_decay_maximize": dict(lr=0.002, t0=3, weight_decay=0.1, maximize=True),
    },
    "Rprop": {
        "default": dict(lr=0.01),
        "etas_step_sizes": dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2)),
        "maximize": dict(lr=0.01, maximize=True),
    },
    "LBFGS": {
        "default": dict(lr=0.5, max_iter=4),
        "history": dict(lr=0.5, max_iter=5, history_size=2),
        "strong_wolfe": dict(lr=1, max_iter=4, line_search_fn="strong_wolfe"),
        "strong_wolfe_history": dict(
            lr=1, max_iter=10, history_size=3, line_search_fn="strong_wolfe"
        ),
        "max_eval": dict(lr=1, max_iter=10, max_eval=6, line_search_fn="strong_wolfe"),
        # float64: the float32 cases above also differ by the rounding of core's sums
        "default_f64": dict(lr=0.5, max_iter=4, _dtype="float64"),
        "history_f64": dict(lr=0.5, max_iter=5, history_size=2, _dtype="float64"),
        "strong_wolfe_f64": dict(lr=1, max_iter=4, line_search_fn="strong_wolfe", _dtype="float64"),
        "strong_wolfe_history_f64": dict(
            lr=1, max_iter=10, history_size=3, line_search_fn="strong_wolfe", _dtype="float64"
        ),
    },
}


def _sgd(torch, lr=1.0, momentum=0.9):
    return torch.optim.SGD([torch.zeros(1)], lr=lr, momentum=momentum)


def _two_groups(torch):
    return torch.optim.SGD(
        [{"params": [torch.zeros(1)]}, {"params": [torch.zeros(1)], "lr": 0.5}],
        lr=1.0,
        momentum=0.9,
    )


def _make(name, **kwargs):
    def build(torch, opt=None):
        opt = opt or _sgd(torch)
        return opt, getattr(torch.optim.lr_scheduler, name)(opt, **kwargs)

    return build


def _lambda(torch):
    opt = _two_groups(torch)
    fns = [lambda e: 0.9**e, lambda e: 1.0 / (e + 1)]
    return opt, torch.optim.lr_scheduler.LambdaLR(opt, fns)


def _multiplicative(torch):
    opt = _sgd(torch)
    return opt, torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.95)


def _adam_onecycle(torch):
    opt = torch.optim.Adam([torch.zeros(1)], lr=0.1)
    return opt, torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=40)


def _sequential(torch):
    opt = _sgd(torch)
    s = torch.optim.lr_scheduler
    warm = s.LinearLR(opt, start_factor=0.1, total_iters=5)
    cos = s.CosineAnnealingLR(opt, T_max=10)
    step = s.StepLR(opt, step_size=3, gamma=0.5)
    return opt, s.SequentialLR(opt, [warm, cos, step], milestones=[5, 15])


def _chained(torch):
    opt = _sgd(torch)
    s = torch.optim.lr_scheduler
    return opt, s.ChainedScheduler(
        [s.ConstantLR(opt, factor=0.5, total_iters=4), s.ExponentialLR(opt, gamma=0.9)]
    )


SCHEDULERS = {
    "LambdaLR": _lambda,
    "MultiplicativeLR": _multiplicative,
    "StepLR": _make("StepLR", step_size=4, gamma=0.5),
    "MultiStepLR": _make("MultiStepLR", milestones=[3, 7, 7, 20], gamma=0.3),
    "ConstantLR": _make("ConstantLR", factor=0.25, total_iters=6),
    "LinearLR": _make("LinearLR", start_factor=0.2, end_factor=0.9, total_iters=12),
    "ExponentialLR": _make("ExponentialLR", gamma=0.93),
    "PolynomialLR": _make("PolynomialLR", total_iters=20, power=2.0),
    "CosineAnnealingLR": _make("CosineAnnealingLR", T_max=8, eta_min=0.01),
    "CosineAnnealingWarmRestarts": _make(
        "CosineAnnealingWarmRestarts", T_0=3, T_mult=2, eta_min=0.05
    ),
    "CyclicLR_triangular": _make("CyclicLR", base_lr=0.1, max_lr=1.0, step_size_up=4),
    "CyclicLR_triangular2": _make(
        "CyclicLR", base_lr=0.1, max_lr=1.0, step_size_up=3, step_size_down=5, mode="triangular2"
    ),
    "CyclicLR_exp_range": _make(
        "CyclicLR", base_lr=0.1, max_lr=1.0, step_size_up=4, mode="exp_range", gamma=0.95
    ),
    "OneCycleLR_cos": _make("OneCycleLR", max_lr=2.0, total_steps=40),
    "OneCycleLR_linear_three_phase": _make(
        "OneCycleLR",
        max_lr=2.0,
        epochs=4,
        steps_per_epoch=10,
        anneal_strategy="linear",
        three_phase=True,
    ),
    "OneCycleLR_adam": _adam_onecycle,
    "ReduceLROnPlateau": _make("ReduceLROnPlateau", patience=2, factor=0.5, cooldown=1),
    "ReduceLROnPlateau_max_abs": _make(
        "ReduceLROnPlateau", mode="max", threshold_mode="abs", threshold=0.1, patience=1
    ),
    "SequentialLR": _sequential,
    "ChainedScheduler": _chained,
}


def plateau_metric(epoch: int) -> float:
    """A metric that improves, stalls, then improves a little."""
    return [5.0, 4.0, 3.9, 3.95, 3.99, 3.9, 3.0, 3.0][epoch % 8] + 0.01 * epoch


def momenta(opt) -> list:
    return [g["betas"][0] if "betas" in g else g.get("momentum") for g in opt.param_groups]


# Larger problems for the fused native updates (torch._C's optimizer kernels), compared
# bit for bit with PyTorch: tools/golden/record_optim.py records a digest of the
# parameters after each step (problems.fused_digests). The last size is above the kernels'
# threading threshold; foreach cases must give the single-tensor digests. PyTorch's
# fused=True CPU kernels take correctly rounded square roots, its other paths MKL's.
# PyTorch's foreach NAdam and RAdam order their arithmetic differently from its
# single-tensor ones; here foreach=True gives the single-tensor results for every optimizer.
FUSED_SIZES = (31, 1000, 40000)
FUSED_STEPS = 4
FUSED = {
    "Adam/default": ("Adam", dict(lr=0.01)),
    "Adam/amsgrad_l2_maximize": (
        "Adam",
        dict(lr=0.01, amsgrad=True, weight_decay=0.1, maximize=True, betas=(0.3, 0.9)),
    ),
    "Adam/decoupled_foreach": (
        "Adam",
        dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, foreach=True),
    ),
    "AdamW/default": ("AdamW", dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6)),
    "AdamW/amsgrad_foreach": ("AdamW", dict(lr=0.01, amsgrad=True, foreach=True)),
    "SGD/plain": ("SGD", dict(lr=0.01)),
    "SGD/momentum_dampening_wd": (
        "SGD",
        dict(lr=0.01, momentum=0.9, dampening=0.2, weight_decay=0.1),
    ),
    "SGD/nesterov_maximize_foreach": (
        "SGD",
        dict(lr=0.01, momentum=0.9, nesterov=True, maximize=True, foreach=True),
    ),
    "RMSprop/default": ("RMSprop", dict(lr=0.01)),
    "RMSprop/centered_momentum_wd": (
        "RMSprop",
        dict(lr=0.01, centered=True, momentum=0.5, weight_decay=0.1, alpha=0.3),
    ),
    "RMSprop/momentum_maximize_foreach": (
        "RMSprop",
        dict(lr=0.01, momentum=0.5, maximize=True, foreach=True),
    ),
    "Adagrad/default": ("Adagrad", dict(lr=0.1)),
    "Adagrad/fused": ("Adagrad", dict(lr=0.1, lr_decay=0.05, fused=True)),
    "Adamax/default": ("Adamax", dict(lr=0.01)),
    "Adamax/wd_maximize_foreach": (
        "Adamax",
        dict(lr=0.01, weight_decay=0.1, maximize=True, betas=(0.8, 0.99), foreach=True),
    ),
    "Adadelta/default": ("Adadelta", dict()),
    "ASGD/default": ("ASGD", dict(lr=0.01)),
    "ASGD/averaging_wd_maximize": (
        "ASGD",
        dict(lr=0.01, t0=2, lambd=0.01, alpha=0.5, weight_decay=0.1, maximize=True, _steps=6),
    ),
    "NAdam/default": ("NAdam", dict(lr=0.01)),
    "NAdam/wd_momentum_decay_maximize": (
        "NAdam",
        dict(lr=0.01, weight_decay=0.1, momentum_decay=0.05, maximize=True),
    ),
    "NAdam/decoupled": ("NAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    # 7 steps: the first five (rho_t <= 5) take the unrectified branch, later ones the
    # rectified one
    "RAdam/default": ("RAdam", dict(lr=0.01, _steps=7)),
    "RAdam/wd_maximize": ("RAdam", dict(lr=0.01, weight_decay=0.1, maximize=True, _steps=7)),
    "RAdam/decoupled": (
        "RAdam",
        dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, _steps=7),
    ),
    "Adadelta/rho_wd_maximize_foreach": (
        "Adadelta",
        dict(lr=0.5, rho=0.5, eps=1e-3, weight_decay=0.1, maximize=True, foreach=True),
    ),
    "Adam/fused_amsgrad_l2": ("Adam", dict(lr=0.01, amsgrad=True, weight_decay=0.1, fused=True)),
    "AdamW/fused_maximize": ("AdamW", dict(lr=0.01, maximize=True, fused=True)),
    "SGD/fused_momentum": ("SGD", dict(lr=0.01, momentum=0.9, fused=True)),
    "Adagrad/decay_wd_maximize_foreach": (
        "Adagrad",
        dict(
            lr=0.1,
            lr_decay=0.05,
            weight_decay=0.1,
            initial_accumulator_value=0.5,
            maximize=True,
            foreach=True,
        ),
    ),
}


# SparseAdam on sparse gradients naming a few rows (some twice) of an embedding-like
# matrix and a few entries of a vector (problems.sparse_trajectory).
SPARSE_STEPS = 15
SPARSE = {
    "default": dict(lr=0.05),
    "betas_eps": dict(lr=0.1, betas=(0.5, 0.9), eps=1e-4),
    "maximize": dict(lr=0.05, maximize=True),
    "default_f64": dict(lr=0.05, _dtype="float64"),
}

# SGD and Adagrad take sparse gradients too (same problem).
SPARSE_OTHERS = {
    "SGD/plain": ("SGD", dict(lr=0.1)),
    "SGD/momentum_dampening": ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.3)),
    "SGD/nesterov_maximize": ("SGD", dict(lr=0.1, momentum=0.5, nesterov=True, maximize=True)),
    "Adagrad/default": ("Adagrad", dict(lr=0.1)),
    "Adagrad/lr_decay_initial_maximize": (
        "Adagrad",
        dict(lr=0.1, lr_decay=0.05, initial_accumulator_value=0.5, maximize=True),
    ),
    "Adagrad/default_f64": ("Adagrad", dict(lr=0.1, eps=1e-6, _dtype="float64")),
}


# Every optimizer and option that selects a branch of its update, on parameters of mixed
# sizes and layouts (problems.path_digests), recorded from this project itself
# (record_paths.py) through each implementation: the native kernels and the tensor-op
# reference. test_paths.py replays them bit for bit, so that restructuring the
# optimizers cannot change a single rounding.
PATHS_STEPS = 20
PATHS = {
    "SGD/plain": ("SGD", dict(lr=0.05)),
    "SGD/weight_decay": ("SGD", dict(lr=0.05, weight_decay=0.1)),
    "SGD/momentum": ("SGD", dict(lr=0.05, momentum=0.9)),
    "SGD/dampening_wd_maximize": (
        "SGD",
        dict(lr=0.05, momentum=0.8, dampening=0.3, weight_decay=0.1, maximize=True),
    ),
    "SGD/nesterov": ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True)),
    "SGD/nesterov_foreach": ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, foreach=True)),
    "Adam/default": ("Adam", dict(lr=0.01)),
    "Adam/amsgrad": ("Adam", dict(lr=0.01, amsgrad=True)),
    "Adam/amsgrad_maximize_wd": (
        "Adam",
        dict(lr=0.01, amsgrad=True, maximize=True, weight_decay=0.1, betas=(0.3, 0.9)),
    ),
    "Adam/decoupled": ("Adam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    "Adam/fused": ("Adam", dict(lr=0.01, weight_decay=0.1, fused=True)),
    "Adam/foreach_eps": ("Adam", dict(lr=0.01, eps=1e-3, foreach=True)),
    "AdamW/default": ("AdamW", dict(lr=0.01)),
    "AdamW/amsgrad_maximize": ("AdamW", dict(lr=0.01, amsgrad=True, maximize=True)),
    "Adagrad/default": ("Adagrad", dict(lr=0.1)),
    "Adagrad/lr_decay_initial": (
        "Adagrad",
        dict(lr=0.1, lr_decay=0.05, initial_accumulator_value=0.5, eps=1e-3),
    ),
    "Adagrad/wd_maximize": ("Adagrad", dict(lr=0.1, weight_decay=0.1, maximize=True)),
    "Adagrad/fused": ("Adagrad", dict(lr=0.1, fused=True)),
    "Adagrad/foreach": ("Adagrad", dict(lr=0.1, lr_decay=0.01, foreach=True)),
    "Adadelta/default": ("Adadelta", dict()),
    "Adadelta/rho_wd_maximize": (
        "Adadelta",
        dict(lr=0.5, rho=0.5, eps=1e-3, weight_decay=0.1, maximize=True),
    ),
    "Adamax/default": ("Adamax", dict(lr=0.01)),
    "Adamax/wd_maximize_foreach": (
        "Adamax",
        dict(lr=0.01, weight_decay=0.1, maximize=True, betas=(0.8, 0.99), foreach=True),
    ),
    "ASGD/default": ("ASGD", dict(lr=0.01)),
    "ASGD/averaging_wd_maximize": (
        "ASGD",
        dict(lr=0.01, t0=3, lambd=0.01, alpha=0.5, weight_decay=0.1, maximize=True),
    ),
    "NAdam/default": ("NAdam", dict(lr=0.01)),
    "NAdam/wd": ("NAdam", dict(lr=0.01, weight_decay=0.1)),
    "NAdam/decoupled_foreach": (
        "NAdam",
        dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, foreach=True),
    ),
    "NAdam/momentum_decay_maximize": ("NAdam", dict(lr=0.01, momentum_decay=0.05, maximize=True)),
    "RAdam/default": ("RAdam", dict(lr=0.01)),
    "RAdam/wd_maximize": ("RAdam", dict(lr=0.01, weight_decay=0.1, maximize=True)),
    "RAdam/decoupled": ("RAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    "RMSprop/default": ("RMSprop", dict(lr=0.01)),
    "RMSprop/centered": ("RMSprop", dict(lr=0.01, centered=True)),
    "RMSprop/momentum": ("RMSprop", dict(lr=0.01, momentum=0.5)),
    "RMSprop/centered_momentum_wd_maximize": (
        "RMSprop",
        dict(lr=0.01, centered=True, momentum=0.5, weight_decay=0.1, maximize=True, alpha=0.9),
    ),
    "Rprop/default": ("Rprop", dict(lr=0.01)),
    "Rprop/etas_maximize": (
        "Rprop",
        dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2), maximize=True),
    ),
}
# sparse gradients (problems.sparse_trajectory) and LBFGS (problems.make's problem)
PATHS_SPARSE = {
    "SparseAdam/default": ("SparseAdam", dict(lr=0.05)),
    "SparseAdam/maximize": ("SparseAdam", dict(lr=0.05, maximize=True, betas=(0.5, 0.9))),
    "SGD/sparse_momentum": ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.3)),
    "Adagrad/sparse": ("Adagrad", dict(lr=0.1, lr_decay=0.05, initial_accumulator_value=0.5)),
}
PATHS_LBFGS = {
    "LBFGS/default": dict(lr=0.5, max_iter=4),
    "LBFGS/strong_wolfe": dict(lr=1, max_iter=4, line_search_fn="strong_wolfe"),
}
