"""Expressions of issue 4's math API (index ops, combining composites, math and linear
algebra extras, and the semantics fixes checked against PyTorch 2.13) whose results the
tests compare with real PyTorch's (recorded by record_math.py, compared by
packages/tensor-core/tests/_ops/test_math_api_golden.py).

Each entry is Python source evaluated with ``torch`` in scope and the names of SETUP.
"""

SETUP = """
x = torch.arange(12.0).reshape(3, 4)
s = torch.arange(12.0).reshape(3, 4)
i = torch.tensor([0, 2, 0])
v = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
ix = torch.tensor([0, 1, 0, 1, 2, 1])
A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.0], [2.0, 0.0, 5.0]], dtype=torch.float64)
B = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=torch.float64)
S = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
"""

INDEX_OPS = [
    "torch.zeros(3, 4).index_add(0, i, s, alpha=2)",
    "torch.zeros(3, dtype=torch.long).index_add(0, i, torch.tensor([1, 2, 3]))",
    "torch.zeros(3, 4).index_add(0, i.reshape(3, 1), s)",
    "torch.zeros(3, 4).index_add(0, torch.tensor(1), s[0:1])",
    "torch.zeros(3, 4).index_add(0, i, s.double())",
    "torch.zeros(3, 4).index_add(0, i, torch.ones(3, 5))",
    "torch.zeros(3, 4).index_add(0, i, torch.ones(2, 4))",
    "torch.zeros(3, 4).index_add(0, torch.tensor([0, 5, 0]), s)",
    "torch.zeros(3, 4).index_add(0, torch.tensor([0, -1, 0]), s)",
    "torch.zeros(3, 4).index_add(0, torch.tensor([0.0, 1, 0]), s)",
    "torch.zeros(3, 4).index_add(1, torch.tensor([3, 3]), torch.ones(3, 2))",
    "y = torch.zeros(3, 4); y.index_add_(0, i, s); y",
    "o = torch.empty(0); torch.index_add(torch.zeros(3), 0, torch.tensor([1, 1]), torch.tensor([1.0, 2.0]), out=o); o",
    "torch.zeros(3, 4).index_copy(0, torch.tensor([2, 0]), s[:2])",
    "torch.zeros(3, 4).index_copy(0, torch.tensor([2, 0]), s[:3])",
    "torch.zeros(3, 4).index_copy(0, torch.tensor([2, 0]), torch.ones(2, 5))",
    "torch.zeros(3, 4).index_copy(0, torch.tensor([2, 0]), s[:2].double())",
    "torch.zeros(3, 4).index_copy(0, torch.tensor([2, 3]), s[:2])",
    "torch.zeros(3, 4).index_copy(0, torch.tensor([[2, 0]]), s[:2])",
    "y = torch.zeros(2, 3); y.index_copy_(1, torch.tensor([2]), torch.ones(2, 1)); y",
    "torch.zeros(3, 4).index_fill(1, torch.tensor([0, 3]), -1)",
    "torch.zeros(3, 4).index_fill(1, torch.tensor([0, 3]), torch.tensor(2.5))",
    "torch.zeros(3, 4).index_fill(1, torch.tensor([0, 3]), torch.tensor([2.5]))",
    "torch.zeros(3, 4).index_fill(1, torch.tensor([0, 4]), 1)",
    "torch.zeros(3, dtype=torch.long).index_fill(0, torch.tensor([1]), 2.7)",
    "torch.zeros(3, 4).index_fill(1, torch.tensor([True]), 1)",
    "y = torch.zeros(3); y.index_fill_(0, torch.tensor([0, 2]), 7); y",
    "torch.zeros(3, 4).index_put((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1.0, 2.0]))",
    "torch.zeros(3, 4).index_put((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1.0, 2.0]), accumulate=True)",
    "torch.zeros(3, 4).index_put((torch.tensor([0, 0, 2]),), torch.tensor(1.0), accumulate=True)",
    "torch.zeros(3, 4).index_put((torch.tensor([0, 0, 2]),), torch.arange(4.0), accumulate=True)",
    "torch.zeros(3, 4).index_put((torch.tensor([True, False, True]),), torch.tensor(3.0))",
    "torch.zeros(3, 4).index_put((torch.tensor([0]),), torch.tensor([1.0], dtype=torch.float64))",
    "torch.zeros(3, 4).index_put([torch.tensor([0])], torch.tensor(1.0))",
    "torch.zeros(3, 4).clone().index_put_((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1.0, 2.0]), True)",
    "torch.zeros(3, 4).index_put((torch.tensor([5]),), torch.tensor(1.0))",
    "torch.zeros(3, 4).index_put((torch.tensor([5]),), torch.tensor(1.0), accumulate=True)",
    "torch.zeros(3, 4).index_put((torch.tensor([0, 1]),), torch.ones(3))",
    "torch.zeros(3, 4).masked_scatter(torch.tensor([True, False, True, True]), s)",
    "torch.zeros(2, 3).masked_scatter(torch.tensor([[True, False, True], [False, True, False]]), torch.tensor([1.0, 2, 3, 4, 5]))",
    "torch.zeros(2, 3).masked_scatter(torch.tensor([[True, False, True], [False, True, False]]), torch.tensor([1.0, 2]))",
    "torch.zeros(2).masked_scatter(torch.tensor([1, 0]), torch.tensor([1.0, 2]))",
    "torch.zeros(2).masked_scatter(torch.tensor([True, False]), torch.tensor([1, 2]))",
    "torch.zeros(2, 2).masked_scatter(torch.tensor([True, False]), torch.tensor([1.0, 2, 3]))",
    "torch.zeros(2).masked_scatter(torch.tensor([[True, False], [True, True]]), torch.tensor([1.0, 2, 3]))",
    "y = torch.zeros(3); y.masked_scatter_(torch.tensor([False, True, True]), torch.tensor([4.0, 5.0])); y",
    *[
        f"torch.full((4,), 10.0).scatter_reduce(0, ix, v, '{r}', include_self={inc})"
        for r in ("sum", "prod", "mean", "amax", "amin")
        for inc in (True, False)
    ],
    *[
        f"torch.full((4,), 10).scatter_reduce(0, ix, torch.tensor([1, 2, 3, 4, 5, 6]), '{r}', include_self={inc})"
        for r in ("sum", "prod", "mean", "amax", "amin")
        for inc in (True, False)
    ],
    "torch.zeros(3).scatter_reduce(0, ix, v, 'max')",
    "torch.zeros(3).scatter_reduce(0, ix, v, 'median')",
    "torch.zeros(3).scatter_reduce(0, ix, v.double(), 'sum')",
    "torch.zeros(2, 3).scatter_reduce(1, torch.tensor([[0, 0], [2, 1]]), torch.tensor([[1.0, 2], [3, 4]]), 'amax', include_self=False)",
    "torch.zeros(3).scatter_reduce(0, torch.tensor([3]), v, 'sum')",
    "torch.zeros(3).scatter_reduce_(0, ix, v, 'sum')",
    "x.scatter_reduce(0, torch.tensor([[0, 1, 2, 0]]), torch.ones(1, 4), 'mean', include_self=False)",
    *[
        f"torch.full((3, 2), 2.0).index_reduce(0, torch.tensor([0, 2, 0]), torch.tensor([[1.0, 2], [3, 4], [5, 6]]), '{r}', include_self={inc})"
        for r in ("prod", "mean", "amax", "amin")
        for inc in (True, False)
    ],
    "torch.full((3, 2), 2.0).index_reduce(0, torch.tensor([0, 2, 0]), torch.ones(3, 2), 'sum')",
    "torch.full((3,), 2).index_reduce(0, torch.tensor([0, 0, 0]), torch.tensor([1, 2, 2]), 'mean')",
    "torch.take_along_dim(s, torch.tensor([[0], [2], [1]]), 1)",
    "torch.take_along_dim(s, torch.tensor([11, 0]))",
    "torch.take_along_dim(s, torch.tensor([[0, 1]]), 1)",
    "torch.take_along_dim(s, torch.tensor([[0], [1]]), 0)",
    "torch.take_along_dim(s, torch.tensor([0, 1]), 1)",
    "torch.take_along_dim(s, torch.tensor([[0.0]]), 1)",
    "s.take_along_dim(torch.tensor([[3], [0], [1]]), dim=-1)",
]

COMBINING = [
    "torch.repeat_interleave(x, 2)",
    "torch.repeat_interleave(x, 2, dim=0)",
    "torch.repeat_interleave(x, torch.tensor([1, 2, 0]), dim=0)",
    "torch.repeat_interleave(x, torch.tensor([1, 2, 0]), dim=0, output_size=3)",
    "torch.repeat_interleave(x, torch.tensor([2]), dim=1)",
    "torch.repeat_interleave(torch.tensor([1, 0, 3]))",
    "torch.repeat_interleave(x, torch.tensor([1, 2]), dim=0)",
    "torch.repeat_interleave(x, torch.tensor([1, -2, 1]), dim=0)",
    "torch.repeat_interleave(x, -1)",
    "torch.repeat_interleave(x, torch.tensor([1.0, 2, 1]), dim=0)",
    "torch.repeat_interleave(x, torch.tensor([[1, 2, 1]]), dim=0)",
    "x.repeat_interleave(2, 1)",
    "torch.tensor(5).repeat_interleave(3)",
    "torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]))",
    "torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_inverse=True, return_counts=True)",
    "torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3], [1, 1]]), return_counts=True, dim=0)",
    "torch.unique_consecutive(torch.tensor([[1, 1, 2], [1, 1, 3]]), return_inverse=True, dim=1)",
    "torch.unique_consecutive(torch.tensor([]))",
    "torch.tensor([[1, 1], [2, 2]]).unique_consecutive(return_inverse=True)",
    "torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5]))",
    "torch.cartesian_prod(torch.tensor([1, 2]))",
    "torch.cartesian_prod(torch.tensor([[1, 2]]))",
    "torch.combinations(torch.tensor([1, 2, 3]))",
    "torch.combinations(torch.tensor([1, 2, 3, 4]), 3)",
    "torch.combinations(torch.tensor([1, 2, 3]), with_replacement=True)",
    "torch.combinations(torch.tensor([1, 2, 3]), 0)",
    "torch.combinations(torch.tensor([1, 2, 3]), 5)",
    "torch.block_diag(torch.ones(2, 2), torch.tensor([5.0, 6]), torch.tensor(7.0), torch.zeros(0, 2))",
    "torch.block_diag(torch.ones(1, 1, dtype=torch.long), torch.tensor([[2.5]]))",
    "torch.block_diag(torch.ones(1, 1, 1))",
    "torch.block_diag()",
    "torch.tril_indices(3, 3), torch.tril_indices(4, 3, 1), torch.tril_indices(3, 4, -1)",
    "torch.triu_indices(3, 3), torch.triu_indices(4, 3, -1), torch.triu_indices(3, 3, 1, dtype=torch.int32)",
    "torch.tril_indices(3, 3, dtype=torch.float32)",
    "torch.tril_indices(0, 3)",
    "torch.diag_embed(torch.tensor([[1.0, 2], [3, 4]]))",
    "torch.diag_embed(torch.tensor([1.0, 2]), offset=1)",
    "torch.diag_embed(torch.tensor([[1.0, 2], [3, 4]]), offset=-1, dim1=0, dim2=2)",
    "torch.diag_embed(torch.tensor([1.0, 2]), dim1=0, dim2=0)",
    "torch.diagflat(torch.tensor([[1, 2], [3, 4]])), torch.diagflat(torch.tensor([1, 2]), -1)",
    "torch.kron(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[0, 1], [1, 0]]))",
    "torch.kron(torch.ones(2), torch.arange(6.0).reshape(2, 3)).shape",
    "torch.kron(torch.tensor([1, 2]), torch.tensor([0.5, 1.0]))",
    "torch.cross(torch.tensor([[1.0, 0, 0], [0, 1, 0]]), torch.tensor([[0.0, 1, 0], [0, 0, 1]]), dim=1)",
    "torch.cross(torch.tensor([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]]), torch.tensor([[0.0, 1, 0], [0, 0, 1], [1, 0, 0]]))",
    "torch.linalg.cross(torch.tensor([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]]), torch.tensor([[0.0, 1, 0], [0, 0, 1], [1, 0, 0]]))",
    "torch.linalg.cross(torch.ones(3, 2), torch.ones(3, 2))",
    "torch.linalg.cross(torch.tensor([1.0, 2, 3]), torch.ones(2, 3))",
    "torch.cross(torch.ones(3, 2), torch.ones(3, 2), dim=1)",
    "torch.cross(torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6]), dim=0)",
    "torch.cross(torch.tensor([1, 2, 3]), torch.tensor([4.0, 5, 6]), dim=0)",
    *[
        f"torch.cdist(torch.tensor([[0.0, 0], [1, 1], [3, 4]]), torch.tensor([[1.0, 0], [0, 2]]), p={p})"
        for p in (0, 1, 2, 3, "float('inf')", 0.5)
    ],
    "torch.cdist(torch.zeros(2, 3, 2), torch.ones(4, 2)).shape",
    "torch.cdist(torch.ones(3, 2), torch.ones(2, 2), compute_mode='use_mm_for_euclid_dist')",
    "torch.cdist(torch.ones(3, 2), torch.ones(2, 2), compute_mode='x')",
    "torch.cdist(torch.ones(3, 2), torch.ones(2, 2), p=-1)",
    "torch.cdist(torch.ones(3, 2), torch.ones(2, 3))",
    "torch.cdist(torch.ones(3), torch.ones(3))",
    "torch.cdist(torch.ones(3, 2, dtype=torch.long), torch.ones(3, 2, dtype=torch.long))",
    "torch.tensor_split(torch.arange(7), 3)",
    "torch.tensor_split(torch.arange(7), [1, 5])",
    "torch.tensor_split(torch.arange(7), torch.tensor([1, 5]))",
    "torch.tensor_split(torch.arange(7), torch.tensor(3))",
    "torch.tensor_split(x, 2, dim=1)",
    "torch.tensor_split(x, 0)",
    "torch.hsplit(x, 2), torch.hsplit(torch.arange(4), 2), torch.hsplit(x, [1])",
    "torch.hsplit(x, 3)",
    "torch.vsplit(x, 3), torch.vsplit(torch.arange(4), 2)",
    "torch.dsplit(torch.arange(8).reshape(1, 2, 4), 2)",
    "torch.dsplit(x, 2)",
    "torch.dstack([torch.tensor([1, 2]), torch.tensor([3, 4])]), torch.dstack([x, x]).shape",
    "torch.column_stack([torch.tensor([1, 2]), torch.tensor([[3], [4]]), torch.tensor([5.0, 6])])",
    "torch.column_stack([torch.tensor(1), torch.tensor(2)])",
    "torch.atleast_1d(torch.tensor(1.0)), torch.atleast_1d(torch.tensor(1.0), torch.ones(2))",
    "torch.atleast_1d([torch.tensor(1.0), torch.ones(2)])",
    "torch.atleast_2d(torch.ones(3)).shape, [t.shape for t in torch.atleast_3d(torch.tensor(1.0), torch.ones(3), torch.ones(2, 3))]",
    "torch.fliplr(x), x.flipud()",
    "torch.fliplr(torch.ones(3))",
    "torch.flipud(torch.tensor(1.0))",
    "torch.msort(torch.tensor([[3, 1], [1, 2], [2, 0]]))",
    "torch.ones(1, 3, 1).squeeze_().shape, torch.ones(1, 3, 1).squeeze_(2).shape, torch.ones(3).unsqueeze_(0).shape",
    "x.clone().transpose_(0, 1), x.clone().t_(), x.clone().swapaxes_(0, 1).shape",
    "x.clone().tril_(), x.clone().triu_(1)",
]

