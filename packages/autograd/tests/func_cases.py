# ruff: noqa: E501 - the snippets keep their lines as written
"""Snippets of ``torch.func`` and ``torch.autograd.forward_ad`` use whose results real
PyTorch recorded (tools/golden/record_func.py writes golden/func_api.json;
test_func_golden.py compares). Each snippet sets ``out``; an exception is recorded as its
type and message (compared exactly for names ending in ``!``). Core and autograd only:
the cases that need torch.nn are in packages/nn/tests/func_nn_cases.py."""

from __future__ import annotations

from snippet_outcome import run_snippet

SETUP = """
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, linearize

x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
X = torch.arange(1.0, 7.0, dtype=torch.float64).reshape(2, 3) / 4
W = torch.tensor([[0.3, -0.2], [0.1, 0.4], [-0.5, 0.2]], dtype=torch.float64)
v = torch.tensor([1.0, 0.5, -2.0], dtype=torch.float64)

def mlp(W, x):
    return torch.tanh(x @ W).pow(2).sum()

def softmax_loss(W, x):
    return -torch.log_softmax(x @ W, 0)[1]
"""

CASES: dict[str, str] = {}


def _add(prefix: str, table: dict) -> None:
    for name, code in table.items():
        CASES[prefix + name] = code


# values of the transforms
_add(
    "value_",
    {
        "grad_sin_sum": "out = grad(lambda a: torch.sin(a).sum())(x)",
        "grad_argnums_tuple": "out = grad(mlp, argnums=(0, 1))(W, x)",
        "grad_has_aux": "out = grad(lambda a: ((a ** 2).sum(), a.mean()), has_aux=True)(x)",
        "grad_and_value": "out = grad_and_value(softmax_loss)(W, x)",
        "grad_of_grad": "out = grad(grad(lambda a: torch.exp(a) * torch.sin(a)))(torch.tensor(0.7, dtype=torch.float64))",
        "grad_dict_input": "out = sorted(grad(lambda p: (p['a'] * p['b']).sum())({'a': x, 'b': v}).items())",
        "vjp": "o, fn = vjp(lambda a: torch.sin(a) * a, x)\nout = (o, fn(v))",
        "vjp_two_outputs": "o, fn = vjp(lambda a, b: (a * b, a.sum() * b), x, v)\nout = fn((torch.ones(3, dtype=torch.float64), v))",
        "jvp": "out = jvp(lambda a: torch.exp(a) / (1 + a * a), (x,), (v,))",
        "jvp_two_inputs": "out = jvp(mlp, (W, x), (torch.ones_like(W), v))",
        "jvp_matmul_softmax": "out = jvp(lambda w: torch.softmax(x @ w, 0), (W,), (torch.ones_like(W),))",
        "jvp_reductions": "out = jvp(lambda a: (a.amax(), a.logsumexp(0), a.var(), a.norm(), a.mean(), a.prod()), (x,), (v,))",
        "jacrev_sin": "out = jacrev(torch.sin)(x)",
        "jacrev_matrix": "out = jacrev(lambda w: torch.tanh(x @ w))(W)",
        "jacrev_argnums": "out = jacrev(lambda a, b: a * b.sum(), argnums=(0, 1))(x, v)",
        "jacfwd_matrix": "out = jacfwd(lambda w: torch.tanh(x @ w))(W)",
        "jacfwd_views": "out = jacfwd(lambda a: torch.cat([a[1:], a.flip(0), a.reshape(3, 1).expand(3, 2).sum(1)]))(x)",
        "jacfwd_elementwise": "out = jacfwd(lambda a: torch.where(a > 0, torch.sqrt(a.abs()), torch.sigmoid(a)) * torch.clamp(a, -0.5, 1.0))(x)",
        "hessian_mlp": "out = hessian(mlp, argnums=1)(W, x)",
        "hessian_softmax_loss": "out = hessian(softmax_loss)(W, x)",
        "hessian_cubic": "out = hessian(lambda a: (a ** 3).sum() + a[0] * a[2])(x)",
        "jacrev_of_jacrev": "out = jacrev(jacrev(lambda a: (a.sin() * a).sum()))(x)",
        "linearize": "o, fn = linearize(torch.sin, x)\nout = (o, fn(v))",
    },
)

