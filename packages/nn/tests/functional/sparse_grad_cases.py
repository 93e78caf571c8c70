"""Sparse gradients of embedding lookups (``sparse=True``) and how autograd adds them,
as recorded from PyTorch 2.13 by tools/golden/record_sparse_grad.py
(tests/golden/sparse_grad.json; test_sparse_grad.py compares).

Each case evaluates to the gradient of a weight (or an error): a sparse gradient is
described by its entries in order (indices, values), whether it is coalesced, its size
and dtype, so the order and duplication of entries are checked, not only the sum.
"""

from __future__ import annotations

from snippet_lines import expression_outcome

SETUP = """
import torch.nn as nn
import torch.nn.functional as F
def weighted_sum(out):
    return (out * torch.arange(out.numel(), dtype=out.dtype).reshape(out.shape)).sum()
def emb(idx, dtype=torch.float32, **kw):
    torch.manual_seed(0)
    w = torch.randn(6, 3, dtype=dtype, requires_grad=True)
    weighted_sum(F.embedding(idx, w, sparse=True, **kw)).backward()
    return w.grad
def bag(idx, offsets=None, **kw):
    torch.manual_seed(0)
    w = torch.randn(6, 3, requires_grad=True)
    weighted_sum(F.embedding_bag(idx, w, offsets, sparse=True, **kw)).backward()
    return w.grad
def twice(first, second):
    m = nn.Embedding(5, 2, sparse=True)
    for idx in (first, second):
        m(torch.tensor(idx)).sum().backward()
    return m.weight.grad
def mixed(order):
    w = torch.zeros(4, 2, requires_grad=True)
    for kind in order:
        out = F.embedding(torch.tensor([1]), w, sparse=True) if kind == "s" else w * 2
        out.sum().backward()
    return w.grad
def psw_grad():
    torch.manual_seed(0)
    w = torch.randn(6, 3, requires_grad=True)
    psw = torch.tensor([1., 2., 3.], requires_grad=True)
    out = F.embedding_bag(torch.tensor([1, 2, 1]), w, torch.tensor([0, 2]), mode="sum",
                          per_sample_weights=psw, sparse=True, padding_idx=2)
    weighted_sum(out).backward()
    return psw.grad
"""

I3 = "torch.tensor([1, 2, 1, 4])"