MATH_EXTRAS = [
    "torch.logcumsumexp(x / 4, 1)",
    "torch.logcumsumexp(torch.tensor([-float('inf'), 1.0, float('inf'), 2.0]), 0)",
    "torch.logcumsumexp(torch.tensor([1, 2]), 0)",
    "x.logcumsumexp(0)",
    "torch.nanmedian(torch.tensor([[1.0, float('nan'), 3, 2], [4.0, 1, float('nan'), 0]]), 1)",
    "torch.nanmedian(torch.tensor([4.0, 1, float('nan'), 2])), torch.tensor([float('nan')]).nanmedian()",
    "torch.quantile(x, 0.5), torch.quantile(x, torch.tensor([0.25, 0.5]), dim=1, keepdim=True)",
    *[
        f"torch.quantile(torch.tensor([1.0, 2, 3, 4, 5, 6]), torch.tensor([0.1, 0.3, 0.5, 0.75]), interpolation='{m}')"
        for m in ("linear", "lower", "higher", "midpoint", "nearest")
    ],
    "torch.quantile(torch.tensor([1.0, float('nan')]), 0.5), torch.nanquantile(torch.tensor([1.0, float('nan'), 3]), 0.5)",
    "torch.nanquantile(torch.tensor([[float('nan')] * 2, [1.0, 2]]), 0.5, dim=1)",
    "torch.quantile(x, 1.5)",
    "torch.quantile(torch.tensor([1, 2]), 0.5)",
    "torch.quantile(x, torch.tensor([0.5], dtype=torch.float64))",
    "torch.quantile(x, 0.5, interpolation='x')",
    "torch.quantile(torch.tensor([]), 0.5)",
    "torch.quantile(x, torch.tensor([[0.5]]))",
    "x.quantile(0.3, dim=0, keepdim=True), x.nanquantile(torch.tensor([0.2, 0.9]), dim=None, keepdim=True).shape",
    "torch.dist(x, torch.zeros(4)), torch.dist(x, torch.ones(3, 4), 1), torch.dist(x, torch.ones(3, 4), 0), torch.dist(x, torch.ones(3, 4), float('inf')), torch.dist(x, torch.ones(3, 4), 3)",
    "torch.dist(torch.tensor([1, 2]), torch.tensor([1, 3]))",
    "torch.nextafter(torch.tensor([1.0, 2]), torch.tensor([2.0, 1])) - torch.tensor([1.0, 2])",
    "torch.nextafter(torch.tensor([1.0], dtype=torch.float64), torch.tensor([2.0], dtype=torch.float64)).item()",
    "torch.nextafter(torch.tensor([1]), torch.tensor([2]))",
    "torch.heaviside(torch.tensor([-1.5, 0, 2.0]), torch.tensor([0.5])), torch.heaviside(torch.tensor([-1, 0, 2]), torch.tensor([7]))",
    "torch.heaviside(torch.tensor([-1, 0, 2]), torch.tensor([0.5]))",
    "torch.conj(torch.tensor([1 + 2j])), torch.conj(x) is x",
    "torch.polar(torch.tensor([1.0, 2]), torch.tensor([0.0, 3.14159265 / 2]))",
    "torch.polar(torch.tensor([1, 2]), torch.tensor([0, 1]))",
    "torch.complex(torch.tensor([1.0, 2]), torch.tensor([3.0, 4])), torch.complex(torch.tensor([1.0], dtype=torch.float64), torch.tensor([3.0], dtype=torch.float64))",
    "torch.complex(torch.tensor([1.0]), torch.tensor([3.0], dtype=torch.float64))",
    "torch.complex(torch.tensor([1]), torch.tensor([3]))",
    "torch.tensor([1.0, 0]).logical_not_()",
    "torch.frexp(torch.tensor([8.0, 0.3, -5, 0, float('inf')])), torch.frexp(torch.tensor([8.0], dtype=torch.float64))",
    "torch.frexp(torch.tensor([8]))",
    "torch.tensor([8.0]).frexp()",
    "torch.ldexp(torch.tensor([1.0, 2]), torch.tensor([3, -1])), torch.ldexp(torch.tensor([1, 2]), torch.tensor([3, 1])), torch.ldexp(torch.tensor([1.0], dtype=torch.float64), torch.tensor([3]))",
    "torch.tensor([1.0, 2]).ldexp_(torch.tensor([3, 1])), torch.ldexp(torch.tensor([1.0, 2]), torch.tensor([0.5, 1]))",
    "x.clone().cumsum_(1), (x + 1).cumprod_(0), torch.tensor([1, 2], dtype=torch.int32).cumsum_(0)",
]

LINALG_EXTRAS = [
    "torch.vdot(torch.tensor([1.0, 2]), torch.tensor([3.0, 4])), torch.vdot(torch.tensor([1j, 2]), torch.tensor([3.0, 4j]))",
    "torch.vdot(torch.ones(2, 2), torch.ones(2, 2))",
    "torch.vdot(torch.ones(2), torch.ones(2, dtype=torch.float64))",
    "torch.inner(B, B), torch.inner(torch.tensor(2.0), B)",
    "torch.inner(B, torch.ones(3))",
    "torch.addr(torch.ones(2, 3), torch.tensor([1.0, 2]), torch.tensor([1.0, 2, 3]), beta=0.5, alpha=2)",
    "torch.addr(torch.ones(2, 2, dtype=torch.long), torch.tensor([1, 2]), torch.tensor([1, 2]))",
    "torch.ger(torch.tensor([1.0, 2]), torch.tensor([3.0, 4]))",
    "torch.chain_matmul(A, B, B.t())",
    "torch.linalg.multi_dot([torch.tensor([1.0, 2, 3], dtype=torch.float64), A, B, torch.tensor([1.0, 1], dtype=torch.float64)])",
    "torch.linalg.multi_dot([A])",
    "round(torch.det(A).item(), 9), torch.logdet(A), torch.logdet(-A), torch.logdet(S), torch.slogdet(A)",
    "torch.inverse(A), torch.cholesky(A), torch.cholesky(A, upper=True)",
    "torch.cholesky_solve(B, torch.linalg.cholesky(A)), torch.cholesky_solve(B, torch.linalg.cholesky(A).mT, upper=True)",
    "torch.cholesky_inverse(torch.linalg.cholesky(A))",
    "torch.qr(B), [t.shape for t in torch.qr(B, some=False)]",
    "torch.svd(B).S, [t.shape for t in torch.svd(B, some=False)], torch.svd(B, compute_uv=False)",
    "torch.pinverse(B)",
    "torch.matrix_power(A, 3), torch.matrix_power(A, 0), torch.matrix_power(A, -2)",
    "torch.matrix_power(torch.tensor([[1, 1], [0, 1]]), 5)",
    "torch.matrix_power(B, 2)",
    "torch.matrix_exp(A / 4), torch.linalg.matrix_exp(A * 3)",
    "torch.linalg.lu(A), torch.linalg.lu(B)",
    "torch.linalg.lu_factor(A)",
    "torch.lu(A, get_infos=True)",
    "torch.triangular_solve(B, torch.triu(A)), torch.triangular_solve(B, torch.tril(A), upper=False, transpose=True, unitriangular=True)",
    "torch.linalg.solve_triangular(torch.triu(A), B, upper=True), torch.linalg.solve_triangular(torch.tril(A), B.t(), upper=False, left=False, unitriangular=True)",
    "torch.linalg.inv_ex(A), torch.linalg.inv_ex(S).info",
    "torch.linalg.solve_ex(A, B)",
    "torch.linalg.cholesky_ex(A), torch.linalg.cholesky_ex(torch.tensor([[1.0, 2], [2, 1]])).info",
    "torch.linalg.cholesky_ex(torch.tensor([[1.0, 2], [2, 1]]), check_errors=True)",
    "torch.linalg.eig(torch.tensor([[2.0, 1], [1, 2]]))",
    "torch.linalg.eig(torch.tensor([[0.0, 1], [-1, 0]]))",
    "torch.linalg.tensorinv(torch.eye(4).reshape(4, 2, 2), ind=1).shape",
    "torch.linalg.tensorsolve(torch.eye(6).reshape(2, 3, 6), torch.arange(6.0).reshape(2, 3))",
    "h = torch.linalg.householder_product(torch.tensor([[1.0, 0], [0.5, 1], [0.25, 0.5]], dtype=torch.float64), torch.tensor([1.2, 0.8], dtype=torch.float64)); h.stride(), torch.allclose(h, torch.tensor([[-0.2, 0], [-0.6, 0.2], [-0.3, -0.4]], dtype=torch.float64))",
    "torch.linalg.vander(torch.tensor([1, 2, 3])), torch.linalg.vander(torch.tensor([1.0, 2]), N=4)",
    "torch.linalg.vecdot(B, B), torch.linalg.vecdot(B, B, dim=0)",
    "torch.linalg.diagonal(torch.arange(8.0).reshape(2, 2, 2))",
    "torch.linalg.cond(A), torch.linalg.cond(A, 'fro'), torch.linalg.cond(A, 1), torch.linalg.cond(A, -2), torch.linalg.cond(A, float('inf')), torch.linalg.cond(A, 'nuc')",
    "torch.linalg.cond(B)",
    "torch.linalg.matmul(A, B), torch.linalg.matrix_power(A, 2)",
    "torch.ones(2, 2).addmm_(torch.ones(2, 3), torch.ones(3, 2), beta=2), torch.ones(2).addmv_(torch.ones(2, 3), torch.ones(3))",
    "torch.ones(1, 2, 2).baddbmm_(torch.ones(1, 2, 3), torch.ones(1, 3, 2)), torch.ones(2, 2).addbmm_(torch.ones(2, 2, 3), torch.ones(2, 3, 2)), torch.ones(2, 2).addr_(torch.ones(2), torch.ones(2))",
]

