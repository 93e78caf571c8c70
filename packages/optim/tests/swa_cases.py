# ruff: noqa: E501 - the cases are code snippets, one per line
"""``torch.optim.swa_utils`` snippets whose outcome tools/golden/record_optim_swa.py
records under real PyTorch 2.13 and test_swa_utils.py replays. Each snippet's last line
is an expression; tensors become (nested) lists, compared to a relative 1e-6
(optim_snippets.close)."""

from __future__ import annotations

import re
import warnings

_IMPORTS = "import torch\nfrom torch.optim import swa_utils\n"

_MODELS = (
    _IMPORTS + "torch.manual_seed(0)\n"
    "net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))\n"
    "def perturb(k):\n"
    "    with torch.no_grad():\n"
    "        for i, p in enumerate(net.parameters()):\n"
    "            p.copy_(torch.linspace(-1.0, 1.0, p.numel()).reshape(p.shape) * (k + 1) + 0.1 * i)\n"
    "        net[1].running_mean.fill_(float(k))\n"
    "        net[1].running_var.fill_(float(k + 2))\n"
)


def _looped(setup: str, times: int, body: tuple[str, ...], result: str, index: str = "_") -> str:
    """``setup``, then ``body`` run ``times`` times (``index`` counting), then ``result``."""
    loop = f"for {index} in range({times}):\n" + "".join(f"    {line}\n" for line in body)
    return setup + loop + result


# a single-parameter SGD optimizer at lr 1.0, what SWALR schedules
_ONE_PARAM = "[torch.zeros(1, requires_grad=True)]"
_OPT = _IMPORTS + f"opt = torch.optim.SGD({_ONE_PARAM}, lr=1.0)\n"


def _schedule(args: str, steps: int = 14, groups: str = _ONE_PARAM) -> str:
    setup = (
        _IMPORTS + f"opt = torch.optim.SGD({groups}, lr=1.0)\n"
        f"sched = swa_utils.SWALR(opt, {args})\n"
        "lrs = [sched.get_last_lr()]\n"
    )
    return _looped(
        setup, steps, ("opt.step()", "sched.step()", "lrs.append(sched.get_last_lr())"), "lrs"
    )


def _average(
    args: str, updates: int = 3, show: str = "[p.tolist() for p in avg.parameters()]"
) -> str:
    setup = _MODELS + f"avg = swa_utils.AveragedModel(net{args})\n"
    return _looped(setup, updates, ("perturb(k)", "avg.update_parameters(net)"), show, index="k")


