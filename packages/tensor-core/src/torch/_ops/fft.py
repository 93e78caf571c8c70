"""Discrete Fourier transforms (``torch.fft``), on NumPy's pocketfft.

Three primitive ops carry every transform and its gradient, as in PyTorch:

- ``_fft_c2c``: complex to complex, forward (``exp(-2 pi i jk/n)``) or inverse;
- ``_fft_r2c``: real to complex, always forward, the whole spectrum or its one-sided
  half (the last transformed dim cut to ``n // 2 + 1``);
- ``_fft_c2r``: a one-sided Hermitian spectrum to a real signal, always inverse.

Each takes ``normalization``, the scale applied to its result: 0 none, 1 by
``1/sqrt(n)``, 2 by ``1/n`` (``n`` the product of the transformed sizes). The adjoint of
a transform has the same scale, so the derivative formulas (torch-autograd's
``_derivatives/fft.py``) keep the number as it is.

The public functions are composites: they check their arguments, promote the input,
trim or zero-pad it to the requested number of points (``narrow`` and ``cat``, which
have derivatives of their own), then call one primitive, conjugating where a transform
is the conjugate of another (``ifft`` of a real signal, ``hfft``, ``ihfft``).
"""

from __future__ import annotations

import numpy as np

from .. import _dtype, _grad_mode
from .._creation import _check_device, _finish
from .._creation import zeros as _zeros
from .._tensor import Tensor
from ._dispatch import record, register_op, wrap_array
from .out_variants import copy_into_out
from .shape_ops import cat, roll

__all__ = [
    "fft",
    "ifft",
    "rfft",
    "irfft",
    "hfft",
    "ihfft",
    "fft2",
    "ifft2",
    "rfft2",
    "irfft2",
    "hfft2",
    "ihfft2",
    "fftn",
    "ifftn",
    "rfftn",
    "irfftn",
    "hfftn",
    "ihfftn",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]

_FAMILY = "fft"

# ------------------------------------------------------------------------- kernels
# Array in, array out: nothing here knows about tensors (a CuPy backend would run the
# same calls through ``cupy.fft``).

#: normalization number -> NumPy's ``norm`` for a forward and for an inverse transform
_FORWARD_NORM = ("backward", "ortho", "forward")
_INVERSE_NORM = ("forward", "ortho", "backward")


def _c2c_kernel(array, dims: tuple, normalization: int, forward: bool):
    if not dims:  # fftn over no dims: the input, as complex
        return array.copy()
    if forward:
        return np.fft.fftn(array, axes=dims, norm=_FORWARD_NORM[normalization])
    return np.fft.ifftn(array, axes=dims, norm=_INVERSE_NORM[normalization])


def _r2c_kernel(array, dims: tuple, normalization: int, onesided: bool):
    transform = np.fft.rfftn if onesided else np.fft.fftn
    return transform(array, axes=dims, norm=_FORWARD_NORM[normalization])


def _c2r_kernel(array, dims: tuple, normalization: int, last_dim_size: int):
    sizes = [array.shape[d] for d in dims[:-1]] + [last_dim_size]
    return np.fft.irfftn(array, s=sizes, axes=dims, norm=_INVERSE_NORM[normalization])


# ----------------------------------------------------------------------- primitives
# NumPy >= 2 transforms float32 in single precision, NumPy 1.x always in double: the
# result is cast to the dtype PyTorch gives either way (a no-op on NumPy >= 2).


def _fft_c2c(input: Tensor, dim, normalization: int, forward: bool) -> Tensor:
    dims = tuple(dim)
    array = _c2c_kernel(input._np, dims, normalization, forward)
    result = wrap_array(array, input._dtype)
    return record(FFT_C2C, (input,), result, (dims, normalization, forward))


def _fft_r2c(input: Tensor, dim, normalization: int, onesided: bool) -> Tensor:
    dims = tuple(dim)
    array = _r2c_kernel(input._np, dims, normalization, onesided)
    result = wrap_array(array, input._dtype.to_complex())
    return record(FFT_R2C, (input,), result, (dims, normalization, onesided))