# issue 4's named items whose semantics were compared with PyTorch 2.13 and fixed
SEMANTICS = [
    "torch.unique(torch.tensor([1.0, float('nan'), 1.0, float('nan')]))",
    "torch.unique(torch.tensor([3, 1, 2, 3, 1, 5, 2, 2]), return_inverse=True, return_counts=True)",
    "torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0, return_inverse=True, return_counts=True)",
    "torch.searchsorted(torch.tensor([9, 1, 5, 3, 7]), torch.tensor([3, 6, 9]), sorter=torch.tensor([1, 3, 2, 4, 0]))",
    "torch.searchsorted(torch.tensor([1, 3, 5, 7, 9]), torch.tensor([3, 6, 9]), side='right'), torch.searchsorted(torch.tensor([1, 3, 5, 7, 9]), torch.tensor([3, 6, 9]), right=True)",
    "torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3, 4]]))",
    "torch.searchsorted(torch.tensor([1, 3]), torch.tensor([2]), side='middle')",
    "torch.bucketize(torch.tensor([[1, 6], [9, 3]]), torch.tensor([1, 3, 5, 7, 9]), right=True)",
    "torch.histc(torch.tensor([1.0, 2, 1, 4, 2.5]), bins=4, min=0, max=3), torch.histc(torch.tensor([1.0, 2, 1, 4, 2.5]), bins=4)",
    "torch.histc(torch.tensor([1, 2, 1]), bins=4)",
    "torch.histc(torch.tensor([1.0, 2]), bins=0)",
    "torch.histc(torch.tensor([1.0, 2]), bins=3, min=3, max=1)",
    "torch.bincount(torch.tensor([0, 1, 1, 3]), weights=torch.tensor([1, 2, 3, 4])), torch.bincount(torch.tensor([0, 1]), minlength=5)",
    "torch.bincount(torch.tensor([], dtype=torch.long))",
    "torch.bincount(torch.tensor([1.0]))",
    "torch.bincount(torch.tensor([1]), minlength=-1)",
    "torch.bincount(torch.tensor([1, 2]), weights=torch.tensor([1.0]))",
    "torch.median(torch.tensor([[1.0, 3, 3, 2], [5, 5, 1, 1]]), 1), torch.mode(torch.tensor([1, 2, 2, 1, 3]))",
    "torch.kthvalue(torch.tensor([3.0, 1, 3, 1, 2]), 2), torch.kthvalue(torch.tensor([[1.0, 3, 3, 2], [5, 5, 1, 1]]), 2, 1)",
    "torch.nanmean(torch.tensor([1, 2]))",
    "torch.round(torch.tensor([123]), decimals=-1)",
    "torch.round(torch.tensor([1.2345, -2.5, 0.125, 12345.0]), decimals=2), torch.round(torch.tensor([1234.5, 1250.0]), decimals=-2)",
    "torch.abs(torch.tensor([3 + 4j, -1 - 1j])), torch.tensor([3 + 4j]).abs().dtype",
    "torch.tensor([3 + 4j]).abs_()",
    "y = torch.ones(2); a = y._version; y.add_(1); y[0] = 3; a, y._version, type(y._version).__name__, y[1:]._version",
    "torch.zeros(0, dtype=torch.long), torch.zeros(2, 0, dtype=torch.bool), torch.zeros(0, dtype=torch.int32)",
    "torch.linalg.inv(torch.stack([torch.eye(2), torch.zeros(2, 2)]))",
    "torch.linalg.inv(torch.tensor([[1.0, 0, 0], [0, 1, 0], [0, 0, 0]]))",
    "torch.linalg.cholesky(torch.stack([torch.eye(2), -torch.eye(2)]))",
    "torch.linalg.solve(torch.tensor([[1.0, 2], [2, 4]]), torch.ones(2))",
    "torch.linalg.solve(torch.eye(3), torch.ones(4, 2))",
    "torch.linalg.solve(torch.eye(3), torch.ones(4))",
    "torch.linalg.solve(torch.eye(3, dtype=torch.float64), torch.ones(3, 2))",
    "torch.linalg.qr(B, mode='r')",
    "torch.linalg.qr(B, mode='x')",
    "torch.linalg.qr(torch.ones(2, 2, dtype=torch.long))",
    "torch.linalg.eigh(torch.eye(2), UPLO='x')",
    "torch.linalg.eigh(torch.tensor([[1.0, 5], [0, 2]]), UPLO='U').eigenvalues",
    *[
        f"torch.linalg.lstsq(B, torch.tensor([[1.0], [2], [4]], dtype=torch.float64), driver={d!r})"
        for d in (None, "gelsy", "gelsd", "gelss", "gels", "x")
    ],
    "torch.linalg.lstsq(B.expand(2, 3, 2), torch.tensor([[1.0], [2], [4]], dtype=torch.float64).expand(2, 3, 1), driver='gelsd')",
    "torch.linalg.lstsq(B, torch.ones(3, 1))",
    "torch.linalg.lstsq(B, torch.ones(2, 1, dtype=torch.float64))",
    "torch.linalg.lstsq(B, torch.ones(3, dtype=torch.float64))",
    "torch.linalg.pinv(torch.diag(torch.tensor([1.0, 1e-3])), rtol=1e-2), torch.linalg.pinv(torch.diag(torch.tensor([1.0, 1e-3])), atol=1e-2)",
    "torch.linalg.pinv(torch.diag(torch.tensor([1.0, 1e-1])), atol=1e-2, rtol=0.5)",
    "torch.linalg.pinv(torch.tensor([[2.0, 1], [1, 2]]), hermitian=True), torch.linalg.pinv(torch.diag(torch.tensor([1.0, -1e-3])), hermitian=True, atol=1e-2)",
    "torch.linalg.matrix_rank(S), torch.linalg.matrix_rank(torch.diag(torch.tensor([1.0, 1e-3])), tol=1e-2), torch.linalg.matrix_rank(torch.diag(torch.tensor([1.0, 1e-3])), atol=1e-2), torch.linalg.matrix_rank(torch.diag(torch.tensor([1.0, 1e-3])), rtol=1e-2)",
    "torch.linalg.matrix_rank(torch.diag(torch.tensor([1.0, -1e-3])), hermitian=True, atol=1e-2), torch.linalg.matrix_rank(torch.stack([torch.eye(3), torch.zeros(3, 3)])), torch.linalg.matrix_rank(torch.diag(torch.tensor([1.0, 1e-3])), atol=torch.tensor(1e-2))",
    "torch.linalg.norm(torch.ones(2, 2, 2), 'fro')",
    "torch.linalg.norm(torch.ones(2, 2, 2), 2)",
    "torch.linalg.norm(torch.ones(2), 'nuc')",
    "torch.linalg.norm(torch.ones(2, 2, 2), dim=(0, 1, 2))",
    "torch.linalg.matrix_norm(torch.ones(2, 2, dtype=torch.long))",
    "torch.linalg.matrix_norm(torch.ones(2))",
    "torch.ones(3) @ torch.ones(4)",
    "torch.ones(3) @ torch.ones(4, 2)",
    "torch.ones(2, 3) @ torch.ones(4)",
    "torch.ones(2, 2, 3) @ torch.ones(3, 4, 2)",
    "torch.ones(2, 2, 3) @ torch.ones(2, 4, 2)",
    "torch.ones(2, 2, 3) @ torch.ones(4, 2)",
    "torch.ones(3) @ torch.ones(2, 4, 2)",
    "torch.mm(torch.ones(2, 3), torch.ones(4, 5))",
    "torch.mv(torch.ones(2, 3), torch.ones(4))",
    "torch.tensor([[1, 2]]) @ torch.tensor([[3.0], [4]])",
]

GROUPS = {
    "index_ops": INDEX_OPS,
    "combining": COMBINING,
    "math_extras": MATH_EXTRAS,
    "linalg_extras": LINALG_EXTRAS,
    "semantics": SEMANTICS,
}

NUMERIC = [
    "torch.diff(x), torch.diff(x, n=2, dim=1), torch.diff(x, dim=0, prepend=torch.zeros(1, 4), append=torch.ones(2, 4))",
    "torch.diff(torch.tensor([True, False, False, True])), torch.tensor([1, 5, 2]).diff(), torch.diff(x, n=0)",
    "torch.diff(torch.tensor(1.0))",
    "torch.diff(x, prepend=torch.tensor([1.0]))",
    "torch.gradient(x), torch.gradient(x, dim=1), torch.gradient(x, spacing=2.0, dim=1), torch.gradient(x, spacing=[2.0, 0.5])",
    "torch.gradient(x, spacing=(torch.tensor([0.0, 1, 3, 7]),), dim=1), torch.gradient(x, dim=1, edge_order=2)",
    "torch.gradient(x, spacing=(torch.tensor([0.0, 1, 3, 7]),), dim=1, edge_order=2), torch.gradient(torch.tensor([1, 4, 9]))",
    "torch.gradient(torch.tensor([1.0]))",
    "torch.gradient(x, edge_order=3)",
    "torch.cov(x), torch.cov(x, correction=0), torch.cov(torch.tensor([1.0, 2, 4])), torch.cov(torch.tensor([[1, 2, 4], [1, 0, 1]]))",
    "torch.cov(x, fweights=torch.tensor([1, 2, 1, 1]), aweights=torch.tensor([0.5, 1, 1, 2]))",
    "torch.corrcoef(x), torch.corrcoef(torch.tensor([1.0, 2, 4]))",
    "torch.vander(torch.tensor([1, 2, 3])), torch.vander(torch.tensor([1.0, 2]), N=4, increasing=True)",
    "torch.trapezoid(x), torch.trapezoid(x, dx=0.5, dim=0), torch.trapezoid(x, torch.tensor([0.0, 1, 3, 7])), torch.trapezoid(torch.tensor([1, 2, 4]))",
    "torch.trapz(x, torch.tensor([0.0, 1, 3, 7])), torch.trapz(x, dx=2.0)",
    "torch.cumulative_trapezoid(x), torch.cumulative_trapezoid(x, torch.tensor([0.0, 1, 3, 7]))",
    "torch.histogram(torch.tensor([1.0, 2, 1, 4, 2.5]), bins=4), torch.histogram(torch.tensor([1.0, 2, 1, 4, 2.5]), bins=3, range=(0.0, 3.0), density=True)",
    "torch.histogram(torch.tensor([1.0, 2, 1, 4, 2.5]), bins=torch.tensor([0.0, 1.5, 5]), weight=torch.tensor([1.0, 2, 3, 4, 5]))",
    "torch.histogram(torch.tensor([1, 2]), bins=2)",
    "torch.renorm(x, 2, 0, 5), x.renorm(1, 1, 6)",
    "torch.zeros(3, 4).fill_diagonal_(5), torch.zeros(7, 3).fill_diagonal_(5, wrap=True), torch.zeros(7, 3).fill_diagonal_(5), torch.zeros(2, 2, 2).fill_diagonal_(1)",
    "torch.zeros(2, 2, 3).fill_diagonal_(1)",
    "torch.put(x, torch.tensor([0, 5]), torch.tensor([9.0, 8])), x.put(torch.tensor([0, 0]), torch.tensor([9.0, 8]), accumulate=True), x.clone().put_(torch.tensor([-1]), torch.tensor([7.0]))",
    "x.put(torch.tensor([12]), torch.tensor([7.0]))",
    "torch.slice_scatter(torch.zeros(4, 4), torch.ones(2, 4), 0, 1, 3), torch.zeros(4, 4).slice_scatter(torch.ones(4, 2), dim=1, start=0, step=2)",
    "torch.select_scatter(torch.zeros(2, 3), torch.ones(3), 0, 1), torch.diagonal_scatter(torch.zeros(3, 3), torch.ones(2), 1), torch.as_strided_scatter(torch.zeros(6), torch.ones(2, 2), (2, 2), (3, 1))",
    "torch.gcd(torch.tensor([12, -8, 0]), torch.tensor([18, 12, 5])), torch.lcm(torch.tensor([4, -6, 0]), torch.tensor([6, 4, 5])), torch.tensor([12]).gcd_(torch.tensor([8]))",
    "torch.gcd(torch.tensor([1.0]), torch.tensor([2.0]))",
    "torch.sinc(torch.tensor([0.0, 0.5, 1, -1.5])), torch.sinc(torch.tensor([0, 1]))",
    "torch.i0(torch.tensor([0.0, 1, -2, 10, 50])), torch.i0(torch.tensor([1]))",
]

CONVENIENCES = [
    "torch.tensor([1.5, 2]).type_as(torch.tensor([1])), x.reshape_as(torch.zeros(6, 2)), x.new_empty_strided((2, 3), (1, 2)).stride(), x.ndimension()",
    "torch.ravel(x.t()), x.mH, x.H, torch.adjoint(x), torch.narrow_copy(x, 1, 1, 2)",
    "torch.split_with_sizes(x, [1, 3], 1), torch.unsafe_split(x, 2, 1), x.unsafe_chunk(2, 1)",
    "torch.split_with_sizes(x, [1, 2], 1)",
    "x.sum_to_size(1, 4), x.sum_to_size((3, 1))",
    "x.sum_to_size(2, 4)",
    "x.new(2, 3).shape, x.new([1, 2]), x.new().shape",
    "torch.conj_physical(torch.tensor([1 + 1j])), torch.resolve_conj(x) is x, x.resolve_neg() is x, x.is_neg()",
    "torch.sigmoid_(torch.tensor([0.0])), torch.clamp_(torch.tensor([5.0]), max=1), torch.sqrt_(torch.tensor([4.0]))",
    "torch.nonzero_static(torch.tensor([[0, 1], [2, 0]]), size=4), torch.nonzero_static(torch.tensor([[0, 1], [2, 0]]), size=1, fill_value=9)",
    "torch.tensor([1]).is_signed(), torch.tensor([1], dtype=torch.uint8).is_signed(), torch.tensor([True]).is_signed(), torch.tensor([1j]).is_signed(), x.is_cpu",
    "y = torch.arange(6.0); y.as_strided_((2, 2), (1, 2)); y, torch.unsafe_split_with_sizes(torch.arange(5), [2, 3])",
]

SPECIAL = [
    *[
        f"torch.special.{name}(torch.tensor([-5.0, -1, -0.5, 0, 0.25, 1, 3, 10, 40], dtype=torch.float64))"
        for name in (
            "i0",
            "i0e",
            "i1",
            "i1e",
            "ndtr",
            "log_ndtr",
            "erfcx",
            "expit",
            "exp2",
            "expm1",
            "erf",
            "erfc",
            "sinc",
            "entr",
            "gammaln",
            "digamma",
            "psi",
            "log1p",
            "round",
            "spherical_bessel_j0",
        )
    ],
    "torch.special.log_ndtr(torch.tensor([-30.0], dtype=torch.float64)), torch.special.erfcx(torch.tensor([-30.0], dtype=torch.float64))",
    "torch.special.ndtri(torch.tensor([1e-10, 0.01, 0.3, 0.5, 0.9, 0.999999], dtype=torch.float64))",
    "torch.special.logit(torch.tensor([0.01, 0.3, 0.9]), eps=0.1), torch.special.xlogy(torch.tensor([0.0, 2.0]), 2.0)",
    "torch.special.xlog1py(torch.tensor([0.0, 1, 2]), torch.tensor([float('nan'), 0.5, -0.5])), torch.special.xlog1py(torch.tensor([0.0, 0]), torch.tensor([-1.0, 3]))",
    "torch.special.multigammaln(torch.tensor([2.5, 3.0]), 3), torch.mvlgamma(torch.tensor([2.5, 3.0]), 2)",
    "torch.mvlgamma(torch.tensor([0.5]), 3)",
    *[
        f"torch.special.polygamma({n}, torch.tensor([0.5, 1, 2.5, 10, -1.5], dtype=torch.float64))"
        for n in range(4)
    ],
    "torch.polygamma(2, torch.tensor([1.5])), torch.tensor([1.5]).polygamma(1)",
    "torch.special.zeta(torch.tensor([2.0, 3, 4.5, 1, 0.5]), torch.tensor([1.0, 2, 0.5, 1, 1])), torch.special.zeta(torch.tensor([2.0], dtype=torch.float64), 3.0)",
    "torch.special.gammainc(torch.tensor([0.5, 1, 3, 10, 10], dtype=torch.float64), torch.tensor([0.2, 1, 5, 3, 30], dtype=torch.float64))",
    "torch.special.gammaincc(torch.tensor([0.5, 1, 3, 10, 10], dtype=torch.float64), torch.tensor([0.2, 1, 5, 3, 30], dtype=torch.float64))",
    "torch.igamma(torch.tensor([2.0]), torch.tensor([1.0])), torch.tensor([2.0]).igammac(torch.tensor([1.0]))",
    "torch.special.softmax(torch.tensor([1.0, 2, 3]), 0), torch.special.log_softmax(torch.tensor([1.0, 2, 3]), 0), torch.special.logsumexp(torch.tensor([1.0, 2, 3]), 0)",
    "torch.special.i0(torch.tensor([0.0, 1, 100])), torch.special.i0e(torch.tensor([1, 2]))",
    "torch.special.chebyshev_polynomial_t(torch.tensor([0.5, -0.3, 2.0]), 3), torch.special.chebyshev_polynomial_t(torch.tensor([0.5]), torch.tensor([0, 1, 2, 5]))",
    "torch.special.chebyshev_polynomial_u(torch.tensor([0.5, -0.3, 2.0]), 3), torch.special.hermite_polynomial_h(torch.tensor([0.5, -0.3, 2.0]), 3), torch.special.hermite_polynomial_he(torch.tensor([0.5, -0.3, 2.0]), 3)",
    "torch.special.legendre_polynomial_p(torch.tensor([0.5, -0.3, 2.0]), 3), torch.special.laguerre_polynomial_l(torch.tensor([0.5, -0.3, 2.0]), 3), torch.special.legendre_polynomial_p(torch.tensor([0.5]), -1)",
]

