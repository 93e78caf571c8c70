"""Record golden outputs of real PyTorch for the torch-nn tests (run under real PyTorch).

    /work/ptref/bin/python tools/golden/record_nn.py

Writes packages/nn/tests/golden/{modules,reprs,state_dict,init,errors,functional,
parametrize}.json. Each module case
holds its constructor source, the inputs, a state_dict (PyTorch's default
initialisation after ``torch.manual_seed(0)``), the outputs, the gradient of
``sum(output * weights)`` with respect to the float inputs and to every parameter, and
the buffers after the forward pass.
"""

from __future__ import annotations

import json
import pathlib
import sys
from collections import OrderedDict  # noqa: F401  (used by the repr cases)

import numpy as np

import torch
import torch.nn as nn  # noqa: F401  (used by the case sources)

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "golden"))

import cases_nn  # noqa: E402

OUT = ROOT / "packages" / "nn" / "tests" / "golden"


def _dump(name: str, data) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.json"
    path.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    print("wrote", path.relative_to(ROOT))


def _tensor(t: torch.Tensor) -> dict:
    t = t.detach()
    return {
        "dtype": str(t.dtype).replace("torch.", ""),
        "shape": list(t.shape),
        "values": t.flatten().tolist(),
    }


def _make_input(spec, rng: np.random.RandomState):
    kind = spec[0]
    if kind == "const":
        return spec[1]
    if kind in ("causal_bool", "causal_float"):
        blocked = torch.ones(spec[1], spec[1], dtype=torch.bool).triu(1)
        return blocked if kind == "causal_bool" else torch.where(blocked, float("-inf"), 0.0)
    if kind == "value":
        return torch.tensor(spec[1], dtype=getattr(torch, spec[2]))
    shape = tuple(spec[1]) if kind != "int" else tuple(spec[1])
    if kind == "randn":
        return torch.tensor(rng.standard_normal(shape), dtype=torch.float32)
    if kind == "rand":
        return torch.tensor(rng.uniform(0.05, 0.95, shape), dtype=torch.float32)
    if kind == "int":
        return torch.tensor(rng.randint(0, spec[2], shape), dtype=torch.int64)
    base = torch.tensor(rng.standard_normal(shape), dtype=torch.float32)
    if kind == "softmax":
        return torch.softmax(base, -1)
    if kind in ("log_softmax", "log_softmax3"):
        return torch.log_softmax(base, -1 if kind == "log_softmax3" else 1)
    if kind == "sign":
        return torch.where(base > 0, 1.0, -1.0)
    if kind == "binary":
        return (base > 0).float()
    if kind == "poisson":
        return torch.tensor(rng.poisson(2.0, shape), dtype=torch.float32)
    raise ValueError(kind)


def _flatten(output) -> list:
    if output is None:
        return []
    if isinstance(output, torch.Tensor):
        return [output]
    flat = []
    for item in output:
        flat += _flatten(item)
    return flat


def module_case(index: int, family: str, source: str, specs, options) -> dict:
    rng = np.random.RandomState(1000 + index)
    torch.manual_seed(0)
    module = eval(source)
    inputs = [_make_input(s, rng) for s in specs]
    if options.get("lazy"):  # a first call in eval mode gives the parameters their shapes
        module.eval()
        with torch.no_grad():
            module(*inputs)
    init_state = {k: _tensor(v) for k, v in module.state_dict().items()}
    module.train(options.get("train", False))
    for x in inputs:
        if x.is_floating_point() and family != "loss_target_only":
            x.requires_grad_(True)
    if family == "loss":  # only the prediction(s) get gradients; targets stay constant
        n_pred = (
            3 if "Triplet" in source else 2 if ("Ranking" in source or "CosineEmb" in source) else 1
        )
        for x in inputs[n_pred:]:
            x.requires_grad_(False)
        if "GaussianNLL" in source:
            inputs[2].requires_grad_(True)
    kwargs = {k: _make_input(s, rng) for k, s in options.get("kwargs", {}).items()}
    outputs = _flatten(module(*inputs, **kwargs))
    weights = [
        torch.tensor(rng.standard_normal(tuple(o.shape)), dtype=o.dtype)
        if o.is_floating_point() else None
        for o in outputs
    ]  # fmt: skip
    terms = [(o * w).sum() for o, w in zip(outputs, weights) if w is not None and o.requires_grad]
    case = {
        "family": family,
        "source": source,
        "train": options.get("train", False),
        "lazy": options.get("lazy", False),
        "state": init_state,
        "inputs": [_tensor(x) for x in inputs],
        "kwargs": {
            k: _tensor(x) if isinstance(x, torch.Tensor) else {"const": x}
            for k, x in kwargs.items()
        },
        "input_requires_grad": [x.requires_grad for x in inputs],
        "outputs": [_tensor(o) for o in outputs],
        "output_weights": [None if w is None else _tensor(w) for w in weights],
    }
    if terms and not options.get("no_grad"):
        sum(terms).backward()
        case["input_grads"] = [None if x.grad is None else _tensor(x.grad) for x in inputs]
        case["param_grads"] = {
            name: _tensor(p.grad) for name, p in module.named_parameters() if p.grad is not None
        }
    case["state_after"] = {k: _tensor(v) for k, v in module.state_dict().items()}
    return case


