"""Record the public names of every PyTorch 2.13 module this project ships (run under
real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_public_names.py

Writes tests/golden/public_names.json: module -> {name: kind}, where kind is "module",
"class", "function" or "value". ``torch.Tensor`` is recorded like a module (the
attributes of the class). tests/test_public_names.py checks that ours has each name.

What counts as a public name: an entry of ``dir(module)`` that does not start with an
underscore, leaving out what a module merely imported for its own use (standard-library
modules such as ``os``, and classes or functions of modules outside ``torch``, such as
``typing.Optional``).
"""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "public_names.json"

#: the PyTorch modules whose counterparts some package of this project ships
MODULES = [
    "torch",
    "torch.Tensor",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.nn.modules",
    "torch.nn.parameter",
    "torch.nn.parallel",
    "torch.nn.utils",
    "torch.nn.utils.rnn",
    "torch.nn.utils.parametrize",
    "torch.nn.utils.parametrizations",
    "torch.nn.utils.clip_grad",
    "torch.nn.utils.fusion",
    "torch.nn.utils.spectral_norm",
    "torch.nn.utils.weight_norm",
    "torch.nn.utils.convert_parameters",
    "torch.nn.grad",
    "torch.nn.common_types",
    "torch.autograd",
    "torch.autograd.function",
    "torch.autograd.functional",
    "torch.autograd.graph",
    "torch.autograd.forward_ad",
    "torch.autograd.gradcheck",
    "torch.autograd.anomaly_mode",
    "torch.autograd.profiler",
    "torch.autograd.variable",
    "torch.optim",
    "torch.optim.optimizer",
    "torch.optim.lr_scheduler",
    "torch.linalg",
    "torch.fft",
    "torch.special",
    "torch.sparse",
    "torch.cuda",
    "torch.cuda.amp",
    "torch.backends",
    "torch.backends.cpu",
    "torch.backends.cuda",
    "torch.backends.cudnn",
    "torch.backends.mkl",
    "torch.backends.mkldnn",
    "torch.backends.mps",
    "torch.backends.openmp",
    "torch.backends.opt_einsum",
    "torch.utils",
    "torch.utils.data",
    "torch.utils.data.sampler",
    "torch.utils.data.dataset",
    "torch.utils.data.dataloader",
    "torch.utils.data.distributed",
    "torch.utils.checkpoint",
    "torch.utils.dlpack",
    "torch.utils.hooks",
    "torch.utils.cpp_extension",
    "torch.utils.model_zoo",
    "torch.utils.tensorboard",
    "torch.multiprocessing",
    "torch.distributions",
    "torch.distributions.constraints",
    "torch.distributions.constraint_registry",
    "torch.distributions.transforms",
    "torch.distributions.kl",
    "torch.func",
    "torch.amp",
    "torch.cpu",
    "torch.cpu.amp",
    "torch.jit",
    "torch.onnx",
    "torch.distributed",
    "torch.testing",
    "torch.profiler",
    "torch.hub",
    "torch.serialization",
    "torch.random",
    "torch.version",
]


def kind(obj) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj) and not isinstance(obj, torch.dtype):
        return "function"
    return "value"


def is_foreign(module: str, obj) -> bool:
    """Whether ``obj`` was only imported into ``module`` for its own use: a module that is
    not a submodule of ``module`` (``os``, or ``torch`` itself inside ``torch.fft``), a
    class or function defined outside ``torch`` (``typing.Optional``, ``warnings.warn``),
    ``torch.Tensor`` outside ``torch`` (imported for annotations), or an instance of a
    helper type of the standard library (a logger, ``TYPE_CHECKING``-style flags,
    ``__future__`` features)."""
    if inspect.ismodule(obj):
        return module == "torch.Tensor" or not obj.__name__.startswith(module + ".")
    if obj is torch.Tensor:
        return module != "torch"
    if inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj):
        owner = getattr(obj, "__module__", None) or "torch"
        return not owner.startswith("torch")
    if isinstance(obj, bool) and module != "torch":
        return True  # TYPE_CHECKING and such flags
    owner = type(obj).__module__
    return owner.startswith(("typing", "logging", "__future__"))


def public_names(module: str, obj) -> dict[str, str]:
    names = {}
    for name in dir(obj):
        if name.startswith("_"):
            continue
        try:
            value = getattr(obj, name)
        except Exception:  # a property of the class that needs an instance
            names[name] = "value"
            continue
        if not is_foreign(module, value):
            names[name] = kind(value)
    return dict(sorted(names.items()))


def load(module: str):
    if module == "torch.Tensor":
        return torch.Tensor
    return importlib.import_module(module)


def main() -> None:
    data = {}
    for module in MODULES:
        try:
            data[module] = public_names(module, load(module))
        except ImportError as error:  # optional parts of PyTorch (tensorboard needs its wheel)
            print(f"skipped {module}: {error}", file=sys.stderr)
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps({"torch_version": torch.__version__, "modules": data}, indent=1))
    total = sum(len(names) for names in data.values())
    print(f"wrote {GOLDEN.relative_to(ROOT)} ({len(data)} modules, {total} names)")


if __name__ == "__main__":
    main()