def _fft_c2r(input: Tensor, dim, normalization: int, last_dim_size: int) -> Tensor:
    dims = tuple(dim)
    array = _c2r_kernel(input._np, dims, normalization, last_dim_size)
    result = wrap_array(array, input._dtype.to_real())
    return record(FFT_C2R, (input,), result, (dims, normalization, last_dim_size))


FFT_C2C = register_op(
    "_fft_c2c",
    _fft_c2c,
    "_fft_c2c(Tensor self, SymInt[] dim, int normalization, bool forward) -> Tensor",
    _FAMILY,
    saved=("dim", "normalization", "forward"),
)
FFT_R2C = register_op(
    "_fft_r2c",
    _fft_r2c,
    "_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor",
    _FAMILY,
    saved=("dim", "normalization", "onesided"),
)
FFT_C2R = register_op(
    "_fft_c2r",
    _fft_c2r,
    "_fft_c2r(Tensor self, int[] dim, int normalization, SymInt last_dim_size) -> Tensor",
    _FAMILY,
    saved=("dim", "normalization", "last_dim_size"),
)


# ------------------------------------------------------------------ argument checks


def _type_name(value) -> str:
    return type(value).__name__


def _check_tensor(input, name: str) -> None:
    if not isinstance(input, Tensor):
        raise TypeError(
            f"fft_{name}(): argument 'input' (position 1) must be Tensor, not {_type_name(input)}"
        )


def _check_int(value, name: str, arg: str) -> None:
    if type(value) is not int and not isinstance(value, np.integer):
        raise TypeError(f"fft_{name}(): argument '{arg}' must be int, not {_type_name(value)}")


def _normalization(norm, forward: bool, name: str) -> int:
    """The scale number of ``norm`` for a transform in the ``forward`` direction."""
    if norm is None or norm == "backward":
        return 0 if forward else 2
    if norm == "ortho":
        return 1
    if norm == "forward":
        return 2 if forward else 0
    if not isinstance(norm, str):
        raise TypeError(f"fft_{name}(): argument 'norm' must be str, not {_type_name(norm)}")
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _wrap_dim(input: Tensor, dim: int) -> int:
    if input._np.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return input._wrap_dim(dim)


def _check_points(n: int) -> int:
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return n


#: PyTorch's messages for complex input of the transforms that take a real signal
_REAL_INPUT_MESSAGES = {
    "rfft": "rfft expects a real input tensor, but got {}",
    "ihfft": "ihfft expects a real input tensor, but got {}",
    "rfftn": "rfftn expects a real-valued input tensor, but got {}",
    "ihfftn": "Only supports floating-point dtypes, but found: {}",
}


def _promoted(input: Tensor, require_real: bool = False, name: str = "") -> Tensor:
    """``input`` in a dtype the transforms take: integers and bool become the default
    float dtype; half precision has no CPU kernel in PyTorch either."""
    dtype = input._dtype
    if dtype in (_dtype.float16, _dtype.bfloat16):
        raise RuntimeError(f"Unsupported dtype {dtype._legacy[:-6]}")
    if dtype is _dtype.complex32:
        raise RuntimeError("MKL FFT doesn't support tensors of type: Half")
    if dtype.is_complex:
        if require_real:
            raise RuntimeError(_REAL_INPUT_MESSAGES[name].format(dtype._legacy[:-6]))
        return input
    if dtype.is_floating_point:
        return input
    return input.to(_dtype.get_default_dtype())


def _as_complex(input: Tensor) -> Tensor:
    """The input of a complex-to-real transform (a real one is read as complex)."""
    input = _promoted(input)
    return input if input._dtype.is_complex else input.to(input._dtype.to_complex())