# vmap, alone and composed
_add(
    "vmap_",
    {
        "elementwise": "out = vmap(lambda a: torch.sin(a) * 2 + a)(X)",
        "in_dims_none": "out = vmap(torch.mul, in_dims=(0, None))(X, v)",
        "in_dims_1": "out = vmap(lambda a: a.sum(), in_dims=1)(X)",
        "out_dims_1": "out = vmap(lambda a: a * 2, out_dims=1)(X)",
        "reductions": "out = vmap(lambda a: (a.sum(0), a.mean(), a.amax(), a.max(0).values, a.argmax(), a.softmax(0), a.cumsum(0)))(X)",
        "views": "out = vmap(lambda a: (a.reshape(3, 1).t(), a.unsqueeze(0).expand(2, 3), a[1:], a[None, ::2], a.flip(0)))(X)",
        "matmul": "out = vmap(torch.matmul, in_dims=(0, None))(X, W)",
        "matmul_both": "out = vmap(lambda a, b: a @ b)(X.reshape(2, 3, 1).expand(2, 3, 2), X[:, :2])",
        "dot": "out = vmap(torch.dot)(X, X.flip(0))",
        "cat_stack": "out = vmap(lambda a: (torch.cat([a, v]), torch.stack([a, v], 1)))(X)",
        "nested": "out = vmap(vmap(lambda a, b: a * b), in_dims=(0, None))(X, v)",
        "chunk_size": "out = vmap(lambda a: a.sum(), chunk_size=1)(X)",
        "tuple_out_dims": "out = vmap(lambda a: (a, a.sum()), out_dims=(1, 0))(X)",
        "grad_per_sample": "out = vmap(grad(mlp), in_dims=(None, 0))(W, X)",
        "grad_per_sample_x": "out = vmap(grad(mlp, argnums=1), in_dims=(None, 0))(W, X)",
        "jacrev_batched": "out = vmap(jacrev(torch.sin))(X)",
        "jacfwd_batched": "out = vmap(jacfwd(lambda a: a.exp().cumsum(0)))(X)",
        "hessian_batched": "out = vmap(hessian(mlp, argnums=1), in_dims=(None, 0))(W, X)",
        "randomness_same": "torch.manual_seed(0)\nout = vmap(lambda a: torch.rand_like(a), randomness='same')(X).shape",
        "setitem": "def f(a):\n    b = a.clone()\n    b[0] = a[2]\n    return b\nout = vmap(f)(X)",
        "inplace": "out = vmap(lambda a: a.clone().mul_(2).add_(1))(X)",
    },
)

# forward_ad
_add(
    "fwad_",
    {
        "basic": "with fwAD.dual_level():\n    d = fwAD.make_dual(x, v)\n    y = torch.sin(d) * d\n    out = fwAD.unpack_dual(y)",
        "plain_tensor": "with fwAD.dual_level():\n    out = fwAD.unpack_dual(x).tangent",
        "after_exit": "with fwAD.dual_level():\n    d = fwAD.make_dual(x, v)\nout = fwAD.unpack_dual(d).tangent",
        "tangent_identity": "with fwAD.dual_level():\n    out = fwAD.unpack_dual(fwAD.make_dual(x, v)).tangent is v",
        "matmul": "with fwAD.dual_level():\n    d = fwAD.make_dual(W, torch.ones_like(W))\n    out = fwAD.unpack_dual((x @ d).exp()).tangent",
        "generic_rule": "with fwAD.dual_level():\n    d = fwAD.make_dual(X, torch.ones_like(X))\n    out = fwAD.unpack_dual(torch.cumprod(d, 1)).tangent",
        "unpacked_type": "with fwAD.dual_level():\n    out = type(fwAD.unpack_dual(x)).__name__",
        "enter_exit": "level = fwAD.enter_dual_level()\nd = fwAD.make_dual(x, v)\nt = fwAD.unpack_dual(d * 2).tangent\nfwAD.exit_dual_level()\nout = t",
    },
)