GROUPS["numeric"] = NUMERIC
GROUPS["conveniences"] = CONVENIENCES
GROUPS["special"] = SPECIAL

NN_ALIASES = [
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); b = torch.tensor([[1.0, 0, 3], [2, 5, 1], [0, 1, 1]]); torch.cosine_similarity(a, b), torch.cosine_similarity(a, b, 0, 1e-3), torch.cosine_similarity(torch.zeros(1, 3), b[:1]), torch.cosine_similarity(a, b[0], dim=-1)",
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); b = torch.tensor([[1.0, 0, 3], [2, 5, 1], [0, 1, 1]]); torch.pairwise_distance(a, b), torch.pairwise_distance(a, b, 1, 1e-6, True), torch.pairwise_distance(a, b, float('inf'))",
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); torch.pdist(a), torch.pdist(a, 1)",
    "torch.pdist(torch.ones(3))",
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); b = torch.tensor([[1.0, 0, 3], [2, 5, 1], [0, 1, 1]]); t = torch.tensor([1.0, -1, 1]); torch.margin_ranking_loss(a[:, 0], b[:, 0], t, 0.5, 1), torch.margin_ranking_loss(a[:, 0], b[:, 0], t, 0.0, 0), torch.margin_ranking_loss(a[:, 0], b[:, 0], t, 0.0, 2)",
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); b = torch.tensor([[1.0, 0, 3], [2, 5, 1], [0, 1, 1]]); t = torch.tensor([1.0, -1, 1]); torch.hinge_embedding_loss(a, torch.tensor([[1.0, -1, 1]] * 3), 2.0, 1), torch.cosine_embedding_loss(a, b, t, 0.1, 1), torch.cosine_embedding_loss(a, b, t, 0.1, 0)",
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); b = torch.tensor([[1.0, 0, 3], [2, 5, 1], [0, 1, 1]]); torch.poisson_nll_loss(a, b, True, False, 1e-8, 1), torch.poisson_nll_loss(a + 0.5, b, False, True, 1e-8, 0)",
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); b = torch.tensor([[1.0, 0, 3], [2, 5, 1], [0, 1, 1]]); torch.triplet_margin_loss(a, b, b.flip(0), 1.0, 2.0, 1e-6, False, 1), torch.triplet_margin_loss(a, b, b.flip(0), 1.0, 1.0, 1e-6, True, 0)",
    "torch.hardshrink(torch.tensor([-1.0, 0.3, 0.6]), 0.5), torch.tensor([-1.0, 0.3]).hardshrink(), torch.tensor([-1.0, 2]).relu_(), torch.tensor([[-1.0, 2]]).prelu(torch.tensor([0.25]))",
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); torch.native_layer_norm(a, [3], torch.ones(3), torch.zeros(3), 1e-5)",
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); rm = torch.zeros(3); rv = torch.ones(3); r = torch.native_batch_norm(a, torch.ones(3), torch.zeros(3), rm, rv, True, 0.1, 1e-5); r, rm, rv",
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); torch.native_batch_norm(a, None, None, torch.zeros(3), torch.ones(3), False, 0.1, 1e-5)",
    "a = torch.tensor([[1.0, 2, 3], [4, 5, 6], [0, 1, 0]]); o = torch.empty(0); torch.softmax(a, 1, out=o); p = torch.empty(0); torch.log_softmax(a, 0, out=p); q = torch.empty(0); torch.threshold(a, 2.0, -1.0, out=q); o, p, q",
    "torch.relu(torch.ones(2), out=torch.empty(0))",
    "torch.max_pool1d_with_indices(torch.tensor([[[1.0, 3, 2, 5, 4]]]), 2), torch.feature_alpha_dropout(torch.ones(2, 3), 0.5, False), torch.rrelu(torch.tensor([-1.0, 2]), 0.1, 0.3, False)",
    "torch.manual_seed(0); torch.rrelu(torch.tensor([-1.0, 2, -3, -0.5]), 0.1, 0.3, True)",
    "torch.grid_sampler(torch.arange(16.0).reshape(1, 1, 4, 4), torch.tensor([[[[0.0, 0.0], [0.5, -0.5]]]]), 0, 0, False), torch.affine_grid_generator(torch.tensor([[[1.0, 0, 0], [0, 1, 0]]]), [1, 1, 2, 2], False)",
]

NN_ALIASES += [
    *[
        f"torch.embedding_bag(torch.arange(12.0).reshape(4, 3), torch.tensor([0, 2, 1, 3, 3]), torch.tensor([0, 2]), False, {mode})"
        for mode in (0, 1, 2)
    ],
    "torch.embedding_bag(torch.arange(12.0).reshape(4, 3), torch.tensor([0, 2, 1, 3, 3]), torch.tensor([0, 2]), False, 0, False, torch.tensor([1.0, 2, 3, 4, 5]))",
    "torch.embedding_bag(torch.arange(12.0).reshape(4, 3), torch.tensor([0, 2, 1, 3, 3]), torch.tensor([0, 2, 5]), False, 1, False, None, True)",
    "torch.embedding_bag(torch.arange(12.0).reshape(4, 3), torch.tensor([0, 2, 1, 3, 3]), torch.tensor([0, 2]), False, 2, False, None, False, 3)",
    "torch.embedding_bag(-torch.arange(12.0).reshape(4, 3), torch.tensor([0, 2, 1, 3, 3]), torch.tensor([0, 2, 2]), False, 2)",
    "torch.embedding_bag(torch.ones(2, 2), torch.tensor([0]), None)",
]

GROUPS["nn_aliases"] = NN_ALIASES

# integer and bool dtype rules of pointwise ops and reductions, compared with PyTorch 2.13
DTYPE_RULES = [
    "torch.pow(torch.tensor([0, 1, -1, 2, -2, 3]), torch.tensor([-1, -2, -1, -1, -2, 2]))",
    "torch.pow(torch.tensor([2, 3]), -1)",
    "torch.tensor([1, 2], dtype=torch.int32) << torch.tensor([-1, 70], dtype=torch.int32), torch.tensor([8, -8]) >> torch.tensor([-1, 70])",
    "torch.tensor([True]) << torch.tensor([True])",
    "torch.abs(torch.tensor([True]))",
    "torch.floor(torch.tensor([True]))",
    "torch.ceil(torch.tensor([True]))",
    "torch.round(torch.tensor([True]))",
    "torch.trunc(torch.tensor([True]))",
    "torch.sign(torch.tensor([True, False])), torch.sgn(torch.tensor([True, False])), torch.square(torch.tensor([True, False]))",
    "torch.argmax(torch.tensor([True, False]))",
    "torch.argmin(torch.tensor([True, False]), 0)",
    "torch.median(torch.tensor([True, False]))",
    "torch.nanmedian(torch.tensor([True, False]), 0)",
    "torch.floor_divide(torch.tensor([True]), torch.tensor([True]))",
    "torch.remainder(torch.tensor([True]), torch.tensor([True]))",
    "torch.fmod(torch.tensor([True]), torch.tensor([True]))",
    "torch.pow(torch.tensor([True]), torch.tensor([True]))",
    "torch.bitwise_and(torch.tensor([True, False]), torch.tensor([True, True])), torch.floor_divide(torch.tensor([True]), 2), torch.remainder(torch.tensor([True, False]), 2.5)",
]

GROUPS["dtype_rules"] = DTYPE_RULES

# shape, selection and product ops' errors and dtypes, compared with PyTorch 2.13
SELECTION_FIXES = [
    "torch.norm(torch.eye(3) * 2, 'nuc'), torch.norm(torch.ones(2, 3, 3), 'nuc', dim=(1, 2))",
    "torch.ones(3).scatter(0, torch.tensor([0, 0]), 2.0, reduce='multiply'), torch.zeros(3, dtype=torch.long).scatter(0, torch.tensor([0, 0]), torch.tensor([2, 3]), reduce='add')",
    "torch.zeros(3).scatter(0, torch.tensor([0, 0]), torch.tensor([2.0, 3]), reduce='multiply')",
    "torch.ones(3).scatter(0, torch.tensor([0]), 2.0, reduce='x')",
    "torch.zeros(3).scatter_add(0, torch.tensor([1]), torch.tensor([1.0], dtype=torch.float64))",
    "torch.zeros(3).scatter(0, torch.tensor([1]), torch.tensor([1.0], dtype=torch.float64))",
    "x.index_select(0, torch.tensor([3]))",
    "x.index_select(0, torch.tensor([-1]))",
    "torch.addmm(torch.ones(3), torch.ones(3, 2), torch.ones(2, 2))",
    "torch.addmm(torch.ones(2, 2, dtype=torch.long), torch.ones(2, 3, dtype=torch.long), torch.ones(3, 2, dtype=torch.long), beta=1.5, alpha=2.7)",
    "torch.bmm(torch.ones(1, 2, 2), torch.ones(1, 2, 2, dtype=torch.float64))",
    "torch.dot(torch.ones(2), torch.ones(2, dtype=torch.long))",
    "torch.lerp(torch.zeros(2, dtype=torch.long), torch.ones(2, dtype=torch.long), 0.5)",
    "torch.lerp(torch.zeros(2, dtype=torch.long), torch.ones(2, dtype=torch.long), torch.tensor([1, 1]))",
    "torch.lerp(torch.zeros(2, dtype=torch.long), torch.ones(2, dtype=torch.long), torch.tensor([0.5, 0.5]))",
]

GROUPS["selection_fixes"] = SELECTION_FIXES

# out= and in-place forms of the pointwise ops (empty out tensors are resized)
OUT_AND_INPLACE = [
    "o = torch.empty(0); torch.exp(torch.tensor([0.0, 1.0]), out=o); p = torch.empty(0, dtype=torch.long); torch.abs(torch.tensor([-3, 2]), out=p); o, p",
    "o = torch.empty(2); torch.sin(torch.tensor([0.0, 1.0, 2.0]), out=o); o",
    "o = torch.empty(0); torch.clamp(torch.tensor([0.3, -0.7, 1.5]), -0.5, 0.5, out=o); o",
    "o = torch.empty(0, dtype=torch.float64); torch.add(torch.tensor([1.0]), torch.tensor([2.0]), out=o); o",
    "torch.exp2(torch.tensor([1, 2]), out=torch.empty(0, dtype=torch.long))",
    "torch.xlogy(torch.tensor([1, 2]), torch.tensor([1, 2]), out=torch.empty(0, dtype=torch.long))",
    "torch.sinc(torch.tensor([1, 2]), out=torch.empty(0, dtype=torch.long))",
    "torch.tensor([1, 2]).sinc_()",
    "torch.hypot(torch.tensor([3, 4]), torch.tensor([4, 3]))",
    "torch.float_power(torch.tensor([2.0]), 2, out=torch.empty(0))",
    "o = torch.empty(0, dtype=torch.float64); torch.float_power(torch.tensor([2.0]), 2, out=o); o",
]

OUT_AND_INPLACE += [
    "torch.linalg.det(torch.tensor([[1.0, 2], [2, 4]])), torch.linalg.slogdet(torch.tensor([[1.0, 2], [2, 4]])), torch.linalg.det(A), torch.det(torch.tensor([[3.0, 8], [4, 6]])), torch.linalg.det(torch.zeros(0, 0))",
    "torch.linalg.det(torch.arange(8.0).reshape(2, 2, 2)), torch.linalg.det(torch.eye(3, dtype=torch.float64) * 2)",
]

GROUPS["out_and_inplace"] = OUT_AND_INPLACE

