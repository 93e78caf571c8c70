# ruff: noqa: E501 - the snippets keep their lines as written
"""Snippets of autograd API use whose results real PyTorch recorded
(tools/golden/record_autograd.py writes golden/autograd_api.json; test_golden_api.py
compares). Each snippet sets ``out``; an exception is recorded as its type and message.
The same module runs under real PyTorch and under this project."""

from __future__ import annotations

from snippet_outcome import run_snippet

SETUP = """
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp


class Cube(Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return scale * x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * ctx.scale * 3 * x ** 2, None


class Split(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, ga, gb):
        return ga * 2 + gb * 3


class Sort(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = torch.sort(x)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        grad = torch.zeros_like(grad_values)
        grad[indices] = grad_values
        return grad


class Twice(Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


class NoMaterialize(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()

    @staticmethod
    def backward(ctx, ga, gb):
        seen.append((ga is None, gb is None))
        return ga if ga is not None else gb


class Materialize(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    def backward(ctx, ga, gb):
        seen.append((ga is None, gb is None, gb.tolist()))
        return ga + gb


class WrongCount(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, grad):
        return grad


class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return torch.ones(5)


class Broadcast(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(4, 3) * 2


class GradForConstant(Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k

    @staticmethod
    def backward(ctx, grad):
        return grad, 1.0


class Once(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


class Identity(Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 5


seen = []
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
xd = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
"""

#: the alpha-2 in-place example of PyTorch's autograd notes (test_views_and_inplace.py runs
#: it too): z is written in place after q and r used it
ALPHA2 = """
a = torch.ones(2, requires_grad=True)
b = torch.full((2,), 2.0, requires_grad=True)
z = a * b
q = z * b
r = z + b
z.add_(b)
"""

