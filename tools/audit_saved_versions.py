"""Audit of the version checks of saved tensors (issue 5): for every differentiable op of
the op database, build its sample inputs as non-leaf tensors (``leaf * 1``), run the op,
write into one input (or the result) in place with ``add_(1)``, then run backward; record
whether that raised. The same cases run under real PyTorch, which cannot import the op
database, so the cases are written out as source strings first.

    .venv/bin/python tools/audit_saved_versions.py generate /tmp/cases.json
    .venv/bin/python tools/audit_saved_versions.py run /tmp/cases.json > /tmp/ours.json
    <reference python> tools/audit_saved_versions.py run /tmp/cases.json > /tmp/ref.json
    .venv/bin/python tools/audit_saved_versions.py compare /tmp/ours.json /tmp/ref.json

``run`` also checks (under this project) that a backward that did not raise gave the
gradients of the unmodified inputs: a difference means a formula read a modified value.
"""

from __future__ import annotations

import ast
import inspect
import json
import math
import sys
import textwrap

# ops of the database whose callables are internal names: the public spelling
_RENAMES = {
    "torch._ops.nn_kernels.avg_pool2d": "torch.nn.functional.avg_pool2d",
    "torch._ops.resampling.adaptive_avg_pool(x, (2, 3))": "torch.nn.functional.adaptive_avg_pool2d(x, (2, 3))",  # noqa: E501
    "torch._ops.resampling.adaptive_max_pool(x, (2, 3))": "torch.nn.functional.adaptive_max_pool2d(x, (2, 3))",  # noqa: E501
    "torch._ops.resampling.interpolate": "torch.nn.functional.interpolate",
}


_LINALG = ("vector_norm", "inv", "svdvals", "householder_product", "cond")


def _lambda_source(fn) -> str:
    """The source of a lambda, found in the lines that define it."""
    lines, _ = inspect.getsourcelines(fn)
    source = textwrap.dedent("".join(lines))
    code = fn.__code__
    for attempt in (source, "(" + source.strip().rstrip(",") + ")", "f(" + source.strip() + ")"):
        try:
            tree = ast.parse(attempt)
        except SyntaxError:
            continue
        found = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Lambda)
            and [a.arg for a in node.args.args] == list(code.co_varnames[: code.co_argcount])
        ]
        if found:
            return ast.unparse(found[0])
    raise ValueError(f"no lambda source for {fn}")


def _op_source(fn) -> str:
    import torch

    name = getattr(fn, "__name__", "")
    module = getattr(fn, "__module__", "") or ""
    if name == "<lambda>":
        text = _lambda_source(fn)
    elif module.startswith("torch.testing"):
        text = textwrap.dedent(inspect.getsource(fn))
        text = f"(lambda: (exec({text!r}, globals()), {name})[1])()"
    elif module == "torch.special":
        text = f"torch.special.{name}"
    elif module.startswith("torch._ops.nn_functional"):
        text = f"torch.nn.functional.{name}"
    elif name in _LINALG:
        text = f"torch.linalg.{name}"
    elif name.startswith("special_"):
        text = f"torch.special.{name[len('special_') :]}"
    elif hasattr(torch, name):
        text = f"torch.{name}"
    else:
        raise ValueError(f"no public name for {module}.{name}")
    for old, new in _RENAMES.items():
        text = text.replace(old, new)
    return text