CASES = {
    "swalr_cos": _schedule("swa_lr=0.05, anneal_epochs=5"),
    "swalr_linear": _schedule("swa_lr=0.05, anneal_epochs=4, anneal_strategy='linear'"),
    "swalr_default_epochs": _schedule("swa_lr=0.2"),
    "swalr_zero_epochs": _schedule("swa_lr=0.3, anneal_epochs=0", steps=3),
    "swalr_groups": _schedule(
        "swa_lr=[0.1, 0.01], anneal_epochs=3",
        steps=5,
        groups="[{'params': [torch.zeros(1, requires_grad=True)]}, {'params': [torch.zeros(1, requires_grad=True)], 'lr': 0.5}]",
    ),
    "swalr_swa_lr_in_groups": _OPT
    + "swa_utils.SWALR(opt, swa_lr=0.05)\nopt.param_groups[0]['swa_lr']",
    "swalr_state_dict": _OPT + "sorted(swa_utils.SWALR(opt, swa_lr=0.05).state_dict())",
    "swalr_load_state_dict": _OPT
    + "s1 = swa_utils.SWALR(opt, swa_lr=0.05, anneal_strategy='linear')\n"
    "s2 = swa_utils.SWALR(opt, swa_lr=0.05)\ns2.load_state_dict(s1.state_dict())\nopt.step()\ns2.step()\n(s2.anneal_func(0.5), s2.get_last_lr())",
    "err_swalr_strategy": _OPT + "swa_utils.SWALR(opt, 0.1, anneal_strategy='exp')",
    "err_swalr_epochs_negative": _OPT + "swa_utils.SWALR(opt, 0.1, anneal_epochs=-1)",
    "err_swalr_epochs_float": _OPT + "swa_utils.SWALR(opt, 0.1, anneal_epochs=2.0)",
    "err_swalr_lr_list": _OPT + "swa_utils.SWALR(opt, [0.1, 0.2])",
    # averages
    "swa_mean": _average(""),
    "swa_mean_one_update": _average("", updates=1),
    "swa_n_averaged": _average("", show="(avg.n_averaged.item(), avg.n_averaged.dtype)"),
    "swa_buffers_follow": _average(
        "",
        show="(avg.module[1].running_mean.tolist(), avg.module[1].running_var.tolist(), avg.module[1].num_batches_tracked.item())",
    ),
    "swa_use_buffers": _average(
        ", use_buffers=True",
        show="(avg.module[1].running_mean.tolist(), avg.module[1].running_var.tolist(), [p.tolist() for p in avg.module.parameters()])",
    ),
    "ema_multi": _average(", multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.9)", updates=4),
    "ema_multi_buffers": _average(
        ", multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.5), use_buffers=True",
        show="(avg.module[1].running_mean.tolist(), avg.module[1].num_batches_tracked.item())",
    ),
    "ema_avg_fn": _average(", avg_fn=swa_utils.get_ema_avg_fn(0.8)", updates=4),
    "swa_multi_fn": _average(", multi_avg_fn=swa_utils.get_swa_multi_avg_fn()", updates=4),
    "swa_avg_fn": _average(", avg_fn=swa_utils.get_swa_avg_fn()", updates=4),
    "custom_avg_fn": _average(", avg_fn=lambda a, c, n: a + c + n", updates=3),
    "state_dict_keys": _average("", updates=1, show="list(avg.state_dict())"),
    "forward": _average("", show="avg.eval()(torch.ones(2, 3)).tolist()"),
    "deep_copy": _average(
        "", updates=1, show="(avg.module is net, avg.module[0].weight is net[0].weight)"
    ),
    "multi_fns_direct": _IMPORTS
    + "a = [torch.tensor([1.0, 2.0]), torch.tensor([5.0])]\nb = [torch.tensor([3.0, 6.0]), torch.tensor([1.0])]\n"
    "swa_utils.get_swa_multi_avg_fn()(a, b, torch.tensor(1))\nswa_utils.get_ema_multi_avg_fn(0.25)(a, b, 0)\n[t.tolist() for t in a]",
    "err_swa_multi_int_scalar": _IMPORTS
    + "swa_utils.get_swa_multi_avg_fn()([torch.tensor([4, 8])], [torch.tensor([8, 0])], 1)",
    "err_swa_multi_int_tensor": _IMPORTS
    + "swa_utils.get_swa_multi_avg_fn()([torch.tensor([4, 8])], [torch.tensor([8, 0])], torch.tensor(1))",
    "ema_int_multi": _IMPORTS
    + "a = [torch.tensor([4, 8])]\nswa_utils.get_ema_multi_avg_fn(0.5)(a, [torch.tensor([8, 1])], 0)\na[0].tolist()",
    "err_both_fns": _MODELS
    + "swa_utils.AveragedModel(net, avg_fn=swa_utils.get_swa_avg_fn(), multi_avg_fn=swa_utils.get_swa_multi_avg_fn())",
    "err_ema_decay": _IMPORTS + "swa_utils.get_ema_multi_avg_fn(1.5)",
    "err_ema_avg_decay": _IMPORTS + "swa_utils.get_ema_avg_fn(-0.1)",
    # update_bn
    "update_bn": _MODELS
    + "loader = [(torch.linspace(-2, 3, 12).reshape(4, 3) * (i + 1), torch.zeros(4)) for i in range(3)]\n"
    "net.eval()\nnet[1].momentum = 0.3\nswa_utils.update_bn(loader, net)\n"
    "(net[1].running_mean.tolist(), net[1].running_var.tolist(), net[1].num_batches_tracked.item(), net[1].momentum, net.training)",
    "update_bn_plain_batches": _MODELS
    + "loader = [torch.linspace(-2, 3, 12).reshape(4, 3) ** (i + 1) for i in range(2)]\nswa_utils.update_bn(loader, net)\n"
    "(net[1].running_mean.tolist(), net[1].running_var.tolist(), net.training)",
    "update_bn_averaged_model": _average(
        "",
        updates=2,
        show="swa_utils.update_bn([torch.ones(4, 3) * 2, torch.arange(12.0).reshape(4, 3)], avg)\navg.module[1].running_mean.tolist()",
    ),
    "update_bn_no_bn": _IMPORTS + "swa_utils.update_bn([torch.ones(2, 2)], torch.nn.Linear(2, 2))",
    "public_names": _IMPORTS + "sorted(swa_utils.__all__)",
}


def _plain(value):
    if hasattr(value, "tolist") and not isinstance(value, (list, tuple)):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return repr(value)


def outcome(code: str) -> dict:
    """What running ``code`` gives: ``{"value": json-able}`` or ``{"error", "message"}``."""
    lines = code.split("\n")
    scope: dict = {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec("\n".join(lines[:-1]), scope)
            value = eval(lines[-1], scope)
    except BaseException as error:  # noqa: BLE001 - the recorded outcome
        message = re.sub(r" at 0x[0-9a-f]+", " at 0x...", str(error))
        return {"error": type(error).__name__, "message": message}
    return {"value": _plain(value)}