CASES = {
    # F.embedding / nn.Embedding
    "embedding": "emb(torch.tensor([1, 2, 1]))",
    "embedding_2d_input": "emb(torch.tensor([[1, 2], [1, 0]]))",
    "embedding_float64": "emb(torch.tensor([3, 3]), dtype=torch.float64)",
    "embedding_int32_indices": "emb(torch.tensor([1, 2], dtype=torch.int32))",
    "embedding_padding": "emb(torch.tensor([1, 2, 1]), padding_idx=1)",
    "embedding_negative_padding": "emb(torch.tensor([1, 5, 1]), padding_idx=-1)",
    "embedding_all_padding": "emb(torch.tensor([1, 1]), padding_idx=1)",
    "embedding_no_indices": "emb(torch.tensor([], dtype=torch.long))",
    "embedding_max_norm": "emb(torch.tensor([1, 2]), max_norm=0.5)",
    "embedding_scale_grad_by_freq": "emb(torch.tensor([1, 2, 1]), scale_grad_by_freq=True)",
    "embedding_grad_fn": "F.embedding(torch.tensor([1]), torch.zeros(4, 2, requires_grad=True), "
    "sparse=True).grad_fn.name()",
    "embedding_forward_values": "F.embedding(torch.tensor([[2, 0]]), torch.arange(8.).reshape(4, 2)"
    ".requires_grad_(), sparse=True)",
    "embedding_no_grad_needed": "F.embedding(torch.tensor([1]), torch.ones(3, 2), sparse=True)",
    "module": "m = nn.Embedding(5, 2, sparse=True); m(torch.tensor([4, 0, 4])).sum().backward(); "
    "m.weight.grad",
    "module_repr": "repr(nn.Embedding(5, 2, sparse=True))",
    "from_pretrained": "m = nn.Embedding.from_pretrained(torch.ones(3, 2), freeze=False, "
    "sparse=True); m(torch.tensor([2])).sum().backward(); m.weight.grad",
    # accumulation in .grad and in the backward pass
    "accumulate_twice": "twice([1, 2], [2, 3])",
    "dense_then_sparse": "mixed('ds')",
    "sparse_then_dense": "mixed('sd')",
    "sparse_then_sparse_then_dense": "mixed('ssd')",
    "dense_and_sparse_in_one_pass": "w = torch.zeros(4, 2, requires_grad=True); "
    "(F.embedding(torch.tensor([1]), w, sparse=True).sum() + (w * 2).sum()).backward(); w.grad",
    "two_sparse_in_one_pass": "w = torch.zeros(4, 2, requires_grad=True); "
    "(F.embedding(torch.tensor([1]), w, sparse=True).sum() + "
    "F.embedding(torch.tensor([3, 1]), w, sparse=True).sum()).backward(); w.grad",
    "through_a_view_of_the_output": "w = torch.zeros(4, 2, requires_grad=True); "
    "F.embedding(torch.tensor([[1, 2]]), w, sparse=True)[0, 1].sum().backward(); w.grad",
    # F.embedding_bag / nn.EmbeddingBag
    "bag_mean": f"bag({I3}, torch.tensor([0, 2]))",
    "bag_sum": f"bag({I3}, torch.tensor([0, 2]), mode='sum')",
    "bag_max": f"bag({I3}, torch.tensor([0, 2]), mode='max')",
    "bag_2d_input": "bag(torch.tensor([[1, 2], [1, 4]]))",
    "bag_per_sample_weights": f"bag({I3}, torch.tensor([0, 2]), mode='sum', "
    "per_sample_weights=torch.tensor([1., 2., 3., 4.]))",
    "bag_padding_mean": f"bag({I3}, torch.tensor([0, 2]), padding_idx=1)",
    "bag_padding_sum": f"bag({I3}, torch.tensor([0, 2]), padding_idx=1, mode='sum')",
    "bag_include_last_offset_mean": f"bag({I3}, torch.tensor([0, 2, 3]), include_last_offset=True)",
    "bag_include_last_offset_sum": f"bag({I3}, torch.tensor([0, 2, 3]), "
    "include_last_offset=True, mode='sum')",
    "bag_include_last_offset_sum_full": f"bag({I3}, torch.tensor([0, 2, 4]), "
    "include_last_offset=True, mode='sum')",
    "bag_empty_bag": f"bag({I3}, torch.tensor([0, 2, 2]))",
    "bag_scale_grad_by_freq": f"bag({I3}, torch.tensor([0, 2]), scale_grad_by_freq=True)",
    "bag_per_sample_weights_grad": "psw_grad()",
    "bag_grad_fn": "F.embedding_bag(torch.tensor([1]), torch.zeros(4, 2, requires_grad=True), "
    "torch.tensor([0]), sparse=True).grad_fn.name()",
    "bag_module": "m = nn.EmbeddingBag(5, 2, sparse=True, mode='sum'); "
    "m(torch.tensor([[1, 2], [3, 3]])).sum().backward(); m.weight.grad",
    "bag_module_repr": "repr(nn.EmbeddingBag(5, 2, sparse=True))",
    # gradients reset by zero_grad
    "module_zero_grad_keep": "m = nn.Embedding(5, 2, sparse=True); "
    "m(torch.tensor([1])).sum().backward(); m.zero_grad(set_to_none=False); m.weight.grad",
}


def describe(torch, value):
    if isinstance(value, torch.Tensor) and value.is_sparse:
        return {
            "sparse": True,
            "coalesced": value.is_coalesced(),
            "indices": value._indices().tolist(),
            "values": value._values().tolist(),
            "size": list(value.shape),
            "dtype": str(value.dtype),
        }
    if isinstance(value, torch.Tensor):
        return {"values": value.tolist(), "dtype": str(value.dtype)}
    return value if isinstance(value, (str, int, float, bool)) or value is None else repr(value)


def outcome(torch, code: str) -> dict:
    return expression_outcome(torch, code, SETUP, describe)