# more of PyTorch's torch.* namespace (torch._ops.sorting, index_ops, constructors, norms, lu,
# view_copies, removed, ...; the group keeps its recorded name)
API_EXTRAS = [
    "torch.isin(torch.tensor([[1, 2, 3], [4, 2, 6]]), torch.tensor([2, 6])), torch.isin(torch.tensor([1, 2]), 2), torch.isin(2, torch.tensor([1, 2])), torch.isin(torch.tensor([1, 2]), torch.tensor([2]), invert=True)",
    "torch.isin(torch.tensor([1.0, float('nan')]), torch.tensor([float('nan'), 1.0]))",
    "torch.unravel_index(torch.tensor([4, 1, 5]), (2, 3)), torch.unravel_index(torch.tensor(4), (2, 3)), torch.unravel_index(torch.tensor([6, -1]), (2, 3))",
    "torch.unravel_index(torch.tensor([1.0]), (2, 3))",
    "torch.row_stack([torch.tensor([1, 2]), torch.tensor([3, 4])]), torch.asarray([1, 2.5]), torch.asarray([1, 2], dtype=torch.float64)",
    "t = torch.ones(2); torch.asarray(t) is t, torch.asarray(t, copy=True) is t",
    "torch.rsub(torch.tensor([1.0, 2]), 5, alpha=2), torch.rsub(torch.tensor([1.0, 2]), torch.tensor([3.0, 3])), torch.scalar_tensor(3), torch.scalar_tensor(3, dtype=torch.int64)",
    "torch.frobenius_norm(torch.tensor([[3.0, 4], [0, 0]]), dim=(1,)), torch.nuclear_norm(torch.tensor([[3.0, 4], [0, 0]])), torch.nuclear_norm(torch.ones(2, 2, 2), dim=(1, 2), keepdim=True).shape",
    "torch.view_copy(torch.arange(6), (2, 3)), torch.t_copy(torch.arange(6).reshape(2, 3)).stride(), torch.transpose_copy(torch.arange(6).reshape(2, 3), 0, 1).stride(), torch.diagonal_copy(torch.arange(9).reshape(3, 3)), torch.expand_copy(torch.tensor([1, 2]), (2, 2)).stride()",
    "torch.detach(torch.ones(1, requires_grad=True)).requires_grad, torch.fill_(torch.zeros(2), 3), torch.clamp_min_(torch.tensor([1.0, -1]), 0), torch.xlogy_(torch.tensor([1.0, 2]), 2), torch.index_put_(torch.zeros(3), (torch.tensor([1]),), torch.tensor(2.0))",
    "torch.rms_norm(torch.tensor([[1.0, 2, 3]]), [3]), torch.rms_norm(torch.tensor([[1.0, 2, 3]]), [3], torch.tensor([1.0, 0.5, 2]), 1e-3)",
    "LU, piv = torch.linalg.lu_factor(torch.tensor([[4.0, 1, 2], [1, 3, 0], [2, 0, 5]])); torch.lu_solve(torch.ones(3, 1), LU, piv), torch.lu_unpack(LU, piv), torch.linalg.lu_solve(LU, piv, torch.ones(3, 2))",
    "torch.matrix_rank(torch.eye(2))",
    "torch.eig(torch.eye(2))",
    "torch.solve(torch.eye(2), torch.eye(2))",
    "torch.symeig(torch.eye(2))",
    "torch.lstsq(torch.eye(2), torch.eye(2))",
]

API_EXTRAS += [
    "torch.linalg.lu_factor_ex(torch.tensor([[1.0, 2], [2, 4]])), torch.linalg.lu_factor_ex(torch.tensor([[4.0, 1], [1, 3]]))",
    "torch.special.modified_bessel_i0(torch.tensor([0.0, 1, 2])), torch.special.modified_bessel_i1(torch.tensor([0.0, 1, -2]))",
    "x = torch.tensor([0.2, 0.7]); torch.special.shifted_chebyshev_polynomial_t(x, 3), torch.special.shifted_chebyshev_polynomial_u(x, 3), torch.special.shifted_chebyshev_polynomial_v(x, 3), torch.special.shifted_chebyshev_polynomial_w(x, 3)",
]

GROUPS["api_extras"] = API_EXTRAS

# gradients of the new ops where PyTorch has conventions of its own (ties, zeros)
GRADIENTS = [
    *[
        f"x = torch.tensor([1.0, 3, 3, 2], requires_grad=True); s = torch.tensor([3.0, 0, 1], requires_grad=True); y = s.scatter_reduce(0, torch.tensor([0, 0, 1, 2]), x, '{r}', include_self={inc}); (y * torch.tensor([1.0, 2, 3])).sum().backward(); y.detach(), x.grad, s.grad"
        for r in ("amax", "amin", "mean", "prod", "sum")
        for inc in (True, False)
    ],
    "a = torch.tensor([[1.0, 2, 3, 4], [2, 2, 2, 5]], requires_grad=True); torch.quantile(a, torch.tensor([0.3, 0.5]), dim=1).sum().backward(); a.grad",
    "a = torch.tensor([[1.0, 2, 3, 4], [2, 2, 2, 5]], requires_grad=True); torch.nanmedian(a, 1).values.sum().backward(); a.grad",
    "a = torch.tensor([[1.0, 2, 3, 4], [2, 2, 2, 5]], requires_grad=True); torch.logcumsumexp(a, 1).sum().backward(); a.grad",
    "a = torch.tensor([[1.0, 2, 3, 4], [2, 2, 2, 5]], requires_grad=True); torch.cdist(a, a.detach() + 1).sum().backward(); a.grad",
    "i = torch.tensor([0.0, 1.0, -2.0], requires_grad=True); torch.special.i1e(i).sum().backward(); i.grad",
    "p = torch.tensor([1.5, 3.0], requires_grad=True); torch.polygamma(2, p).sum().backward(); p.grad",
    "A = torch.tensor([[2.0, 1], [1, 3]], requires_grad=True); torch.linalg.matrix_exp(A).sum().backward(); A.grad",
]

GRADIENTS += [
    "a = torch.tensor([1.0, 10.0, 20.0, 30.0], requires_grad=True); y = torch.special.erfcx(a); y.sum().backward(); y.detach(), a.grad",
    "a = torch.tensor([-40.0, -10.0, -3.0, 0.0, 3.0], dtype=torch.float64, requires_grad=True); y = torch.special.log_ndtr(a); y.sum().backward(); y.detach(), a.grad",
]

GROUPS["gradients"] = GRADIENTS

# grid_sample's bicubic mode (4-D) and 5-D input, and torch.ctc_loss: values, gradients
# (rounded lists: -0.0 and 0.0 print alike) and errors
_IMG = "im = (torch.arange(40.0, dtype=torch.float64).reshape(2, 1, 4, 5) * 0.37).sin()"
_GRID = "gr = (torch.arange(48.0, dtype=torch.float64).reshape(2, 3, 4, 2) * 0.71).sin() * 1.3"
_R = "[round(t, 6) + 0.0 for t in {}.flatten().tolist()]"
_R2 = "[round(t, 5) + 0.0 for t in {}.flatten().tolist()]"
SAMPLING_LOSSES = [
    *[
        f"{_IMG}; {_GRID}; im.requires_grad_(); gr.requires_grad_(); y = torch.grid_sampler(im, gr, 2, {p}, {a}); (y * ((torch.arange(y.numel()) % 7 - 3.0) / 4).reshape(y.shape)).sum().backward(); y.shape, {_R.format('y.detach()')}, {_R.format('im.grad')}, {_R.format('gr.grad')}"
        for p in (0, 1, 2)
        for a in (False, True)
    ],
    f"{_IMG}; {_GRID}; y = torch.grid_sampler(im.float(), gr.float(), 2, 2, False); y.dtype, y.shape",
    f"{_IMG}; {_GRID}; torch.grid_sampler(im.float(), gr, 2, 0, False)",
    "torch.grid_sampler(torch.ones(1, 1, 2, 2, 2), torch.zeros(1, 1, 1, 1, 3), 2, 0, False)",
    "torch.grid_sampler(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 3), 2, 0, False)",
    "torch.grid_sampler(torch.ones(2, 1, 2, 2), torch.zeros(1, 1, 1, 2), 0, 0, False)",
    "torch.grid_sampler(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 1, 2), 0, 0, False)",
    "torch.grid_sampler(torch.ones(1, 1, 0, 2), torch.zeros(1, 1, 1, 2), 0, 0, False)",
    "torch.grid_sampler(torch.ones(1, 1, 2, 2, dtype=torch.long), torch.zeros(1, 1, 1, 2, dtype=torch.long), 0, 0, False)",
    "y = torch.grid_sampler(torch.ones(1, 1, 2, 2).half(), torch.full((1, 1, 1, 2), 0.3).half(), 2, 1, True); y.dtype, y.shape, abs(float(y) - 1) < 0.01",
    *[
        f"vol = torch.arange(60.0, dtype=torch.float64).reshape(1, 2, 2, 3, 5); g = (torch.arange(36.0, dtype=torch.float64).reshape(1, 2, 2, 3, 3) * 0.53).sin() * 1.2; vol.requires_grad_(); g.requires_grad_(); y = torch.grid_sampler(vol, g, {m}, {p}, {a}); y.sum().backward(); {_R2.format('y.detach()')}, {_R2.format('vol.grad')}, {_R2.format('g.grad')}"
        for m in (0, 1)
        for p in (0, 1, 2)
        for a in (False, True)
    ],
]
_LP = "lp = torch.log_softmax((torch.arange(72.0, dtype=torch.float64).reshape(6, 3, 4) * 0.41).sin() * 2, 2)"
_TG = "tg = torch.tensor([[1, 2, 2], [3, 1, 0], [2, 0, 0]])"
SAMPLING_LOSSES += [
    *[
        f"{_LP}; {_TG}; lp.requires_grad_(); l = torch.ctc_loss(lp, tg, [6, 5, 2], [3, 2, 1], 0, {r}, {z}); (l * ((torch.arange(l.numel()) % 3 + 2.0) / 4).reshape(l.shape)).sum().backward(); l.detach(), {_R.format('lp.grad')}"
        for r in (0, 1, 2)
        for z in (False, True)
    ],
    *[
        f"{_LP}; lp.requires_grad_(); l = torch.ctc_loss(lp, torch.tensor([1, 2, 2, 3, 3, 2]), torch.tensor([6, 4, 1]), torch.tensor([3, 2, 1]), 2, 0, {z}); l.sum().backward(); l.detach(), {_R.format('lp.grad')}"
        for z in (False, True)
    ],
    f"{_LP}; {_TG}; l = torch.ctc_loss(lp.float(), tg, [6, 5, 0], [3, 2, 0]); l.dtype, [round(t, 3) + 0.0 for t in l.tolist()]",
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg, [6, 5, 1], [3, 2, 3], 0, 1, True)",
    *[
        f"{_LP}; {_TG}; lp.requires_grad_(); l = torch.ctc_loss(lp, tg, [3, 5, 2], [3, 2, 1], 0, {r}, {z}); l.sum().backward(); l.detach(), {_R.format('lp.grad')}"
        for r in (0, 1)
        for z in (False, True)
    ],
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg, [6, 5, 2], [0, 0, 0], 0, 0)",
    f"{_LP}; lp.requires_grad_(); l = torch.ctc_loss(lp[:, 0], torch.tensor([1, 2]), [5], [2], 0, 0); l.backward(); l.detach(), {_R.format('lp.grad')}",
    f"{_LP}; torch.ctc_loss(lp[:, 0], torch.tensor([1, 2]), torch.tensor(5), torch.tensor(2), 0, 1)",
    f"{_LP}; {_TG}; lp.requires_grad_(); g = torch.autograd.grad(torch.ctc_loss(lp, tg, [6, 5, 2], [3, 2, 1]).sum(), lp, create_graph=True)[0]; g.sum().backward()",
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg, [6, 5, 7], [3, 2, 1])",
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg, [6, 5, -1], [3, 2, 1])",
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg, [6, 5], [3, 2, 1])",
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg, [6, 5, 2], [3, 2])",
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg, [6, 5, 2], [3, 4, 1])",
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg, [6, 5, 2], [3, -2, 1])",
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg[:2], [6, 5, 2], [3, 2, 1])",
    f"{_LP}; torch.ctc_loss(lp, torch.tensor([1, 2, 2, 3]), [6, 5, 2], [3, 2, 1])",
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg, [6, 5, 2], [3, 2, 1], 4)",
    f"{_LP}; {_TG}; torch.ctc_loss(lp, tg, [6, 5, 2], [3, 2, 1], -1)",
    f"{_LP}; {_TG}; torch.ctc_loss(lp.half(), tg, [6, 5, 2], [3, 2, 1])",
    f"{_LP}; {_TG}; torch.ctc_loss(lp[:, 0], tg[0], [6, 5, 2], [3, 2, 1])",
]

GROUPS["sampling_losses"] = SAMPLING_LOSSES

# spot-check fixes (issue 4 audit): unfold/fold unbatched input and messages, interpolate
# "area" and its mode/rank check, searchsorted's side/right conflict
SAMPLING_LOSSES += [
    "torch.nn.functional.unfold(torch.arange(40.0).reshape(2, 4, 5), 2, stride=(1, 2))",
    "torch.nn.functional.unfold(torch.ones(1, 1, 4, 5), 6)",
    "torch.nn.functional.unfold(torch.ones(1, 1, 4, 5), (2, 3), dilation=2, padding=(0, 1))",
    "torch.nn.functional.fold(torch.arange(24.0).reshape(4, 6), (3, 4), 2, stride=(1, 2))",
    "torch.nn.functional.fold(torch.ones(1, 5, 4), (4, 5), 2)",
    "torch.nn.functional.interpolate(torch.arange(40.0).reshape(2, 1, 4, 5), size=(3, 2), mode='area')",
    "torch.nn.functional.interpolate(torch.arange(40.0).reshape(1, 2, 4, 5), scale_factor=0.5, mode='area')",
    "torch.nn.functional.interpolate(torch.ones(1, 1, 4, 5), size=(2, 3), mode='linear')",
    "torch.nn.functional.interpolate(torch.ones(1, 1, 4), size=3, mode='bicubic')",
    "torch.searchsorted(torch.tensor([1.0, 2, 2, 3]), torch.tensor([2.0]), side='left', right=True)",
]

# issue 4 audit, part 2: linspace/logspace bit for bit (first half from start, second half
# from end, in the output dtype's arithmetic), F.pad / embedding_bag argument errors,
# antialiased interpolate values and gradients
_LINSPACE_ARGS = [
    (0, 1, 7),
    (-3.3, 7.1, 13),
    (0.1, 0.9, 11),
    (-13.090626769702373, 14.528664567966567, 43),
    (12.225645323408077, -13.595888742132702, 192),
    (1e-3, 2e-3, 101),
    (-1000.5, 2500.25, 257),
    (2, 250, 77),
    (3.5, 3.5, 5),
    (-5, 5, 10),
]
LINSPACE = [
    f"torch.linspace({s}, {e}, {n}, dtype=torch.{d}).tolist()"
    for s, e, n in _LINSPACE_ARGS
    for d in ("float32", "float64", "float16", "bfloat16", "int64", "complex64")
]
LINSPACE += [
    f"torch.logspace({s}, {e}, {n}, {b}, dtype=torch.{d}).tolist()"
    for s, e, n in [
        (-2, 3, 11),
        (-2.5, 3.7, 17),
        (0.8927491447280226, -1.0739064707205703, 29),
        (1.1976924252692551, 0.07944421496331798, 12),
    ]
    for b in (10.0, 2.0, 3.7)
    for d in ("float32", "float64", "int64")
]
LINSPACE += [
    "torch.linspace(0, 1, 1).tolist()",
    "torch.linspace(0, 1, 0)",
    "torch.linspace(0, 1, -1)",
    "torch.linspace(-1.5, 2.5, 9, dtype=torch.int32).tolist()",
    "torch.logspace(0, 5, 6, dtype=torch.int64).tolist()",
    "torch.logspace(1, 400, 3, dtype=torch.float64).tolist()",
]
GROUPS["linspace"] = LINSPACE