def modules() -> list:
    return [module_case(n, *case) for n, case in enumerate(cases_nn.MODULES)]


def reprs() -> dict:
    return {source: repr(eval(source)) for source in cases_nn.REPRS}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.bn = nn.BatchNorm2d(2)
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("scratch", torch.zeros(1), persistent=False)
        self.head = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
        self.scale = nn.Parameter(torch.ones(1))


def _load_error(model, state, strict=True) -> dict:
    try:
        result = model.load_state_dict(state, strict=strict)
        return {
            "missing": result.missing_keys,
            "unexpected": result.unexpected_keys,
            "repr": repr(result),
        }
    except Exception as error:  # noqa: BLE001
        return {"error": type(error).__name__, "message": str(error)}


def state_dict_cases() -> dict:
    net = Net()
    state = net.state_dict()
    cases = {
        "keys": list(state),
        "named_parameters": [n for n, _ in net.named_parameters()],
        "named_buffers": [n for n, _ in net.named_buffers()],
        "named_modules": [n for n, _ in net.named_modules()],
        "repr": repr(net),
        "prefixed": list(net.head.state_dict(prefix="h.")),
    }
    missing = {k: v for k, v in state.items() if not k.startswith("bn.")}
    extra = dict(state, **{"head.1.weight": torch.zeros(1), "bogus": torch.zeros(1)})
    wrong = dict(state, **{"conv.weight": torch.zeros(3, 1, 3, 3)})
    cases["load_ok"] = _load_error(Net(), state)
    cases["load_missing"] = _load_error(Net(), missing)
    cases["load_missing_nonstrict"] = _load_error(Net(), missing, strict=False)
    cases["load_unexpected"] = _load_error(Net(), extra)
    cases["load_unexpected_nonstrict"] = _load_error(Net(), extra, strict=False)
    cases["load_both"] = _load_error(Net(), dict(missing, bogus=torch.zeros(1)))
    cases["load_shape"] = _load_error(Net(), wrong)
    cases["load_shape_nonstrict"] = _load_error(Net(), wrong, strict=False)
    return cases


def _errors() -> dict:
    sources = {
        "param_dot": "m.register_parameter('a.b', None)",
        "param_empty": "m.register_parameter('', None)",
        "param_type": "m.register_parameter('w', torch.zeros(1))",
        "param_name_type": "m.register_parameter(3, None)",
        "param_exists": "m.register_parameter('training', None)",
        "buffer_dot": "m.register_buffer('a.b', None)",
        "buffer_empty": "m.register_buffer('', None)",
        "buffer_type": "m.register_buffer('b', 3)",
        "buffer_exists": "m.register_buffer('training', None)",
        "module_dot": "m.add_module('a.b', None)",
        "module_empty": "m.add_module('', None)",
        "module_type": "m.add_module('x', 3)",
        "module_exists": "m.add_module('training', None)",
        "assign_param": "setattr(m, 'weight', torch.zeros(2))",
        "assign_module": "(m.add_module('sub', nn.ReLU()), setattr(m, 'sub', 3))",
        "getattr": "m.nothing",
        "get_submodule": "nn.Sequential(nn.Linear(1, 1)).get_submodule('0.weight')",
        "get_submodule_missing": "nn.Sequential(nn.Linear(1, 1)).get_submodule('1')",
        "get_parameter": "nn.Sequential(nn.Linear(1, 1)).get_parameter('0.nothing')",
        "get_parameter_not": (
            "nn.Sequential(nn.Linear(1, 1), nn.BatchNorm1d(1)).get_parameter('1.running_mean')"
        ),
        "to_int": "nn.Linear(1, 1).to(torch.int32)",
        "train_type": "nn.Linear(1, 1).train('yes')",
        "conv_groups": "nn.Conv2d(3, 4, 3, groups=2)",
        "conv_padding": "nn.Conv2d(3, 3, 3, padding='full')",
        "conv_same_stride": "nn.Conv2d(3, 3, 3, stride=2, padding='same')",
        "conv_mode": "nn.Conv2d(3, 3, 3, padding_mode='zero')",
        "linear_shape": "nn.Linear(3, 2)(torch.zeros(4, 5))",
        "bn_dim": "nn.BatchNorm2d(3)(torch.zeros(2, 3))",
        "dropout_p": "nn.Dropout(1.5)",
        "groupnorm": "nn.GroupNorm(3, 4)",
        "ce_target": "nn.CrossEntropyLoss()(torch.zeros(2, 3), torch.tensor([0, 3]))",
        "seq_index": "nn.Sequential(nn.ReLU())[3]",
        "mlist_index": "nn.ModuleList([nn.ReLU()])[-2]",
        "mdict_key": "nn.ModuleDict()['x']",
        "gain": "nn.init.calculate_gain('foo')",
        "fan": "nn.init.xavier_uniform_(torch.zeros(3))",
        "kaiming_mode": "nn.init.kaiming_uniform_(torch.zeros(3, 3), mode='fan')",
    }
    out = {}
    for key, source in sources.items():
        m = nn.Linear(2, 2)  # noqa: F841
        try:
            eval(source)
            out[key] = {"source": source, "error": None}
        except Exception as error:  # noqa: BLE001
            out[key] = {"source": source, "error": type(error).__name__, "message": str(error)}
    return out


