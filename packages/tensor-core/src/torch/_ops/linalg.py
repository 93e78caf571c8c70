"""Matrix products: ``matmul``."""

from __future__ import annotations

import numpy as np

from .. import _blas, _fastpath, _native
from .._interface import OpDef, array_kernels, ops
from .._tensor import Tensor
from ._dispatch import (
    SparseLayoutError,
    as_array,
    check_tensor,
    defop,
    record,
    register_op,
    sparse_kernel,
)

__all__ = ["matmul"]

MATMUL = ops.register(
    OpDef(
        name="matmul",
        signature="matmul(Tensor input, Tensor other) -> Tensor",
        kernels={"cpu": _blas.matmul},
        family="linalg",
    )
)


# the engine computes gradients on arrays with the kernel the op uses
array_kernels.register("matmul", _fastpath.matmul_arrays)


@defop("matmul", method=True, out=True, fast={"Tensor.__matmul__": _fastpath.matmul_2d})
def matmul(input: Tensor, other: Tensor) -> Tensor:
    """Matrix product with NumPy/PyTorch broadcasting over batch dims (1-D operands are
    treated as vectors).

    Examples::

        >>> a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> torch.matmul(a, torch.tensor([1.0, 1.0]))
        tensor([3., 7.])
    """
    check_tensor(input, "matmul")
    check_tensor(other, "matmul", "other")
    try:
        ndims = input._np.ndim, other._np.ndim
    except SparseLayoutError as error:
        return sparse_kernel("matmul", error)(input, other)
    if 0 in ndims:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are "
            f"{ndims[0]}D and {ndims[1]}D"
        )
    if input._dtype is not other._dtype:
        from .gather_scatter import _C_TYPE_NAMES

        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: "
            f"{_C_TYPE_NAMES.get(input._dtype.name, input._dtype.name)} != "
            f"{_C_TYPE_NAMES.get(other._dtype.name, other._dtype.name)}"
        )
    try:
        # small matrices natively (as the operator's fast path), large ones by the BLAS
        result = _native.small_matmul(input._np, other._np)
        if result is None:
            result = _native.blas_matmul(input._np, other._np)
        if result is None:
            result = _blas.matmul(input._np, other._np)
    except ValueError:
        raise _matmul_error(input._np.shape, other._np.shape) from None
    return record(MATMUL, (input, other), Tensor._from_array(as_array(result), input._dtype))


def _shape(t: Tensor) -> str:
    return "x".join(map(str, t._np.shape))


def _matmul_error(a: tuple, b: tuple) -> RuntimeError:
    """PyTorch's message for operands that cannot be multiplied: matmul hands each case
    to dot, mv, mm or bmm, and the message is that kernel's."""
    shape = "x".join
    if len(a) == 1 and len(b) == 1:
        return RuntimeError(
            f"inconsistent tensor size, expected tensor [{a[0]}] and src [{b[0]}] to have the "
            f"same number of elements, but got {a[0]} and {b[0]} elements respectively"
        )
    if len(b) == 1:
        rows = int(np.prod(a[:-1]))
        mat = f"{rows}x{a[-1]}"
        return RuntimeError(f"size mismatch, got input ({rows}), mat ({mat}), vec ({b[0]})")
    if len(a) <= 2 and len(b) == 2:
        left = (1, a[0]) if len(a) == 1 else a
        return RuntimeError(
            "mat1 and mat2 shapes cannot be multiplied "
            f"({shape(map(str, left))} and {shape(map(str, b))})"
        )
    batch_a, batch_b = a[:-2], b[:-2]
    try:
        batch = np.broadcast_shapes(batch_a, batch_b)
    except ValueError:
        width = max(len(batch_a), len(batch_b))
        pa = (1,) * (width - len(batch_a)) + tuple(batch_a)
        pb = (1,) * (width - len(batch_b)) + tuple(batch_b)
        for i, (x, y) in enumerate(zip(pa, pb)):
            if x != y and 1 not in (x, y):
                return RuntimeError(
                    f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                    f"non-singleton dimension {i}"
                )
        raise
    if len(b) == 2 and len(a) > 2:  # folded into one matrix product
        rows = int(np.prod(a[:-1]))
        return RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{a[-1]} and {shape(map(str, b))})"
        )
    count = int(np.prod(batch))
    return RuntimeError(
        "Expected size for first two dimensions of batch2 tensor to be: "
        f"[{count}, {a[-1]}] but got: [{count}, {b[-2]}]."
    )