_PAD_CASES = [
    ("constant", "torch.arange(24.0).reshape(2, 3, 4)", "(1,)"),
    ("reflect", "torch.arange(24.0).reshape(2, 3, 4)", "(1, 2, 3)"),
    ("constant", "torch.arange(24.0).reshape(2, 3, 4)", "(1, 1, 1, 1, 1, 1, 1, 1)"),
    ("constant", "torch.arange(24.0).reshape(2, 3, 4)", "(-5, 1)"),
    ("constant", "torch.arange(24.0).reshape(2, 3, 4)", "(1.5, 1)"),
    ("bogus", "torch.arange(24.0).reshape(2, 3, 4)", "(1, 1)"),
    ("circular", "torch.arange(24.0).reshape(2, 3, 4)", "(5, 0)"),
    ("circular", "torch.arange(24.0).reshape(2, 3, 4)", "(0, 5)"),
    ("circular", "torch.arange(24.0).reshape(2, 3, 4)", "(4, 4)"),
    ("circular", "torch.arange(48.0).reshape(1, 2, 4, 6)", "(1, 1, 5, 0)"),
    ("circular", "torch.arange(48.0).reshape(1, 2, 4, 6)", "(7, 0, 1, 1)"),
    ("circular", "torch.arange(48.0).reshape(1, 2, 2, 3, 4)", "(1, 1, 1, 1, 3, 1)"),
    ("circular", "torch.arange(48.0).reshape(1, 2, 4, 6)", "(-1, 2)"),
    ("circular", "torch.ones(4)", "(1, 1)"),
    ("circular", "torch.ones(1, 2, 6)", "(-7, 0)"),
    ("circular", "torch.ones(1, 2, 6)", "(-3, -3)"),
    ("circular", "torch.arange(12.0).reshape(2, 6)", "(6, 6)"),
    ("circular", "torch.ones(1, 2, 0)", "(1, 1)"),
    ("reflect", "torch.arange(24.0).reshape(2, 3, 4)", "(4, 0)"),
    ("reflect", "torch.arange(24.0).reshape(2, 3, 4)", "(0, 4)"),
    ("reflect", "torch.arange(24.0).reshape(2, 3, 4)", "(3, 3)"),
    ("reflect", "torch.arange(48.0).reshape(1, 2, 4, 6)", "(1, 1, 4, 0)"),
    ("reflect", "torch.arange(48.0).reshape(1, 2, 2, 3, 4)", "(1, 1, 1, 1, 2, 0)"),
    ("reflect", "torch.ones(4)", "(1, 1)"),
    ("reflect", "torch.ones(1, 1, 1, 1, 1, 1)", "(1, 1)"),
    ("reflect", "torch.ones(1, 2, 0)", "(1, 1)"),
    ("reflect", "torch.ones(2, 0, 6)", "(1, 1)"),
    ("reflect", "torch.ones(1, 1, 1, 0, 2)", "(1, 1, 1, 1, 1, 1)"),
    ("reflect", "torch.ones(1, 2, 6)", "(-3, -3)"),
    ("reflect", "torch.arange(24.0).reshape(2, 3, 4)", "(-1, 2)"),
    ("reflect", "torch.ones(2, 3, 4).bool()", "(1, 1)"),
    ("reflect", "torch.ones(2, 3, 4).bool()", "(1, 1, 1, 1)"),
    ("reflect", "torch.ones(5)", "()"),
    ("replicate", "torch.ones(1, 2, 0)", "(1, 1)"),
    ("replicate", "torch.ones(1, 0, 4, 6)", "(1, 1, 1, 1)"),
    ("replicate", "torch.ones(1, 2, 6)", "(-7, 0)"),
    ("replicate", "torch.ones(1, 2, 4, 6)", "(0, 0, -3, -3)"),
    ("replicate", "torch.arange(24.0).reshape(2, 3, 4)", "(-5, 2)"),
    ("replicate", "torch.ones(2, 3, 4).bool()", "(1, 1, 1, 1, 1, 1)"),
    ("replicate", "torch.ones(1, 2, 3, 4, 5).bool()", "(1, 1, 1, 1, 1, 1)"),
    ("replicate", "torch.arange(24).reshape(2, 3, 4)", "(1, 2)"),
]
PAD = [f"torch.nn.functional.pad({x}, {p}, mode='{m}')" for m, x, p in _PAD_CASES] + [
    "torch.nn.functional.pad(torch.ones(2, 3, 4), (1, 1), mode='reflect', value=1.0)",
    "torch.nn.functional.pad(torch.ones(2, 3, 4), (1, 1), mode='circular', value=2)",
    "torch.nn.functional.pad(torch.ones(2, 3, 4), (1, 1), mode='replicate', value=0.0).shape",
    "torch.nn.functional.pad(torch.ones(2, 3, 4), torch.tensor([1, 1]), mode='reflect')",
    "torch.constant_pad_nd(torch.ones(2, 3), (1,))",
    "torch.constant_pad_nd(torch.ones(2, 3), (1, 1, 1, 1, 1, 1))",
    "torch.constant_pad_nd(torch.ones(2, 3), (1, 1), 3)",
]
GROUPS["pad"] = PAD

_EB = "w = torch.arange(20.0).reshape(5, 4); i = torch.tensor([0, 2, 1, 4, 3])"
_EB7 = "w = torch.arange(28.0).reshape(7, 4); i = torch.tensor([0, 2, 1, 4, 3, 6, 5])"
EMBEDDING_BAG = [
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([1, 3]))",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([2, 3]), mode='max')",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([0, 3, 2]))",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([0, 7]))",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([0, -1]))",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([[0, 2]]))",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([0.0, 2.0]))",
    f"{_EB}; torch.nn.functional.embedding_bag(i.float(), w, torch.tensor([0, 2]))",
    f"{_EB}; torch.nn.functional.embedding_bag(i.reshape(1, 1, 5), w)",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([0, 2]), per_sample_weights=torch.ones(5))",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([0, 2]), mode='max', per_sample_weights=torch.ones(5))",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([0, 2]), mode='sum', per_sample_weights=torch.ones(4))",
    f"{_EB}; torch.nn.functional.embedding_bag(i.reshape(1, 5), w, mode='sum', per_sample_weights=torch.ones(5))",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([0, 2]), mode='sum', per_sample_weights=torch.ones(5, dtype=torch.float64))",
    f"{_EB}; torch.nn.functional.embedding_bag(i, w, torch.tensor([0, 2]), mode='min')",
    f"{_EB}; torch.nn.functional.embedding_bag(torch.tensor([0, 7]), w, torch.tensor([0]))",
    f"{_EB}; torch.nn.functional.embedding_bag(torch.tensor([0, -1]), w, torch.tensor([0]))",
    f"{_EB}; torch.embedding_bag(w, i, torch.tensor([1, 3]), False, 2)",
    f"{_EB}; torch.embedding_bag(w, i, torch.tensor([0, 3]), False, 1, False, torch.ones(5))",
    f"{_EB}; torch.embedding_bag(w, i, torch.tensor([0]), False, 0, False, None, True)",
    f"{_EB}; torch.embedding_bag(w, i, torch.tensor([], dtype=torch.long), False, 0, False, None, True)",
    f"{_EB}; torch.embedding_bag(w, i, torch.tensor([[0, 3]]), False, 0)",
    f"{_EB}; torch.embedding_bag(w, i, torch.tensor([0]), False, 3)",
    f"{_EB}; torch.embedding_bag(w, i, torch.tensor([0, 2]), False, 1, False, None, False, 5)",
    *[
        f"{_EB7}; torch.embedding_bag(w, i, torch.tensor({off}), False, {m}, False, None, True)"
        for m in (0, 1, 2)
        for off in ([0, 2, 4], [0, 2, 2], [0, 3, 6], [0, 1, 2, 3], [0, 2, 9])
    ],
    *[
        f"{_EB7}; torch.embedding_bag(w, i, torch.tensor([0, 2, 4]), False, {m}, False, None, True, 3)"
        for m in (0, 1, 2)
    ],
]
# F.embedding_bag hands include_last_offset and padding_idx to core's kernel unchanged
_FEB = f"{_EB}; F = torch.nn.functional"
EMBEDDING_BAG += [
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([0, 2, 5]), include_last_offset=True)",
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([0, 2, 4]), mode='sum', include_last_offset=True)",
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([0, 2, 3]), mode='max', include_last_offset=True)",
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([0, 2, 7]), include_last_offset=True)",
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([0]), include_last_offset=True)",
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([], dtype=torch.long), include_last_offset=True)",
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([0, 2, 4]), mode='sum', per_sample_weights=torch.arange(5.0), include_last_offset=True)",
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([0, 2, 5]), padding_idx=2, include_last_offset=True)",
    f"{_FEB}; F.embedding_bag(i.view(1, 5), w, torch.tensor([0]))",
    f"{_FEB}; [F.embedding_bag(i[:4].view(2, 2), w, mode=m, include_last_offset=True) for m in ('sum', 'mean', 'max')]",
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([0, 2]), padding_idx=5)",
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([0, 2]), padding_idx=-6)",
    f"{_FEB}; F.embedding_bag(i, w, torch.tensor([0, 2]), padding_idx=-1)",
    f"{_FEB}; m = torch.nn.EmbeddingBag(5, 4, mode='sum', include_last_offset=True); m.weight.data.copy_(w); m(i, torch.tensor([0, 2, 5])).detach()",
]
GROUPS["embedding_bag"] = EMBEDDING_BAG

_AAX = "x = (torch.arange(2 * 2 * 11 * 13, dtype=torch.float64).reshape(2, 2, 11, 13) * 0.37).sin()"
ANTIALIAS = [
    f"{_AAX}; x.requires_grad_(); y = torch.nn.functional.interpolate(x, {size}, mode='{m}', align_corners={a}, antialias=True); (y * torch.arange(y.numel(), dtype=torch.float64).reshape(y.shape).cos()).sum().backward(); {_R.format('y.detach()')}, {_R.format('x.grad')}"
    for m in ("bilinear", "bicubic")
    for a in (False, True)
    for size in (
        "scale_factor=0.5",
        "scale_factor=0.3",
        "scale_factor=(0.7, 0.45)",
        "size=(4, 6)",
        "scale_factor=2.0",
        "size=(14, 7)",
    )
]
ANTIALIAS += [
    f"{_AAX}; y = torch.nn.functional.interpolate(x.float(), scale_factor=0.4, mode='bilinear', antialias=True); y.dtype, {_R2.format('y')}",
    f"{_AAX}; torch.nn.functional.interpolate(x, scale_factor=0.5, mode='nearest', antialias=True)",
    f"{_AAX}; torch.nn.functional.interpolate(x[0], scale_factor=0.5, mode='bilinear', antialias=True)",
    f"{_AAX}; torch.nn.functional.interpolate(x, scale_factor=2.0, mode='bilinear', antialias=True).allclose(torch.nn.functional.interpolate(x, scale_factor=2.0, mode='bilinear'))",
]
GROUPS["antialias"] = ANTIALIAS

# views that select nothing keep the storage offset and strides PyTorch computes for them
# (NumPy's empty views keep neither); new axes get PyTorch's unsqueeze strides
_EV = "x = torch.arange(20.0).view(4, 5); y = torch.arange(24.0).view(2, 3, 4)"
EMPTY_VIEWS = [
    f"{_EV}; {code}"
    for code in [
        "x[:, 4:]",
        "x[5:]",
        "x[:, 5:]",
        "x[4:]",
        "x[2:1]",
        "x[:, 3:2]",
        "x[:, 7:]",
        "x[10:20]",
        "x[-1:0]",
        "x[1:, 5:]",
        "x[2:2, 1:]",
        "x[::2, 5:]",
        "x[1, 5:]",
        "x[1][5:]",
        "x[..., 5:]",
        "x[None, 5:]",
        "x[None, 1:3, None]",
        "x[..., None]",
        "x[:, None, 5:]",
        "x[2:2, None]",
        "x[:, 4:][:, 1:]",
        "x.T[:, 4:]",
        "x[::3][2:]",
        "x.view(-1)[25:]",
        "x.narrow(1, 5, 0)",
        "x.narrow(0, 4, 0)",
        "x.narrow(1, 2, 0)",
        "x.split([2, 0, 2])",
        "x.split([5, 0], 1)",
        "x.tensor_split(6)",
        "x.tensor_split([1, 1, 7], 1)",
        "x.hsplit([2, 2])",
        "x.vsplit([4])",
        "x[:, 5:].select(0, 2)",
        "x[:, 5:][3]",
        "x[2:2].select(1, 3)",
        "x[2:2][:, 3]",
        "x[2:2].t()",
        "x[2:2].narrow(1, 1, 2)",
        "x[2:2].movedim(1, 0)",
        "x[:, 5:].permute(1, 0)",
        "x[:, 5:].unsqueeze(1)",
        "x[5:].unsqueeze(0)",
        "x[5:].squeeze(0)",
        "x[:, 5:].squeeze()",
        "x[:, 5:].flatten()",
        "x[:, 5:].view(-1)",
        "x[:, 5:].view(2, 0, 2)",
        "x[:, 5:].reshape(0, 4)",
        "x[:, 5:].reshape(2, -1, 0)",
        "x[5:].expand(2, 0, 5)",
        "x[:, 5:].diagonal()",
        "x[:, 5:].unfold(0, 2, 1)",
        "x[:, 5:].view(torch.int32)",
        "x.to(torch.complex64)[:, 5:].real",
        "x.to(torch.complex64)[:, 5:].imag",
        "torch.view_as_real(x.to(torch.complex64)[:, 5:])",
        "y[:, 3:]",
        "y[1, 3:]",
        "y[1, :, 4:]",
        "y[1:, 1:, 9:]",
        "y[:, 3:].diagonal(0, 1, 2)",
        "torch.zeros(0, 3)[:, 1:]",
        "torch.zeros(0, 3)[:, 2]",
        "torch.ones(3, 0, 2)[1:, :, 1]",
        "x.requires_grad_(); x[:, 5:].sum().backward(); x.grad[0]",
    ]
]
GROUPS["empty_views"] = EMPTY_VIEWS

