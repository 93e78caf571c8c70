"""The Optimizer base: groups, zero_grad, closures, hooks, state dicts."""

import copy
import warnings

import pytest

import torch
from torch.optim.optimizer import (
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
)


def _sgd(*params, **kwargs):
    return torch.optim.SGD(list(params) or [torch.zeros(2)], lr=0.1, **kwargs)


def test_groups_take_defaults_and_override_them():
    a, b = torch.zeros(1), torch.zeros(1)
    opt = torch.optim.Adam([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert opt.param_groups[1]["params"] == [b]
    assert opt.defaults["betas"] == (0.9, 0.999)


def test_add_param_group_rejects_duplicates_and_non_tensors():
    w = torch.zeros(1)
    opt = _sgd(w)
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [w]})
    with pytest.raises(TypeError, match="can only optimize Tensors"):
        opt.add_param_group({"params": [1.0]})
    with pytest.raises(TypeError, match="ordered collections"):
        opt.add_param_group({"params": {torch.zeros(1)}})
    with pytest.raises(TypeError, match="param_group must be a dict"):
        opt.add_param_group([torch.zeros(1)])


def test_required_lr_must_be_given_per_group():
    from torch.optim.optimizer import required

    with pytest.raises(ValueError, match="didn't specify a value of required"):
        torch.optim.SGD([torch.zeros(1)], lr=required)


def test_named_parameters_are_recorded():
    opt = torch.optim.SGD([("w", torch.zeros(1)), ("b", torch.zeros(1))], lr=0.1)
    assert opt.param_groups[0]["param_names"] == ["w", "b"]
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["w", "b"]


def test_zero_grad_in_place_keeps_the_tensor():
    w = torch.zeros(2)
    grad = w.grad = torch.ones(2)
    opt = _sgd(w)
    opt.zero_grad(set_to_none=False)
    assert w.grad is grad and grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


def test_step_returns_the_closure_loss_computed_with_grad_enabled():
    w = torch.ones(1)
    seen = []

    def closure():
        seen.append(torch.is_grad_enabled())
        w.grad = torch.ones(1)
        return 3.0

    with torch.no_grad():
        assert torch.optim.Adam([w]).step(closure) == 3.0
    assert seen == [True]


def test_step_hooks_run_in_order_and_can_replace_arguments():
    w = torch.ones(1)
    w.grad = torch.ones(1)
    opt = _sgd(w)
    calls = []
    h1 = register_optimizer_step_pre_hook(lambda o, a, k: calls.append("global pre"))
    h2 = opt.register_step_pre_hook(lambda o, a, k: calls.append("pre"))
    h3 = opt.register_step_post_hook(lambda o, a, k: calls.append("post"))
    h4 = register_optimizer_step_post_hook(lambda o, a, k: calls.append("global post"))
    opt.step()
    for h in (h1, h2, h3, h4):
        h.remove()
    opt.step()
    assert calls == ["global pre", "pre", "post", "global post"]

    def replace(o, args, kwargs):
        return (), {"closure": lambda: 7.0}

    opt.register_step_pre_hook(replace)
    assert opt.step() == 7.0


def test_a_bad_pre_hook_result_raises():
    opt = _sgd()
    opt.register_step_pre_hook(lambda o, a, k: 5)
    with pytest.raises(RuntimeError, match="must return None or a tuple"):
        opt.step()


def test_state_dict_references_params_by_index():
    a, b = torch.ones(2), torch.ones(3)
    a.grad, b.grad = torch.ones(2), torch.ones(3)
    opt = torch.optim.Adam([{"params": [a]}, {"params": [b], "lr": 0.5}])
    opt.step()
    sd = opt.state_dict()
    assert [g["params"] for g in sd["param_groups"]] == [[0], [1]]
    assert sorted(sd["state"]) == [0, 1]
    assert sorted(sd["state"][1]) == ["exp_avg", "exp_avg_sq", "step"]


def test_load_state_dict_casts_state_to_the_new_params_dtype():
    w = torch.ones(2)
    w.grad = torch.ones(2)
    opt = torch.optim.Adam([w], lr=0.3)
    opt.step()
    v = torch.ones(2, dtype=torch.float64)
    fresh = torch.optim.Adam([v])
    fresh.load_state_dict(opt.state_dict())
    state = fresh.state[v]
    assert state["exp_avg"].dtype == torch.float64
    assert state["step"].dtype == torch.float32  # step counters keep their dtype
    assert fresh.param_groups[0]["lr"] == 0.3 and fresh.param_groups[0]["params"] == [v]
    # the loaded state is a copy, not the saved tensors
    assert state["exp_avg"] is not opt.state[w]["exp_avg"]