def _resized(input: Tensor, dims, sizes) -> Tensor:
    """``input`` trimmed or zero-padded at the end of each of ``dims`` to ``sizes``."""
    for d, n in zip(dims, sizes):
        current = input.shape[d]
        if n < current:
            input = input.narrow(d, 0, n)
        elif n > current:
            shape = list(input.shape)
            shape[d] = n - current
            input = cat([input, _zeros(shape, dtype=input._dtype, device=input.device)], d)
    return input


def _checked_dim(input, n, dim, name: str) -> int:
    """The ``dim`` of a 1-D transform, wrapped, after the argument checks."""
    _check_tensor(input, name)
    _check_int(dim, name, "dim")
    if n is not None:
        _check_int(n, name, "n")
    return _wrap_dim(input, dim)


def _one_dim(input, n, dim, name: str):
    """The checked ``dim`` (wrapped) and ``n`` (the size of ``dim`` when None) of a 1-D
    transform."""
    dim = _checked_dim(input, n, dim, name)
    return dim, _check_points(input.shape[dim] if n is None else int(n))


def _as_tuple(value, name: str, arg: str) -> tuple:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),)
    if not isinstance(value, (tuple, list, Tensor)):
        raise TypeError(
            f"fft_{name}(): argument '{arg}' must be tuple of ints, not {_type_name(value)}"
        )
    return tuple(int(v) for v in value)


def _n_dims(input, s, dim, name: str):
    """The transformed dims (wrapped, in the given order) and their sizes of an n-D
    transform; a size of -1 in ``s`` keeps the input's size."""
    _check_tensor(input, name)
    ndim = input._np.ndim
    dims = None if dim is None else tuple(_wrap_dim(input, d) for d in _as_tuple(dim, name, "dim"))
    if dims is not None and len(set(dims)) != len(dims):
        raise RuntimeError("FFT dims must be unique")
    if s is None:
        dims = tuple(range(ndim)) if dims is None else dims
        return dims, tuple(_check_points(input.shape[d]) for d in dims)
    s = _as_tuple(s, name, "s")
    if dims is None:
        if len(s) > ndim:
            raise RuntimeError(
                f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions."
            )
        dims = tuple(range(ndim - len(s), ndim))
    elif len(s) != len(dims):
        raise RuntimeError("When given, dim and shape arguments must have the same length")
    sizes = tuple(input.shape[d] if n == -1 else n for d, n in zip(dims, s))
    return dims, tuple(_check_points(n) for n in sizes)