def _value_source(value) -> str:
    import torch

    if isinstance(value, torch.Tensor):
        return f"torch.tensor({value.tolist()!r}, dtype={value.dtype})"
    if isinstance(value, torch.dtype):
        return str(value)
    if isinstance(value, tuple):
        return "(" + "".join(_value_source(v) + ", " for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(_value_source(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_value_source(v)}" for k, v in value.items()) + "}"
    if isinstance(value, slice):
        return f"slice({value.start!r}, {value.stop!r}, {value.step!r})"
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    raise ValueError(f"cannot write {type(value).__name__}")


def generate(path: str) -> None:
    import torch
    from torch.testing._opinfo import op_db

    cases = {}
    skipped = []
    seen: dict = {}
    for info in op_db:
        if not info.differentiable:
            continue
        try:
            op = _op_source(info.op)
            samples = info.sample_inputs(torch.float64)
        except Exception as error:  # noqa: BLE001 - reported, not fatal
            skipped.append(f"{info.name}: {error}")
            continue
        key = seen[info.name] = seen.get(info.name, -1) + 1
        base = info.name if key == 0 else f"{info.name}#{key}"
        for k, sample in enumerate(samples[:3]):
            try:
                tensors = _value_source(tuple(sample.tensors))
                args = _value_source(tuple(sample.args))
                kwargs = _value_source(dict(sample.kwargs))
            except ValueError as error:
                skipped.append(f"{info.name}[{k}]: {error}")
                continue
            targets = [i for i, t in enumerate(sample.tensors) if isinstance(t, torch.Tensor)]
            for target in targets + ["out"]:
                cases[f"{base}[{k}]:{target}"] = {
                    "op": op,
                    "tensors": tensors,
                    "args": args,
                    "kwargs": kwargs,
                    "target": target,
                }
    with open(path, "w") as f:
        json.dump(cases, f, indent=0)
    print(f"{len(cases)} cases; skipped: {skipped}", file=sys.stderr)


# ------------------------------------------------------------------------------- run

INPLACE = "modified by an inplace operation"


def _grads(op, tensors, args, kwargs, target):
    """Run one case: the leaves' gradients, or raise."""
    import torch

    leaves = [
        t.clone().requires_grad_() if t.is_floating_point() or t.is_complex() else t.clone()
        for t in tensors
    ]
    inputs = [t * 1 if t.requires_grad else t.clone() for t in leaves]
    stage = "forward"
    try:
        out = op(*inputs, *args, **kwargs)
        if isinstance(out, (tuple, list)):
            out = out[0]
        stage = "modify"
        if target == "out":
            out.add_(1)
        elif target is not None:
            inputs[target].add_(1)
        stage = "backward"
        weights = torch.arange(out.numel(), dtype=torch.float64).reshape(out.shape)
        weights = torch.cos(weights * 0.7 + 0.3).to(out.dtype)
        loss = (out * weights).sum()
        if loss.is_complex():
            loss = loss.real
        wanted = [t for t in leaves if t.requires_grad]
        grads = torch.autograd.grad(loss, wanted, allow_unused=True)
    except Exception as error:  # noqa: BLE001 - the error is the outcome
        message = str(error).split("\n")[0][:100]
        kind = "VERSION" if INPLACE in str(error) else f"{stage}:{type(error).__name__}"
        return kind, message
    values = []
    for g in grads:
        if g is None:
            values.append(None)
        else:
            if g.is_complex():
                g = torch.view_as_real(g)
            values.append([float(v) for v in g.detach().reshape(-1).tolist()])
    return "OK", values


def run(path: str) -> None:
    import warnings

    import torch

    warnings.simplefilter("ignore")
    cases = json.load(open(path))
    namespace = {"torch": torch, "F": torch.nn.functional}
    namespace["_index"] = lambda values: torch.tensor(values, dtype=torch.int64)
    results = {}
    for name, case in cases.items():
        try:
            op = eval(case["op"], namespace)
            tensors = eval(case["tensors"], namespace)
            args = eval(case["args"], namespace)
            kwargs = eval(case["kwargs"], namespace)
        except Exception as error:  # noqa: BLE001
            results[name] = {"kind": f"setup:{type(error).__name__}", "detail": str(error)[:100]}
            continue
        target = case["target"]
        kind, detail = _grads(op, tensors, args, kwargs, target)
        result = {"kind": kind}
        if kind == "OK":
            base_kind, base = _grads(op, tensors, args, kwargs, None)
            result["same_as_unmodified"] = base_kind == "OK" and _close(detail, base)
        else:
            result["detail"] = detail
        results[name] = result
    json.dump(results, sys.stdout, indent=0)


def _close(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if isinstance(a, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


_FAILED = ("forward", "setup")


def compare(ours_path: str, ref_path: str) -> None:
    ours, ref = json.load(open(ours_path)), json.load(open(ref_path))
    counts: dict = {}
    for name in ours:
        o, r = ours[name], ref.get(name, {"kind": "missing"})
        if o["kind"] == "OK" and not o.get("same_as_unmodified", True):
            tag = "WRONG-GRAD"  # backward read a modified value
        elif o["kind"] == r["kind"] or (
            o["kind"].startswith(("forward", "setup"))
            and r["kind"].startswith(("forward", "setup"))
        ):
            continue
        elif r["kind"].startswith(("setup", "forward")):
            tag = "UNTRANSLATED"  # the case does not run under PyTorch
        elif r["kind"] == "OK" and o["kind"] == "VERSION":
            tag = "WE-RAISE"
        elif r["kind"] == "VERSION" and o["kind"] == "OK":
            tag = "WE-DONT-RAISE"
        else:
            tag = "OTHER"
        counts[tag] = counts.get(tag, 0) + 1
        print(
            f"{tag:14} {name:40} ours={o['kind']} {o.get('detail', '')[:60]!r} "
            f"ref={r['kind']} {r.get('detail', '')[:60]!r}"
        )
    print(counts)


if __name__ == "__main__":
    {"generate": generate, "run": run, "compare": compare}[sys.argv[1]](*sys.argv[2:])
