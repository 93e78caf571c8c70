# ruff: noqa: E501 - the snippets keep their lines as written
"""Snippets of ``torch.func`` on ``torch.nn`` models whose results real PyTorch recorded
(tools/golden/record_func.py writes golden/func_nn.json; test_func_nn.py compares): the
per-example gradients of ``vmap(grad(...))`` with ``functional_call``, model ensembles
with ``stack_module_state``, Jacobians and Hessians through ``nn.functional``. The
weights are set from fixed values, so both sides compute on the same numbers."""

from __future__ import annotations

from snippet_lines import describe, run_lines

SETUP = """
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state, grad, vmap, jacrev, jacfwd, hessian, jvp, vjp

def filled(module, start=0.0):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            n = p.numel()
            p.copy_(torch.linspace(-0.7 + start + 0.1 * i, 0.6 - start, n, dtype=p.dtype).reshape(p.shape))
    return module

model = filled(nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3)).double())
params = {k: v.detach() for k, v in model.named_parameters()}
xs = torch.linspace(-1, 1, 20, dtype=torch.float64).reshape(5, 4)
ys = torch.tensor([0, 2, 1, 1, 0])

def ce_loss(p, x, y):
    return F.cross_entropy(functional_call(model, p, (x.unsqueeze(0),)), y.unsqueeze(0))

def mse(p, x, y):
    out = functional_call(model, p, (x,))
    return F.mse_loss(out, torch.zeros_like(out) + y)
"""

CASES: dict[str, str] = {
    "per_sample_grads_ce": "g = vmap(grad(ce_loss), in_dims=(None, 0, 0))(params, xs, ys)\nout = sorted(g.items())",
    "per_sample_grads_mse": "g = vmap(grad(mse), in_dims=(None, 0, 0))(params, xs, ys)\nout = sorted(g.items())",
    "per_sample_grads_chunked": "g = vmap(grad(ce_loss), in_dims=(None, 0, 0), chunk_size=2)(params, xs, ys)\nout = g['2.bias']",
    "functional_call_value": "out = functional_call(model, {k: v * 2 for k, v in params.items()}, (xs,))",
    "functional_call_kwargs": "m = filled(nn.Linear(4, 2).double())\nout = functional_call(m, {'weight': torch.ones(2, 4, dtype=torch.float64)}, kwargs={'input': xs})",
    "functional_call_list_of_dicts": "out = functional_call(model, [{'0.weight': params['0.weight'] * 0}, {'2.bias': params['2.bias'] + 1}], xs)",
    "functional_call_buffers": "bn = nn.BatchNorm1d(4).double()\nrm = torch.zeros(4, dtype=torch.float64)\nfunctional_call(bn, {'running_mean': rm}, (xs,))\nout = (rm, bn.running_mean)",
    "functional_call_restores": "functional_call(model, {'0.bias': torch.zeros(6, dtype=torch.float64)}, (xs,))\nout = model[0].bias",
    "functional_call_strict!": "functional_call(model, {'x': torch.ones(1)}, (xs,), strict=True)",
    "functional_call_repeated!": "functional_call(model, [{'0.bias': params['0.bias']}, {'0.bias': params['0.bias']}], (xs,))",
    "tied_weights": "class Tied(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = nn.Linear(4, 4, bias=False)\n        self.b = nn.Linear(4, 4, bias=False)\n        self.b.weight = self.a.weight\n    def forward(self, x):\n        return self.b(self.a(x))\nt = filled(Tied().double())\nw = torch.eye(4, dtype=torch.float64) * 2\nout = (functional_call(t, {'a.weight': w}, (xs,)), functional_call(t, {'a.weight': w}, (xs,), tie_weights=False))",
    "tied_weights_conflict!": "class Tied(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = nn.Linear(4, 4, bias=False)\n        self.b = nn.Linear(4, 4, bias=False)\n        self.b.weight = self.a.weight\n    def forward(self, x):\n        return self.b(self.a(x))\nt = Tied()\nfunctional_call(t, {'a.weight': torch.eye(4), 'b.weight': torch.eye(4) * 2}, (torch.ones(1, 4),))",
    "stack_module_state": "models = [filled(nn.Linear(4, 2).double(), start=0.1 * i) for i in range(3)]\nps, bs = stack_module_state(models)\nout = (ps['weight'].shape, ps['weight'].requires_grad, ps['bias'], bs)",
    "ensemble_vmap": "models = [filled(nn.Linear(4, 2).double(), start=0.1 * i) for i in range(3)]\nps, bs = stack_module_state(models)\nbase = models[0]\nout = vmap(lambda p, b: functional_call(base, (p, b), (xs,)))(ps, bs)",
    "stack_module_state_empty!": "stack_module_state([])",
    "jacrev_params": "j = jacrev(lambda p: functional_call(model, p, (xs[:2],)))(params)\nout = sorted((k, v.shape) for k, v in j.items()) + [j['2.bias']]",
    "jacfwd_activations": "out = jacfwd(lambda a: F.gelu(a) + F.silu(a) + F.softplus(a) + F.elu(a) + F.leaky_relu(a, 0.1) + F.relu(a))(xs[1])",
    "jacfwd_layer_norm": "out = jacfwd(lambda a: F.layer_norm(a, (4,)))(xs[1])",
    "jvp_cross_entropy": "out = jvp(lambda w: F.cross_entropy(xs @ w, ys[:5] % 2), (torch.ones(4, 2, dtype=torch.float64) * 0.3,), (torch.ones(4, 2, dtype=torch.float64),))",
    "hessian_model_input": "out = hessian(lambda a: functional_call(model, params, (a,)).logsumexp(0))(xs[0])",
    "vmap_module": "out = vmap(model)(xs)",
    "vmap_conv_fallback": "conv = filled(nn.Conv1d(1, 2, 3).double())\nout = vmap(lambda a: conv(a.reshape(1, 1, 4)).sum())(xs)",
}


def outcome(code: str) -> dict:
    """Run SETUP then ``code``, warnings silenced; the value of ``out`` or the exception
    raised (its type's name and message)."""
    import torch

    try:
        value = run_lines(f"{SETUP}\n{code}\nout", {})
    except Exception as error:  # noqa: BLE001 - the error is the recorded outcome
        return {"error": type(error).__name__, "message": str(error)}
    return {"value": describe(torch, value, _tensor)}


def _tensor(value):
    return {
        "tensor": value.detach().tolist(),
        "dtype": str(value.dtype),
        "shape": list(value.shape),
    }