def _with_out(result: Tensor, out, name: str, input: Tensor) -> Tensor:
    """``result``, or ``result`` copied into ``out`` (which must be complex for a
    complex result, real floating for a real one)."""
    if out is None:
        return result
    if not isinstance(out, Tensor):
        raise TypeError(f"fft_{name}(): argument 'out' must be Tensor, not {_type_name(out)}")
    if result._dtype.is_complex and not out._dtype.is_complex:
        raise RuntimeError(
            f"{name} expects a complex output tensor, but got {out._dtype._legacy[:-6]}"
        )
    if not result._dtype.is_complex and not out._dtype.is_floating_point:
        raise RuntimeError(
            f"{name} expects a floating point output tensor, but got {out._dtype._legacy[:-6]}"
        )
    if _grad_mode._state.enabled and result._requires_grad:
        primitive = "_fft_c2r" if not result._dtype.is_complex else "_fft_r2c"
        primitive = "_fft_c2c" if input._dtype.is_complex else primitive
        raise RuntimeError(
            f"{primitive}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    return copy_into_out(result, out, name)


# ----------------------------------------------------------- the transforms, by kind
# Each public function below names its kind of transform; these do the work for the
# 1-D, 2-D and n-D forms alike.


def _complex_transform(input: Tensor, dims, sizes, norm, forward: bool, name: str) -> Tensor:
    """``fft``/``ifft`` and their n-D forms: the full spectrum of a real or complex input."""
    normalization = _normalization(norm, forward, name)
    x = _resized(_promoted(input), dims, sizes)
    if x._dtype.is_complex:
        return _fft_c2c(x, dims, normalization, forward)
    # a real signal's spectrum is Hermitian: its inverse is the conjugate of its forward
    spectrum = _fft_r2c(x, dims, normalization, False)
    return spectrum if forward else spectrum.conj()


def _real_to_half(input: Tensor, dims, sizes, norm, forward: bool, name: str) -> Tensor:
    """``rfft`` (forward) and ``ihfft`` (inverse): the one-sided spectrum of a real input."""
    if not dims:
        raise RuntimeError(f"{name} must transform at least one axis")
    normalization = _normalization(norm, forward, name)
    x = _resized(_promoted(input, require_real=True, name=name), dims, sizes)
    spectrum = _fft_r2c(x, dims, normalization, True)
    return spectrum if forward else spectrum.conj()


def _half_to_real(input: Tensor, dims, sizes, last_dim_size, norm, forward: bool, name: str):
    """``irfft`` (inverse) and ``hfft`` (forward): the real signal of a one-sided spectrum;
    ``last_dim_size`` None gives ``2 * (m - 1)`` for ``m`` input points."""
    if not dims:
        raise RuntimeError(f"{name} must transform at least one axis")
    normalization = _normalization(norm, forward, name)
    if last_dim_size is None:
        last_dim_size = 2 * (input.shape[dims[-1]] - 1)
    last_dim_size = _check_points(last_dim_size)
    x = _resized(_as_complex(input), dims, (*sizes[:-1], last_dim_size // 2 + 1))
    # hfft is the forward transform of a Hermitian signal: the inverse of its conjugate
    return _fft_c2r(x if not forward else x.conj(), dims, normalization, last_dim_size)


# ------------------------------------------------------------------------ 1-D forms


def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *, out=None):
    """The discrete Fourier transform of ``input`` along ``dim``.

    Args:
        input (Tensor): the signal, real or complex (integers become the default float
            dtype).
        n (int, optional): the number of points: the signal is cut or zero-padded to it
            (default: its size along ``dim``).
        dim (int, optional): the dim to transform. Default: -1.
        norm (str, optional): ``"backward"`` (default: no scaling), ``"ortho"`` (scale by
            ``1/sqrt(n)``) or ``"forward"`` (scale by ``1/n``).
        out (Tensor, optional): a complex tensor for the result.

    Examples::

        >>> torch.fft.fft(torch.tensor([1.0, 2.0, 3.0, 4.0]))
        tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
        >>> torch.fft.fft(torch.tensor([1.0, 1.0]), n=4, norm="forward")
        tensor([0.5000+0.0000j, 0.2500-0.2500j, 0.0000+0.0000j, 0.2500+0.2500j])
    """
    dim, n = _one_dim(input, n, dim, "fft")
    return _with_out(_complex_transform(input, (dim,), (n,), norm, True, "fft"), out, "fft", input)


def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *, out=None):
    """The inverse of :func:`fft` (with the default ``norm``, scaled by ``1/n``).

    Args: as :func:`fft`; ``norm="backward"`` (the default) scales by ``1/n`` here,
    ``"forward"`` not at all.

    Examples::

        >>> torch.fft.ifft(torch.tensor([10.0 + 0j, -2 + 2j, -2, -2 - 2j]))
        tensor([1.+0.j, 2.+0.j, 3.+0.j, 4.+0.j])
    """
    dim, n = _one_dim(input, n, dim, "ifft")
    result = _complex_transform(input, (dim,), (n,), norm, False, "ifft")
    return _with_out(result, out, "ifft", input)


def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *, out=None):
    """The one-sided spectrum of a real signal: the first ``n // 2 + 1`` values of
    :func:`fft` (the rest are their complex conjugates).

    Args: as :func:`fft`; ``input`` must be real.

    Examples::

        >>> torch.fft.rfft(torch.tensor([1.0, 2.0, 3.0, 4.0]))
        tensor([10.+0.j, -2.+2.j, -2.+0.j])
    """
    dim, n = _one_dim(input, n, dim, "rfft")
    return _with_out(_real_to_half(input, (dim,), (n,), norm, True, "rfft"), out, "rfft", input)


