"""Expressions of the PyTorch 0.4 migration around optim: the lower-case slip
``torch.optim.sgd(...)`` (a module name in PyTorch's sources, not an attribute of the
package) and ``LBFGS.step``'s warnings.

tools/golden/record_legacy_api.py records what real PyTorch gives
(golden/legacy_names.json); test_legacy_names.py compares. Cases in ``PREFIX_ONLY`` have this
project add a hint after PyTorch's message: the message must start with PyTorch's.
"""

from __future__ import annotations

import warnings

from optim_snippets import describe, expression_outcome

SETUP = """
import torch.optim
params = [torch.zeros(2, requires_grad=True)]
def lbfgs_run(**options):
    torch.manual_seed(0)
    x = torch.randn(5, 3)
    w = torch.randn(3, 1, requires_grad=True)
    opt = torch.optim.LBFGS([w], lr=0.5, max_iter=5, **options)
    def closure():
        opt.zero_grad()
        loss = ((x @ w) ** 2).mean()
        loss.backward()
        return loss
    loss = opt.step(closure)
    return round(float(loss.detach()), 6), w.detach()
"""

CASES = {
    "sgd_lower_case": "torch.optim.sgd(params, lr=0.1)",
    "adam_lower_case": "torch.optim.adam(params, lr=0.1)",
    "adamw_lower_case": "torch.optim.adamw(params, lr=0.1)",
    "rmsprop_lower_case": "torch.optim.rmsprop(params)",
    "sparse_adam_module_name": "torch.optim.sparse_adam",
    "optimizer_module_name": "torch.optim.optimizer",
    "unknown_name": "torch.optim.foo",
    "has_sgd_module_attribute": "hasattr(torch.optim, 'sgd')",
    "has_lr_scheduler": "hasattr(torch.optim, 'lr_scheduler')",
    "import_submodule_still_works": (
        "import importlib; importlib.import_module('torch.optim.sgd').SGD is torch.optim.SGD"
    ),
    "from_import_submodule": "from torch.optim import sgd; sgd.SGD is torch.optim.SGD",
    "no_attribute_after_import": "import torch.optim.sgd; hasattr(torch.optim, 'sgd')",
    "epoch_deprecation_warning": "torch.optim.lr_scheduler.EPOCH_DEPRECATION_WARNING",
    "typing_aliases": (
        "import torch.optim.optimizer as o; [repr(getattr(o, n)).replace('torch._device.', "
        "'torch.') for n in ('Args', 'Kwargs', 'StateDict', 'Indices', 'TensorListList', "
        "'ParamsT')]"
    ),
    "lbfgs_step": "lbfgs_run()",
    "lbfgs_step_strong_wolfe": "lbfgs_run(line_search_fn='strong_wolfe')",
}

#: this project appends "Did you mean torch.optim.SGD?" to PyTorch's message
PREFIX_ONLY = {
    "sgd_lower_case",
    "adam_lower_case",
    "adamw_lower_case",
    "rmsprop_lower_case",
    "sparse_adam_module_name",
    "optimizer_module_name",
}


def _tensor(value):
    return {"repr": repr(value), "dtype": str(value.dtype)}


def outcome(torch, code: str) -> dict:
    """The value or error of ``code`` (see optim_snippets.expression_outcome) and the texts
    of the warnings it raised."""
    namespace = {"torch": torch, "__name__": "legacy_names_cases"}
    exec(SETUP, namespace)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = expression_outcome(code, namespace, lambda value: describe(value, torch, _tensor))
    # PyTorch's C++ warnings end with where in its sources they were raised
    result["warnings"] = [
        str(w.message).split(" (Triggered internally at")[0]
        for w in caught
        if not issubclass(w.category, DeprecationWarning)
    ]
    return result