# issue 4: LAPACK-form factorisations (geqrf / ormqr, Bunch-Kaufman LDL) against PyTorch
_QRA = "qa = (torch.arange(20.0, dtype=torch.float64).reshape(5, 4) ** 1.5 * 0.71).sin()"
_QRC = "qc = (torch.arange(30.0, dtype=torch.float64).reshape(5, 6) * 0.37).cos()"
_SYM = "sm = (torch.arange(36.0, dtype=torch.float64).reshape(6, 6) ** 1.5 * 0.53).sin(); sm = sm + sm.mT; sm.diagonal().mul_(0.01)"
_HER = "hm = torch.complex((torch.arange(16.0, dtype=torch.float64).reshape(4, 4) * 0.53).sin(), (torch.arange(16.0, dtype=torch.float64).reshape(4, 4) * 0.29).cos())"
_RL = "[round(t, 6) + 0.0 for t in {}.flatten().tolist()]"
LAPACK_FORMS = [
    f"{_QRA}; a, tau = torch.geqrf(qa); {_RL.format('a')}, {_RL.format('tau')}, a.stride()",
    f"{_QRA}; a, tau = torch.geqrf(qa.mT); {_RL.format('a')}, {_RL.format('tau')}, a.shape",
    f"{_QRA}; a, tau = torch.geqrf(qa); q = torch.linalg.householder_product(a, tau); {_RL.format('q')}, torch.allclose(q @ a.triu()[:4], qa)",
    f"{_HER}; a, tau = qa = torch.geqrf(hm[:, :3]); {_RL.format('torch.view_as_real(a)')}, {_RL.format('torch.view_as_real(tau)')}, {_RL.format('torch.view_as_real(torch.linalg.householder_product(a, tau))')}",
    "torch.geqrf(torch.tensor([[1.0, 2.0], [0.0, 0.0]])), torch.geqrf(torch.tensor([[-1.0, 2.0], [0.0, 3.0]])), torch.geqrf(torch.zeros(2, 3, 0)), torch.geqrf(torch.ones(0, 3))",
    f"{_QRA}; torch.stack([qa, qa.flip(0)]).geqrf().tau.shape",
    "torch.geqrf(torch.ones(3))",
    "torch.geqrf(torch.ones(3, 3, dtype=torch.long))",
    "torch.geqrf(torch.ones(3, 3, dtype=torch.float16))",
    "x = torch.ones(3, 2, requires_grad=True); a, tau = torch.geqrf(x); type(a.grad_fn).__name__, a.sum().backward()",
    *[
        f"{_QRA}; {_QRC}; a, tau = torch.geqrf(qa); c = qc if {left} else qc.mT; {_RL.format(f'torch.ormqr(a, tau, c, left={left}, transpose={tr})')}"
        for left in (True, False)
        for tr in (True, False)
    ],
    f"{_HER}; a, tau = torch.geqrf(hm); c = hm.flip(1)[:, :2]; {_RL.format('torch.view_as_real(torch.ormqr(a, tau, c, transpose=True))')}, {_RL.format('torch.view_as_real(torch.ormqr(a, tau, c.mT, left=False))')}",
    f"{_QRA}; {_QRC}; a, tau = torch.geqrf(qa); torch.ormqr(a, tau, qc.float())",
    f"{_QRA}; {_QRC}; a, tau = torch.geqrf(qa); torch.ormqr(a, tau, qc[:4])",
    f"{_QRA}; {_QRC}; a, tau = torch.geqrf(qa); torch.ormqr(a, tau[:2], qc)",
    f"{_QRA}; {_QRC}; a, tau = torch.geqrf(qa); torch.ormqr(a, tau, qc, left=False)",
    f"{_QRA}; {_QRC}; a, tau = torch.geqrf(qa); torch.ormqr(a.expand(2, 5, 4), tau.expand(3, 4), qc.expand(2, 5, 6))",
    f"{_QRA}; {_QRC}; a, tau = torch.geqrf(qa); torch.ormqr(a.long(), tau.long(), qc.long())",
    f"{_QRA}; torch.linalg.householder_product(qa, torch.ones(4, dtype=torch.float32))",
    f"{_QRA}; torch.linalg.householder_product(qa.mT, torch.ones(4, dtype=torch.float64))",
    f"{_SYM}; r = torch.linalg.ldl_factor_ex(sm); {_RL.format('r.LD')}, r.pivots, r.info, r.LD.stride()",
    f"{_SYM}; LD, piv = torch.linalg.ldl_factor(sm); {_RL.format('torch.linalg.ldl_solve(LD, piv, qc[:, :6].mT[:, :2].contiguous()[:6])')}",
    "torch.linalg.ldl_factor(torch.tensor([[0.0, 1, 2], [1, 0, 3], [2, 3, 0]])), torch.linalg.ldl_factor(torch.tensor([[0.0, 1], [1, 0]], dtype=torch.float64))",
    "LD, piv = torch.linalg.ldl_factor(torch.tensor([[0.0, 1, 2], [1, 0, 3], [2, 3, 0]])); torch.linalg.ldl_solve(LD, piv, torch.tensor([[1.0], [2], [3]])), torch.linalg.ldl_solve(LD, piv, torch.ones(2, 3, 1))",
    f"{_SYM}; m = torch.stack([sm, sm.flip(0).flip(1), torch.eye(6, dtype=torch.float64)]); r = torch.linalg.ldl_factor(m); {_RL.format('r.LD')}, r.pivots, {_RL.format('torch.linalg.ldl_solve(r.LD, r.pivots, torch.ones(3, 6, 1, dtype=torch.float64))')}",
    f"{_HER}; h = hm + hm.mH; h.diagonal().mul_(0.01); r = torch.linalg.ldl_factor(h, hermitian=True); {_RL.format('torch.view_as_real(r.LD)')}, r.pivots, {_RL.format('torch.view_as_real(torch.linalg.ldl_solve(r.LD, r.pivots, hm[:, :2], hermitian=True))')}",
    f"{_HER}; s = hm + hm.mT; r = torch.linalg.ldl_factor(s); {_RL.format('torch.view_as_real(r.LD)')}, r.pivots, {_RL.format('torch.view_as_real(torch.linalg.ldl_solve(r.LD, r.pivots, hm[:, :2]))')}",
    "torch.linalg.ldl_factor_ex(torch.zeros(2, 3, 3)), torch.linalg.ldl_factor(torch.zeros(0, 0))",
    "torch.linalg.ldl_factor(torch.ones(3))",
    "torch.linalg.ldl_factor(torch.ones(3, 2))",
    "torch.linalg.ldl_factor(torch.ones(3, 3, dtype=torch.long))",
    "torch.linalg.ldl_factor(torch.ones(3, 3, dtype=torch.float16))",
    "LD, piv = torch.linalg.ldl_factor(torch.eye(3)); torch.linalg.ldl_solve(LD, piv, torch.ones(3, 1, dtype=torch.float64))",
    "LD, piv = torch.linalg.ldl_factor(torch.eye(3)); torch.linalg.ldl_solve(LD, piv, torch.ones(4, 1))",
    "LD, piv = torch.linalg.ldl_factor(torch.eye(3)); torch.linalg.ldl_solve(LD, piv[:2], torch.ones(3, 1))",
    "LD, piv = torch.linalg.ldl_factor(torch.eye(3)); torch.linalg.ldl_solve(LD, piv.float(), torch.ones(3, 1))",
    "LD, piv = torch.linalg.ldl_factor(torch.eye(3)); torch.linalg.ldl_solve(LD, piv.long(), torch.ones(3, 1))",
    "x = torch.eye(3, requires_grad=True); r = torch.linalg.ldl_factor(x); r.LD.sum().backward()",
    "x = torch.ones(3, 1, requires_grad=True); LD, piv = torch.linalg.ldl_factor(torch.eye(3)); torch.linalg.ldl_solve(LD, piv, x).sum().backward()",
]
GROUPS["lapack_forms"] = LAPACK_FORMS

# complex inputs: slogdet's real logabsdet and differentiable sign, logsumexp, sgn's
# gradient, logdet
_CA = "A = torch.tensor([[1 + 2j, 3 - 1j], [0.5j, 2 + 0j]], dtype=torch.complex128, requires_grad=True)"
_CZ = "z = torch.tensor([[1 + 1j, 2 - 0.5j, -3j], [0.1 + 0j, 1j, 2]], dtype=torch.complex128, requires_grad=True)"
_CW = "w = torch.tensor([1 + 1j, -2 + 0.5j, 3j, 0j], dtype=torch.complex128, requires_grad=True)"
_RC = "[round(t, 6) + 0.0 for t in torch.view_as_real({}).flatten().tolist()]"
COMPLEX_MATH = [
    f"{_CA}; s, l = torch.linalg.slogdet(A); s.dtype, l.dtype, type(s.grad_fn).__name__, type(l.grad_fn).__name__, {_RC.format('s.detach()')}, round(l.item(), 6)",
    f"{_CA}; torch.slogdet(A.detach().to(torch.complex64))",
    f"{_CA}; s, l = torch.slogdet(A); (s.real.sum() + 2 * s.imag.sum() + l).backward(); {_RC.format('A.grad')}",
    f"{_CA}; s, l = torch.linalg.slogdet(A); s.imag.backward(); {_RC.format('A.grad')}",
    f"{_CA}; torch.linalg.slogdet(A)[1].backward(); {_RC.format('A.grad')}",
    "x = torch.tensor([[1.0, 2], [3, 4]], requires_grad=True); s, l = torch.linalg.slogdet(x); type(s.grad_fn).__name__, (s + l).backward(), x.grad",
    f"{_CA}; y = torch.logdet(A); {_RC.format('y.detach()')}, y.dtype",
    f"{_CA}; torch.logdet(A).abs().backward(); {_RC.format('A.grad')}",
    f"{_CZ}; [{_RC.format('torch.logsumexp(z, d).detach()')} for d in (0, 1, (0, 1))]",
    f"{_CZ}; torch.logsumexp(z.detach().to(torch.complex64), 1, keepdim=True)",
    f"{_CZ}; torch.logsumexp(z, 1).abs().sum().backward(); {_RC.format('z.grad')}",
    "torch.logsumexp(torch.tensor([[1e3 + 1j, 1e3 - 1j]]), 1)",
    "torch.logsumexp(torch.tensor([float('inf') + 1j, 1]), 0)",
    "torch.logsumexp(torch.zeros(0, 2, dtype=torch.complex64), 0)",
    f"{_CW}; torch.sgn(w).real.sum().backward(); {_RC.format('w.grad')}",
    f"{_CW}; (torch.sgn(w) * torch.tensor([1 + 2j, 3j, -1, 1])).imag.sum().backward(); {_RC.format('w.grad')}",
    f"{_CW}; w.abs().sum().backward(); {_RC.format('w.grad')}",
]
GROUPS["complex_math"] = COMPLEX_MATH