def test_load_state_dict_checks_the_group_layout():
    opt = _sgd(torch.zeros(1), torch.zeros(1))
    other = torch.optim.SGD([{"params": [torch.zeros(1)]}, {"params": [torch.zeros(1)]}], lr=0.1)
    with pytest.raises(ValueError, match="different number of parameter groups"):
        opt.load_state_dict(other.state_dict())
    with pytest.raises(ValueError, match="doesn't match the size"):
        opt.load_state_dict(_sgd(torch.zeros(1)).state_dict())


def test_state_dict_hooks():
    opt = _sgd()
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
    assert opt.state_dict()["extra"] == 1
    seen = []
    opt.register_load_state_dict_post_hook(lambda o: seen.append("loaded"))
    opt.load_state_dict(_sgd().state_dict())
    assert seen == ["loaded"]


def test_deepcopy_and_repr():
    opt = torch.optim.SGD([torch.zeros(1)], lr=0.1, momentum=0.9)
    clone = copy.deepcopy(opt)
    assert clone.param_groups[0]["momentum"] == 0.9
    text = repr(opt)
    assert text.startswith("SGD (\nParameter Group 0\n") and "    momentum: 0.9" in text


def test_non_leaf_tensors_cannot_be_optimized_without_differentiable():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w = torch.zeros(1)
    assert w.is_leaf


def test_lbfgs_rejects_parameter_groups():
    with pytest.raises(ValueError, match="doesn't support per-parameter options"):
        torch.optim.LBFGS([{"params": [torch.zeros(1)]}, {"params": [torch.zeros(1)]}])


# ------------------------------------------- behaviours compared with PyTorch 2.13 by ptdiff


def test_repr_separates_groups_by_a_blank_line_as_pytorch():
    opt = torch.optim.SGD([torch.zeros(1)], lr=0.1)
    opt.add_param_group({"params": [torch.zeros(1)], "lr": 0.3})
    options = (
        "    dampening: 0\n    differentiable: False\n    foreach: None\n    fused: None\n"
        "    lr: {lr}\n    maximize: False\n    momentum: 0\n    nesterov: False\n"
        "    weight_decay: 0\n"
    )
    expected = (
        "SGD (\nParameter Group 0\n"
        + options.format(lr=0.1)
        + "\nParameter Group 1\n"
        + options.format(lr=0.3)
        + ")"
    )
    assert repr(opt) == expected


def test_sgd_defaults_are_integers_as_pytorch():
    defaults = torch.optim.SGD([torch.zeros(1)]).defaults
    for key in ("momentum", "dampening", "weight_decay"):
        assert defaults[key] == 0 and type(defaults[key]) is int


def test_duplicate_parameters_within_a_group_warn():
    w = torch.zeros(1)
    with pytest.warns(UserWarning, match="duplicate parameters; in future, this will cause"):
        torch.optim.SGD([w, w], lr=0.1)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "Rprop"])
def test_a_tensor_lr_must_hold_one_element(name):
    with pytest.raises(ValueError, match="^Tensor lr must be 1-element$"):
        getattr(torch.optim, name)([torch.zeros(1)], lr=torch.tensor([0.1, 0.2]))


def test_load_state_dict_takes_matching_state_tensors_without_copying_as_pytorch():
    # PyTorch 2.x casts state to the parameter's dtype/device and copies nothing else:
    # the loaded optimizer shares the dict's tensors (deepcopy the dict to keep a snapshot)
    w = torch.zeros(2)
    w.grad = torch.ones(2)
    opt = torch.optim.Adam([w], lr=0.1)
    opt.step()
    saved = opt.state_dict()
    fresh = torch.zeros(2)
    other = torch.optim.Adam([fresh], lr=0.1)
    other.load_state_dict(saved)
    assert other.state[fresh]["exp_avg"] is saved["state"][0]["exp_avg"]
    assert other.state[fresh]["step"] is saved["state"][0]["step"]
    wide = torch.zeros(2, dtype=torch.float64)
    cast = torch.optim.Adam([wide], lr=0.1)
    cast.load_state_dict(saved)
    assert cast.state[wide]["exp_avg"].dtype == torch.float64
    assert cast.state[wide]["step"].dtype == torch.float32
