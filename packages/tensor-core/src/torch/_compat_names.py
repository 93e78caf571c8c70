"""Small public names of PyTorch 2.13 that scripts and libraries touch: predicates kept for
compatibility (``torch.is_distributed``, ``Tensor.is_sparse_csr``), build facts
(``torch.has_lapack``, ``torch.compiled_with_cxx11_abi``), the plain-number forms of the
``torch.sym_*`` helpers, ``norm_except_dim``, ``empty_permuted``, ``Tensor.dim_order``,
and the Tensor methods removed since 1.9 that now raise, naming their replacement.

Each is a thin composition of existing ops or a constant; the Tensor methods are attached
here so the class body stays about the data model.
"""

from __future__ import annotations

import math

from ._tensor import Tensor

__all__ = [
    "compiled_with_cxx11_abi",
    "empty_permuted",
    "get_device",
    "has_lapack",
    "has_openmp",
    "has_spectral",
    "init_num_threads",
    "is_conj",
    "is_distributed",
    "is_signed",
    "is_vulkan_available",
    "is_warn_always_enabled",
    "norm_except_dim",
    "orgqr",
    "set_flush_denormal",
    "set_warn_always",
    "sym_float",
    "sym_int",
    "sym_ite",
    "sym_max",
    "sym_min",
    "sym_not",
    "sym_sqrt",
    "sym_sum",
    "to_dlpack",
]

# ------------------------------------------------------------------ build facts

#: LAPACK comes with NumPy; the FFTs are NumPy's (``torch.fft``); the native kernels
#: use their own thread pool, not OpenMP (as ``torch.backends.openmp.is_available()``)
has_lapack = True
has_spectral = True
has_openmp = False


def compiled_with_cxx11_abi() -> bool:
    """Whether the native core was built with the C++11 ABI of libstdc++ (always: it is
    built by a C++17 compiler)."""
    return True


def is_vulkan_available() -> bool:
    """Whether the Vulkan backend is available (never: this project has none)."""
    return False


def init_num_threads() -> None:
    """Initialise the intra-op thread pool of the calling thread (a no-op here: the pool
    starts on first use)."""


def set_flush_denormal(mode: bool) -> bool:
    """Whether flushing denormal floats to zero could be switched; this project does not
    change the CPU's floating-point flags, so it returns False (PyTorch's answer on CPUs
    without the feature) and nothing changes."""
    return False


_WARN_ALWAYS = [False]


def set_warn_always(b: bool) -> None:
    """Make warnings that PyTorch raises once per process raise every time (a flag that
    code may read back with :func:`is_warn_always_enabled`)."""
    _WARN_ALWAYS[0] = bool(b)


def is_warn_always_enabled() -> bool:
    """The flag set by :func:`set_warn_always` (default False)."""
    return _WARN_ALWAYS[0]


# -------------------------------------------------------- function forms of methods


def is_distributed(input: Tensor) -> bool:
    """Always False (the 0.x distributed tensor type is gone, as in PyTorch)."""
    return False


def get_device(input: Tensor) -> int:
    """``input.get_device()``: the CUDA device index, -1 on the CPU."""
    return input.get_device()


def is_conj(input: Tensor) -> bool:
    """``input.is_conj()``: whether the conjugate bit is set."""
    return input.is_conj()


def is_signed(input: Tensor) -> bool:
    """``input.is_signed()``: whether the dtype holds negative values."""
    return input.is_signed()


def to_dlpack(tensor: Tensor):
    """``torch.utils.dlpack.to_dlpack``: a DLPack capsule sharing ``tensor``'s memory."""
    from .utils.dlpack import to_dlpack as capsule_of

    return capsule_of(tensor)


def orgqr(input: Tensor, tau: Tensor) -> Tensor:
    """The old name of :func:`torch.linalg.householder_product`."""
    from . import linalg

    return linalg.householder_product(input, tau)


def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:  # noqa: A002
    """The ``pow``-norm of ``v`` over every dim but ``dim``, shaped to broadcast against
    ``v`` (what weight normalisation divides by); ``dim=-1`` takes the norm of all of
    ``v`` (a 0-dim result).

    Examples::

        >>> torch.norm_except_dim(torch.tensor([[3.0, 4.0], [0.0, 5.0]]), 2, 0)
        tensor([[5.],
                [5.]])
    """
    if dim == -1:
        return v.norm(pow)
    ndim = v.dim()
    if dim == 0:
        return v.reshape(v.shape[0], -1).norm(pow, dim=1).reshape((-1,) + (1,) * (ndim - 1))
    if dim == ndim - 1:
        return v.reshape(-1, v.shape[-1]).norm(pow, dim=0).reshape((1,) * (ndim - 1) + (-1,))
    moved = v.transpose(0, dim)
    return norm_except_dim(moved, pow, 0).transpose(0, dim)