# ops PyTorch refuses for complex input: the error type and message (kernel name) of each
_ZF = "z = torch.tensor([[1 + 2j, -3 + 0.5j], [0.25 - 1j, 2j]])"
_ZD = "z = torch.tensor([[1 + 2j, -3 + 0.5j], [0.25 - 1j, 2j]], dtype=torch.complex128)"
_ZP = "z = torch.ones(1, 1, 4, 4, dtype=torch.complex64)"
COMPLEX_REFUSALS = [
    *(
        f"{z}; {call}"
        for z in (_ZF, _ZD)
        for call in (
            "torch.sign(z)",
            "z.sign_()",
            "torch.erf(z)",
            "z.erfc()",
            "torch.erfinv(z)",
            "torch.lgamma(z)",
            "torch.digamma(z)",
            "torch.polygamma(1, z)",
            "torch.special.i0e(z)",
            "torch.special.i1(z)",
            "torch.i0(z)",
            "torch.floor(z)",
            "z.ceil_()",
            "torch.trunc(z)",
            "torch.round(z)",
            "torch.frac(z)",
            "torch.logit(z)",
            "torch.xlogy(z, z)",
            "torch.lt(z, z)",
            "z > 0",
            "z.le(1)",
            "torch.ge(z, z)",
            "torch.clamp(z, 0, 1)",
            "torch.clamp_min(z, 0)",
            "z.clamp_(max=1)",
            "torch.remainder(z, 2)",
            "torch.fmod(z, z)",
            "torch.copysign(z, z)",
            "torch.floor_divide(z, z)",
            "torch.atan2(z, z)",
            "torch.hypot(z, z)",
            "torch.signbit(z)",
            "torch.maximum(z, z)",
            "torch.minimum(z, z)",
            "torch.fmax(z, z)",
            "torch.fmin(z, z)",
            "torch.max(z)",
            "torch.max(z, 1)",
            "torch.max(z, z)",
            "z.min(0)",
            "torch.amax(z)",
            "torch.argmax(z)",
            "z.argmin(1)",
            "torch.kthvalue(z, 1)",
            "torch.median(z)",
            "torch.median(z, 0)",
            "torch.cummax(z, 0)",
            "torch.sort(z)",
            "torch.topk(z, 1)",
            "torch.argsort(z)",
            "torch.msort(z)",
            "torch.heaviside(z, z)",
            "torch.isposinf(z)",
            "torch.deg2rad(z)",
            "torch.nansum(z)",
            "torch.softmax(z, 0)",
            "torch.log_softmax(z, 1)",
            "torch.relu(z)",
            "torch.special.xlog1py(z, z)",
            "torch.special.xlog1py(z.real, z)",
            "torch.special.xlog1py(z, 2.0)",
            "torch.special.zeta(z, z)",
            "torch.special.zeta(2.0, z)",
            "torch.special.erfcx(z)",
            "torch.special.gammainc(z, z)",
            "torch.special.gammaincc(z.real, z)",
            "torch.igamma(z, z.real)",
            "torch.igammac(z, z)",
            "z.igamma(z)",
            "z.igammac_(z.real)",
            "torch.searchsorted(z[0], z)",
            "torch.searchsorted(z[0], z.real)",
            "torch.searchsorted(z.real[0], z, right=True)",
            "torch.searchsorted(z[0], 1.5)",
            "torch.bucketize(z, z[0])",
            "torch.bucketize(z.real, z[0], out_int32=True)",
            "torch.nn.functional.group_norm(z.unsqueeze(0), 1)",
        )
    ),
    # the other operand real or a Python number: the common dtype names the error
    f"{_ZF}; torch.special.xlog1py(torch.tensor([1.0]), 1 + 1j)",
    f"{_ZF}; torch.special.xlog1py(1 + 1j, torch.tensor([1.0]))",
    f"{_ZF}; torch.special.xlog1py(torch.tensor([1]), z)",
    f"{_ZF}; torch.special.xlog1py(torch.zeros(0, dtype=torch.complex64), torch.zeros(0))",
    f"{_ZF}; torch.special.xlog1py(2 + 1j, 1 + 1j)",
    f"{_ZF}; torch.special.zeta(torch.tensor([2.0]), 1 + 1j)",
    f"{_ZF}; torch.special.zeta(2.0, 1.0)",
    f"{_ZF}; torch.special.erfcx(torch.zeros(0, dtype=torch.complex64))",
    f"{_ZF}; torch.igamma(z, torch.tensor([1]))",
    f"{_ZF}; torch.igamma(z.real, 1j)",
    f"{_ZF}; torch.igamma(2.0, z)",
    f"{_ZF}; torch.special.gammainc(z, 1.0)",
    f"{_ZF}; torch.special.gammaincc(1j, z.real)",
    f"{_ZF}; z.igamma(2.0)",
    f"{_ZF}; z.real.clone().igamma_(z)",
    f"{_ZF}; z.clone().igammac_(1j)",
    f"{_ZF}; torch.tensor([1]).igamma_(torch.tensor([1.0]))",
    f"{_ZF}; torch.igamma(torch.tensor([1]), torch.tensor([2]))",
    f"{_ZF}; torch.igamma(torch.zeros(0, dtype=torch.complex64), torch.zeros(0))",
    f"{_ZF}; torch.searchsorted(torch.tensor([1.0, 2.0]), 1.5 + 1j)",
    f"{_ZF}; torch.searchsorted(torch.tensor([1, 2]), z)",
    f"{_ZF}; torch.searchsorted(torch.zeros(0, dtype=torch.complex64), torch.zeros(2))",
    f"{_ZF}; torch.searchsorted(z[0], torch.zeros(0))",
    f"{_ZF}; torch.searchsorted(z[0], z[0, 0])",
    f"{_ZF}; torch.searchsorted(z[0], z[0], sorter=torch.tensor([0.0, 1.0]))",
    f"{_ZF}; torch.searchsorted(z[0], z[0], sorter=torch.tensor([0, 1]))",
    f"{_ZF}; torch.searchsorted(z[0], z[0], side='middle')",
    f"{_ZF}; torch.searchsorted(z, z.real.T)",
    f"{_ZF}; torch.searchsorted(z, torch.tensor(1.0))",
    f"{_ZF}; torch.searchsorted(torch.tensor(1 + 0j), torch.zeros(1))",
    f"{_ZF}; torch.searchsorted(z[0], z[0], out=torch.empty(2, dtype=torch.long))",
    f"{_ZF}; torch.bucketize(1.5, z[0].to(torch.complex128))",
    f"{_ZF}; torch.bucketize(1.5 + 1j, torch.tensor([1.0, 2.0]))",
    f"{_ZF}; torch.bucketize(torch.zeros(0, dtype=torch.complex64), torch.zeros(3))",
    f"{_ZF}; torch.bucketize(z[0], z)",
    # group_norm: shape and mixed-dtype checks come before the kernel's dtype refusal
    *(
        f"{_ZF}; g = z.reshape(1, 2, 2); torch.nn.functional.group_norm({args})"
        for args in (
            "g, 1",
            "g, 2, torch.ones(2, dtype=torch.complex64), torch.zeros(2, dtype=torch.complex64)",
            "g, 1, torch.ones(2)",
            "g, 1, None, torch.zeros(2)",
            "g.to(torch.complex128), 1, torch.ones(2, dtype=torch.complex64)",
            "g.real, 1, torch.ones(2, dtype=torch.complex64)",
            "g.real, 1, None, torch.ones(2, dtype=torch.complex64)",
            "g, 1, torch.ones(3, dtype=torch.complex64)",
            "g, 1, torch.ones(2), torch.ones(3)",
            "g, 1, None, torch.ones(3)",
            "g, 3",
            "g, 0",
            "g[0, :, 0], 1",
            "torch.ones(1, 2, dtype=torch.complex64), 2",
            "torch.zeros(0, 2, 2, dtype=torch.complex64), 1",
            "torch.zeros(0, 2, 2), 1",
            "torch.ones(2, 2, 2, dtype=torch.long), 1",
            "g.real, 1, torch.ones(2, dtype=torch.long)",
            "g.real.double(), 1, torch.ones(2)",
            "g.real, 1, torch.ones(2), torch.zeros(2, dtype=torch.float64)",
            "g.real.half(), 1, torch.ones(2), torch.zeros(2)",
        )
    ),
    f"{_ZF}; torch.group_norm(z.reshape(1, 2, 2), 1)",
    f"{_ZF}; torch.nn.GroupNorm(1, 2, dtype=torch.complex64)(z.reshape(1, 2, 2))",
    f"{_ZF}; torch.nn.GroupNorm(1, 2)(z.reshape(1, 2, 2))",
    f"{_ZF}; torch.special.erf(z)",
    f"{_ZF}; torch.special.digamma(z)",
    f"{_ZF}; torch.unique(z)",
    f"{_ZF}; torch.aminmax(z)",
    f"{_ZF}; torch.mode(z)",
    f"{_ZF}; torch.quantile(z, 0.5)",
    f"{_ZP}; torch.nn.functional.avg_pool2d(z, 2)",
    f"{_ZP}; torch.nn.functional.max_pool2d(z, 2)",
    f"{_ZP}; torch.nn.functional.lp_pool2d(z, 2, 2)",
    f"{_ZP}; torch.nn.functional.adaptive_max_pool2d(z, 2)",
    f"{_ZP}; torch.nn.functional.adaptive_avg_pool2d(z, 2)",
    f"{_ZP}; torch.nn.functional.max_pool1d(z[0, 0], 2)",
    *(
        f"{_ZF}; torch.nn.functional.{call}"
        for call in (
            "gelu(z)",
            "relu(z)",
            "hardtanh(z)",
            "leaky_relu(z)",
            "elu(z)",
            "selu(z)",
            "softplus(z)",
            "mish(z)",
            "hardswish(z)",
            "hardsigmoid(z)",
            "softshrink(z)",
            "logsigmoid(z)",
            "softmax(z, 0)",
            "softmin(z, 0)",
            "log_softmax(z, 0)",
        )
    ),
    # legitimate complex uses stay: sgn, abs, comparisons for equality
    f"{_ZF}; torch.sgn(z)",
    f"{_ZF}; (z == z).all(), (z != 0).sum()",
]
GROUPS["complex_refusals"] = COMPLEX_REFUSALS

# logaddexp and logcumsumexp of complex numbers: PyTorch's _log_add_exp_helper (shifted
# by the operand of larger real part; special cases for NaN and equal infinite real parts;
# logcumsumexp accumulates complex64 in complex128), and their conjugate gradients
_LZ = "z = torch.tensor([[1 + 2j, 0.5 - 1j, -3 + 0.25j], [2j, -1 - 1j, 4 + 0j]], dtype=torch.complex128, requires_grad=True)"
_LW = "w = torch.tensor([0.5 + 1j, -2 + 0.5j, 1 - 3j], dtype=torch.complex128, requires_grad=True)"
_LE = (
    "e = torch.tensor([complex(-math.inf, 0), complex(math.inf, 0), complex(math.nan, 0), "
    "complex(0, math.nan), complex(math.inf, 1), complex(-math.inf, 1), complex(1e30, 1), "
    "complex(500, 3), complex(-500, 3), complex(0, math.inf), complex(1, 2), "
    "complex(math.inf, math.inf), complex(89, 1), complex(710, 1), 0j], dtype=torch.complex128)"
)
_LV = "[complex(t) for t in {}.tolist()]"
COMPLEX_LOGEXP = [
    "torch.logaddexp(torch.tensor([1 + 2j, 0.5 - 1j]), torch.tensor([1 + 2j, 0.5 - 1j]))",
    "torch.logcumsumexp(torch.tensor([1 + 2j, 0.5 - 1j]), 0)",
    f"{_LZ}; {_LW}; {_RC.format('torch.logaddexp(z, w).detach()')}",
    f"{_LZ}; {_LW}; torch.logaddexp(z.detach().to(torch.complex64), w.detach().to(torch.complex64))",
    f"{_LZ}; torch.logaddexp(z.detach(), torch.tensor([[0.5], [-1.0]]))",
    f"{_LZ}; torch.logaddexp(torch.tensor([1.0, 2.0, 3.0]), z.detach().to(torch.complex64))",
    f"{_LZ}; torch.logaddexp(z.detach().to(torch.complex64), torch.tensor([1, 2, 3]))",
    f"{_LZ}; z.detach().logaddexp(z.detach())",
    f"{_LZ}; o = torch.empty(2, 3, dtype=torch.complex128); torch.logaddexp(z.detach(), z.detach(), out=o); o",
    f"{_LZ}; torch.logaddexp(z.detach(), z.detach(), out=torch.empty(2, 3))",
    f"{_LZ}; torch.logaddexp(z.detach(), 1.0)",
    f"{_LZ}; torch.logaddexp(torch.tensor([1.0]), 1 + 1j)",
    f"{_LZ}; torch.logaddexp2(z.detach(), z.detach())",
    "torch.logaddexp(torch.tensor([1e30 + 1j, -1e30 + 2j, 500 + 3j]), torch.tensor([-1e30 + 0.5j, 1e30 + 1j, 500 - 3j]))",
    *(
        f"import math; {_LE}; {_LV.format(f'torch.logaddexp(e.to(torch.{d}), torch.full_like(e, complex({b})).to(torch.{d}))')}"
        for d in ("complex64", "complex128")
        for b in (
            "-math.inf, 0",
            "math.inf, 0",
            "math.nan, 0",
            "1, 2",
            "0, 0",
            "500, 3",
            "0, math.inf",
        )
    ),
    *(
        f"import math; {_LE}; {_LV.format(f'torch.logcumsumexp(e.to(torch.{d}){flip}, 0)')}"
        for d in ("complex64", "complex128")
        for flip in ("", ".flip(0)", "[:2]", "[4:9]")
    ),
    f"{_LZ}; [{_RC.format('torch.logcumsumexp(z, d).detach()')} for d in (0, 1, -1)]",
    f"{_LZ}; torch.logcumsumexp(z.detach().to(torch.complex64), 1)",
    f"{_LZ}; z.detach().logcumsumexp(0)",
    f"{_LZ}; o = torch.empty(0, dtype=torch.complex128); torch.logcumsumexp(z.detach(), 1, out=o); o",
    "torch.logcumsumexp(torch.tensor(1 + 2j), 0)",
    "torch.logcumsumexp(torch.tensor(1.5), 0)",
    "torch.logcumsumexp(torch.zeros(0, 3, dtype=torch.complex128), 0)",
    "torch.logcumsumexp(torch.tensor([1e3 + 1j, 1e3 - 1j, -1e3 + 0j]), 0)",
    # gradients: conjugate-based, as for every holomorphic op
    f"{_LZ}; {_LW}; y = torch.logaddexp(z, w); type(y.grad_fn).__name__, y.dtype",
    f"{_LZ}; {_LW}; (torch.logaddexp(z, w).abs() ** 2).sum().backward(); {_RC.format('z.grad')}, {_RC.format('w.grad')}",
    f"{_LZ}; {_LW}; y = torch.logaddexp(z, w); (y.real.sum() + 2 * y.imag.sum()).backward(); {_RC.format('z.grad')}, {_RC.format('w.grad')}",
    f"{_LZ}; (torch.logaddexp(z, torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, requires_grad=True)).abs() ** 2).sum().backward()",
    f"{_LZ}; torch.logaddexp(z.to(torch.complex64), torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)).abs().sum().backward(); z.grad.dtype, {_RC.format('z.grad')}",
    f"{_LZ}; y = torch.logcumsumexp(z, 1); type(y.grad_fn).__name__",
    *(
        f"{_LZ}; (torch.logcumsumexp(z, {d}).abs() ** 2).sum().backward(); {_RC.format('z.grad.resolve_conj()')}"
        for d in (0, 1)
    ),
    f"{_LZ}; y = torch.logcumsumexp(z, 1); (y.real.sum() + 2 * y.imag.sum()).backward(); {_RC.format('z.grad.resolve_conj()')}",
    "z = torch.tensor(1 + 2j, dtype=torch.complex128, requires_grad=True); torch.logcumsumexp(z, 0).abs().backward(); z.grad",
    f"{_LZ}; g, = torch.autograd.grad(torch.logcumsumexp(z, 1).abs().sum(), z, create_graph=True); g.abs().sum().backward(); {_RC.format('z.grad.resolve_conj()')}",
    f"{_LZ}; {_LW}; g, = torch.autograd.grad(torch.logaddexp(z, w).abs().sum(), z, create_graph=True); g.abs().sum().backward(); {_RC.format('w.grad')}",
]
GROUPS["complex_logexp"] = COMPLEX_LOGEXP