CASES = {
    # custom functions
    "function_value_and_grad": """
y = Cube.apply(x, 2.0)
y.sum().backward()
out = (y, x.grad, y.grad_fn.name(), type(y.grad_fn).__name__, len(y.grad_fn.next_functions))
""",
    "function_needs_input_grad": """
class Probe(Function):
    @staticmethod
    def forward(ctx, a, b, k):
        seen.append(ctx.needs_input_grad)
        return a * b * k
    @staticmethod
    def backward(ctx, grad):
        return grad, None, None
Probe.apply(x, torch.ones(3), 3)
with torch.no_grad():
    Probe.apply(x, torch.ones(3), 3)
out = seen
""",
    "function_no_grad_inputs": """
y = Cube.apply(torch.ones(2), 1.0)
out = (y.requires_grad, y.grad_fn is None)
""",
    "function_two_outputs": """
a, b = Split.apply(x)
(a.sum() + b.sum() * 10).backward()
out = (a, b, x.grad, a.grad_fn is b.grad_fn)
""",
    "function_one_of_two_outputs_used": """
a, b = Split.apply(x)
b.sum().backward()
out = x.grad
""",
    "function_non_differentiable": """
values, indices = Sort.apply(torch.tensor([3.0, 1.0, 2.0], requires_grad=True))
(values * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
out = (values.requires_grad, indices.requires_grad, indices)
""",
    "function_mark_dirty": """
y = x * 1
z = Twice.apply(y)
z.sum().backward()
out = (z is y, z, type(z.grad_fn).__name__, x.grad)
""",
    "function_mark_dirty_leaf!": """
out = Twice.apply(x)
""",
    "function_materialize_off": """
a, b = NoMaterialize.apply(x)
b.sum().backward()
out = seen
""",
    "function_materialize_on": """
a, b = Materialize.apply(x)
a.sum().backward()
out = seen
""",
    "function_wrong_count!": """
WrongCount.apply(x, torch.ones(3, requires_grad=True)).sum().backward()
""",
    "function_wrong_shape!": """
WrongShape.apply(x).sum().backward()
""",
    "function_gradient_summed_to_shape": """
WrongShape = None
y = Broadcast.apply(x)
y.sum().backward()
out = x.grad
""",
    "function_grad_for_non_tensor!": """
GradForConstant.apply(x, 2.0).sum().backward()
""",
    "function_saved_tensors_freed!": """
y = Cube.apply(x, 1.0)
y.sum().backward()
y.grad_fn.saved_tensors
""",
    "function_saved_tensor_modified!": """
h = x * 1
y = Cube.apply(h, 1.0)
h.add_(1)
y.sum().backward()
""",
    "function_once_differentiable_first_order": """
(g,) = torch.autograd.grad(Once.apply(x).sum(), x, create_graph=True)
out = (g, g.requires_grad)
""",
    "function_once_differentiable_twice!": """
v = torch.ones(3, requires_grad=True)
(g,) = torch.autograd.grad(Once.apply(x), x, v, create_graph=True)
g.sum().backward()
""",
    "function_returns_input": """
y = Identity.apply(x)
y.sum().backward()
out = (y is x, x.grad, y.is_leaf)
""",
    "function_legacy_call!": """
Cube()(x, 1.0)
""",
    "function_double_backward": """
class Square(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return 2 * a * grad
(g,) = torch.autograd.grad(Square.apply(xd).sum(), xd, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), xd)
out = (g, gg)
""",
    # graph introspection
    "grad_fn_names": """
y = x * 2
z = (y + x).sum()
w = torch.tanh(y).exp()
out = (
    z.grad_fn.name(),
    [type(f).__name__ if f is not None else None for f, _ in z.grad_fn.next_functions],
    [f.name() for f, _ in z.grad_fn.next_functions[0][0].next_functions],
    w.grad_fn.name(),
    w.grad_fn.next_functions[0][0].name(),
)
""",
    "same_leaf_same_accumulator": """
y = x * 2
z = x + 1
out = y.grad_fn.next_functions[0][0] is z.grad_fn.next_functions[0][0]
""",
    "grad_fn_call": """
y = x * torch.tensor([2.0, 3.0, 4.0])
out = y.grad_fn(torch.ones(3))
""",
    # hooks
    "tensor_hook_replaces_grad": """
y = x * 2
y.register_hook(lambda g: g * 10)
y.sum().backward()
out = x.grad
""",
    "leaf_hook_replaces_grad": """
x.register_hook(lambda g: g + 1)
(x * 3).sum().backward()
out = x.grad
""",
    "leaf_hook_once_per_backward": """
x.register_hook(lambda g: seen.append(g.tolist()))
(x * 2 + x * 3).sum().backward()
out = (seen, x.grad)
""",
    "hook_removed": """
y = x * 2
handle = y.register_hook(lambda g: g * 10)
handle.remove()
y.sum().backward()
out = x.grad
""",
    "hook_observes": """
y = x * 2
y.register_hook(lambda g: seen.append(g.tolist()))
(y * y).sum().backward()
out = seen
""",
    "hooks_in_order": """
y = x * 1
y.register_hook(lambda g: g + 1)
y.register_hook(lambda g: g * 2)
y.sum().backward()
out = x.grad
""",
    "hook_without_grad!": """
torch.ones(2).register_hook(lambda g: g)
""",
    "node_hook": """
y = x * 2
def hook(grad_inputs, grad_outputs):
    seen.append(([g.tolist() for g in grad_inputs if g is not None], [g.tolist() for g in grad_outputs]))
y.grad_fn.register_hook(hook)
(y * 3).sum().backward()
out = (seen, x.grad)
""",
    "node_hook_replaces": """
y = x * 2
y.grad_fn.register_hook(lambda gi, go: (gi[0] * 0 + 7, None))
y.sum().backward()
out = x.grad
""",
    "node_prehook": """
y = x * 2
y.grad_fn.register_prehook(lambda go: (go[0] * 100,))
y.sum().backward()
out = x.grad
""",
    "retain_grad": """
y = x * 2
z = y * y
y.retain_grad()
z.sum().backward()
out = (y.grad, y.retains_grad, x.retains_grad, z.retains_grad, z.grad)
""",
    "retain_grad_sees_hook": """
y = x * 2
y.retain_grad()
y.register_hook(lambda g: g * 3)
y.sum().backward()
out = (y.grad, x.grad)
""",
    "retain_grad_without_grad!": """
torch.ones(2).retain_grad()
""",
    # detach, data, is_leaf
    "detach_in_place": """
y = x * 2
y.detach_()
out = (y.requires_grad, y.grad_fn, y.is_leaf, y)
""",
    "detach_view_in_place!": """
y = x * 2
y[0:2].detach_()
""",
    "data_vs_detach_data": """
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
o = a.sigmoid()
o.data.mul_(0)
o.sum().backward()
out = (o, a.grad)
""",
    "data_vs_detach_detach!": """
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
o = a.sigmoid()
o.detach().mul_(0)
o.sum().backward()
""",
    "data_is_leaf": """
y = x * 2
out = (y.data.requires_grad, y.data.is_leaf, y.detach().requires_grad)
""",
    # the alpha-2 in-place example
    "alpha2_setup": ALPHA2
    + """out = (z, q, r, type(z.grad_fn).__name__)
""",
    "alpha2_z_backward": ALPHA2
    + """z.sum().backward()
out = (a.grad, b.grad)
""",
    "alpha2_r_backward": ALPHA2
    + """r.sum().backward()
out = (a.grad, b.grad)
""",
    "alpha2_q_backward!": ALPHA2
    + """q.sum().backward()
""",
    "modified_plain_input!": """
c = torch.ones(2)
y = x[:2] * c
c.add_(1)
y.sum().backward()
""",
    "modified_saved_result!": """
y = torch.tanh(x * 1)
y.mul_(2)
y.sum().backward()
""",
    "modified_unused_input_is_fine": """
y = x * 1
z = y + 1
y.add_(1)
z.sum().backward()
out = x.grad
""",
    # in-place writes into views
    "view_inplace_rebase": """
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = a * 1
v = y[0]
v.mul_(3)
(y * torch.tensor([[1.0, 10.0], [100.0, 1000.0]])).sum().backward()
out = (y, v, type(y.grad_fn).__name__, type(v.grad_fn).__name__, a.grad)
""",
    "view_inplace_column_from_other_column": """
y = x.reshape(3, 1) * torch.ones(3, 2)
y[:, 1].add_(y[:, 0] * 2)
y.sum().backward()
out = (y, x.grad)
""",
    "view_inplace_into_constant": """
w = torch.tensor([5.0, 6.0], requires_grad=True)
z = torch.zeros(2, 3)
z[:, 1].copy_(w * 2)
(z * torch.arange(6.0).reshape(2, 3)).sum().backward()
out = (z.requires_grad, type(z.grad_fn).__name__, w.grad)
""",
    "view_inplace_saved_result": """
y = x * 1
v = y[1:]
v.exp_()
y.sum().backward()
out = (y, x.grad)
""",
    "view_of_leaf_inplace!": """
x[0:2].mul_(2)
""",
    # anomaly mode
    "anomaly_nan!": """
import warnings
warnings.simplefilter("ignore")
a = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    (a / a).sum().backward()
""",
    "anomaly_flags": """
import warnings
warnings.simplefilter("ignore")
modes = torch.autograd.anomaly_mode
enabled = getattr(torch, "is_anomaly_enabled", None) or modes.is_anomaly_enabled
check_nan = getattr(torch, "is_anomaly_check_nan_enabled", None) or modes.is_anomaly_check_nan_enabled
before = enabled()
with torch.autograd.detect_anomaly():
    inside = enabled()
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    inside_nan = check_nan()
out = (before, inside, inside_nan, enabled())
""",
    "anomaly_off_nan_passes": """
a = torch.tensor([0.0, 1.0], requires_grad=True)
(a / a).sum().backward()
out = a.grad
""",
    # grad modes
    "grad_modes": """
with torch.autograd.no_grad():
    a = x * 2
with torch.autograd.enable_grad():
    b = x * 2
torch.autograd.set_grad_enabled(False)
c = x * 2
torch.autograd.set_grad_enabled(True)
with torch.autograd.inference_mode():
    d = x * 2
out = (a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad,
       torch.is_grad_enabled())
""",
    "no_grad_decorator": """
@torch.autograd.no_grad()
def f(t):
    return t * 2
out = f(x).requires_grad
""",
    # gradcheck
    "gradcheck_passes": """
out = torch.autograd.gradcheck(lambda a, b: (a * b).sin(), (xd, xd.detach().clone().requires_grad_()))
""",
    "gradcheck_wrong!": """
class Bad(Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, grad):
        return grad * 3
torch.autograd.gradcheck(Bad.apply, (xd,))
""",
    "gradcheck_no_raise": """
class Bad(Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, grad):
        return grad * 3
out = torch.autograd.gradcheck(Bad.apply, (xd,), raise_exception=False)
""",
    "gradcheck_is_runtime_error": """
from torch.autograd.gradcheck import GradcheckError
out = issubclass(GradcheckError, RuntimeError)
""",
    "gradcheck_nothing_requires_grad!": """
torch.autograd.gradcheck(torch.sin, (xd.detach(),))
""",
    "gradgradcheck_passes": """
out = torch.autograd.gradgradcheck(lambda a: (a ** 3).sum() * a, (xd,))
""",
    # functional
    "jacobian_single": """
out = jacobian(lambda a: a ** 2, xd)
""",
    "jacobian_tuples": """
out = jacobian(lambda a, b: (a * b, (a + b).sum()), (xd, xd * 2))
""",
    "jacobian_unused": """
out = jacobian(lambda a, b: a * 2, (xd, xd))
""",
    "jacobian_strict!": """
jacobian(lambda a, b: a * 2, (xd, xd), strict=True)
""",
    "jacobian_bad_output!": """
jacobian(lambda a: 3, xd)
""",
    "hessian_single": """
out = hessian(lambda a: (a ** 3).sum() + a.prod(), xd)
""",
    "hessian_tuple": """
out = hessian(lambda a, b: (a * b * b).sum(), (xd, xd + 1))
""",
    "vjp_value": """
out = vjp(lambda a: a ** 2, xd, torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64))
""",
    "vjp_scalar_default": """
out = vjp(lambda a: (a ** 2).sum(), xd)
""",
    "vjp_needs_v!": """
vjp(lambda a: a ** 2, xd)
""",
    "jvp_value": """
out = jvp(lambda a: (a ** 2, a.sum()), xd, torch.tensor([1.0, 0.0, 1.0], dtype=torch.float64))
""",
    "hvp_value": """
out = hvp(lambda a: (a ** 3).sum(), xd, torch.tensor([1.0, 1.0, 0.0], dtype=torch.float64))
""",
    "vhp_value": """
out = vhp(lambda a, b: (a * a * b).sum(), (xd, xd + 1), (torch.ones(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)))
""",
    "hessian_needs_scalar!": """
hessian(lambda a: a ** 2, xd)
""",
    "functional_results_detached": """
o, g = vjp(lambda a: (a ** 2).sum(), xd)
out = (o.requires_grad, g.requires_grad)
""",
    "functional_create_graph": """
o, g = vjp(lambda a: (a ** 2).sum(), xd, create_graph=True)
out = (o.requires_grad, g.requires_grad)
""",
    # the engine's backward on arrays: gradients of the leaves' dtype, leaves that own
    # their .grad, the same values as the Tensor formulas
    "grad_takes_leaf_dtype": """
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([0.5, 0.25, 2.0], dtype=torch.float64, requires_grad=True)
(a * b).sum().backward()
out = (a.grad, b.grad)
""",
    "leaf_grads_own_memory": """
a = torch.zeros(3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
g = torch.ones(3)
(a + b).backward(g)
a.grad.add_(5)
out = (a.grad, b.grad, g, a.grad is g)
""",
    "leaf_grads_own_memory_scalar_root": """
a = torch.zeros(2, 3, requires_grad=True)
b = torch.zeros(2, 3, requires_grad=True)
(a - b).view(6).sum().backward()
a.grad.mul_(3)
out = (a.grad, b.grad)
""",
    "small_graph_values": """
a = torch.linspace(-1, 1, 12, dtype=torch.float64, requires_grad=True).view(3, 4)
a.retain_grad()
w = torch.linspace(0.5, 2, 8, dtype=torch.float64, requires_grad=True)
v = w.view(4, 2)
c = torch.tensor([[0.5], [2.0], [-1.0]], dtype=torch.float64)
y = ((torch.tanh(a * c) @ v).sigmoid().exp() / 3 - a.mean()).sum()
y.backward()
out = (y, a.grad, w.grad)
""",
    "backward_twice_accumulates": """
a = torch.tensor([1.0, -2.0], requires_grad=True)
(a * a).sum().backward()
(torch.tanh(a) * 2).sum().backward()
out = a.grad
""",
    "grad_accumulates_in_place": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
(a * a).sum().backward()
first = a.grad
(a * 3).sum().backward()
out = (first is a.grad, first)
""",
    "grad_set_by_user_accumulates_in_place": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
mine = torch.zeros(2)
a.grad = mine
(a * a).sum().backward()
out = (mine is a.grad, mine)
""",
    "grad_from_user_gradient_is_a_copy": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
g = torch.ones(2)
(a + 0).backward(g)
(a * 1).backward(g)
out = (a.grad is g, g, a.grad)
""",
    "grad_with_leaf_hook_accumulates_in_place": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
a.register_hook(lambda g: g * 2)
(a * 1).sum().backward()
first = a.grad
(a * 1).sum().backward()
out = (first is a.grad, a.grad)
""",
    "grad_create_graph_accumulates_out_of_place": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
(a * a).sum().backward(create_graph=True)
first = a.grad
(a * a).sum().backward(create_graph=True)
second = a.grad
(a * 3).sum().backward()
out = (first is second, first, second, a.grad.requires_grad)
""",
    "grad_layout_follows_dense_leaf": """
a = torch.arange(12.0).reshape(3, 4).t().requires_grad_()
(a * 2).sum().backward()
b = torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1).requires_grad_()
(b * b).sum().backward()
c = torch.arange(12.0).reshape(3, 4)[:, ::2].requires_grad_()
(c * 1).sum().backward()
d = torch.arange(12.0).reshape(3, 4).t().requires_grad_()
torch.autograd.backward((d * 3).sum(), inputs=[d])
out = (a.grad.stride(), a.grad, b.grad.stride(), c.grad.stride(), d.grad.stride(), d.grad)
""",
    "backward_twice_without_retain!": """