def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *, out=None):
    """The inverse of :func:`rfft`: the real signal of ``n`` points whose one-sided
    spectrum is ``input``.

    Args:
        input (Tensor): the one-sided spectrum (a real one is read as complex).
        n (int, optional): the length of the result (default: ``2 * (m - 1)`` for ``m``
            input points, so give it for an odd length). The input is cut or zero-padded
            to ``n // 2 + 1`` points.
        dim, norm, out: as :func:`ifft`; ``out`` must be real.

    Examples::

        >>> torch.fft.irfft(torch.tensor([10.0 + 0j, -2 + 2j, -2]))
        tensor([1., 2., 3., 4.])
        >>> torch.fft.irfft(torch.tensor([10.0 + 0j, -2 + 2j, -2]), n=3).shape
        torch.Size([3])
    """
    dim = _checked_dim(input, n, dim, "irfft")
    result = _half_to_real(input, (dim,), (None,), n, norm, False, "irfft")
    return _with_out(result, out, "irfft", input)


def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *, out=None):
    """The (real) spectrum of a signal with Hermitian symmetry, given by its first half:
    :func:`irfft` of the conjugate, with the scaling of a forward transform.

    Args: as :func:`irfft`; ``norm="backward"`` (the default) does not scale.

    Examples::

        >>> torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0]))
        tensor([ 8., -2.,  0., -2.])
    """
    dim = _checked_dim(input, n, dim, "hfft")
    result = _half_to_real(input, (dim,), (None,), n, norm, True, "hfft")
    return _with_out(result, out, "hfft", input)


def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *, out=None):
    """The inverse of :func:`hfft`: the first ``n // 2 + 1`` values of :func:`ifft` of a
    real signal.

    Args: as :func:`ifft`; ``input`` must be real.

    Examples::

        >>> torch.fft.ihfft(torch.tensor([8.0, -2.0, 0.0, -2.0]))
        tensor([1.-0.j, 2.-0.j, 3.-0.j])
    """
    dim, n = _one_dim(input, n, dim, "ihfft")
    result = _real_to_half(input, (dim,), (n,), norm, False, "ihfft")
    return _with_out(result, out, "ihfft", input)


# ------------------------------------------------------------------ n-D and 2-D forms


def fftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The n-dimensional discrete Fourier transform over ``dim``.

    Args:
        input (Tensor): the signal, real or complex.
        s (sequence of ints, optional): the number of points along each transformed dim
            (-1 keeps the input's size; default: the input's sizes).
        dim (sequence of ints, optional): the dims to transform (default: the last
            ``len(s)`` dims when ``s`` is given, else all of them).
        norm (str, optional): as :func:`fft`, ``n`` being the product of the sizes.
        out (Tensor, optional): a complex tensor for the result.

    Examples::

        >>> torch.fft.fftn(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor([[10.+0.j, -2.+0.j],
                [-4.+0.j,  0.+0.j]])
    """
    dims, sizes = _n_dims(input, s, dim, "fftn")
    result = _complex_transform(input, dims, sizes, norm, True, "fftn")
    return _with_out(result, out, "fftn", input)


def ifftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The inverse of :func:`fftn`.

    Examples::

        >>> torch.fft.ifftn(torch.tensor([[10.0, -2.0], [-4.0, 0.0]])).real
        tensor([[1., 2.],
                [3., 4.]])
    """
    dims, sizes = _n_dims(input, s, dim, "ifftn")
    result = _complex_transform(input, dims, sizes, norm, False, "ifftn")
    return _with_out(result, out, "ifftn", input)


def rfftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """:func:`fftn` of a real signal, one-sided in the last of ``dim``.

    Examples::

        >>> torch.fft.rfftn(torch.ones(2, 4)).shape
        torch.Size([2, 3])
    """
    dims, sizes = _n_dims(input, s, dim, "rfftn")
    return _with_out(_real_to_half(input, dims, sizes, norm, True, "rfftn"), out, "rfftn", input)


def _c2r_sizes(input: Tensor, s, dim, name: str):
    """Dims, sizes and output length of the last dim of a complex-to-real n-D transform
    (the last dim's input size is the one-sided length, not the output's)."""
    dims, sizes = _n_dims(input, s, dim, name)
    if not dims:
        return dims, sizes, None
    given = None if s is None else _as_tuple(s, name, "s")[-1]
    return dims, sizes, None if given in (None, -1) else given


def irfftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The inverse of :func:`rfftn`; the last entry of ``s`` is the output length of the
    last transformed dim (default: ``2 * (m - 1)``).

    Examples::

        >>> torch.fft.irfftn(torch.fft.rfftn(torch.ones(2, 3)), s=(2, 3))
        tensor([[1., 1., 1.],
                [1., 1., 1.]])
    """
    dims, sizes, last = _c2r_sizes(input, s, dim, "irfftn")
    result = _half_to_real(input, dims, sizes, last, norm, False, "irfftn")
    return _with_out(result, out, "irfftn", input)


def hfftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The n-dimensional :func:`hfft`: a real spectrum of a Hermitian signal given by its
    half (one-sided in the last of ``dim``).

    Examples::

        >>> torch.fft.hfftn(torch.ones(2, 2)).shape
        torch.Size([2, 2])
    """
    dims, sizes, last = _c2r_sizes(input, s, dim, "hfftn")
    result = _half_to_real(input, dims, sizes, last, norm, True, "hfftn")
    return _with_out(result, out, "hfftn", input)


def ihfftn(input: Tensor, s=None, dim=None, norm: str | None = None, *, out=None) -> Tensor:
    """The inverse of :func:`hfftn`: :func:`ifftn` of a real signal, one-sided in the last
    of ``dim``.

    Examples::

        >>> torch.fft.ihfftn(torch.ones(2, 4)).shape
        torch.Size([2, 3])
    """
    dims, sizes = _n_dims(input, s, dim, "ihfftn")
    result = _real_to_half(input, dims, sizes, norm, False, "ihfftn")
    return _with_out(result, out, "ihfftn", input)


def _over_last_two_dims(n_dim, shape_of_ones: str):
    """The 2-D form of the n-D transform ``n_dim`` (``fftn`` -> ``fft2``): the same
    function with ``dim=(-2, -1)`` by default. ``shape_of_ones``: the shape it gives for a
    2 x 4 input, for its docstring's example."""
    name = n_dim.__name__[:-1] + "2"

    def function(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None, *, out=None):
        return n_dim(input, s, dim, norm, out=out)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f":func:`{n_dim.__name__}` over the last two dims (by default).\n\n"
        "Examples::\n\n"
        "    >>> import torch\n"
        f"    >>> torch.fft.{name}(torch.ones(2, 4)).shape\n"
        f"    torch.Size({shape_of_ones})\n"
    )
    return function


fft2 = _over_last_two_dims(fftn, "[2, 4]")
ifft2 = _over_last_two_dims(ifftn, "[2, 4]")
rfft2 = _over_last_two_dims(rfftn, "[2, 3]")
irfft2 = _over_last_two_dims(irfftn, "[2, 6]")
hfft2 = _over_last_two_dims(hfftn, "[2, 6]")
ihfft2 = _over_last_two_dims(ihfftn, "[2, 3]")


# ------------------------------------------------------------- frequencies and shifts


