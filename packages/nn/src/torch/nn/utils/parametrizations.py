"""Ready-made parametrizations (see :mod:`torch.nn.utils.parametrize`): orthogonal
weights, weight normalisation and spectral normalisation."""

from __future__ import annotations

from enum import Enum, auto

import numpy as np

import torch

from .. import functional as F  # noqa: N812
from ..modules.module import Module
from . import parametrize
from .weight_norm import norm_except_dim

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


# ------------------------------------------------------------------ orthogonal


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


def _geqrf(matrix: torch.Tensor):
    """LAPACK's compact QR (the Householder vectors below the diagonal of ``a``, R on
    and above it, and the reflector scales ``tau``), matrix by matrix over the batch."""
    array = matrix.detach().cpu().numpy()
    batch = array.reshape((-1,) + array.shape[-2:])
    compact, scales = [], []
    for single in batch:
        raw, tau = np.linalg.qr(single, mode="raw")
        compact.append(raw.T)
        scales.append(tau)
    a = np.stack(compact).reshape(array.shape)
    tau = np.stack(scales).reshape(array.shape[:-2] + (scales[0].shape[-1],))
    return torch.from_numpy(a.copy()).to(matrix.dtype), torch.from_numpy(tau.copy()).to(
        matrix.dtype
    )


def _make_orthogonal(matrix: torch.Tensor) -> torch.Tensor:
    """The Q of ``matrix``'s QR decomposition, with columns signed so that R has a
    positive diagonal (a canonical orthogonal matrix close to ``matrix``)."""
    q, r = torch.linalg.qr(matrix)
    signs = r.diagonal(dim1=-2, dim2=-1).sgn()
    signs = torch.where(signs == 0, torch.ones_like(signs), signs)
    return q * signs.unsqueeze(-2)


def _is_orthogonal(q: torch.Tensor) -> bool:
    n, k = q.shape[-2], q.shape[-1]
    eye = torch.eye(k, dtype=q.dtype)
    tolerance = 10.0 * n * torch.finfo(q.dtype).eps
    return torch.allclose(q.mH @ q, eye, atol=tolerance)