a = torch.tensor([1.0, -2.0], requires_grad=True)
y = torch.tanh(a).sum()
y.backward()
y.backward()
""",
    # torch.autograd.graph: saved-tensor hooks, nodes and edges
    "saved_hooks_pack_and_unpack": """
from torch.autograd import graph
a = torch.ones(3, requires_grad=True)
log = []
def pack(t):
    log.append(("pack", list(t.shape), t is a))
    return t * 1
def unpack(t):
    log.append(("unpack", list(t.shape)))
    return t
with graph.saved_tensors_hooks(pack, unpack):
    y = a * a
    z = torch.tanh(y)
    w = y.sum()
packed = list(log)
z.sum().backward()
out = (packed, log, a.grad)
""",
    "saved_hooks_unpack_not_tensor!": """
from torch.autograd import graph
a = torch.ones(3, requires_grad=True)
with graph.saved_tensors_hooks(lambda t: t, lambda t: 5):
    y = a * a
y.sum().backward()
""",
    "saved_hooks_disabled!": """
from torch.autograd import graph
with graph.disable_saved_tensors_hooks("no hooks in here"):
    with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        pass
""",
    "saved_hooks_copy_hides_inplace_change": """
from torch.autograd import graph
a = torch.ones(3, requires_grad=True)
with graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
    b = a * 1
    c = b * b
b.mul_(2)
c.sum().backward()
out = a.grad
""",
    "saved_hooks_skip_version_checks": """
from torch.autograd import graph
a = torch.ones(3, requires_grad=True)
with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    b = a * 1
    c = b * b
b.mul_(2)
c.sum().backward()
out = a.grad
""",
    "saved_hooks_custom_function": """
from torch.autograd import graph
class Square(Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t, None)
        return t * t
    @staticmethod
    def backward(ctx, grad):
        t, nothing = ctx.saved_tensors
        return 2 * t * grad
a = torch.tensor([1.0, 2.0], requires_grad=True)
log = []
with graph.saved_tensors_hooks(lambda t: log.append("pack") or t, lambda t: log.append("unpack") or t):
    Square.apply(a).sum().backward()
out = (log, a.grad)
""",
    "saved_hooks_innermost_applies": """
from torch.autograd import graph
a = torch.tensor([1.0, 2.0], requires_grad=True)
log = []
with graph.saved_tensors_hooks(lambda t: log.append("outer") or t, lambda t: t):
    with graph.saved_tensors_hooks(lambda t: log.append("inner") or t, lambda t: t):
        y = torch.exp(a)
    z = y * 2
z.sum().backward()
out = (log, a.grad)
""",
    "save_on_cpu": """
from torch.autograd import graph
a = torch.tensor([0.5, 1.0], requires_grad=True)
with graph.save_on_cpu(pin_memory=True):
    q = (torch.exp(a) * a).sum()
q.backward()
out = a.grad
""",
    "graph_node_and_edges": """
from torch.autograd import graph
a = torch.ones(2, requires_grad=True)
y = a * 2
leaf_edge = graph.get_gradient_edge(a)
out = (isinstance(y.grad_fn, graph.Node), isinstance(leaf_edge.node, graph.Node), isinstance(3, graph.Node), leaf_edge.node.name(), leaf_edge.output_nr, graph.get_gradient_edge(y).node.name(), tuple(graph.GradientEdge._fields))
""",
    "multi_grad_hook_all": """
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = torch.ones(1, requires_grad=True)
log = []
handle = register_multi_grad_hook((a, b, c), lambda grads: log.append((type(grads).__name__, list(grads))))
(a.sum() * b).sum().backward()
(a * 2).sum().backward()
handle.remove()
(a * 2).sum().backward()
x = a * 1
register_multi_grad_hook((x, a), lambda grads: log.append(list(grads)))
(x * 3).sum().backward()
out = log
""",
    "multi_grad_hook_any": """
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.ones(1, requires_grad=True)
log = []
register_multi_grad_hook((a, c), lambda grad: log.append(grad), mode="any")
(a * 3).sum().backward()
(a * 4).sum().backward()
out = log
""",
    "multi_grad_hook_bad_mode!": """
torch.autograd.graph.register_multi_grad_hook((torch.ones(1, requires_grad=True),), print, mode="some")
""",
    "graph_edge_needs_grad!": """
torch.autograd.graph.get_gradient_edge(torch.ones(2))
""",
    "graph_increment_version!": """
a = torch.ones(2, requires_grad=True)
b = a * 1
c = (b * b).sum()
torch.autograd.graph.increment_version([b])
c.backward()
""",
    "saved_result_modified!": """
a = torch.tensor([1.0, -2.0], requires_grad=True)
y = torch.tanh(a)
y.mul_(2)
y.sum().backward()
""",
    # ------------------------------------------ decompositions with several outputs
    "linalg_svd_vectors": """
a = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.2, -0.7], [0.4, 1.1, 0.9]], dtype=torch.float64, requires_grad=True)
U, S, Vh = torch.linalg.svd(a, full_matrices=False)
(U.abs().sum() + (S * S.flip(0)).sum() + (Vh.abs() * torch.arange(9.0, dtype=torch.float64).reshape(3, 3)).sum()).backward()
out = [a.grad, U.grad_fn.name(), U.grad_fn is Vh.grad_fn]
""",
    "linalg_svd_wide_full_matrices": """
a = torch.tensor([[1.0, 2.0, 0.5, -0.3], [0.3, -1.0, 2.0, 0.8], [1.5, 0.2, -0.7, 1.2]], dtype=torch.float64, requires_grad=True)
U, S, Vh = torch.linalg.svd(a)
(U.abs().sum() + Vh[:3].abs().sum() + Vh[3:].abs().sum()).backward()
out = a.grad
""",
    "torch_svd_v": """
a = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.2, -0.7], [0.4, 1.1, 0.9]], dtype=torch.float64, requires_grad=True)
U, S, V = torch.svd(a)
(V.abs() * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum().backward()
out = a.grad
""",
    "svdvals_double_backward": """
a = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.2, -0.7]], dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(torch.linalg.svdvals(a).pow(3).sum(), a, create_graph=True)
(h,) = torch.autograd.grad(g.sin().sum(), a)
out = [g, h]
""",
    "complex_svd_phase_dependent!": """
a = torch.tensor([[1.0 + 1.0j, 2.0, 0.5j], [0.3, -1.0 + 0.5j, 2.0], [1.5j, 0.2, -0.7]], dtype=torch.complex128, requires_grad=True)
torch.linalg.svd(a)[0].sum().abs().backward()
""",
    "complex_svd_phase_invariant": """
a = torch.tensor([[1.0 + 1.0j, 2.0, 0.5j], [0.3, -1.0 + 0.5j, 2.0], [1.5j, 0.2, -0.7]], dtype=torch.complex128, requires_grad=True)
U, S, Vh = torch.linalg.svd(a)
(U.abs().pow(3).sum() + (U @ Vh).abs().sum()).backward()
out = [a.grad.real, a.grad.imag]
""",
    "linalg_qr_gradients": """
a = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.2, -0.7], [0.4, 1.1, 0.9]], dtype=torch.float64, requires_grad=True)
Q, R = torch.linalg.qr(a)
(Q.abs().sum() + (R * R).sum()).backward()
out = [a.grad, Q.grad_fn.name()]
""",
    "linalg_qr_wide": """
a = torch.tensor([[1.0, 2.0, 0.5, -0.3], [0.3, -1.0, 2.0, 0.8], [1.5, 0.2, -0.7, 1.2]], dtype=torch.float64, requires_grad=True)
Q, R = torch.linalg.qr(a, mode="complete")
(Q.abs().sum() + R.abs().sum()).backward()
out = a.grad
""",
    "linalg_qr_complete_tall!": """
a = torch.ones(4, 3, dtype=torch.float64).tril().requires_grad_()
torch.linalg.qr(a, mode="complete")[0].sum().backward()
""",
    "linalg_qr_mode_r!": """
a = torch.ones(4, 3, dtype=torch.float64).tril().requires_grad_()
torch.linalg.qr(a, mode="r")[1].sum().backward()
""",
    "linalg_eig_gradients": """
a = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.2, -0.7]], dtype=torch.float64, requires_grad=True)
L, V = torch.linalg.eig(a)
(L.real.sum() * 2 + L.imag.pow(2).sum() + V.abs().pow(3).sum()).backward()
out = [a.grad, L.grad_fn.name()]
""",
    "linalg_eigvals_complex_pair": """
a = torch.tensor([[0.0, -2.0, 0.5], [1.0, 0.3, 0.2], [0.1, 0.4, 1.0]], dtype=torch.float64, requires_grad=True)
torch.linalg.eigvals(a).abs().sum().backward()
out = a.grad
""",
    "linalg_eig_phase_dependent!": """
a = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.2, -0.7]], dtype=torch.float64, requires_grad=True)
torch.linalg.eig(a)[1].real.sum().backward()
""",
    "linalg_lu_gradients": """
a = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.2, -0.7], [0.4, 1.1, 0.9]], dtype=torch.float64, requires_grad=True)
P, L, U = torch.linalg.lu(a)
LU, pivots = torch.linalg.lu_factor(a[:3])
(L.pow(2).sum() + U.sin().sum() + LU.pow(3).sum()).backward()
out = a.grad
""",
    "lu_solve_gradients": """
a = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.2, -0.7]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[1.0, 0.5], [-1.0, 2.0], [0.3, 0.1]], dtype=torch.float64, requires_grad=True)
torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b).pow(2).sum().backward()
out = [a.grad, b.grad]
""",
    "pinv_gradients": """
a = torch.tensor([[[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]], [[1.5, 0.2, -0.7], [0.4, 1.1, 0.9]]], dtype=torch.float64, requires_grad=True)
torch.linalg.pinv(a).pow(2).sum().backward()
out = a.grad
""",
    "lstsq_wide_gradients": """
a = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[1.0], [0.5]], dtype=torch.float64, requires_grad=True)
torch.linalg.lstsq(a, b).solution.pow(2).sum().backward()
out = [a.grad, b.grad]
""",
    "det_singular_gradients": """
a = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(torch.linalg.det(a), a, create_graph=True)
(h,) = torch.autograd.grad(g.sum(), a)
out = [g, h]
""",
    # complex gradients: for a real loss L, PyTorch's gradient of z is dL/d(re z) + i dL/d(im z)
    "complex_conj_views_gradients": """
z = torch.tensor([[1 + 2j, 3 - 1j], [0.5 + 0.2j, -1 + 1j]], dtype=torch.complex128, requires_grad=True)
w = torch.tensor([[1 + 1j, 2 - 0.5j], [0.3j, 1.0]], dtype=torch.complex128)
out = []
for view in (z.conj(), z.mH, z.adjoint(), z.mT.conj(), torch.conj_physical(z), z.conj().resolve_conj()):
    (g,) = torch.autograd.grad((view * w).real.sum() + (view.abs() ** 2).sum(), z)
    out.append(g)
""",
    "complex_conj_grad_fn_and_is_conj": """
z = torch.tensor([1 + 2j], dtype=torch.complex128, requires_grad=True)
out = [type(z.conj().grad_fn).__name__, z.conj().requires_grad, z.conj().resolve_conj().is_conj(), z.is_conj()]
""",
    "complex_pointwise_gradients": """
z = torch.tensor([0.7 + 0.4j, -0.3 + 1.1j, 1.5 - 0.6j], dtype=torch.complex128, requires_grad=True)
w = torch.tensor([1 - 2j, 0.5 + 0.5j, -1 + 0.25j], dtype=torch.complex128)
out = []
for f in (torch.exp, torch.log, torch.sqrt, torch.reciprocal, torch.sigmoid, torch.tanh, torch.sin, torch.rsqrt, torch.abs, torch.angle, lambda t: t ** 3, lambda t: t ** (0.5 + 1j), lambda t: 2.0 ** t, lambda t: t * 1j):
    (g,) = torch.autograd.grad((f(z) * w).real.sum(), z)
    out.append(g)
""",
    "complex_parts_gradients": """
a = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([3.0, -1.0], dtype=torch.float64, requires_grad=True)
z = torch.tensor([0.5 + 1j, -2 + 0.5j], dtype=torch.complex128, requires_grad=True)
c = torch.complex(a, b)
p = torch.polar(a, b)
loss = (c * torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex128)).abs().sum() + (p * (1 + 1j)).real.sum()
loss = loss + (z.real * 3).sum() + (z.imag ** 2).sum() + torch.view_as_real(z).pow(3).sum() + z.to(torch.float64).sum()
out = list(torch.autograd.grad(loss, (a, b, z)))
""",
    "complex_reduction_gradients": """
z = torch.tensor([[0.7 + 0.4j, -0.3 + 1.1j, 1.5 - 0.6j], [0.2 - 0.9j, 1.0 + 0.1j, -0.8 + 0.3j]], dtype=torch.complex128, requires_grad=True)
out = []
for f in (lambda t: t.sum(), lambda t: t.mean(), lambda t: t.prod(), lambda t: t.cumsum(1), lambda t: t.cumprod(1), lambda t: torch.linalg.vector_norm(t), lambda t: torch.linalg.vector_norm(t, 1), lambda t: torch.linalg.norm(t), lambda t: t.var(), lambda t: torch.einsum("ij,kj->ik", t, t), lambda t: torch.outer(t[0], t[1]), lambda t: torch.dot(t[0], t[1]), lambda t: torch.vdot(t[0], t[1]), lambda t: torch.inner(t, t)):
    y = f(z)
    (g,) = torch.autograd.grad((y * (1 + 0.5j)).real.sum() + y.abs().sum(), z)
    out.append(g)
""",
    "complex_linalg_gradients": """
m = torch.tensor([[1 + 0.5j, 2 - 1j, 0.1j], [0.3 + 0.2j, -1 + 1j, 0.5], [0.2, 0.4 - 0.3j, 2 + 0.1j]], dtype=torch.complex128)
a = m.clone().requires_grad_()
h = a @ a.mH + 3 * torch.eye(3, dtype=torch.complex128)
values, vectors = torch.linalg.eigh(h)
eig_values, eig_vectors = torch.linalg.eig(a)
loss = torch.linalg.cholesky(h).abs().sum() + values.sum() + vectors.abs().sum() + torch.linalg.slogdet(a).logabsdet
loss = loss + eig_values.abs().sum() + eig_vectors.abs().sum() + torch.linalg.det(a).abs() + torch.linalg.inv(a).real.sum()
out = torch.autograd.grad(loss, a)
""",
    "complex_eigh_phase_dependent_error": """
a = torch.tensor([[2.0, 1 - 1j], [1 + 1j, 3.0]], dtype=torch.complex128, requires_grad=True)
torch.linalg.eigh(a).eigenvectors.real.sum().backward()
""",
    "complex_gradcheck": """
z = torch.tensor([0.7 + 0.4j, -0.3 + 1.1j], dtype=torch.complex128, requires_grad=True)
out = [torch.autograd.gradcheck(torch.exp, (z,)), torch.autograd.gradcheck(lambda t: t.abs() * t.conj(), (z,)), torch.autograd.gradgradcheck(lambda t: (t * t.conj()).sqrt(), (z,))]
""",
}


def _add_family(prefix: str, setup: str, codes: dict, finish: str = "\n") -> None:
    """Add a family of cases: ``CASES[prefix + name]`` is the family's ``setup``, then the
    case's own code, then ``finish`` (what every case of the family ends with)."""
    for name, code in codes.items():
        CASES[prefix + name] = setup + code + finish


