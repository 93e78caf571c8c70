"""Tensor-side CUDA calls without a CUDA device: the snippets whose outcome
tools/golden/record_cuda_tensor.py records under real PyTorch (CPU build) and
test_cuda_backend_nodevice.py replays here. Each snippet's last line is an expression, the
lines before it simple statements."""

from __future__ import annotations

import warnings

import golden_describe  # beside this file (the recorder puts this folder on the path)

CASES = {
    "cuda": "x = torch.ones(3)\nx.cuda()",
    "cuda_index": "x = torch.ones(3)\nx.cuda(1)",
    "cuda_device": "x = torch.ones(3)\nx.cuda(torch.device('cuda', 0))",
    "cuda_non_blocking": "x = torch.ones(3)\nx.cuda(non_blocking=True)",
    "to_cuda": "x = torch.ones(3)\nx.to('cuda')",
    "to_cuda1_non_blocking": "x = torch.ones(3)\nx.to('cuda:1', non_blocking=True)",
    "to_device_object": "x = torch.ones(3)\nx.to(torch.device('cuda', 0))",
    "to_cuda_dtype": "x = torch.ones(3)\nx.to('cuda', torch.float64)",
    "to_cpu_is_self": "x = torch.ones(3)\nx.to('cpu') is x",
    "pin_memory": "x = torch.ones(3)\nx.pin_memory()",
    "is_pinned": "x = torch.ones(3)\nx.is_pinned()",
    "get_device": "x = torch.ones(3)\nx.get_device()",
    "get_device_int": "torch.arange(4).get_device()",
    "is_cuda": "torch.ones(3).is_cuda",
    "zeros_cuda": "torch.zeros(3, device='cuda')",
    "tensor_cuda0": "torch.tensor([1.0], device='cuda:0')",
    "empty_like_cuda": "torch.empty_like(torch.ones(2), device='cuda')",
    "new_zeros_cuda": "torch.ones(2).new_zeros(2, device='cuda')",
    "randn_cuda": "torch.randn(2, device='cuda')",
    "device_cuda_ok": "torch.device('cuda:1')",
    "type_cuda": "torch.ones(2).type('torch.cuda.FloatTensor')",
}


def outcome(code: str, namespace: dict | None = None) -> dict:
    """What running ``code`` gives, warnings silenced: ``{"value": repr}`` or
    ``{"error", "message"}``."""
    import torch

    scope = {"torch": torch, **(namespace or {})}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = golden_describe.run(code, scope, separator="\n")
    except BaseException as error:  # noqa: BLE001 - the recorded outcome
        return {"error": type(error).__name__, "message": str(error)}
    return {"value": repr(value)}
