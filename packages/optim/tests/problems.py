"""Fixed problems with hand-written gradients, shared by the tests and by
tools/golden/record_optim.py (which runs them under real PyTorch). Only elementwise ops,
so that both frameworks compute bit-identical gradients."""

from __future__ import annotations

import hashlib

import numpy as np

import torch


def params(dtype=None):
    """Fresh parameters: a (2, 3) matrix on a quadratic bowl and a Rosenbrock pair."""
    w = torch.tensor([[1.5, -0.5, 2.0], [0.25, -1.25, 0.75]], dtype=dtype)
    xy = torch.tensor([-1.2, 1.0], dtype=dtype)
    return [w, xy]


_SCALE = [[1.0, 3.0, 0.5], [2.0, 0.25, 1.5]]


def loss_and_grads(w, xy):
    """The loss (a Python float) and the gradients of
    ``sum(scale * (w - 0.5)**2) + (1 - x)**2 + 10 * (y - x**2)**2``."""
    scale = torch.tensor(_SCALE, dtype=w.dtype)
    diff = w - 0.5
    x, y = xy[0:1], xy[1:2]
    bend = y - x * x
    loss = (scale * diff * diff).sum() + ((1 - x) * (1 - x) + 10 * bend * bend).sum()
    gw = 2 * scale * diff
    gx = -2 * (1 - x) - 40 * x * bend
    gy = 20 * bend
    return float(loss), gw, torch.cat([gx, gy])


def set_grads(ps) -> float:
    loss, gw, gxy = loss_and_grads(*ps)
    ps[0].grad, ps[1].grad = gw, gxy
    return loss


def flat(ps) -> list:
    return [v for p in ps for v in p.reshape(-1).tolist()]


def make(torch_module, name: str, options: dict):
    """Fresh parameters and an optimizer ``name`` over them; the option ``_dtype``
    (e.g. ``"float64"``) selects the parameters' dtype."""
    options = dict(options)
    dtype = options.pop("_dtype", None)
    ps = params(getattr(torch_module, dtype) if dtype else None)
    return ps, getattr(torch_module.optim, name)(ps, **options)


def fused_digests(torch_module, name: str, options: dict, dtype: str, sizes, steps: int):
    """After each of ``steps`` steps of optimizer ``name`` on parameters of ``sizes``
    (seeded float64 normals rounded to ``dtype``: both frameworks draw the same float64
    numbers), the parameters' sha256 digest, first values and float64 sum."""
    t = torch_module
    options = dict(options)
    steps = options.pop("_steps", steps)
    t.manual_seed(0)
    ps = [t.randn(n, dtype=t.float64).to(getattr(t, dtype)) for n in sizes]
    opt = getattr(t.optim, name)(ps, **options)
    out = []
    for step in range(steps):
        for p in ps:
            scale = 10.0 ** (step % 4 - 2)
            p.grad = (t.randn(p.numel(), dtype=t.float64) * scale).to(p.dtype)
        opt.step()
        flat = np.concatenate([p.numpy() for p in ps])
        out.append(
            {
                "sha256": hashlib.sha256(flat.tobytes()).hexdigest(),
                "head": flat[:3].tolist(),
                "sum": float(flat.astype(np.float64).sum()),
            }
        )
    return out


def _sparse_grad(torch_module, p, step: int):
    """A sparse gradient of ``sum((p - 0.5)**2)`` restricted to a few leading-dim indices
    that change with ``step`` (the first index is listed twice: coalescing sums them)."""
    t = torch_module
    n = p.shape[0]
    rows = [(2 * step) % n, (3 * step + 1) % n, (2 * step) % n]
    index = t.tensor(rows, dtype=t.int64)
    values = (p[index] - 0.5) * 2
    return t.sparse_coo_tensor(index.reshape(1, -1), values, tuple(p.shape))


def sparse_trajectory(torch_module, options: dict, steps: int, name: str = "SparseAdam") -> list:
    """Optimizer ``name`` (SparseAdam, or SGD/Adagrad, which take sparse gradients too)
    over a (6, 3) matrix and an (8,) vector: the flat parameters after each step."""
    t = torch_module
    options = dict(options)
    dtype = getattr(t, options.pop("_dtype", "float32"))
    emb = t.tensor([[0.1 * i - 0.2 * j for j in range(3)] for i in range(6)], dtype=dtype)
    vec = t.tensor([0.3 * i - 1.0 for i in range(8)], dtype=dtype)
    opt = getattr(t.optim, name)([emb, vec], **options)
    out = []
    for step in range(steps):
        emb.grad = _sparse_grad(t, emb, step)
        vec.grad = _sparse_grad(t, vec, step)
        opt.step()
        out.append(flat([emb, vec]))
    return out


def _digest(arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:20]


def _state_digest(opt) -> str:
    """A digest of every tensor and number in the optimizer's state, in a fixed order
    (their dtypes included)."""
    parts = []
    for group in opt.param_groups:
        for p in group["params"]:
            for key, value in sorted(opt.state[p].items()):
                if isinstance(value, torch.Tensor):
                    parts.append(np.frombuffer(f"{key}:{value.dtype}".encode(), np.uint8))
                    parts.append(value.numpy())
                else:
                    parts.append(np.frombuffer(f"{key}={value!r}".encode(), np.uint8))
    return _digest(parts)


def path_params(dtype: str) -> list:
    """Seeded parameters of mixed sizes and layouts: a matrix, a short vector, a
    transposed (non-contiguous) matrix and a longer vector."""
    t = getattr(torch, dtype)
    torch.manual_seed(1)
    shapes = [(4, 6), (7,), (3, 5), (1100,)]
    ps = [torch.randn(*s, dtype=torch.float64).to(t) for s in shapes]
    ps[2] = ps[2].t()
    return ps


def path_digests(name: str, options: dict, dtype: str, steps: int) -> list:
    """The parameters' digest after each of ``steps`` steps of optimizer ``name`` (seeded
    gradients whose scale changes with the step), then the state's digest."""
    ps = path_params(dtype)
    opt = getattr(torch.optim, name)(ps, **options)
    gen = np.random.default_rng(2)
    out = []
    for step in range(steps):
        for p in ps:
            g = gen.standard_normal(tuple(p.shape)) * 10.0 ** (step % 4 - 2)
            p.grad = torch.tensor(g).to(p.dtype)
        opt.step()
        out.append(_digest(p.numpy() for p in ps))
    out.append(_state_digest(opt))
    return out


def sparse_path_digests(name: str, options: dict, dtype: str, steps: int) -> list:
    points = sparse_trajectory(torch, dict(options, _dtype=dtype), steps, name)
    return [_digest([np.array(point, dtype=dtype)]) for point in points]


def lbfgs_path_digests(options: dict, dtype: str, steps: int) -> list:
    ps = params(getattr(torch, dtype))
    opt = torch.optim.LBFGS(ps, **options)
    out = []
    for _ in range(steps):
        loss = opt.step(lambda: set_grads(ps))
        out.append(_digest([p.numpy() for p in ps] + [np.array([loss])]))
    out.append(_state_digest(opt))
    return out
