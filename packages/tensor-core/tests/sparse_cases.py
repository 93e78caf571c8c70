"""Expressions on sparse COO tensors whose results real PyTorch recorded
(tools/golden/record_sparse.py writes golden/sparse.json; test_sparse.py compares).

Names ending in ``~`` give sparse results whose stored entries may differ from
PyTorch's while standing for the same tensor (e.g. the order of an uncoalesced sum):
only their dense value, size and dtype are compared. Names ending in ``!`` are errors
whose message must match PyTorch's word for word; other errors compare the type."""

from __future__ import annotations

import golden_describe

SETUP = """
i = torch.tensor([[0, 1, 1], [2, 0, 2]])
v = torch.tensor([3., 4., 5.])
s = torch.sparse_coo_tensor(i, v, (2, 3))
c = s.coalesce()
d = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
u = torch.sparse_coo_tensor([[1, 0, 1]], [1., 2., 3.], (2,))
h = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), torch.tensor([[1., 2.], [3., 4.]]))
e = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.long), torch.zeros(0), (2, 3))
m = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
"""

CASES = {
    # construction and metadata
    "repr": "s",
    "repr_inferred_size": "torch.sparse_coo_tensor(i, v)",
    "repr_float64": "torch.sparse_coo_tensor(i, v, (2, 3), dtype=torch.float64)",
    "repr_int": "torch.sparse_coo_tensor(i, torch.tensor([1, 2, 3]), (2, 3))",
    "repr_int32": "torch.sparse_coo_tensor(i, torch.tensor([1, 2, 3], dtype=torch.int32))",
    "repr_bool": "torch.sparse_coo_tensor([[0, 1]], [True, False], (3,))",
    "repr_float16": "torch.tensor([[0, 1.5], [0, 0]], dtype=torch.float16).to_sparse()",
    "repr_lists": "torch.sparse_coo_tensor([[0, 1], [1, 0]], [1., 2.])",
    "repr_float_indices": "torch.sparse_coo_tensor(i.float(), v)",
    "repr_empty": "e",
    "repr_hybrid": "h",
    "repr_requires_grad": "torch.sparse_coo_tensor(i, v, (2, 3), requires_grad=True)",
    "requires_grad": "torch.sparse_coo_tensor(i, v, (2, 3), requires_grad=True).requires_grad",
    "layout": "s.layout",
    "is_sparse": "(s.is_sparse, d.is_sparse)",
    "dims": "(s.sparse_dim(), s.dense_dim(), h.sparse_dim(), h.dense_dim())",
    "dense_dims": "(d.sparse_dim(), d.dense_dim())",
    "nnz": "(s._nnz(), e._nnz(), h._nnz())",
    "size": "(s.size(), s.shape, s.dim(), s.numel(), s.size(1), len(s))",
    "dtype": "(s.dtype, s.double().dtype, s.to(torch.int32).dtype)",
    "type": "(s.type(), s.double().type(), s.long().type())",
    "is_cuda": "(s.is_cuda, s.device)",
    "is_contiguous": "s.is_contiguous()",
    "element_size": "s.element_size()",
    "isinstance": "isinstance(s, torch.Tensor)",
    # indices and values
    "_indices": "s._indices()",
    "_values": "s._values()",
    "indices_coalesced": "c.indices()",
    "values_coalesced": "c.values()",
    "error_hybrid_values!": "h.values()",
    "hybrid_values": "h.coalesce().values()",
    # coalescing
    "is_coalesced": "(s.is_coalesced(), c.is_coalesced(), e.is_coalesced())",
    "is_coalesced_single": "torch.sparse_coo_tensor([[0]], [1.], (2,)).is_coalesced()",
    "coalesce": "u.coalesce()",
    "coalesce_idempotent": "c.coalesce() is c",
    "coalesce_new": "s.coalesce() is s",
    "coalesce_2d": (
        "torch.sparse_coo_tensor([[1, 0, 1, 0], [2, 1, 2, 0]], [1., 2., 3., 4.]).coalesce()"
    ),
    "coalesce_hybrid": "torch.sparse_coo_tensor([[2, 0, 2]], torch.ones(3, 2)).coalesce()",
    "coalesce_empty": "e.coalesce()",
    # conversions
    "to_dense": "s.to_dense()",
    "to_dense_duplicates": "u.to_dense()",
    "to_dense_hybrid": "h.to_dense()",
    "to_dense_empty": "e.to_dense()",
    "to_dense_int": "torch.sparse_coo_tensor(i, torch.tensor([1, 2, 3]), (2, 3)).to_dense()",
    "to_dense_dense": "d.to_dense() is d",
    "to_sparse": "d.to_sparse()",
    "to_sparse_zeros": "torch.tensor([[0., 2.], [3., 0.]]).to_sparse()",
    "to_sparse_coalesced": "d.to_sparse().is_coalesced()",
    "to_sparse_sparse_dim": "torch.tensor([[1, 0], [0, 0], [0, 2]]).to_sparse(sparse_dim=1)",
    "to_sparse_all_zero": "torch.zeros(2, 3).to_sparse()",
    "to_sparse_0d": "torch.tensor(3.).to_sparse()",
    "to_sparse_3d": "torch.tensor([[[0., 1.], [0., 0.]], [[2., 0.], [0., 3.]]]).to_sparse()",
    "to_sparse_self": "s.to_sparse() is s",
    "roundtrip": "torch.tensor([[0., 1.], [2., 0.]]).to_sparse().to_dense()",
    "double": "s.double()",
    "clone": "s.clone()",
    "detach": "s.detach()",
    # arithmetic
    "dense_add_sparse": "d + s",
    "torch_add_dense_sparse": "torch.add(d, s)",
    "add_alpha": "torch.add(d, s, alpha=2)",
    "dense_sub_sparse": "d - s",
    "int_dense_add_sparse": "torch.ones(2, 3, dtype=torch.int64) + s",
    "dense_add_int_sparse": "d + torch.sparse_coo_tensor(i, torch.tensor([1, 2, 3]), (2, 3))",
    "dense_add_duplicates": "torch.ones(2) + u",
    "dense_add_hybrid": "torch.ones(3, 2) + h",
    "sparse_add_sparse~": "s + s",
    "coalesced_add_coalesced": "c + c",
    "coalesced_add_is_coalesced": "(c + c).is_coalesced()",
    "sparse_add_other~": "u + torch.sparse_coo_tensor([[1, 1]], [1., 2.], (2,))",
    "sparse_add_empty~": "s + e",
    "sparse_sub_sparse~": "c - s",
    "mul_scalar": "s * 2",
    "rmul_scalar": "2 * s",
    "mul_float": "s * 2.5",
    "mul_int_by_float": "torch.sparse_coo_tensor(i, torch.tensor([1, 2, 3]), (2, 3)) * 2.5",
    "mul_0d_tensor": "s * torch.tensor(2.)",
    "torch_mul": "torch.mul(s, 3)",
    "mul_keeps_coalesced": "((s * 2).is_coalesced(), (c * 2).is_coalesced())",
    "mul_sparse_sparse": "c * c",
    "mul_sparse_sparse_disjoint~": (
        "c * torch.sparse_coo_tensor([[0, 1], [2, 1]], [2., 7.], (2, 3))"
    ),
    "div_scalar": "s / 2",
    "neg": "-s",
    "abs": "abs(-s)",
    "pow": "s.pow(2)",
    "pow_operator": "s ** 0.5",
    "pow_duplicates": "u ** 2",
    "abs_duplicates": "abs(u * -1)",
    "torch_mul_number_first": "torch.mul(2, s)",
    "dense_add_inplace": "x = torch.ones(2, 3); y = x.add_(s, alpha=2); (y is x, x)",
    "dense_sub_inplace": "x = torch.ones(2, 3); x.sub_(s); x",
    "dense_iadd": "x = torch.ones(2, 3); x += s; x",
    "error_dense_add_inplace_size!": "torch.ones(2, 4).add_(s)",
    # the legacy constructors of PyTorch 0.x
    "legacy_float": "torch.sparse.FloatTensor(i, v, torch.Size([2, 3]))",
    "legacy_double_inferred": "torch.sparse.DoubleTensor(i, v.double())",
    "legacy_long": "torch.sparse.LongTensor(i, torch.tensor([1, 2, 3]), torch.Size([2, 3]))",
    "legacy_empty": "torch.sparse.FloatTensor(2, 3)",
    "legacy_isinstance": (
        "(isinstance(s, torch.sparse.FloatTensor), isinstance(d, torch.sparse.FloatTensor), "
        "isinstance(s, torch.FloatTensor), isinstance(s, torch.sparse.DoubleTensor))"
    ),
    "legacy_repr": "repr(torch.sparse.FloatTensor)",
    # transposition
    "t": "s.t()",
    "torch_t": "torch.t(s)",
    "transpose": "s.transpose(0, 1)",
    "torch_transpose": "torch.transpose(s, 1, 0)",
    "t_is_coalesced": "(s.t().is_coalesced(), c.t().is_coalesced())",
    "t_to_dense": "s.t().to_dense()",
    "t_1d": "u.t()",
    # matrix products
    "mm": "torch.mm(s, m)",
    "sparse_mm": "torch.sparse.mm(s, m)",
    "matmul_operator": "s @ m",
    "torch_matmul": "torch.matmul(s, m)",
    "mm_method": "s.mm(m)",
    "mm_duplicates": (
        "torch.mm(torch.sparse_coo_tensor([[0, 0], [1, 1]], [1., 2.], (2, 2)), torch.ones(2, 3))"
    ),
    "mm_dense_sparse": "torch.mm(m, c)",
    "mm_empty": "torch.mm(e, m)",
    "sparse_addmm": "torch.sparse.addmm(torch.ones(2, 2), s, m, beta=0.5, alpha=2)",
    # sums
    "sparse_sum": "torch.sparse.sum(s)",
    "sparse_sum_dim0": "torch.sparse.sum(s, 0)",
    "sparse_sum_dim1": "torch.sparse.sum(s, 1)",
    "sparse_sum_dims": "torch.sparse.sum(s, (0, 1))",
    "sparse_sum_dtype": "torch.sparse.sum(s, dtype=torch.float64)",
    "sparse_sum_hybrid_sparse_dim": "torch.sparse.sum(h, 0)",
    "sparse_sum_hybrid_dense_dim": "torch.sparse.sum(h, 1)",
    "sparse_sum_int": "torch.sparse.sum(torch.sparse_coo_tensor(i, torch.tensor([1, 2, 3])))",
    "tensor_sum": "s.sum()",
    "torch_sum": "torch.sum(s)",
    # autograd through the values and the dense operands
    "grad_to_dense": (
        "vv = v.clone().requires_grad_(); w = torch.tensor([[1., 2., 3.], [4., 5., 6.]]); "
        "(torch.sparse_coo_tensor(i, vv, (2, 3)).to_dense() * w).sum().backward(); vv.grad"
    ),
    "grad_mm_dense": (
        "mm_ = m.clone().requires_grad_(); (torch.sparse.mm(s, mm_) ** 2).sum().backward(); "
        "mm_.grad"
    ),
    "grad_mm_values": (
        "vv = v.clone().requires_grad_(); "
        "(torch.sparse.mm(torch.sparse_coo_tensor(i, vv, (2, 3)), m) ** 2).sum().backward(); "
        "vv.grad"
    ),
    "grad_dense_add_sparse": (
        "dd = d.clone().requires_grad_(); ((dd + s) ** 2).sum().backward(); dd.grad"
    ),
    "grad_leaf": (
        "x = torch.sparse_coo_tensor(i, v, (2, 3), requires_grad=True); "
        "(x.to_dense() * d).sum().backward(); x.grad.coalesce()"
    ),
    # errors
    "error_indices_dim!": "torch.sparse_coo_tensor(torch.tensor([0, 1]), v)",
    "error_indices_3d!": "torch.sparse_coo_tensor(torch.ones(1, 2, 3).long(), v)",
    "error_nnz!": "torch.sparse_coo_tensor(i, torch.ones(2), (2, 3))",
    "error_size_len!": "torch.sparse_coo_tensor(i, v, (2,))",
    "error_size_len_dense!": "torch.sparse_coo_tensor(i, torch.ones(3, 2), (2, 3))",
    "error_values_size!": "torch.sparse_coo_tensor(i, torch.ones(3, 2), (2, 3, 3))",
    "error_index_too_big!": "torch.sparse_coo_tensor(i, v, (1, 3), check_invariants=True)",
    "error_negative_index!": "torch.sparse_coo_tensor(-i, v, (2, 3), check_invariants=True)",
    "error_int_requires_grad": "torch.sparse_coo_tensor(i, v.long(), (2, 3), requires_grad=True)",
    "error_indices_uncoalesced!": "s.indices()",
    "error_values_uncoalesced!": "s.values()",
    "error_sparse_add_dense!": "s + d",
    "error_torch_add_sparse_dense!": "torch.add(s, d)",
    "error_add_size!": "s + torch.sparse_coo_tensor(i, v, (2, 4))",
    "error_dense_add_size!": "torch.ones(2, 4) + s",
    "error_mm_size!": "torch.mm(s, torch.ones(2, 2))",
    "error_mm_vector!": "torch.mm(s, torch.ones(3))",
    "error_mm_dtype!": "torch.mm(s, torch.ones(3, 2, dtype=torch.float64))",
    "error_sum_dim!": "torch.sparse.sum(s, 2)",
    "error_dense_op": "s.exp()",
    "error_view": "s.view(6)",
    "error_numpy!": "s.numpy()",
    "error_storage!": "s.storage()",
    "error_data_ptr!": "s.data_ptr()",
    "error_item!": "s.item()",
    "error_dense_coalesce!": "d.coalesce()",
    "error_dense_is_coalesced!": "d.is_coalesced()",
    "error_dense_indices!": "d.indices()",
    "error_dense_nnz": "d._nnz()",
    "error_to_sparse_dim": "d.to_sparse(3)",
}


def describe(torch, value):
    """Like golden_describe.describe, with sparse tensors described by their parts and
    dense tensors without their strides (sparse results are laid out freely)."""
    if isinstance(value, torch.Tensor) and value.is_sparse:
        return {
            "sparse": True,
            "repr": repr(value),
            "size": list(value.shape),
            "nnz": value._nnz(),
            "coalesced": value.is_coalesced(),
            "dtype": str(value.dtype),
            "dense": value.detach().to_dense().tolist(),
        }
    if isinstance(value, torch.Tensor):
        return {"repr": repr(value), "shape": list(value.shape), "dtype": str(value.dtype)}
    if isinstance(value, (tuple, list)):
        return [describe(torch, item) for item in value]
    return golden_describe.describe(torch, value)


def outcome(torch, code: str):
    try:
        return {"value": describe(torch, golden_describe.evaluate(torch, code, SETUP))}
    except Exception as error:  # noqa: BLE001 - the exception is the recorded result
        # the builtin kind: this project's errors may be subclasses of it
        kind = next(k for k in type(error).__mro__ if k.__module__ == "builtins")
        return {"error": kind.__name__, "message": str(error).split("\n")[0]}
