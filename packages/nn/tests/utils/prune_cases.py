# ruff: noqa: E501 - the cases are code snippets, one per line
"""``torch.nn.utils.prune`` snippets whose outcome tools/golden/record_nn_prune.py records
under real PyTorch 2.13 and test_prune.py replays. Each snippet's last line is an
expression; tensors are compared through ``tolist()``."""

from __future__ import annotations

import re

from snippet_lines import run_lines

_SETUP = (
    "import torch\n"
    "from torch.nn.utils import prune\n"
    "torch.manual_seed(0)\n"
    "lin = torch.nn.Linear(4, 3)\n"
    "with torch.no_grad():\n"
    "    lin.weight.copy_(torch.arange(12.0).reshape(3, 4).sub(5.5).mul(0.37).sin())\n"
    "conv = torch.nn.Conv2d(2, 4, 2)\n"
    "with torch.no_grad():\n"
    "    conv.weight.copy_(torch.arange(32.0).reshape(4, 2, 2, 2).mul(1.3).cos())\n"
)

CASES = {
    # norm-based selections
    "l1_count": _SETUP + "prune.l1_unstructured(lin, 'weight', amount=5)\nlin.weight_mask.tolist()",
    "l1_fraction": _SETUP + "prune.l1_unstructured(lin, 'weight', 0.3)\nlin.weight.tolist()",
    "l1_zero": _SETUP + "prune.l1_unstructured(lin, 'weight', 0.0)\nlin.weight_mask.tolist()",
    "l1_importance": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 4, importance_scores=torch.arange(12.0).reshape(3, 4).flip(1))\n"
    "lin.weight_mask.tolist()",
    "l1_bias": _SETUP + "prune.l1_unstructured(lin, 'bias', amount=1)\nlin.bias_mask.tolist()",
    "ln2_dim0": _SETUP
    + "prune.ln_structured(conv, 'weight', amount=2, n=2, dim=0)\nconv.weight_mask.sum((1, 2, 3)).tolist()",
    "ln1_dim1": _SETUP
    + "prune.ln_structured(conv, 'weight', amount=1, n=1, dim=1)\nconv.weight_mask.sum((0, 2, 3)).tolist()",
    "lninf_dimneg": _SETUP
    + "prune.ln_structured(lin, 'weight', amount=0.5, n=float('inf'), dim=-1)\nlin.weight_mask.tolist()",
    "ln_fro": _SETUP
    + "prune.ln_structured(lin, 'weight', amount=1, n='fro', dim=0)\nlin.weight_mask.tolist()",
    # seeded random selections (same generator as PyTorch)
    "random_unstructured": _SETUP
    + "torch.manual_seed(3)\nprune.random_unstructured(lin, 'weight', amount=6)\nlin.weight_mask.tolist()",
    "random_structured": _SETUP
    + "torch.manual_seed(4)\nprune.random_structured(conv, 'weight', amount=2, dim=0)\nconv.weight_mask.sum((1, 2, 3)).tolist()",
    "random_structured_count": _SETUP
    + "prune.random_structured(conv, 'weight', amount=0.5, dim=1)\nint(conv.weight_mask.sum())",
    # reparametrisation and state_dict
    "state_dict_keys": _SETUP + "prune.l1_unstructured(lin, 'weight', 2)\nlist(lin.state_dict())",
    "named_parameters": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 2)\n[n for n, _ in lin.named_parameters()]",
    "named_buffers": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 2)\n[n for n, _ in lin.named_buffers()]",
    "weight_not_param": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 2)\n(type(lin.weight).__name__, 'weight' in lin._parameters)",
    "hook_recomputes": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 6)\nwith torch.no_grad():\n    lin.weight_orig.fill_(2.0)\n"
    "lin(torch.ones(1, 4))\nlin.weight.tolist()",
    "forward": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 6)\nlin(torch.ones(2, 4)).round(decimals=4).tolist()",
    "grad_masked": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 6)\nlin(torch.ones(1, 4)).sum().backward()\nlin.weight_orig.grad.tolist()",
    "remove": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 5)\nprune.remove(lin, 'weight')\n(list(lin.state_dict()), type(lin.weight).__name__, lin.weight.tolist(), len(lin._forward_pre_hooks))",
    "remove_keeps_parameter": _SETUP
    + "w = lin.weight\nprune.l1_unstructured(lin, 'weight', 5)\nprune.remove(lin, 'weight')\n(lin.weight is w, w.requires_grad, int((w == 0).sum()))",
    "is_pruned": _SETUP
    + "net = torch.nn.Sequential(lin, torch.nn.ReLU())\nbefore = prune.is_pruned(net)\nprune.identity(lin, 'bias')\n(before, prune.is_pruned(net))",
    "identity": _SETUP
    + "prune.identity(lin, 'weight')\n(lin.weight_mask.tolist(), torch.equal(lin.weight, lin.weight_orig))",
    "custom_from_mask": _SETUP
    + "prune.custom_from_mask(lin, 'bias', torch.tensor([0, 1, 0]))\n(lin.bias_mask.tolist(), lin.bias_mask.dtype)",
    # iterative pruning
    "iterative_container": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 3)\nprune.l1_unstructured(lin, 'weight', 3)\n"
    "hook = next(iter(lin._forward_pre_hooks.values()))\n(type(hook).__name__, len(hook), [type(m).__name__ for m in hook], lin.weight_mask.tolist())",
    "iterative_structured": _SETUP
    + "prune.l1_unstructured(conv, 'weight', 10)\nprune.ln_structured(conv, 'weight', 1, n=1, dim=0)\n"
    "prune.ln_structured(conv, 'weight', 1, n=2, dim=0)\nconv.weight_mask.sum((1, 2, 3)).tolist()",
    "iterative_fraction_of_remaining": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 0.5)\nprune.l1_unstructured(lin, 'weight', 0.5)\nint(lin.weight_mask.sum())",
    "iterative_custom": _SETUP
    + "prune.l1_unstructured(lin, 'bias', 1)\nprune.custom_from_mask(lin, 'bias', torch.tensor([1.0, 0.0, 1.0]))\nlin.bias_mask.tolist()",
    "global_l1": _SETUP
    + "prune.global_unstructured([(lin, 'weight'), (conv, 'weight')], pruning_method=prune.L1Unstructured, amount=20)\n"
    "(int(lin.weight_mask.sum()), int(conv.weight_mask.sum()), lin.weight_mask.tolist())",
    "global_importance": _SETUP
    + "prune.global_unstructured([(lin, 'weight'), (lin, 'bias')], prune.L1Unstructured, "
    "importance_scores={(lin, 'bias'): torch.zeros(3)}, amount=4)\n(lin.bias_mask.tolist(), int(lin.weight_mask.sum()))",
    "method_prune": "import torch\nfrom torch.nn.utils import prune\n"
    "prune.L1Unstructured(2).prune(torch.tensor([3.0, -1.0, 0.5, 2.0])).tolist()",
    "container_manual": "import torch\nfrom torch.nn.utils import prune\n"
    "a = prune.L1Unstructured(1); a._tensor_name = 'w'\nb = prune.L1Unstructured(1); b._tensor_name = 'w'\n"
    "c = prune.PruningContainer(a)\nc.add_pruning_method(b)\n"
    "c.compute_mask(torch.tensor([3.0, -1.0, 0.5, 2.0]), torch.ones(4)).tolist()",
    # errors
    "err_amount_negative": _SETUP + "prune.l1_unstructured(lin, 'weight', -1)",
    "err_amount_float": _SETUP + "prune.l1_unstructured(lin, 'weight', 1.5)",
    "err_amount_type": _SETUP + "prune.l1_unstructured(lin, 'weight', 'a')",
    "err_amount_too_large": _SETUP + "prune.l1_unstructured(lin, 'weight', 13)",
    "err_too_large_restores": _SETUP
    + "try:\n    prune.l1_unstructured(lin, 'weight', 13)\nexcept ValueError:\n    pass\n(list(lin.state_dict()), len(lin._forward_pre_hooks))",
    "err_structured_1d": _SETUP + "prune.ln_structured(lin, 'bias', 1, n=2, dim=0)",
    "err_structured_dim": _SETUP + "prune.random_structured(lin, 'weight', 1, dim=2)",
    "err_remove_unpruned": "import torch\nfrom torch.nn.utils import prune\nprune.remove(torch.nn.Linear(1, 1), 'weight')",
    "err_global_not_iterable": _SETUP
    + "prune.global_unstructured(3, prune.L1Unstructured, amount=1)",
    "err_global_scores_type": _SETUP
    + "prune.global_unstructured([(lin, 'weight')], prune.L1Unstructured, importance_scores=[1], amount=1)",
    "err_global_structured": _SETUP
    + "prune.global_unstructured([(lin, 'weight')], prune.RandomStructured, amount=1)",
    "err_importance_shape": _SETUP
    + "prune.l1_unstructured(lin, 'weight', 1, importance_scores=torch.ones(3))",
    "err_container_name": "import torch\nfrom torch.nn.utils import prune\n"
    "a = prune.L1Unstructured(1); a._tensor_name = 'w'\nb = prune.L1Unstructured(1); b._tensor_name = 'v'\n"
    "prune.PruningContainer(a).add_pruning_method(b)",
    "err_container_type": "import torch\nfrom torch.nn.utils import prune\n"
    "a = prune.L1Unstructured(1); a._tensor_name = 'w'\nprune.PruningContainer(a).add_pruning_method(3)",
    "err_custom_shape": _SETUP + "prune.custom_from_mask(lin, 'bias', torch.ones(4))",
    "err_abstract": "import torch\nfrom torch.nn.utils import prune\nprune.BasePruningMethod()",
    "public_names": "import torch\nfrom torch.nn.utils import prune\nsorted(n for n in dir(prune) if not n.startswith('_') and n[0].isupper() or n in ('identity', 'random_unstructured', 'l1_unstructured', 'random_structured', 'ln_structured', 'global_unstructured', 'custom_from_mask', 'remove', 'is_pruned'))",
}


def _plain(value):
    if hasattr(value, "tolist") and not isinstance(value, (list, tuple)):
        return value.tolist()
    return value


def outcome(code: str) -> dict:
    """What running ``code`` gives: ``{"value": repr}`` or ``{"error", "message"}``."""
    try:
        value = run_lines(code, {})
    except BaseException as error:  # noqa: BLE001 - the recorded outcome
        return {"error": type(error).__name__, "message": _normalise(str(error))}
    return {"value": repr(_plain(value))}


def _normalise(message: str) -> str:
    # object reprs carry addresses
    return re.sub(r" at 0x[0-9a-f]+", " at 0x...", message)
