"""Expressions using the public names of PyTorch 2.13 that torch-nn added for the
public-names check of issue 20 (tests/test_public_names.py at the repository root):
fractional max pooling, the adaptive log-softmax. tools/golden/record_added_names.py
records what real PyTorch gives (golden/added_nn_names.json); test_added_nn_names.py
compares, values to a relative tolerance of 1e-5. Each outcome is the value (tensors
as dtype, shape and values) or the error's builtin type and message.
"""

from __future__ import annotations

from snippet_lines import describe, expression_outcome

SETUP = """
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 7, 8)
x3 = torch.randn(1, 2, 5, 6, 7)
def pool_grad(**kw):
    xg = x.clone().requires_grad_()
    torch.manual_seed(1)
    F.fractional_max_pool2d(xg, 2, **kw).sum().backward()
    return xg.grad
"""

_SEEDED = "torch.manual_seed(1); "
FRACTIONAL = {
    "fmp2d_indices": _SEEDED
    + "F.fractional_max_pool2d(x, 2, output_size=(4, 5), return_indices=True)",
    "fmp2d_ratio": _SEEDED + "F.fractional_max_pool2d(x, (3, 2), output_ratio=(0.5, 0.5))",
    "fmp2d_samples": (
        "s = torch.tensor([[[0.3, 0.7]] * 3] * 2); "
        "F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=s)"
    ),
    "fmp2d_unbatched_module": (
        _SEEDED + "m = nn.FractionalMaxPool2d(2, output_ratio=(0.5, 0.5)); (repr(m), m(x[0]))"
    ),
    "fmp2d_float64_nan": (
        _SEEDED + "y = x.double(); y[0, 0, 1, 1] = float('nan'); "
        "F.fractional_max_pool2d(y, 3, output_size=3, return_indices=True)"
    ),
    "fmp2d_grad": "pool_grad(output_size=(4, 5))",
    "fmp3d_indices": (
        "torch.manual_seed(2); F.fractional_max_pool3d(x3, 2, output_size=(3, 3, 4), "
        "return_indices=True)"
    ),
    "fmp3d_module_ratio": (
        "torch.manual_seed(2); nn.FractionalMaxPool3d((2, 2, 3), output_ratio=0.6)(x3)"
    ),
    "fmp3d_ratio_scalar": "torch.manual_seed(2); F.fractional_max_pool3d(x3, 2, output_ratio=0.5)",
    "fmp2d_no_size": "F.fractional_max_pool2d(x, 2)",
    "fmp2d_scalar_ratio": "F.fractional_max_pool2d(x, 2, output_ratio=1.5)",
    "fmp2d_ratio_length": "F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5, 0.5))",
    "fmp2d_too_large": "F.fractional_max_pool2d(x, 2, output_size=(7, 8))",
    "fmp3d_too_large_time": "F.fractional_max_pool3d(x3, 2, output_size=(5, 3, 3))",
    "fmp3d_too_large_width": "F.fractional_max_pool3d(x3, 2, output_size=(3, 3, 7))",
    "fmp2d_samples_batch": (
        "F.fractional_max_pool2d(x, 2, output_size=(4, 5), _random_samples=torch.rand(1, 3, 2))"
    ),
    "fmp2d_samples_channels": (
        "F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(2, 5, 2))"
    ),
    "fmp2d_samples_dims": (
        "F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(2, 3, 3))"
    ),
    "fmp_module_no_size": "nn.FractionalMaxPool2d(2)",
    "fmp_module_both": "nn.FractionalMaxPool2d(2, output_size=3, output_ratio=0.5)",
    "fmp_module_ratio_range": "nn.FractionalMaxPool2d(2, output_ratio=1.2)",
    "fmp_module_fields": (
        "m = nn.FractionalMaxPool2d(3, output_size=4, return_indices=True); "
        "(m.output_size, m.output_ratio, m.kernel_size, list(m._buffers), "
        "list(m.state_dict()), repr(nn.FractionalMaxPool3d(2, output_size=2)))"
    ),
}

_ASM = (
    "torch.manual_seed(3); "
    "asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3, 6], div_value=2.0); "
)
_X = "torch.manual_seed(4); inp = torch.randn(5, 8); "
ADAPTIVE = {
    "asm_repr": _ASM
    + "(repr(asm), asm.shortlist_size, asm.n_clusters, asm.head_size, asm.cutoffs)",
    "asm_forward": _ASM + _X + "asm(inp, torch.tensor([0, 4, 9, 2, 7]))",
    "asm_forward_names": _ASM
    + _X
    + "r = asm(inp, torch.tensor([1, 1, 1, 1, 1])); (r.output, r.loss)",
    "asm_unbatched": _ASM + _X + "asm(inp[0], torch.tensor(8))",
    "asm_log_prob": _ASM + _X + "asm.log_prob(inp)",
    "asm_log_prob_unbatched": _ASM + _X + "asm.log_prob(inp[1])",
    "asm_predict": _ASM + _X + "asm.predict(inp * 3)",
    "asm_predict_shortlist": _ASM + _X + "asm.head.weight.data[3:] = -5; asm.predict(inp)",
    "asm_predict_clusters": _ASM + _X + "asm.head.weight.data[:3] = -5; asm.predict(inp)",
    "asm_predict_unbatched": _ASM + _X + "asm.predict(inp[2])",
    "asm_head_bias": (
        "torch.manual_seed(3); asm = nn.AdaptiveLogSoftmaxWithLoss(6, 5, [2], head_bias=True); "
        + _X.replace("8)", "6)")
        + "(asm(inp, torch.tensor([0, 1, 2, 3, 4])), "
        "[tuple(p.shape) for p in asm.parameters()])"
    ),
    "asm_grad": (
        _ASM + _X + "asm(inp, torch.tensor([0, 4, 9, 2, 7])).loss.backward(); "
        "(asm.head.weight.grad, asm.tail[1][1].weight.grad)"
    ),
    "asm_bad_cutoffs": "nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[6, 3])",
    "asm_cutoff_too_big": "nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3, 10])",
    "asm_target_range": _ASM + _X + "asm(inp, torch.tensor([0, 4, 10, 2, 7]))",
    "asm_batch_mismatch": _ASM + _X + "asm(inp, torch.tensor([0, 4]))",
    "asm_input_dims": _ASM + "asm(torch.ones(2, 3, 8), torch.tensor([0, 4]))",
    "asm_target_dims": _ASM + "asm(torch.ones(2, 8), torch.tensor([[0, 4]]))",
    "asm_scalar_target_dims": _ASM + "asm(torch.ones(2, 8), torch.tensor(1))",
}

CASES: dict[str, str] = {**FRACTIONAL, **ADAPTIVE}

#: cases that backpropagate
NEEDS_AUTOGRAD = {name for name in CASES if name.endswith("_grad")}


def _describe(torch, value):
    def tensor(t):
        # flat values (NaN and inf as their reprs) beside the shape
        values = describe(torch, t.detach().reshape(-1).tolist(), tensor)
        return {"dtype": str(t.dtype), "shape": list(t.shape), "values": values}

    return describe(torch, value, tensor)


def outcome(torch, code: str) -> dict:
    """The value of ``code`` (statements joined by "; ", the last an expression) or its
    error (builtin type and first line of the message)."""
    names = {"__name__": "added_nn_cases"}
    return expression_outcome(torch, code, SETUP, _describe, names)