# In-place writes into views that reinterpret the dtype of their base (complex elements as
# (re, im) pairs or back): view_as_real, view_as_complex, .real, .imag, slices and chains of
# them. The base's history must take the write (CopySlices) with the geometry counted in
# real elements. Views by dtype (Tensor.view(dtype)) are not differentiable in PyTorch.
_RETYPED_PARTS = """
x = torch.tensor([1.0, 2.0, -0.5], dtype=torch.float64, requires_grad=True)
y = torch.tensor([3.0, 4.0, 0.25], dtype=torch.float64, requires_grad=True)
w = torch.tensor([1 - 2j, 0.5 + 0.5j, -1 + 0.25j], dtype=torch.complex128)
"""
_RETYPED_VIEW_CASES = {
    "view_as_real_mul_": """
z = torch.complex(x, y)
r = torch.view_as_real(z)
r.mul_(torch.tensor([[2.0, 3.0], [5.0, 7.0], [-1.0, 0.5]], dtype=torch.float64))
z.abs().sum().backward()
out = (z, x.grad, y.grad)
""",
    "view_as_real_imag_column_add_": """
z = torch.complex(x, y)
r = torch.view_as_real(z)
r[..., 1].add_(x)
(z * w).real.sum().backward()
out = (z, x.grad, y.grad)
""",
    "view_as_real_row_mul_": """
z = torch.complex(x, y)
torch.view_as_real(z)[1].mul_(y)
(z.abs() ** 2).sum().backward()
out = (z, x.grad, y.grad)
""",
    "view_as_real_of_slice": """
z = torch.complex(x, y)
torch.view_as_real(z[1:]).mul_(3)
(z * w).imag.sum().backward()
out = (z, x.grad, y.grad)
""",
    "view_as_real_strided_transposed": """
a = torch.arange(1.0, 7.0, dtype=torch.float64).reshape(2, 3).requires_grad_()
b = torch.arange(-3.0, 3.0, dtype=torch.float64).reshape(2, 3).requires_grad_()
z = torch.complex(a, b)
r = torch.view_as_real(z.t())
r[::2, :, 1].mul_(torch.tensor([[2.0, 3.0], [4.0, 5.0]], dtype=torch.float64))
(z.abs() * torch.arange(6.0, dtype=torch.float64).reshape(2, 3)).sum().backward()
out = (z, a.grad, b.grad)
""",
    "view_as_real_copy_into_constant": """
z = torch.zeros(3, dtype=torch.complex128)
torch.view_as_real(z).copy_(torch.stack([x * 2, y.exp()], -1))
(z * w).abs().sum().backward()
out = (z.requires_grad, x.grad, y.grad)
""",
    "real_mul_": """
z = x * (1 + 1j)
z.real.mul_(2)
z.abs().sum().backward()
out = (z, x.grad)
""",
    "imag_add_": """
z = x * (1 + 1j)
z.imag.add_(y * y)
(z * w).real.sum().backward()
out = (z, x.grad, y.grad)
""",
    "real_slice_zero_": """
z = torch.complex(x, y)
z.real[1:].zero_()
(z.abs() ** 2).sum().backward()
out = (z, x.grad, y.grad)
""",
    "imag_copy_into_constant": """
z = torch.ones(3, dtype=torch.complex128)
z.imag.copy_(y * 3)
(z * z).real.sum().backward()
out = (z, y.grad)
""",
    "real_then_imag_writes": """
z = torch.complex(x, y)
z.real.mul_(2)
z.imag.add_(z.real)
(z * w).abs().sum().backward()
out = (z, x.grad, y.grad)
""",
    "real_mul_by_imag_copy": """
z = torch.complex(x, y)
z.real.mul_(z.imag * 1)
(z * w).real.sum().backward()
out = (z, x.grad, y.grad)
""",
    "real_write_complex_leaf_clone": """
c = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex128, requires_grad=True)
z = c.clone()
z.real.pow_(2)
torch.view_as_real(z)[:, 1].mul_(3)
(z * z.conj()).real.sum().backward()
out = (z, c.grad)
""",
    "real_write_saved_by_abs": """
z = x * (1 + 1j)
a = z.abs()
z.real.mul_(2)
a.sum().backward()
""",
    "real_write_grad_fn_names": """
z = torch.complex(x, y)
r = torch.view_as_real(z)
r.mul_(2)
out = (type(z.grad_fn).__name__, type(r.grad_fn).__name__, r.requires_grad)
""",
    "real_write_complex64": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
z = torch.complex(a, b)
torch.view_as_real(z).mul_(torch.tensor([[2.0, 3.0], [5.0, 7.0]]))
z.real.sum().backward()
out = (z, a.grad, b.grad)
""",
    "real_write_double_backward": """
z = torch.complex(x, y)
torch.view_as_real(z)[:, 0].mul_(y)
(gx, gy) = torch.autograd.grad((z * z).real.sum(), (x, y), create_graph=True)
(gx * gy).sum().backward()
out = (gx, gy, x.grad, y.grad)
""",
    "view_as_complex_mul_": """
p = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]], dtype=torch.float64, requires_grad=True)
a = p * 1
c = torch.view_as_complex(a)
c.mul_(w)
(a ** 2 * torch.tensor([1.0, 2.0], dtype=torch.float64)).sum().backward()
out = (a, p.grad)
""",
    "view_as_complex_slice_mul_": """
p = torch.arange(1.0, 9.0, dtype=torch.float64).reshape(4, 2).requires_grad_()
a = p * 1
torch.view_as_complex(a)[::2].mul_(1j)
(a * torch.arange(8.0, dtype=torch.float64).reshape(4, 2)).sum().backward()
out = (a, p.grad)
""",
    "view_as_complex_of_reshaped": """
p = torch.arange(1.0, 9.0, dtype=torch.float64).reshape(2, 4).requires_grad_()
a = p * 1
c = torch.view_as_complex(a.view(2, 2, 2))
c[:, 1].mul_(torch.tensor([2 + 1j, -1j], dtype=torch.complex128))
(a.sin()).sum().backward()
out = (a, p.grad)
""",
    "view_as_complex_copy_with_grad": """
a = torch.zeros(3, 2, dtype=torch.float64)
torch.view_as_complex(a).copy_(torch.complex(x, y) * w)
(a ** 2).sum().backward()
out = (a, x.grad, y.grad)
""",
    "view_as_complex_of_view_as_real": """
z = torch.complex(x, y)
c = torch.view_as_complex(torch.view_as_real(z)[1:])
c.mul_(w[:2])
(z * z).real.sum().backward()
out = (z, x.grad, y.grad)
""",
    "view_as_real_of_view_as_complex": """
p = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]], dtype=torch.float64, requires_grad=True)
a = p * 1
r = torch.view_as_real(torch.view_as_complex(a))
r[:, 0].add_(r[:, 1] * 2)
(a ** 3).sum().backward()
out = (a, p.grad)
""",
    "view_as_complex_then_real": """
p = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]], dtype=torch.float64, requires_grad=True)
a = p * 1
torch.view_as_complex(a).imag.mul_(p[:, 0])
(a ** 2).sum().backward()
out = (a, p.grad)
""",
    "view_dtype_not_differentiable": """
h = x * 1
z = torch.complex(x, y)
out = [h.view(torch.float64).requires_grad, h.view(torch.float32).requires_grad, h.view(torch.int64).requires_grad, z.view(torch.float64).requires_grad, z.view(torch.float64).shape, h.view(torch.float32)._base is None, z.view(torch.float64)._base is None]
""",
    "view_dtype_inplace_leaves_base": """
h = x * 1
v = h.view(torch.float32)
q = torch.ones(6, requires_grad=True)
v.mul_(q)
h.sum().backward()
v.sum().backward()
out = (type(h.grad_fn).__name__, type(v.grad_fn).__name__, x.grad, q.grad)
""",
    "view_dtype_backward_error": """
h = x * 1
h.view(torch.float32).sum().backward()
""",
}
_add_family(
    "inplace_retyped_",
    _RETYPED_PARTS,
    {name: code.lstrip("\n") for name, code in _RETYPED_VIEW_CASES.items()},
    finish="",
)


# Issue 5: an input (or the result) written in place after the op, then backward. PyTorch
# raises only where its derivative saved that tensor; elsewhere the gradient is unchanged.
_SAVED_VERSION_OPS = {
    "clone": "a.clone()",
    "double": "a.double()",
    "float": "a.float()",
    "to_copy": "a.to(torch.float32, copy=True)",
    "copy_": "torch.zeros(2, 2, dtype=torch.float64).copy_(a)",
    "cat": "torch.cat([a, a * 2], 1)",
    "stack": "torch.stack([a, a])",
    "repeat": "a.repeat(2, 3)",
    "cumsum": "a.cumsum(1)",
    "flip": "a.flip(0)",
    "roll": "a.roll(1, 1)",
    "masked_fill": "a.masked_fill(torch.tensor([[True, False], [False, True]]), 0.0)",
    "pad": "torch.nn.functional.pad(a, (1, 2))",
    "tril": "a.tril()",
    "triu": "a.triu(1)",
    "diag": "torch.diag(a)",
    "index_select": "a.index_select(0, torch.tensor([1, 0, 1]))",
    "index": "a[[1, 0]]",
    "where": "torch.where(torch.tensor([[True, False], [False, True]]), a, 2 * a)",
    "scatter": "a.scatter(1, torch.tensor([[1], [0]]), a[:, :1] * 3)",
    "floor": "a.floor() + a",
    "sign": "a.sign() + a",
    "addcmul": "torch.addcmul(a, a * 2, a * 3)",
    "softmax": "a.softmax(1)",
    "log_softmax": "a.log_softmax(0)",
    "tan": "a.tan()",
    "expm1": "a.expm1()",
    "reciprocal": "a.reciprocal()",
    "exp": "a.exp()",
    "tanh": "a.tanh()",
    "sin": "a.sin()",
    "mul": "a * a",
}

for _name, _expr in _SAVED_VERSION_OPS.items():
    for _target in ("input", "result"):
        CASES[f"saved_versions_{_name}_{_target}"] = f"""