def init_cases() -> dict:
    cases = {}
    specs = {
        "uniform_": ("nn.init.uniform_(t, -0.5, 2.0)", (3, 4)),
        "normal_": ("nn.init.normal_(t, 1.0, 0.5)", (3, 4)),
        "trunc_normal_": ("nn.init.trunc_normal_(t, 0.0, 1.0, -1.0, 1.5)", (5, 4)),
        "trunc_normal_tail": ("nn.init.trunc_normal_(t, 0.0, 1.0, 2.0, 3.0)", (5, 4)),
        "xavier_uniform_": ("nn.init.xavier_uniform_(t, gain=2.0)", (3, 4, 2)),
        "xavier_normal_": ("nn.init.xavier_normal_(t)", (3, 4)),
        "kaiming_uniform_": ("nn.init.kaiming_uniform_(t, a=0.1, mode='fan_out')", (3, 4, 2, 2)),
        "kaiming_normal_": ("nn.init.kaiming_normal_(t, nonlinearity='relu')", (3, 4)),
        "orthogonal_": ("nn.init.orthogonal_(t, gain=1.5)", (3, 5)),
        "orthogonal_tall": ("nn.init.orthogonal_(t)", (6, 2, 2)),
        "sparse_": ("nn.init.sparse_(t, 0.5)", (4, 3)),
        "eye_": ("nn.init.eye_(t)", (3, 4)),
        "dirac_": ("nn.init.dirac_(t, groups=2)", (4, 2, 3)),
        "constant_": ("nn.init.constant_(t, 0.3)", (2, 2)),
        "linear_default": ("nn.Linear(4, 3).weight", None),
        "conv_default": ("nn.Conv2d(2, 3, 2).bias", None),
        "embedding_default": ("nn.Embedding(4, 3).weight", None),
        "lstm_default": ("nn.LSTM(2, 3).weight_hh_l0", None),
        "bilinear_default": ("nn.Bilinear(2, 3, 2).weight", None),
    }
    for key, (source, shape) in specs.items():
        torch.manual_seed(7)
        t = torch.empty(shape) if shape else None  # noqa: F841
        cases[key] = {
            "source": source,
            "shape": list(shape) if shape else None,
            "result": _tensor(eval(source)),
        }
    gains = ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]
    cases["gains"] = {g: nn.init.calculate_gain(g) for g in gains}
    cases["gains"]["leaky_relu"] = nn.init.calculate_gain("leaky_relu")
    cases["gains"]["leaky_relu_0.2"] = nn.init.calculate_gain("leaky_relu", 0.2)
    return cases


def _describe(value):
    if isinstance(value, torch.Tensor):
        return {"tensor": _tensor(value)}
    if isinstance(value, (tuple, list)):
        return {"tuple": [_describe(v) for v in value]}
    return {"value": value}


def functional_cases() -> dict:
    import torch.nn.functional as F  # noqa: N812

    namespace = {"torch": torch, "F": F}
    exec(cases_nn.FUNCTIONAL_SETUP, namespace)
    out = {}
    for source in cases_nn.FUNCTIONAL:
        try:
            out[source] = _describe(eval(source, namespace))
        except Exception as error:  # noqa: BLE001
            out[source] = {"error": type(error).__name__, "message": str(error)}
    return out


def parametrize_cases() -> dict:
    out = {}
    for key, (setup, expression) in cases_nn.PARAMETRIZE.items():
        namespace = {"torch": torch, "nn": nn}
        exec(cases_nn.PARAMETRIZE_SETUP, namespace)
        torch.manual_seed(0)
        try:
            exec(setup, namespace)
            out[key] = _describe_value(eval(expression, namespace))
        except Exception as error:  # noqa: BLE001
            out[key] = {"error": type(error).__name__, "message": str(error)}
        out[key]["setup"], out[key]["expression"] = setup, expression
    return {"setup": cases_nn.PARAMETRIZE_SETUP, "cases": out}


def _describe_value(value):
    if isinstance(value, torch.Tensor):
        return {"tensor": _tensor(value)}
    if isinstance(value, (tuple, list)):
        return {"list": [_describe_value(v) for v in value]}
    return {"value": value}


def main() -> None:
    _dump("modules", modules())
    _dump("reprs", reprs())
    _dump("state_dict", state_dict_cases())
    _dump("errors", _errors())
    _dump("init", init_cases())
    _dump("functional", {"setup": cases_nn.FUNCTIONAL_SETUP, "cases": functional_cases()})
    _dump("parametrize", parametrize_cases())


if __name__ == "__main__":
    main()
