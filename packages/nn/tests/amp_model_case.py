"""A small model's forward and backward under ``torch.autocast("cpu")``, compared with
PyTorch 2.13 (recorded by tools/golden/record_amp.py into golden/amp_model.json)."""

from __future__ import annotations


def _fill(torch, module) -> None:
    """Deterministic weights (independent of the random generator)."""
    with torch.no_grad():
        for i, param in enumerate(module.parameters()):
            n = param.numel()
            values = torch.sin(torch.arange(n, dtype=torch.float32) * 0.37 + i) * 0.5
            param.copy_(values.reshape(param.shape))


def model_run(torch, autocast_dtype: str) -> dict:
    nn = torch.nn
    model = nn.Sequential(
        nn.Conv2d(1, 2, 3),
        nn.ReLU(),
        nn.Flatten(),
        nn.Linear(2 * 3 * 3, 6),
        nn.LayerNorm(6),
        nn.Linear(6, 3),
    )
    _fill(torch, model)
    x = torch.cos(torch.arange(2 * 25, dtype=torch.float32) * 0.21).reshape(2, 1, 5, 5)
    target = torch.tensor([0, 2])
    dtypes = []
    hooks = [m.register_forward_hook(lambda m, i, o: dtypes.append(str(o.dtype))) for m in model]
    with torch.autocast("cpu", dtype=getattr(torch, autocast_dtype)):
        out = model(x)
        loss = nn.functional.cross_entropy(out, target)
    for hook in hooks:
        hook.remove()
    loss.backward()
    return {
        "layer_dtypes": dtypes,
        "out_dtype": str(out.dtype),
        "out": out.float().tolist(),
        "loss_dtype": str(loss.dtype),
        "loss": loss.item(),
        "grad_dtypes": [str(p.grad.dtype) for p in model.parameters()],
        "grads": [p.grad.reshape(-1)[:4].tolist() for p in model.parameters()],
    }