x = torch.tensor([[0.5, -1.25], [2.0, 0.75]], dtype=torch.float64, requires_grad=True)
a = x * 1
y = {_expr}
{"a" if _target == "input" else "y"}.add_(1)
(y * torch.arange(1.0, y.numel() + 1, dtype=y.dtype).cos().reshape(y.shape)).sum().backward()
out = x.grad
"""


def _describe(value):
    import torch

    if isinstance(value, torch.Tensor) and value.is_complex():  # JSON has no complex
        return {
            "complex_tensor": torch.view_as_real(value.detach().resolve_conj()).tolist(),
            "dtype": str(value.dtype),
            "requires_grad": value.requires_grad,
        }
    if isinstance(value, torch.Tensor):
        return {
            "tensor": value.detach().tolist(),
            "dtype": str(value.dtype),
            "requires_grad": value.requires_grad,
        }
    if isinstance(value, (tuple, list)):
        return [_describe(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def outcome(code: str) -> dict:
    """Run SETUP then ``code``; the value of ``out`` or the exception raised."""
    return run_snippet(SETUP, code, _describe)


# Ops that PyTorch records (float results require grad) but does not differentiate: the
# backward raises; nextafter passes the gradient of its input through.
_RECORDED_UNDIFFERENTIATED = {
    "floor_divide_scalar!": "torch.floor_divide(x, 2).sum().backward()",
    "floor_divide_tensor!": "torch.floor_divide(x, y).sum().backward()",
    "floor_divide_other_only!": "torch.floor_divide(x.detach(), y).sum().backward()",
    "floordiv_operator!": "(x // 2).sum().backward()",
    "rfloordiv_operator!": "(2 // x).sum().backward()",
    "floor_divide_inplace!": "(x * 1).floor_divide_(2).sum().backward()",
    "ifloordiv!": "h = x * 1\nh //= 2\nh.sum().backward()",
    "floor_divide_flags": "r = torch.floor_divide(x, 2)\nout = (r, type(r.grad_fn).__name__, torch.floor_divide(x.detach(), 2).requires_grad)",
    "floor_divide_int": "out = torch.floor_divide(torch.tensor([5, -5]), 2)",
    "heaviside!": "torch.heaviside(x, y.detach()).sum().backward()",
    "heaviside_values!": "torch.heaviside(x.detach(), y).sum().backward()",
    "heaviside_inplace!": "(x * 1).heaviside_(y.detach()).sum().backward()",
    "heaviside_flags": "r = torch.heaviside(x, y)\nout = (r, type(r.grad_fn).__name__)",
    "nextafter": "out = torch.autograd.grad((torch.nextafter(x, y) * y).sum(), (x, y))",
    "nextafter_broadcast": "out = torch.autograd.grad(torch.nextafter(x[:, None], y[:2]).sum(), (x, y))",
    "nextafter_inplace": "h = x * 1\nh.nextafter_(y.detach())\nh.sum().backward()\nout = (h.requires_grad, x.grad)",
}
_add_family("recorded_undifferentiated_", _RETYPED_PARTS, _RECORDED_UNDIFFERENTIATED)


# Issue 5: a view made before an in-place write into its base (through the base or another
# view of it) reads the base's current history afterwards (PyTorch regenerates its node).
_STALE_PARTS = """
x = torch.arange(1.0, 10.0, dtype=torch.float64).reshape(3, 3).requires_grad_()
p = torch.tensor([2.0, 3.0, 4.0], dtype=torch.float64, requires_grad=True)
m = torch.arange(9.0, dtype=torch.float64).reshape(3, 3)
a = x * 1
"""
_STALE_VIEW_CASES = {
    "sibling_then_base_loss": "c = a[:, :]\nc[1:].mul_(3)\nc[:, 1].mul_(p)\n(a * a).sum().backward()\nout = (a, x.grad, p.grad)",
    "sibling_then_view_loss": "c = a[:, :]\nc[1:].mul_(3)\nc[:, 1].mul_(p)\n(c * c).sum().backward()\nout = (c, x.grad, p.grad)",
    "read_after_sibling_write": "v = a[0]\nw = a[:, 0]\nw.mul_(5)\n(v * m[0]).sum().backward()\nout = (v, x.grad)",
    "read_after_base_write": "v = a[0]\na.mul_(2)\n(v ** 2).sum().backward()\nout = (v, x.grad)",
    "view_of_view_after_write": "v = a[1:]\nw = v[:, 1:]\na[2, 2].mul_(7)\n(w * w).sum().backward()\nout = (w, x.grad)",
    "grad_fn_name": "v = a[0]\na.mul_(2)\nout = (type(v.grad_fn).__name__, v.requires_grad)",
    "grad_fn_name_after_sibling": "v = a.t()\na[1].mul_(p)\nout = type(v.grad_fn).__name__",
    "write_through_stale_view": "v = a[0]\nw = a[:, 2]\nw.mul_(p)\nv.mul_(p)\n(a * m).sum().backward()\nout = (a, x.grad, p.grad)",
    "stale_view_backward_root": "v = a[0]\na[1].add_(1)\nv.backward(torch.ones(3, dtype=torch.float64))\nout = x.grad",
    "autograd_grad_two_views": "v = a[0]\nw = a[1]\nw.exp_()\nv.mul_(2)\nout = torch.autograd.grad((a ** 2).sum() + (w * m[1]).sum(), (x,))",
    "transpose_chain": "t = a.t()\nu = t[1]\na[1].mul_(p)\nu.mul_(4)\n(a * m).sum().backward()\nout = (a, x.grad, p.grad)",
    "narrow_and_diagonal": "d = a.diagonal()\nn = a.narrow(1, 1, 2)\nn.mul_(p[:2])\n(d * p).sum().backward()\nout = (d, x.grad, p.grad)",
    "base_write_then_view_write": "v = a[:, 1]\na.add_(p)\nv.mul_(p)\n(a ** 2).sum().backward()\nout = (a, x.grad, p.grad)",
    "reshape_view_after_write": "v = a.view(9)\na[0].mul_(p)\n(v * torch.arange(9.0, dtype=torch.float64)).sum().backward()\nout = (v, x.grad, p.grad)",
    "select_views_after_write": "r0, r1, r2 = a.select(0, 0), a.select(0, 1), a.select(0, 2)\nr1.mul_(p)\n(r0 * r1 + r2).sum().backward()\nout = (a, x.grad, p.grad)",
    "stale_view_in_no_grad_write": "v = a[0]\nwith torch.no_grad():\n    a.mul_(2)\n(v * p).sum().backward()\nout = (v, x.grad, p.grad)",
    "leaf_view_made_without_grad": "with torch.no_grad():\n    v = x[0]\nwith torch.no_grad():\n    x.mul_(1)\nout = (v.requires_grad, v.grad_fn is None)",
}
_add_family("inplace_stale_view_", _STALE_PARTS, _STALE_VIEW_CASES)


# Issue 5: random and constant in-place fills make the result a function of nothing: the
# tensor's old history gets no gradient (PyTorch: UniformBackward0, BernoulliBackward2...).
_FILL_NOTHING = {
    "uniform": "h.uniform_()",
    "normal": "h.normal_(1.0, 2.0)",
    "random": "h.random_()",
    "random_to": "h.random_(5)",
    "random_from_to": "h.random_(1, 5)",
    "exponential": "h.exponential_()",
    "geometric": "h.geometric_(0.5)",
    "cauchy": "h.cauchy_()",
    "log_normal": "h.log_normal_()",
    "bernoulli": "h.bernoulli_()",
    "bernoulli_p": "h.bernoulli_(0.3)",
    "bernoulli_tensor_p": "h.bernoulli_(torch.full((3,), 0.5, dtype=torch.float64))",
    "fill": "h.fill_(2.0)",
    "fill_tensor": "h.fill_(torch.tensor(2.0, dtype=torch.float64))",
    "zero": "h.zero_()",
}
for _name, _code in _FILL_NOTHING.items():
    CASES[f"inplace_fill_nothing_{_name}"] = (
        "x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)\n"
        f"h = x * 2\n{_code}\n(h * 1).sum().backward()\n"
        "out = (type(h.grad_fn).__name__, h.requires_grad, x.grad)\n"
    )
    CASES[f"inplace_fill_nothing_{_name}_view"] = (
        "x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)\n"
        f"b = torch.stack([x * 2, x * 3])\nh = b[1]\n{_code}\n(b * 1).sum().backward()\n"
        "out = (type(b.grad_fn).__name__, x.grad)\n"
    )
CASES["inplace_fill_nothing_fill_value_grad"] = (
    "x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)\n"
    "v = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)\n"
    "h = x * 2\nh.fill_(v * 1)\n(h * 3).sum().backward()\n"
    "out = (type(h.grad_fn).__name__, h, x.grad, v.grad)\n"
)


# Issue 5: in-place index/scatter/masked writes (and the ternary family: clamp_, lerp_,
# addcmul_...) into a view rebase the view's base.
_INDEXED_VIEW_PARTS = """
x = torch.arange(1.0, 10.0, dtype=torch.float64).reshape(3, 3).requires_grad_()
s = torch.tensor([10.0, 20.0, 30.0], dtype=torch.float64, requires_grad=True)
a = x * 1
"""
_INDEXED_VIEW_CASES = {
    "masked_fill": "a[0].masked_fill_(torch.tensor([True, False, True]), 0.0)",
    "masked_fill_tensor_value": "a[1:].masked_fill_(torch.tensor([True, False, True]), s[0])",
    "scatter": "a[:, 1].scatter_(0, torch.tensor([0, 2]), s[:2])",
    "scatter_add": "a[:, 0].scatter_add_(0, torch.tensor([1, 1]), s[1:])",
    "index_fill": "a.t().index_fill_(0, torch.tensor([1]), -1.0)",
    "index_add": "a[1].index_add_(0, torch.tensor([0, 2]), s[:2] * 2)",
    "index_copy": "a[0:2].index_copy_(1, torch.tensor([2]), s[:2].reshape(2, 1))",
    "index_put": "a[2].index_put_((torch.tensor([0]),), s[2])",
    "masked_scatter": "a[1].masked_scatter_(torch.tensor([True, False, True]), s[:2])",
    "scatter_reduce": "a[0].scatter_reduce_(0, torch.tensor([0, 0]), s[:2], 'prod')",
    "clamp": "a[1:].clamp_(max=5.0)",
    "lerp": "a[1].lerp_(s, 0.5)",
    "addcmul": "a[:2].addcmul_(s.expand(2, 3), s.expand(2, 3), value=2)",
    "diagonal_index_fill": "a.diagonal().index_fill_(0, torch.tensor([0, 2]), 0.5)",
}
_add_family(
    "inplace_indexed_view_",
    _INDEXED_VIEW_PARTS,
    _INDEXED_VIEW_CASES,
    finish="\n(a * a).sum().backward()\nout = (a, type(a.grad_fn).__name__, x.grad, s.grad)\n",
)


# Second derivatives of the cumulative ops and logsumexp: the backward itself is
# differentiable (logcumsumexp's runs on its saved result, cumprod's through zero inputs).
# ``g`` is the first derivative for the gradient ``v``, then the gradient of ``g . w`` with
# respect to the input and to ``v`` (PyTorch's NaN where ``v`` is 0 for logcumsumexp, and
# where the input starts with -inf, included).
_SECOND_ORDER_PARTS = """
inf = float("inf")
x = torch.tensor({data}, dtype=torch.{dtype}, requires_grad=True)
f = lambda t: {expr}
v = (torch.arange(f(x).numel(), dtype=torch.{dtype}) * 0.7 - 1.3).cos().reshape(f(x).shape)
v = {v}.requires_grad_()
w = (torch.arange(x.numel(), dtype=torch.{dtype}) * 0.3 + 0.5).sin().reshape(x.shape)
(g,) = torch.autograd.grad(f(x), x, v, create_graph=True)
gx, gv = torch.autograd.grad((g * w).sum(), (x, v), allow_unused=True)
out = (g, gx, gv)
"""
_ROW = "[0.3, -1.2, 2.0, 0.5, -0.7]"
_MATRIX = "[[0.1, -2.0, 50.0, 3.0], [1.5, -inf, 0.2, -1.0], [-0.5, 2.5, -3.0, 49.5]]"
_FINITE_MATRIX = "[[0.1, -2.0, 5.0, 3.0], [1.5, -1.0, 0.2, -1.0], [-0.5, 2.5, -3.0, 4.5]]"
_ZERO_MATRIX = "[[1.0, 0.0, 2.0, 0.0], [0.0, 3.0, 2.0, 1.0], [0.5, -2.0, 0.0, 1.5]]"
_SECOND_ORDER = {
    "logcumsumexp": ("torch.logcumsumexp(t, 0)", _ROW),
    "logcumsumexp_large": ("torch.logcumsumexp(t, 0)", "[50.0, -3.0, 49.0, 1.0, -50.0]"),
    "logcumsumexp_huge": ("torch.logcumsumexp(t, 0)", "[1000.0, -1000.0, 999.0, -inf, 2.0]"),
    "logcumsumexp_leading_ninf": ("torch.logcumsumexp(t, 0)", "[-inf, 1.0, -inf, 2.0, 0.5]"),
    "logcumsumexp_inner_ninf": ("torch.logcumsumexp(t, 0)", "[1.0, 2.0, -inf, 0.5, -inf]"),
    "logcumsumexp_all_ninf_row": (
        "torch.logcumsumexp(t, 1)",
        "[[-inf, -inf, -inf], [0.0, -inf, 1.0]]",
    ),
    "logcumsumexp_dim0": ("torch.logcumsumexp(t, 0)", _MATRIX),
    "logcumsumexp_dim1": ("torch.logcumsumexp(t, 1)", _MATRIX),
    "logcumsumexp_dim_last": ("torch.logcumsumexp(t, -1)", _MATRIX),
    "logcumsumexp_3d": (
        "torch.logcumsumexp(t, 1)",
        "[[[0.5, -1.0], [2.0, 0.0], [-3.0, 1.5]], [[1.0, 1.0], [-inf, 4.0], [0.25, -0.5]]]",
    ),
    "cumsum": ("torch.cumsum(t, 1)", _FINITE_MATRIX),
    "cumprod": ("torch.cumprod(t, 0)", _ROW),
    "cumprod_one_zero": ("torch.cumprod(t, 0)", "[0.3, -1.2, 0.0, 0.5, -0.7]"),
    "cumprod_two_zeros": ("torch.cumprod(t, 0)", "[0.3, 0.0, 2.0, 0.0, -0.7]"),
    "cumprod_zeros_dim1": ("torch.cumprod(t, 1)", _ZERO_MATRIX),
    "cumprod_zeros_dim0": ("torch.cumprod(t, 0)", _ZERO_MATRIX),
    "cummax": ("torch.cummax(t, 0).values", "[0.3, -1.2, 2.0, 0.5, 2.5]"),
    "cummin": ("torch.cummin(t, 1).values", _FINITE_MATRIX),
    "logsumexp": ("torch.logsumexp(t, 1)", _MATRIX),
    "logsumexp_keepdim": ("torch.logsumexp(t, 0, keepdim=True)", _FINITE_MATRIX),
}
for _name, (_expr, _data) in _SECOND_ORDER.items():
    for _suffix, _v in (
        ("", "v"),
        ("_zero_grads", "torch.where(torch.arange(v.numel()).reshape(v.shape) % 2 == 0, v, 0.0)"),
    ):
        CASES[f"second_order_{_name}{_suffix}"] = _SECOND_ORDER_PARTS.format(
            data=_data, dtype="float64", expr=_expr, v=_v
        )
CASES["second_order_gradgradcheck"] = """
x = torch.tensor([[0.1, -2.0, 50.0, 3.0], [1.5, -40.0, 0.2, -1.0], [-0.5, 2.5, -3.0, 49.5]], dtype=torch.float64, requires_grad=True)
z = torch.tensor([[1.0, 0.0, 2.0, 0.0], [0.0, 3.0, 2.0, 1.0]], dtype=torch.float64, requires_grad=True)
c = torch.tensor([1 + 2j, 0.3j, 0.5 - 1j, 2.0], dtype=torch.complex128, requires_grad=True)
gg = torch.autograd.gradgradcheck
out = [gg(lambda t: torch.logcumsumexp(t, d), (x,)) for d in (0, 1, -1)]
out += [gg(lambda t: torch.cumprod(t, d), (z,)) for d in (0, 1)]
out += [gg(lambda t: torch.logcumsumexp(t, 0), (c,)), gg(lambda t: torch.cumprod(t, 0), (c * torch.tensor([1, 0, 1, 1]),))]
"""
CASES["second_order_logcumsumexp_result_modified!"] = """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.logcumsumexp(x, 0)
y.add_(1)
y.sum().backward()
"""


# Ops that PyTorch records under a node of its own whose backward raises (igamma/igammac in
# their first argument only; the index outputs of unique do not require grad), and the
# gradient of igamma/igammac in their second argument.
_RAISING_NODES_PARTS = """
a = torch.tensor([0.5, 1.5, 3.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64, requires_grad=True)
w = torch.tensor([0.5, 1.0, 2.0, 3.0], requires_grad=True)
u = torch.tensor([3.0, 1.0, 1.0, 2.0], requires_grad=True)

def flags(*ts):
    return [(t.requires_grad, None if t.grad_fn is None else (type(t.grad_fn).__name__, t.grad_fn.name(), len(t.grad_fn.next_functions))) for t in ts]
"""
_RAISING_NODES = {
    "igamma_flags": "out = flags(torch.igamma(a, b), torch.igamma(a, b.detach()), torch.igamma(a.detach(), b), torch.igammac(a, b), torch.special.gammainc(a, b), torch.special.gammaincc(a, b))",
    "igamma_input!": "torch.igamma(a, b.detach()).sum().backward()",
    "igamma_both!": "torch.igamma(a, b).sum().backward()",
    "igammac_input!": "torch.igammac(a, b.detach()).sum().backward()",
    "gammainc_input!": "torch.special.gammainc(a, b.detach()).sum().backward()",
    "igamma_inplace!": "h = a.detach().clone().requires_grad_() * 1\nh.igamma_(b.detach())\nout = flags(h)\nh.sum().backward()",
    "igamma_other_grad": "out = torch.autograd.grad((torch.igamma(a.detach(), b) * torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)).sum(), b)",
    "igammac_other_grad": "out = torch.autograd.grad(torch.igammac(a.detach(), b).sum(), b)",
    "igamma_other_broadcast": "out = torch.autograd.grad(torch.igamma(a.detach()[:, None], b[:2]).sum(), b)",
    "igamma_other_gradgradcheck": "out = torch.autograd.gradgradcheck(lambda t: torch.igamma(a.detach(), t), (b,))",
    "bincount_flags": "r = torch.bincount(torch.tensor([0, 1, 1, 3]), weights=w, minlength=6)\nout = (r, flags(r), torch.bincount(torch.tensor([0, 1]), weights=w.detach()[:2]).requires_grad)",
    "bincount!": "torch.bincount(torch.tensor([0, 1, 1, 3]), weights=w).sum().backward()",
    "bincount_empty": "r = torch.bincount(torch.tensor([], dtype=torch.long), weights=torch.tensor([], requires_grad=True), minlength=2)\nout = (r, flags(r))",
    "histc_flags": "r = torch.histc(w, bins=4, min=0, max=4)\nout = (r, flags(r))",
    "histogram_flags": "h = torch.histogram(w, bins=4)\nout = (h, flags(*h), h.hist.grad_fn is h.bin_edges.grad_fn)",
    "histogram_weight_flags": "h = torch.histogram(w.detach(), bins=torch.tensor([0.0, 1.0, 4.0]), weight=w)\nout = (h, flags(*h))",
    "histogram!": "torch.histogram(w, bins=4).hist.sum().backward()",
    "histogram_edges!": "torch.histogram(w, bins=4).bin_edges.sum().backward()",
    "unique_flags": "out = flags(*torch.unique(u, return_inverse=True, return_counts=True), torch.unique(u, sorted=False), u.unique(), torch.unique(u * 2))",
    "unique_dim_flags": "out = flags(*torch.unique(u.reshape(2, 2), dim=0, return_inverse=True))",
    "unique_consecutive_flags": "out = flags(torch.unique_consecutive(u), torch.unique_consecutive(u.reshape(2, 2), dim=1))",
    "unique!": "torch.unique(u).sum().backward()",
    "unique_dim!": "torch.unique(u.reshape(2, 2), dim=1).sum().backward()",
    "unique_consecutive!": "torch.unique_consecutive(u).sum().backward()",
    "unique_consecutive_dim!": "torch.unique_consecutive(u.reshape(2, 2), dim=0).sum().backward()",
    "unique_int": "out = flags(torch.unique(torch.tensor([3, 1, 1])))",
}
_add_family("raising_node_", _RAISING_NODES_PARTS, _RAISING_NODES)


# In-place writes into the outputs of ops that return several views (unbind, split, chunk,
# split_with_sizes) and into views of them raise; so does using one after its base was
# written in place.
_MULTI_VIEW_PARTS = """
x = torch.arange(6.0).reshape(2, 3).requires_grad_()
b = x * 1
"""
_MULTI_VIEW = {
    "unbind!": "b.unbind()[0].mul_(2)",
    "unbind_dim1!": "torch.unbind(b, 1)[2].add_(1)",
    "unbind_leaf!": "x.unbind()[1].mul_(2)",
    "split!": "b.split(1)[1].zero_()",
    "split_sizes!": "b.split([1, 1])[1].copy_(torch.ones(1, 3))",
    "split_with_sizes!": "b.split_with_sizes([2, 1], 1)[0].mul_(2)",
    "chunk!": "b.chunk(2)[0].mul_(2)",
    "chunk_one!": "b.chunk(1)[0].mul_(2)",
    "slice_of_unbind!": "b.unbind()[0][1:].mul_(2)",
    "view_of_unbind!": "b.unbind()[1].view(3, 1).mul_(2)",
    "iadd!": "v = b.unbind()[0]\nv += 1",
    "base_modified!": "v = b.unbind()\nb.mul_(2)\nv[0].sum().backward()",
    "written_without_grad!": "v = b.unbind()[0]\nwith torch.no_grad():\n    v.mul_(2)\nv.sum().backward()",
    "no_grad_base": "v = x.detach().unbind()[0]\nv.mul_(2)\nout = (v, v.requires_grad)",
    "detached": "v = b.unbind()[0].detach()\nv.mul_(2)\nout = (v, v.requires_grad)",
    "tensor_split_allowed": "v = b.tensor_split(2)[0]\nv.mul_(2)\nb.sum().backward()\nout = (b, x.grad)",
    "out_of_place": "v = b.unbind()\n(v[0] * 2 + v[1]).sum().backward()\nout = x.grad",
}
_add_family("multi_view_", _MULTI_VIEW_PARTS, _MULTI_VIEW)


# The node names of views and indexing (gradients unchanged).
_VIEW_NAMES_PARTS = """
x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
m = torch.arange(12.0).reshape(3, 4).requires_grad_()
v = torch.arange(6.0, requires_grad=True)
c = torch.tensor([1 + 2j, 3 - 1j, 0.5j], requires_grad=True)
"""
_VIEW_NAMES = {
    "select": "[x[0], x[-1], x.select(0, 1), m.select(1, -1), m[:, 1], x[..., 1], m[0, 1], m[0, :], m[torch.tensor(1)], m[0:3, 1], m[:100, 1]]",
    "slice": "[m[1:3], m[:], m[0:3], m[::2], m[1:], m[:, 1:3], m[0, 1:3], m[:, -4:], m.narrow(1, 1, 2), m.narrow(0, 0, 3)]",
    "alias": "[m[...], m[:, :], m[..., :], m[:, 0:4], m[:3, :4], m[:, ::1], m[(slice(None),)]]",
    "unsqueeze": "[m[None], m[:, None], m[None, :], m.unsqueeze(0), v.unsqueeze(-1), torch.zeros(0, 2, requires_grad=True).unsqueeze(1)]",
    "squeeze": "[m[None].squeeze(), m[None].squeeze(0), m[None].squeeze((0,)), m.squeeze(), m.squeeze(1)]",
    "transpose": "[m.t(), m.T, m.mT, x.transpose(0, 2), x.swapaxes(0, 1), x.swapdims(1, 2), m.adjoint(), m.H, x.permute(2, 0, 1), x.movedim(0, 2)]",
    "diagonal_unfold": "[m.diagonal(), m.diagonal(1), torch.diagonal(x, 0, 1, 2), v.unfold(0, 2, 1)]",
    "split": "[*m.split(2), *m.split([1, 2]), *m.split_with_sizes([3, 1], 1), *m.chunk(2), *m.chunk(2, 1), *m.tensor_split(2), *m.unbind(), *torch.unbind(m, 1)]",
    "other_views": "[m.view(4, 3), m.reshape(4, 3), v.expand(2, 6), x.flatten(), c.real, c.imag, torch.view_as_real(c), (m * 2)[0]]",
}
_add_family(
    "view_names_",
    _VIEW_NAMES_PARTS + "ys = ",
    _VIEW_NAMES,
    finish="\nout = [type(y.grad_fn).__name__ for y in ys] + [y.grad_fn.name() for y in ys]\n",
)
CASES["view_names_gradients"] = (
    _VIEW_NAMES_PARTS
    + """
w = torch.arange(1.0, 13.0).reshape(3, 4)
ys = [m[0], m[1:3], m[:, None], m[...], m.t(), m.narrow(1, 1, 2), m.diagonal(1), m[None].squeeze(0), *m.split([1, 2]), *m.unbind(1), m.unfold(1, 2, 1), m.unsqueeze(0), m[0, 1:3]]
loss = sum((y * torch.arange(1.0, y.numel() + 1).reshape(y.shape)).sum() for y in ys)
(gm,) = torch.autograd.grad(loss, m, create_graph=True)
(gg,) = torch.autograd.grad((gm * w).sum() + loss, m)
out = (gm, gg)
"""
)