MATMUL.function = matmul


def _shape_str(t: Tensor) -> str:
    return "x".join(map(str, t._np.shape))


def _check_matrices(name, a, b, a_dims, b_dims):
    if a._np.ndim != a_dims:
        raise RuntimeError(
            f"{'self' if a_dims == 2 else 'batch1'} must be a "
            f"{'matrix' if a_dims == 2 else '3D tensor'}"
        )
    if b._np.ndim != b_dims:
        raise RuntimeError(
            f"{'mat2' if b_dims == 2 else 'batch2'} must be a "
            f"{'matrix' if b_dims == 2 else '3D tensor'}"
        )


@defop("mm", method=True, out=True)
def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """The product of two matrices.

    Examples::

        >>> torch.mm(torch.ones(2, 3), torch.ones(3, 1)).shape
        torch.Size([2, 1])
    """
    try:
        _check_matrices("mm", input, mat2, 2, 2)
    except SparseLayoutError as error:
        return sparse_kernel("mm", error)(input, mat2)
    return matmul(input, mat2)


@defop("bmm", method=True, out=True)
def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """Batched matrix products of two 3-D tensors with the same batch size."""
    _check_matrices("bmm", input, mat2, 3, 3)
    if input._dtype is not mat2._dtype:
        raise RuntimeError(
            f"expected scalar type {input._dtype._legacy[:-6]} but found {mat2._dtype._legacy[:-6]}"
        )
    expected = [input._np.shape[0], input._np.shape[2]]
    if list(mat2._np.shape[:2]) != expected:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"{expected} but got: {list(mat2._np.shape[:2])}."
        )
    return matmul(input, mat2)


@defop("mv", method=True, out=True)
def mv(input: Tensor, vec: Tensor) -> Tensor:
    """Matrix times vector."""
    if input._np.ndim != 2 or vec._np.ndim != 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got {vec._np.ndim}, "
            f"{input._np.ndim}, {vec._np.ndim}"
        )
    if input._np.shape[1] != vec._np.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({input._np.shape[0]}), mat ({_shape(input)}), "
            f"vec ({vec._np.shape[0]})"
        )
    return matmul(input, vec)


def _check_dot_operands(input: Tensor, other: Tensor) -> None:
    """dot's and vdot's checks: two 1-D tensors of one dtype."""
    if input._np.ndim != 1 or other._np.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {input._np.ndim}D and {other._np.ndim}D tensors"
        )
    if input._dtype is not other._dtype:
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{input._dtype._legacy[:-6]} and {other._dtype._legacy[:-6]}"
        )


@defop("dot", method=True, out=True)
def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """The dot product of two 1-D tensors of the same size."""
    _check_dot_operands(input, tensor)
    if input._np.shape != tensor._np.shape:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input._np.shape[0]}] "
            f"and src [{tensor._np.shape[0]}] to have the same number of "
            f"elements, but got {input._np.shape[0]} and {tensor._np.shape[0]} "
            f"elements respectively"
        )
    return matmul(input, tensor)


@defop("outer", method=True, out=True)
def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product of two 1-D tensors."""
    for what, t in (("self", input), ("vec2", vec2)):
        if t.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {what}, but got {t.dim()}-D")
    return input.reshape(-1, 1) * vec2.reshape(1, -1)


@defop("addmm", method=True, inplace=True, out=True)
def addmm(input, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``."""
    product = mm(mat1, mat2)
    return _combine(input, product, beta, alpha)