def empty_permuted(
    size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False
) -> Tensor:
    """An uninitialised tensor of ``size`` whose dims lie in memory in the order
    ``physical_layout`` (outermost first): ``empty_permuted((N, C, H, W), (0, 2, 3, 1))``
    is channels-last.

    Examples::

        >>> torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride()
        (12, 1, 3)
    """
    from ._creation import empty

    size, order = tuple(size), tuple(physical_layout)
    if sorted(order) != list(range(len(size))):
        raise RuntimeError(
            f"Number of dimensions in size does not match the length of the physical_layout; "
            f"i.e. len(size) = {len(size)} is not equal to len(physical_layout) = {len(order)}"
        )
    physical = empty(
        [size[d] for d in order], dtype=dtype, layout=layout, device=device,
        requires_grad=requires_grad,
    )  # fmt: skip
    inverse = sorted(range(len(order)), key=order.__getitem__)
    return physical.permute(inverse)


# ---------------------------------------- torch.sym_*: the forms for plain numbers
# (PyTorch's versions also accept symbolic sizes of traced programs, which do not exist
# here: eager code only ever passes numbers)


def sym_int(a) -> int:
    """``a`` as an int, rounded toward zero."""
    return math.trunc(a) if isinstance(a, float) else int(a)


def sym_float(a) -> float:
    return float(a)


def sym_not(a) -> bool:
    return not a


def sym_max(a, b):
    return max(a, b)


def sym_min(a, b):
    return min(a, b)


def sym_sqrt(a) -> float:
    return math.sqrt(a)


def sym_ite(b, t, f):
    """``t if b else f``."""
    return t if b else f


def sym_sum(args):
    """The sum of ``args`` (starting from 0)."""
    return sum(args)


# ----------------------------------------------------------------- Tensor methods


def _dim_order(self: Tensor, *, ambiguity_check=False) -> tuple:
    """The dims from outermost to innermost in memory (by decreasing stride; equal
    strides keep their order)."""
    strides = self.stride()
    order = tuple(sorted(range(self.dim()), key=lambda d: -strides[d]))
    if ambiguity_check is True and len(set(strides)) != len(strides):
        raise RuntimeError(
            "The tensor does not have unique dim order, or cannot map to exact one of the "
            "given memory formats."
        )
    return order


def _storage_type(self: Tensor):
    """The legacy storage class of this tensor's dtype (``torch.FloatStorage``, ...)."""
    import torch

    return getattr(torch, self._dtype._legacy.replace("Tensor", "Storage"))


def _removed(name: str, first_line: str, advice: str):
    def method(self, *args, **kwargs):
        raise RuntimeError(f"{first_line}\n{advice}")

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Removed from PyTorch: raises, naming the replacement. {advice}"
    return method


_REMOVED_IN_1_9 = "This function was deprecated since version 1.9 and is now removed."
_REMOVED = {
    "eig": (
        f"{_REMOVED_IN_1_9} `torch.linalg.eig` returns complex tensors of dtype `cfloat` or "
        "`cdouble` rather than real tensors mimicking complex tensors.",
        "Use torch.linalg.eigvals(A) for the eigenvalues, torch.linalg.eig(A) for both.",
    ),
    "lstsq": (
        f"{_REMOVED_IN_1_9} `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.",
        "torch.linalg.lstsq(A, B) takes the arguments the other way round.",
    ),
    "solve": (
        f"{_REMOVED_IN_1_9} `torch.solve` is deprecated in favor of `torch.linalg.solve`. "
        "`torch.linalg.solve` has its arguments reversed and does not return the LU "
        "factorization.",
        "Use torch.linalg.solve(A, B), and torch.linalg.lu_factor for the factorization.",
    ),
    "symeig": (
        f"{_REMOVED_IN_1_9} The default behavior has changed from using the upper "
        "triangular portion of the matrix by default to using the lower triangular portion.",
        "Use torch.linalg.eigvalsh(A, UPLO='U') or torch.linalg.eigh(A, UPLO='U').",
    ),
}


def _reinforce(self, reward):
    """Removed from PyTorch: raises; ``torch.distributions`` gives the score-function
    estimator (``-dist.log_prob(action) * reward``)."""
    raise RuntimeError(
        "reinforce() was removed.\nUse torch.distributions instead: sample the action from a "
        "distribution m (e.g. Categorical(probs)) and back-propagate "
        "-m.log_prob(action) * reward."
    )


def _lu_solve(self: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:  # noqa: N803
    import torch

    return torch.lu_solve(self, LU_data, LU_pivots)


def bind() -> None:
    """Attach the Tensor methods."""
    Tensor.dim_order = _dim_order
    Tensor.storage_type = _storage_type
    Tensor.const_data_ptr = Tensor.data_ptr
    Tensor.is_distributed = is_distributed
    Tensor.is_sparse_csr = property(lambda self: False)  # no compressed layouts here
    Tensor.to_sparse_coo = lambda self: self.to_sparse()
    Tensor.orgqr = orgqr
    Tensor.lu_solve = _lu_solve
    Tensor.reinforce = _reinforce
    for name, (first_line, advice) in _REMOVED.items():
        setattr(Tensor, name, _removed(name, first_line, advice))