# errors (messages compared for names ending in "!")
_add(
    "error_",
    {
        "in_dims_range!": "vmap(torch.sin, in_dims=2)(X)",
        "in_dims_negative!": "vmap(torch.sin, in_dims=-3)(X)",
        "in_dims_type!": "vmap(torch.sin, in_dims='a')(X)",
        "in_dims_none!": "vmap(torch.sin, in_dims=None)(X)",
        "in_dims_non_tensor!": "vmap(lambda a: a, in_dims=0)(3)",
        "sizes!": "vmap(torch.add)(X, torch.ones(4, 3))",
        "no_inputs!": "vmap(torch.sin)()",
        "randomness_bad!": "vmap(torch.sin, randomness='bad')(X)",
        "chunk_size!": "vmap(torch.sin, chunk_size=0)(X)",
        "out_dims_range!": "vmap(torch.sin, out_dims=3)(X)",
        "returns_int!": "vmap(lambda a: 3)(X)",
        "item!": "vmap(lambda a: a.sum().item())(X)",
        "control_flow!": "vmap(lambda a: a if a.sum() > 0 else -a)(X)",
        "random_error!": "vmap(lambda a: torch.rand_like(a))(X)",
        "grad_not_scalar!": "grad(lambda a: a)(x)",
        "grad_argnum!": "grad(lambda a: a.sum(), argnums=3)(x)",
        "grad_tuple_output!": "grad(lambda a: (a.sum(), 1))(x)",
        "grad_aux_not_tuple!": "grad(lambda a: a.sum(), has_aux=True)(x)",
        "grad_float!": "grad(lambda a: a.sum())(3.0)",
        "jvp_primals_tuple!": "jvp(torch.sin, x, x)",
        "jvp_shape!": "jvp(torch.sin, (x,), (torch.ones(2, dtype=torch.float64),))",
        "vjp_shape!": "vjp(torch.sin, x)[1](torch.ones(2, dtype=torch.float64))",
        "fwad_no_level!": "fwAD.make_dual(x, v)",
        "fwad_size!": "with fwAD.dual_level():\n    fwAD.make_dual(x, torch.ones(2, dtype=torch.float64))",
        "fwad_nested!": "with fwAD.dual_level():\n    fwAD.enter_dual_level()",
        "fwad_integer!": "with fwAD.dual_level():\n    fwAD.make_dual(torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long))",
        "jacrev_argnum!": "jacrev(torch.sin, argnums=(0, 1))(x)",
    },
)


def _describe(value):
    import torch

    if isinstance(value, torch.Tensor):
        return {
            "tensor": value.detach().tolist(),
            "dtype": str(value.dtype),
            "shape": list(value.shape),
        }
    if isinstance(value, torch.Size):
        return list(value)
    if isinstance(value, (tuple, list)):
        return [_describe(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _describe(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def outcome(code: str, setup: str = SETUP) -> dict:
    """Run ``setup`` then ``code``; the value of ``out`` or the exception raised."""
    return run_snippet(setup, code, _describe)


# torch.autograd.functional's forward-mode strategies, which run through torch.func
_add(
    "functional_",
    {
        "jacobian_forward": "from torch.autograd.functional import jacobian\nout = jacobian(lambda a, b: (a.sin() * b, a.sum() * b), (x, v), strategy='forward-mode', vectorize=True)",
        "jacobian_forward_single": "from torch.autograd.functional import jacobian\nout = jacobian(lambda a: (a.exp(), a * 2), x, strategy='forward-mode', vectorize=True)",
        "hessian_forward": "from torch.autograd.functional import hessian\nout = hessian(lambda a, b: (a ** 3 * b).sum(), (x, v), outer_jacobian_strategy='forward-mode', vectorize=True)",
        "jacobian_strategy!": "from torch.autograd.functional import jacobian\njacobian(torch.sin, x, strategy='bad')",
        "jacobian_forward_no_vectorize!": "from torch.autograd.functional import jacobian\njacobian(torch.sin, x, strategy='forward-mode')",
        "jacobian_forward_create_graph!": "from torch.autograd.functional import jacobian\njacobian(torch.sin, x, strategy='forward-mode', vectorize=True, create_graph=True)",
    },
)
