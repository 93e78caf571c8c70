"""torch.nn.modules.module: registration, state_dict, conversions, hooks."""

import copy
import pickle
import re
from collections import OrderedDict

import pytest

import torch
from torch import nn


def same(a, b) -> bool:
    return a.shape == b.shape and bool((a == b).all())


def close(a, b, atol=1e-6) -> bool:
    return a.shape == b.shape and bool(((a - b).abs() <= atol).all())


class Net(nn.Module):
    """The model of tools/golden/record_nn.py's state_dict cases."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.bn = nn.BatchNorm2d(2)
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("scratch", torch.zeros(1), persistent=False)
        self.head = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
        self.scale = nn.Parameter(torch.ones(1))


# ------------------------------------------------------------------ golden: state_dict


def test_names_and_key_order_match_pytorch(golden):
    expected = golden("state_dict")
    net = Net()
    assert list(net.state_dict()) == expected["keys"]
    assert [n for n, _ in net.named_parameters()] == expected["named_parameters"]
    assert [n for n, _ in net.named_buffers()] == expected["named_buffers"]
    assert [n for n, _ in net.named_modules()] == expected["named_modules"]
    assert list(net.head.state_dict(prefix="h.")) == expected["prefixed"]
    assert repr(net) == expected["repr"]


def _load(model, state, strict=True):
    try:
        result = model.load_state_dict(state, strict=strict)
        return {
            "missing": result.missing_keys,
            "unexpected": result.unexpected_keys,
            "repr": repr(result),
        }
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}


@pytest.mark.parametrize(
    "case",
    [
        "load_ok", "load_missing", "load_missing_nonstrict", "load_unexpected",
        "load_unexpected_nonstrict", "load_both", "load_shape", "load_shape_nonstrict",
    ],
)  # fmt: skip
def test_load_state_dict_results_and_errors_match_pytorch(golden, case):
    state = Net().state_dict()
    missing = {k: v for k, v in state.items() if not k.startswith("bn.")}
    extra = dict(state, **{"head.1.weight": torch.zeros(1), "bogus": torch.zeros(1)})
    wrong = dict(state, **{"conv.weight": torch.zeros(3, 1, 3, 3)})
    inputs = {
        "load_ok": (state, True),
        "load_missing": (missing, True),
        "load_missing_nonstrict": (missing, False),
        "load_unexpected": (extra, True),
        "load_unexpected_nonstrict": (extra, False),
        "load_both": (dict(missing, bogus=torch.zeros(1)), True),
        "load_shape": (wrong, True),
        "load_shape_nonstrict": (wrong, False),
    }
    assert _load(Net(), *inputs[case]) == golden("state_dict")[case]


def test_load_state_dict_copies_values_and_keeps_parameter_identity():
    source, target = Net(), Net()
    weight = target.conv.weight
    target.load_state_dict(source.state_dict())
    assert target.conv.weight is weight
    assert same(target.conv.weight, source.conv.weight)
    assert same(target.bn.running_var, source.bn.running_var)


def test_load_state_dict_assign_replaces_tensors():
    net = nn.Linear(2, 2)
    new = {"weight": torch.ones(2, 2), "bias": torch.zeros(2)}
    net.load_state_dict(new, assign=True)
    assert isinstance(net.weight, nn.Parameter) and same(net.weight, torch.ones(2, 2))


def test_state_dict_detaches_unless_keep_vars():
    net = nn.Linear(2, 2)
    assert not net.state_dict()["weight"].requires_grad
    assert net.state_dict(keep_vars=True)["weight"] is net.weight


def test_load_state_dict_rejects_non_mappings():
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
        nn.Linear(1, 1).load_state_dict([1, 2])


def test_extra_state_round_trips():
    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.count = 0

        def get_extra_state(self):
            return {"count": self.count}

        def set_extra_state(self, state):
            self.count = state["count"]

    a, b = Counter(), Counter()
    a.count = 5
    assert list(a.state_dict()) == ["_extra_state"]
    b.load_state_dict(a.state_dict())
    assert b.count == 5


# --------------------------------------------------------------- golden: error paths

ERROR_KEYS = [
    "param_dot", "param_empty", "param_type", "param_name_type", "param_exists",
    "buffer_dot", "buffer_empty", "buffer_type", "buffer_exists", "module_dot",
    "module_empty", "module_type", "module_exists", "assign_param", "assign_module",
    "getattr", "get_submodule", "get_submodule_missing", "get_parameter",
    "get_parameter_not", "to_int", "train_type", "conv_groups", "conv_padding",
    "conv_same_stride", "conv_mode", "linear_shape", "bn_dim", "dropout_p", "groupnorm",
    "ce_target", "seq_index", "mlist_index", "mdict_key", "gain", "fan", "kaiming_mode",
]  # fmt: skip


@pytest.mark.parametrize("key", ERROR_KEYS)
def test_errors_match_pytorch(golden, key):
    case = golden("errors")[key]
    m = nn.Linear(2, 2)  # noqa: F841  (the sources refer to it)
    with pytest.raises(Exception) as info:
        eval(case["source"])
    assert type(info.value).__name__ == case["error"]
    assert _sets_sorted(str(info.value)) == _sets_sorted(case["message"])


def _sets_sorted(message: str) -> str:
    """PyTorch prints some Python sets, whose order varies between runs: sort them."""
    return re.sub(
        r"\{([^{}]*)\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", message
    )


# ---------------------------------------------------------------------- registration


def test_assignment_registers_and_reassignment_moves_between_tables():
    m = nn.Module()
    m.a = nn.Parameter(torch.zeros(1))
    m.b = nn.Linear(1, 1)
    m.register_buffer("c", torch.zeros(1))
    assert list(m._parameters) == ["a"] and list(m._modules) == ["b"]
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' as parameter 'a'"):
        m.a = torch.zeros(1)
    del m.a
    m.a = nn.ReLU()  # the freed name now holds a module
    assert "a" not in m._parameters and isinstance(m.a, nn.ReLU)
    m.c = torch.ones(2)  # assigning a tensor to a buffer name updates the buffer
    assert same(m._buffers["c"], torch.ones(2))
    del m.b
    assert "b" not in m._modules
    with pytest.raises(AttributeError):
        m.b


def test_assignment_before_init_is_an_error():
    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(torch.zeros(1))

    with pytest.raises(AttributeError, match="before Module.__init__"):
        Early()


def test_buffer_class_registers_a_buffer():
    m = nn.Module()
    m.mask = nn.Buffer(torch.ones(2), persistent=False)
    assert "mask" in m._buffers and list(m.state_dict()) == []
    assert type(m.mask) is torch.Tensor


def test_shared_parameters_are_listed_once():
    shared = nn.Linear(2, 2)
    net = nn.Sequential(shared, nn.ReLU(), shared)
    assert len(list(net.parameters())) == 2
    assert len(list(net.named_parameters(remove_duplicate=False))) == 4
    assert [n for n, _ in net.named_modules()] == ["", "0", "1"]


def test_get_submodule_parameter_and_buffer():
    net = Net()
    assert net.get_submodule("head.2") is net.head[2]
    assert net.get_parameter("head.0.bias") is net.head[0].bias
    assert net.get_buffer("bn.running_mean") is net.bn.running_mean
    net.set_submodule("head.1", nn.Tanh())
    assert isinstance(net.head[1], nn.Tanh)


# ------------------------------------------------------------ mode, grads, conversion


def test_train_eval_propagate():
    net = Net().eval()
    assert not net.training and not net.head[0].training
    net.train()
    assert all(m.training for m in net.modules())


def test_requires_grad_and_zero_grad():
    net = nn.Linear(2, 1)
    net(torch.ones(1, 2)).sum().backward()
    net.zero_grad(set_to_none=False)
    assert same(net.weight.grad, torch.zeros(1, 2))
    net.zero_grad()
    assert net.weight.grad is None
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_conversions_keep_parameter_objects():
    net = Net()
    weight = net.conv.weight
    net.double()
    assert net.conv.weight is weight and weight.dtype == torch.float64
    assert isinstance(net.conv.weight, nn.Parameter) and weight.requires_grad
    assert net.bn.running_mean.dtype == torch.float64
    assert net.bn.num_batches_tracked.dtype == torch.int64  # integers stay
    net.to(torch.float32)
    assert weight.dtype == torch.float32
    net.half()
    assert weight.dtype == torch.float16
    net.float().to("cpu").cpu()
    out = net.conv(torch.ones(1, 1, 3, 3))
    assert out.dtype == torch.float32


def test_apply_visits_children_first():
    seen = []
    Net().apply(lambda m: seen.append(type(m).__name__))
    assert seen[-1] == "Net" and seen.index("Linear") < seen.index("Sequential")


def test_deepcopy_and_pickle_keep_parameters():
    net = Net()
    for clone in (copy.deepcopy(net), pickle.loads(pickle.dumps(net))):
        assert isinstance(clone.conv.weight, nn.Parameter)
        assert clone.conv.weight is not net.conv.weight
        assert same(clone.conv.weight, net.conv.weight)
        assert list(clone.state_dict()) == list(net.state_dict())


def test_forward_must_be_defined():
    with pytest.raises(NotImplementedError, match='missing the required "forward"'):
        nn.Module()(torch.zeros(1))


# -------------------------------------------------------------- the alpha claims


def test_module_used_twice_sums_its_gradients():
    torch.manual_seed(0)
    layer = nn.Linear(3, 3)
    x = torch.randn(2, 3)
    layer(layer(x)).sum().backward()
    twice = layer.weight.grad.clone()
    with torch.no_grad():
        h = layer(x)
    layer.zero_grad()
    layer(h).sum().backward()  # the outer use alone
    outer = layer.weight.grad.clone()
    layer.zero_grad()
    w, b = layer.weight.detach().requires_grad_(), layer.bias.detach()
    (torch.nn.functional.linear(x, w, b) @ layer.weight.detach().t()).sum().backward()
    assert close(twice, outer + w.grad, atol=1e-6)


def test_dynamic_control_flow_trains():
    class Branchy(nn.Module):
        def __init__(self):
            super().__init__()
            self.small = nn.Linear(2, 1)
            self.large = nn.Linear(2, 1)

        def forward(self, x):
            out = []
            for row in x:  # branch on the data, per sample
                layer = self.small if row.sum().item() < 0 else self.large
                out.append(layer(row))
            return torch.stack(out)

    torch.manual_seed(0)
    model = Branchy()
    x = torch.randn(32, 2)
    y = x.sum(1, keepdim=True) * 2
    optimizer = pytest.importorskip("torch.optim").SGD(model.parameters(), lr=0.1)
    first = None
    for _ in range(60):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        first = first if first is not None else loss.item()
    assert loss.item() < first * 0.05
    assert model.small.weight.grad is not None and model.large.weight.grad is not None


# ------------------------------------------------------------------------- hooks


def test_forward_pre_hook_replaces_args_and_handle_removes_it():
    m = nn.Identity()
    handle = m.register_forward_pre_hook(lambda mod, args: args[0] * 2)
    assert same(m(torch.ones(1)), torch.tensor([2.0]))
    handle.remove()
    assert same(m(torch.ones(1)), torch.ones(1))


def test_forward_hooks_with_kwargs_prepend_and_always_call():
    calls = []

    class Scale(nn.Module):
        def forward(self, x, factor=1.0):
            if factor < 0:
                raise ValueError("negative")
            return x * factor

    m = Scale()
    m.register_forward_pre_hook(
        lambda mod, args, kwargs: (args, {"factor": kwargs.get("factor", 1.0) + 1}),
        with_kwargs=True,
    )
    m.register_forward_hook(
        lambda mod, args, kwargs, out: calls.append(("kw", kwargs)), with_kwargs=True
    )
    m.register_forward_hook(lambda mod, args, out: calls.append("first"), prepend=True)
    m.register_forward_hook(lambda mod, args, out: calls.append("always"), always_call=True)
    assert same(m(torch.ones(1), factor=2.0), torch.tensor([3.0]))
    assert calls == ["first", ("kw", {"factor": 3.0}), "always"]
    calls.clear()
    with pytest.raises(ValueError):
        m(torch.ones(1), factor=-5.0)
    assert calls == ["always"]


def test_forward_hook_replaces_output():
    m = nn.Linear(2, 2)
    m.register_forward_hook(lambda mod, args, out: out * 0)
    assert same(m(torch.ones(1, 2)), torch.zeros(1, 2))


def test_bad_kwargs_pre_hook_result_is_an_error():
    m = nn.Identity()
    m.register_forward_pre_hook(lambda mod, args, kwargs: 3, with_kwargs=True)
    with pytest.raises(RuntimeError, match="forward pre-hook must return None or a tuple"):
        m(torch.ones(1))


def test_global_forward_hooks_run_before_module_hooks():
    order = []
    m = nn.Identity()
    m.register_forward_hook(lambda *a: order.append("module"))
    handle = nn.modules.module.register_module_forward_hook(lambda *a: order.append("global"))
    try:
        m(torch.ones(1))
    finally:
        handle.remove()
    m(torch.ones(1))
    assert order == ["global", "module", "module"]


needs_function = pytest.mark.skipif(
    not hasattr(torch.autograd, "Function"),
    reason="full backward hooks need torch.autograd.Function (torch-autograd after 0.2.2)",
)


@needs_function
def test_full_backward_hook_sees_gradients_and_can_replace_them():
    torch.manual_seed(0)
    lin = nn.Linear(3, 2)
    x = torch.randn(4, 3, requires_grad=True)
    seen = {}

    def hook(module, grad_input, grad_output):
        seen["in"], seen["out"] = grad_input, grad_output
        return (grad_input[0] * 0,)

    def pre_hook(module, grad_output):
        seen["pre"] = grad_output

    lin.register_full_backward_pre_hook(pre_hook)
    handle = lin.register_full_backward_hook(hook)
    (lin(x) * 3).sum().backward()
    assert same(seen["out"][0], torch.full((4, 2), 3.0))
    assert same(seen["pre"][0], torch.full((4, 2), 3.0))
    assert close(seen["in"][0], torch.full((4, 2), 3.0) @ lin.weight)
    assert same(x.grad, torch.zeros(4, 3))
    assert lin.weight.grad is not None
    handle.remove()
    x.grad = None
    lin(x).sum().backward()
    assert close(x.grad, torch.ones(4, 2) @ lin.weight)


@needs_function
def test_full_backward_hook_without_input_grad_gets_none():
    lin = nn.Linear(3, 2)
    seen = []
    lin.register_full_backward_hook(lambda m, gi, go: seen.append((gi, go[0].shape)))
    lin(torch.ones(1, 3)).sum().backward()
    assert seen == [((None,), torch.Size([1, 2]))]


def test_regular_and_full_backward_hooks_do_not_mix():
    m = nn.Linear(1, 1)
    m.register_full_backward_hook(lambda *a: None)
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks"):
        m.register_backward_hook(lambda *a: None)


def test_handles_work_as_context_managers():
    m = nn.Identity()
    with m.register_forward_hook(lambda *a: torch.zeros(1)):
        assert same(m(torch.ones(1)), torch.zeros(1))
    assert same(m(torch.ones(1)), torch.ones(1))


def test_state_dict_hooks():
    m = nn.Linear(1, 1)
    m.register_state_dict_post_hook(lambda mod, sd, prefix, meta: sd.update(extra=1))
    assert m.state_dict()["extra"] == 1
    seen = []
    m.register_load_state_dict_post_hook(lambda mod, keys: seen.append(keys))
    m.load_state_dict(OrderedDict(weight=torch.zeros(1, 1), bias=torch.zeros(1)))
    assert seen and seen[0].missing_keys == []


def test_registration_hooks():
    seen = []
    handle = nn.modules.module.register_module_parameter_registration_hook(
        lambda mod, name, p: seen.append(name)
    )
    try:
        nn.Linear(1, 1)
    finally:
        handle.remove()
    assert seen == ["weight", "bias"]


@needs_function
def test_backward_hook_gets_gradients_for_every_tensor_input():
    bil = nn.Bilinear(2, 3, 1)
    seen = []
    bil.register_full_backward_hook(lambda m, gi, go: seen.append([tuple(g.shape) for g in gi]))
    bil(torch.randn(4, 2, requires_grad=True), torch.randn(4, 3)).sum().backward()
    assert seen == [[(4, 2), (4, 3)]]


def test_inplace_activation_after_linear_backpropagates():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(inplace=True))
    out = net(torch.randn(3, 2))
    out.sum().backward()
    assert net[0].weight.grad is not None