@defop("addmv", method=True, inplace=True, out=True, torch_inplace=True)
def addmv(input, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``."""
    return _combine(input, mv(mat, vec), beta, alpha)


@defop("baddbmm", method=True, inplace=True, out=True)
def baddbmm(input, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    return _combine(input, bmm(batch1, batch2), beta, alpha)


@defop("addbmm", method=True, inplace=True, out=True)
def addbmm(input, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * sum(bmm(batch1, batch2), 0)``."""
    from .reduction import sum as reduce_sum

    return _combine(input, reduce_sum(bmm(batch1, batch2), 0), beta, alpha)


def _combine(input, product, beta, alpha):
    # NOTE: beta == 0 ignores input entirely (NaNs in it do not propagate), as documented
    if not (product.dtype.is_floating_point or product.dtype.is_complex):
        beta, alpha = int(beta), int(alpha)  # integer products truncate them, as PyTorch
    if isinstance(input, Tensor) and input._np.shape != product._np.shape:
        input = input.expand(product._np.shape)  # PyTorch's expand error for a bad shape
    scaled = product if alpha == 1 else product * alpha
    if beta == 0:
        return scaled
    return scaled + (input if beta == 1 else input * beta)


@defop("einsum")
def einsum(equation: str, *operands) -> Tensor:
    """Einstein summation over ``operands`` (NumPy's subscript language).

    Examples::

        >>> torch.einsum("ij,jk->ik", torch.ones(2, 3), torch.ones(3, 4)).shape
        torch.Size([2, 4])
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    equation = equation.replace(" ", "")
    inputs_spec, arrow, output_spec = equation.partition("->")
    specs = inputs_spec.split(",")
    if len(specs) != len(operands):
        raise RuntimeError(
            "einsum(): more operands were provided than specified in the equation"
            if len(operands) > len(specs)
            else "einsum(): fewer operands were provided than specified in the equation"
        )
    if not arrow:
        letters = sorted({c for c in inputs_spec if c.isalpha() and inputs_spec.count(c) == 1})
        output_spec = "".join(letters)
    from ._dispatch import result_type

    dtype = result_type(*operands)
    _check_subscript_sizes(specs, operands)
    # NOTE: np.einsum has no loops for ml_dtypes' bfloat16: it sums in float32 (as
    # PyTorch accumulates bfloat16 products) and the result is rounded back below
    compute = np.float32 if dtype.name == "bfloat16" else dtype.np_dtype
    try:
        array = _blas.einsum(
            f"{inputs_spec}->{output_spec}",
            *[o._np.astype(compute, copy=False) for o in operands],
        )
    except ValueError as error:
        raise RuntimeError(f"einsum(): {error}") from None
    result = Tensor._from_array(as_array(array, dtype.np_dtype, "C"), dtype)
    return record(EINSUM, operands, result, (tuple(specs), output_spec))


def _check_subscript_sizes(specs, operands) -> None:
    """One size per subscript letter across the operands (size 1 broadcasts)."""
    seen: dict = {}
    for k, (spec, operand) in enumerate(zip(specs, operands)):
        if "." in spec or len(spec) != operand.dim():
            continue  # ellipses and rank errors: NumPy's checks explain
        for letter, size in zip(spec, operand.shape):
            known = seen.setdefault(letter, size)
            if size != known and 1 not in (size, known):
                raise RuntimeError(
                    f"einsum(): subscript {letter} has size {size} for operand {k} which does "
                    f"not broadcast with previously seen size {known}"
                )
            if known == 1:
                seen[letter] = size


EINSUM = register_op(
    "einsum",
    einsum,
    "einsum(str equation, Tensor[] tensors) -> Tensor",
    "linalg",
    kernel=_blas.einsum,
    saved=("specs", "output"),
)


@defop("tensordot", out=True)
def tensordot(a: Tensor, b: Tensor, dims=2) -> Tensor:
    """Contract ``dims`` trailing dims of ``a`` with leading dims of ``b`` (or the listed
    dims), through :func:`einsum`."""
    if isinstance(dims, int):
        a_dims = list(range(a._np.ndim - dims, a._np.ndim))
        b_dims = list(range(dims))
    else:
        a_dims, b_dims = [list(d) if not isinstance(d, int) else [d] for d in dims]
    for i, j in zip(a_dims, b_dims):
        if a.shape[i] != b.shape[j]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {a.shape[i]} in dim "
                f"{i} and second has size {b.shape[j]} in dim {j}"
            )
    letters = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    a_spec = [next(letters) for _ in range(a._np.ndim)]
    b_spec = [next(letters) for _ in range(b._np.ndim)]
    for i, j in zip(a_dims, b_dims):
        b_spec[j] = a_spec[i]
    out = [c for i, c in enumerate(a_spec) if i not in a_dims] + [
        c for j, c in enumerate(b_spec) if j not in b_dims
    ]
    return einsum(f"{''.join(a_spec)},{''.join(b_spec)}->{''.join(out)}", a, b)
