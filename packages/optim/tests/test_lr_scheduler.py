"""Schedulers: learning-rate (and momentum) sequences against real PyTorch's, state dicts,
the step-order warning."""

import warnings

import cases_optim
import numpy as np
import pytest
from optim_testing import load_golden as _load

import torch
from torch.optim import lr_scheduler


def _run(build, epochs, sched_and_opt=None, first_epoch=0):
    opt, sched = sched_and_opt or build(torch)
    lrs, momenta = [], []
    for epoch in range(first_epoch, first_epoch + epochs):
        opt.step()
        if isinstance(sched, lr_scheduler.ReduceLROnPlateau):
            sched.step(cases_optim.plateau_metric(epoch))
        else:
            sched.step()
        lrs.append(sched.get_last_lr())
        momenta.append(cases_optim.momenta(opt))
    return lrs, momenta


@pytest.mark.parametrize("label", list(cases_optim.SCHEDULERS))
def test_schedule_matches_pytorch(label):
    expected = _load("lr_schedules")[label]
    lrs, momenta = _run(cases_optim.SCHEDULERS[label], cases_optim.EPOCHS)
    np.testing.assert_allclose(lrs, expected["lrs"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(momenta, expected["momenta"], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("label", list(cases_optim.SCHEDULERS))
def test_state_dict_resume_continues_the_schedule(label):
    build = cases_optim.SCHEDULERS[label]
    expected, _ = _run(build, 20)
    opt, sched = build(torch)
    _run(build, 8, (opt, sched))
    saved_sched, saved_opt = sched.state_dict(), opt.state_dict()
    opt2, sched2 = build(torch)
    opt2.load_state_dict(saved_opt)
    sched2.load_state_dict(saved_sched)
    got, _ = _run(build, 12, (opt2, sched2), first_epoch=8)
    np.testing.assert_allclose(got, expected[8:], rtol=1e-12)


def test_warns_when_stepped_before_the_optimizer():
    opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
    sched = lr_scheduler.StepLR(opt, step_size=1)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`") as record:
        sched.step()
    # PyTorch's text ends with a link to the documentation
    assert str(record[0].message).endswith(
        "schedule. See more details at "
        "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
    )


def test_no_warning_in_the_right_order_and_get_lr_outside_step_warns():
    opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
    sched = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        sched.step()
    with pytest.warns(UserWarning, match="get_last_lr"):
        sched.get_lr()


def test_closed_form_with_an_epoch_argument_warns_and_jumps():
    opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
    sched = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    opt.step()
    with pytest.warns(UserWarning, match="epoch parameter") as record:
        sched.step(5)
    assert str(record[0].message).endswith(
        "use case: https://github.com/pytorch/pytorch/issues/new/choose."
    )
    assert sched.get_last_lr() == [0.25]


def test_bad_arguments():
    opt = torch.optim.SGD([torch.zeros(1)], lr=1.0)
    with pytest.raises(TypeError, match="is not an Optimizer"):
        lr_scheduler.StepLR(object(), step_size=1)
    with pytest.raises(KeyError, match="initial_lr") as error:
        lr_scheduler.StepLR(opt, step_size=1, last_epoch=3)
    assert "2. You're using last_epoch >= 0 for a fresh training run" in str(error.value)
    with pytest.raises(ValueError, match="Factor should be < 1.0"):
        lr_scheduler.ReduceLROnPlateau(opt, factor=2.0)
    with pytest.raises(ValueError, match="Expected positive integer T_0"):
        lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0)
    with pytest.raises(ValueError, match="total_steps OR"):
        lr_scheduler.OneCycleLR(opt, max_lr=1.0)
    with pytest.raises(ValueError, match="Expected 1 lr_lambdas"):
        lr_scheduler.LambdaLR(opt, [lambda e: 1.0, lambda e: 1.0])
    with pytest.raises(ValueError, match="does not support `ReduceLROnPlateau`"):
        lr_scheduler.ChainedScheduler([lr_scheduler.ReduceLROnPlateau(opt)])