def _frequencies(n, d, dtype, name: str, out, onesided: bool):
    """``[0, 1, ..., -2, -1] / (d * n)`` (``onesided``: the non-negative half) as
    ``dtype``, computed as PyTorch does: an ``arange`` times ``1 / (d * n)`` in ``dtype``."""
    if type(n) is not int:
        raise TypeError(f"fft_{name}(): argument 'n' (position 1) must be int, not {_type_name(n)}")
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if dtype is None:
        dtype = out._dtype if isinstance(out, Tensor) else _dtype.get_default_dtype()
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    if dtype.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtype._legacy[:-6]}'")
    if onesided:
        steps = np.arange(n // 2 + 1)
    else:
        steps = np.concatenate([np.arange((n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.float64(1.0) / (np.float64(n) * float(d))
        return steps.astype(dtype.np_dtype) * dtype.np_dtype.type(scale), dtype


def _sample_frequencies(name: str, onesided: bool, doc: str):
    """``torch.fft.<name>``: the sample frequencies of a (one-sided when ``onesided``)
    transform of ``n`` points taken ``d`` apart, as a tensor made like ``torch.arange``'s."""

    def frequencies(
        n: int,
        d: float = 1.0,
        *,
        out=None,
        dtype=None,
        layout=None,
        device=None,
        requires_grad: bool = False,
    ) -> Tensor:
        values, dtype = _frequencies(n, d, dtype, name, out, onesided=onesided)
        result = _finish(values, dtype, requires_grad and out is None, _check_device(device))
        return result if out is None else copy_into_out(result, out, name)

    frequencies.__name__ = frequencies.__qualname__ = name
    frequencies.__doc__ = doc
    return frequencies


fftfreq = _sample_frequencies(
    "fftfreq",
    False,
    """The sample frequencies of :func:`fft` of ``n`` points taken ``d`` apart:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``.

    Args:
        n (int): the number of points.
        d (float, optional): the spacing of the points. Default: 1.0.
        out (Tensor, optional): the output tensor.
        dtype (torch.dtype, optional): a floating dtype (default: the default dtype).
        layout, device, requires_grad: as for :func:`torch.arange`.

    Examples::

        >>> torch.fft.fftfreq(4)
        tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
    """,
)
rfftfreq = _sample_frequencies(
    "rfftfreq",
    True,
    """The sample frequencies of :func:`rfft` of ``n`` points taken ``d`` apart:
    ``[0, 1, ..., n // 2] / (d * n)``.

    Args: as :func:`fftfreq`.

    Examples::

        >>> torch.fft.rfftfreq(5, d=0.5)
        tensor([0.0000, 0.4000, 0.8000])
    """,
)


def _shift(input: Tensor, dim, inverse: bool, name: str) -> Tensor:
    _check_tensor(input, name)
    if dim is None:
        dims = tuple(range(input._np.ndim))
    else:
        dims = tuple(_wrap_dim(input, d) for d in _as_tuple(dim, name, "dim"))
    if not dims:
        return input.clone() if input._np.ndim == 0 else input
    sizes = [input.shape[d] for d in dims]
    shifts = [(n + 1) // 2 if inverse else n // 2 for n in sizes]
    return roll(input, shifts, dims)


def fftshift(input: Tensor, dim=None) -> Tensor:
    """Move the zero frequency of an :func:`fft` result to the middle: each of ``dim``
    (default: all dims) is rolled by half its size.

    Examples::

        >>> torch.fft.fftshift(torch.fft.fftfreq(5))
        tensor([-0.4000, -0.2000,  0.0000,  0.2000,  0.4000])
    """
    return _shift(input, dim, False, "fftshift")


def ifftshift(input: Tensor, dim=None) -> Tensor:
    """The inverse of :func:`fftshift`.

    Examples::

        >>> torch.fft.ifftshift(torch.fft.fftshift(torch.arange(5)))
        tensor([0, 1, 2, 3, 4])
    """
    return _shift(input, dim, True, "ifftshift")


# ------------------------------------------------------------ registry entries
# The public functions are composites: their gradients come from the primitives above
# (and narrow/cat/conj/roll), so they carry no derivative entry of their own.

for _name in __all__:
    register_op(
        f"fft_{_name}",
        globals()[_name],
        f"fft_{_name}(...)",
        _FAMILY,
        differentiable=False,
        composite=True,
        binding=f"torch.fft.{_name}",
    )
del _name