class _Orthogonal(Module):
    """Maps an unconstrained matrix to an orthogonal one (columns orthonormal for tall
    matrices, rows for wide ones). With ``use_trivialization`` the result is
    ``base @ map(X)``, where the buffer ``base`` is the orthogonal matrix last assigned,
    and ``X`` restarts at the point mapping to the identity."""

    def __init__(self, weight, orthogonal_map: _OrthMaps, *, use_trivialization=True) -> None:
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, k = x.shape[-2], x.shape[-1]
        wide = n < k
        if wide:  # work on the tall transpose
            x = x.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            # NOTE: only the lower triangle is used: n*k - k(k-1)/2 free values, embedded
            # as the first k columns of an n x n skew-symmetric matrix
            x = x.tril()
            if n != k:
                padding = x.new_zeros(n, n - k).expand(*x.shape[:-2], n, n - k)
                x = torch.cat([x, padding], dim=-1)
            skew = x - x.mH
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                q = torch.matrix_exp(skew)
            else:  # Cayley: (I - A/2)^-1 (I + A/2)
                eye = torch.eye(n, dtype=skew.dtype)
                q = torch.linalg.solve(eye - 0.5 * skew, eye + 0.5 * skew)
            if n != k:
                q = q[..., :k]
        else:
            # Householder reflectors from the strictly lower part; the diagonal of x only
            # carries signs (+-1), which get no gradient
            reflectors = x.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (reflectors * reflectors).sum(dim=-2))
            q = torch.linalg.householder_product(reflectors, tau)
            signs = x.diagonal(dim1=-2, dim2=-1).detach().int()  # explicit: no gradient
            q = q * signs.unsqueeze(-2)
        if hasattr(self, "base"):
            q = self.base @ q
        if wide:
            q = q.mT
        return q

    def right_inverse(self, q: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            if q.shape != self.shape:
                raise ValueError(
                    f"Expected a matrix or batch of matrices of shape {self.shape}. "
                    f"Got a tensor of shape {q.shape}."
                )
            assigned = q
            n, k = q.shape[-2], q.shape[-1]
            wide = n < k
            if wide:
                q = q.mT
                n, k = k, n
            if not hasattr(self, "base"):
                if self.orthogonal_map != _OrthMaps.householder:
                    raise NotImplementedError(
                        "It is not possible to assign to the matrix exponential or the "
                        "Cayley parametrizations when use_trivialization=False."
                    )
                # the compact QR of q, whose diagonal then holds the signs that make the
                # Householder product reproduce q
                a, tau = _geqrf(q)
                diagonal = a.diagonal(dim1=-2, dim2=-1)
                signs = diagonal.sign()
                signs = torch.where(tau == 0.0, -signs, signs)
                diagonal.copy_(signs)
                return a.mT if wide else a
            if n == k:
                q = q.clone() if _is_orthogonal(q) else _make_orthogonal(q)
            else:  # complete the columns to a square orthogonal matrix
                extra = torch.randn(*(tuple(q.shape[:-2]) + (n, n - k)), dtype=q.dtype)
                q = _make_orthogonal(torch.cat([q, extra], dim=-1))
            self.base = q
            # the stored value restarts at the preimage of the identity: minus the identity
            # (for the Householder map the diagonal's signs are used; -1 everywhere there)
            start = torch.zeros_like(assigned)
            start.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return start


def orthogonal(
    module: Module,
    name: str = "weight",
    orthogonal_map: str | None = None,
    *,
    use_trivialization: bool = True,
) -> Module:
    """Constrain the matrix (or batch of matrices) ``module.<name>`` to be orthogonal
    (unitary for complex ones): ``Q^H Q = I`` for tall or square ``Q``, ``Q Q^H = I`` for
    wide ones.

    Args:
        module (Module): the module.
        name (str): the parameter to constrain. Default: ``"weight"``.
        orthogonal_map (str, optional): ``"matrix_exp"``, ``"cayley"`` or
            ``"householder"``. Default: ``"matrix_exp"`` for square or complex matrices,
            ``"householder"`` otherwise.
        use_trivialization (bool): store the last assigned orthogonal matrix as the
            buffer ``base`` and optimise around it (assigning to ``module.<name>`` is then
            possible for every map). Default: ``True``.

    Returns:
        Module: ``module``, with the parametrization registered.

    Examples::

        >>> m = nn.utils.parametrizations.orthogonal(nn.Linear(4, 4))
        >>> Q = m.weight
        >>> torch.allclose(Q.T @ Q, torch.eye(4), atol=1e-5)
        True
        >>> list(m.state_dict())
        ['bias', 'parametrizations.weight.original', 'parametrizations.weight.0.base']
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(
            f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions."
        )
    if orthogonal_map is None:
        square = weight.shape[-2] == weight.shape[-1]
        orthogonal_map = "matrix_exp" if square or weight.is_complex() else "householder"
    chosen = getattr(_OrthMaps, orthogonal_map, None)
    if not isinstance(chosen, _OrthMaps):
        raise ValueError(
            'orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
            f"Got: {orthogonal_map}"
        )
    parametrization = _Orthogonal(weight, chosen, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, parametrization, unsafe=True)
    return module


# ----------------------------------------------------------------- weight norm


class _WeightNorm(Module):
    """``(g, v) -> v * g / ||v||`` with the norm over every dim but ``dim`` (over the
    whole tensor for ``dim=-1``); its right inverse splits a weight into ``(g, v)``."""

    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: torch.Tensor, weight_v: torch.Tensor) -> torch.Tensor:
        return weight_v * (weight_g / norm_except_dim(weight_v, 2, self.dim))

    def right_inverse(self, weight: torch.Tensor):
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Weight normalisation as a parametrization: ``module.<name>`` is computed as
    ``g * v / ||v||`` from ``parametrizations.<name>.original0`` (the magnitude ``g``)
    and ``original1`` (the direction ``v``). A state_dict written by the deprecated
    :func:`torch.nn.utils.weight_norm` (``<name>_g``, ``<name>_v``) still loads.

    Args:
        module (Module): the module.
        name (str): the parameter. Default: ``"weight"``.
        dim (int, optional): the dim kept by the norm (one magnitude per slice along it);
            ``None`` for one magnitude for the whole tensor. Default: ``0``.

    Returns:
        Module: ``module``, with the parametrization registered.

    Examples::

        >>> m = nn.utils.parametrizations.weight_norm(nn.Linear(20, 40))
        >>> m.parametrizations.weight.original0.shape
        torch.Size([40, 1])
        >>> m.parametrizations.weight.original1.shape
        torch.Size([40, 20])
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def load_old_layout(state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)

    module._register_load_state_dict_pre_hook(load_old_layout)
    return module


# --------------------------------------------------------------- spectral norm


class _SpectralNorm(Module):
    """``W -> W / sigma(W)``, the largest singular value of ``W`` (viewed as a matrix
    with ``dim`` first) estimated by power iteration on the buffers ``_u`` and ``_v``:
    ``n_power_iterations`` steps per forward in training mode, none in eval mode."""

    def __init__(
        self, weight: torch.Tensor, n_power_iterations: int = 1, dim: int = 0, eps=1e-12
    ) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] "
                f"but got {dim})"
            )
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but got "
                f"n_power_iterations={n_power_iterations}"
            )
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            matrix = self._reshape_weight_to_matrix(weight)
            rows, cols = matrix.shape
            u = matrix.new_empty(rows).normal_(0, 1)
            v = matrix.new_empty(cols).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            # a few steps up front, so that the first estimate is already reasonable
            self._power_method(matrix, 15)

    def _reshape_weight_to_matrix(self, weight: torch.Tensor) -> torch.Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, matrix: torch.Tensor, steps: int) -> None:
        # NOTE: in place on the buffers and without gradient: sigma = u^H W v is then
        # differentiated with u and v held constant, as in PyTorch
        with torch.no_grad():
            for _ in range(steps):
                self._u.copy_(F.normalize(torch.mv(matrix, self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(torch.mv(matrix.mH, self._u), dim=0, eps=self.eps))

    def forward(self, weight: torch.Tensor) -> torch.Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        matrix = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(matrix, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = torch.vdot(u, torch.mv(matrix, v))
        return weight / sigma

    def right_inverse(self, value: torch.Tensor) -> torch.Tensor:
        # any W works as its own preimage: W / sigma(W) is invariant to scaling
        return value


def spectral_norm(
    module: Module,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> Module:
    """Spectral normalisation as a parametrization: ``module.<name>`` is the stored
    weight divided by its spectral norm, estimated by power iteration (buffers
    ``parametrizations.<name>.0._u`` and ``._v``, updated on each training-mode access).

    Args:
        module (Module): the module.
        name (str): the parameter. Default: ``"weight"``.
        n_power_iterations (int): power-iteration steps per access. Default: ``1``.
        eps (float): added to norms to avoid dividing by zero. Default: ``1e-12``.
        dim (int, optional): the dim taken as the matrix rows. Default: ``None``, which
            means 1 for the transposed convolutions and 0 otherwise.

    Returns:
        Module: ``module``, with the parametrization registered.

    Examples::

        >>> m = nn.utils.parametrizations.spectral_norm(nn.Linear(20, 40))
        >>> list(m.state_dict())[1:]
        ['parametrizations.weight.original', 'parametrizations.weight.0._u', 'parametrizations.weight.0._v']
    """  # noqa: E501
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d

        transposed = (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)
        dim = 1 if isinstance(module, transposed) else 0
    parametrization = _SpectralNorm(weight, n_power_iterations, dim, eps)
    parametrize.register_parametrization(module, name, parametrization)
    return module
