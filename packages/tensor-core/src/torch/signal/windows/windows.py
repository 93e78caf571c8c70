"""The window functions of ``torch.signal.windows``. Each samples its formula at ``M``
evenly spaced points (``torch.linspace`` in the requested dtype, float32 or float64):
symmetric windows span ``M - 1`` intervals, periodic ones (``sym=False``) ``M``."""

from __future__ import annotations

import math
from collections.abc import Iterable

import torch
from torch import Tensor

__all__ = [
    "bartlett",
    "blackman",
    "cosine",
    "exponential",
    "gaussian",
    "general_cosine",
    "general_hamming",
    "hamming",
    "hann",
    "kaiser",
    "nuttall",
]


def _check(name: str, M: int, dtype, layout) -> None:  # noqa: N803 - SciPy's name
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not torch.strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (torch.float32, torch.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")


def _start(name, M, dtype, layout, device, requires_grad):  # noqa: N803
    """The dtype to use, after the checks; or the finished window for M of 0 or 1."""
    dtype = dtype or torch.get_default_dtype()
    _check(name, M, dtype, layout)
    if M > 1:
        return dtype, None
    window = torch.ones(M, dtype=dtype, device=device, requires_grad=requires_grad)
    return dtype, window


def _points(first: float, step: float, M, dtype, device, requires_grad):  # noqa: N803
    """``M`` points from ``first`` in steps of ``step``."""
    return torch.linspace(
        first, first + (M - 1) * step, M, dtype=dtype, device=device, requires_grad=requires_grad
    )


def exponential(
    M: int,  # noqa: N803
    *,
    center: float | None = None,
    tau: float = 1.0,
    sym: bool = True,
    dtype: torch.dtype | None = None,
    layout: torch.layout = torch.strided,
    device: torch.device | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``exp(-|n - center| / tau)``; ``center`` defaults to the middle and must be left
    unset for a symmetric window.

    Examples::

        >>> torch.signal.windows.exponential(3)
        tensor([0.3679, 1.0000, 0.3679])
    """
    dtype, done = _start("exponential", M, dtype, layout, device, requires_grad)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if done is not None:
        return done
    if center is None:
        center = (M if not sym else M - 1) / 2.0
    k = _points(-center / tau, 1 / tau, M, dtype, device, requires_grad)
    return torch.exp(-torch.abs(k))


def cosine(
    M: int,  # noqa: N803
    *,
    sym: bool = True,
    dtype: torch.dtype | None = None,
    layout: torch.layout = torch.strided,
    device: torch.device | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """The sine window ``sin(pi (n + 1/2) / N)``.

    Examples::

        >>> torch.signal.windows.cosine(3)
        tensor([0.5000, 1.0000, 0.5000])
    """
    dtype, done = _start("cosine", M, dtype, layout, device, requires_grad)
    if done is not None:
        return done
    step = math.pi / (M + 1 if not sym else M)
    return torch.sin(_points(0.5 * step, step, M, dtype, device, requires_grad))


def gaussian(
    M: int,  # noqa: N803
    *,
    std: float = 1.0,
    sym: bool = True,
    dtype: torch.dtype | None = None,
    layout: torch.layout = torch.strided,
    device: torch.device | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``exp(-(n - center)^2 / (2 std^2))``.

    Examples::

        >>> torch.signal.windows.gaussian(3)
        tensor([0.6065, 1.0000, 0.6065])
    """
    dtype, done = _start("gaussian", M, dtype, layout, device, requires_grad)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if done is not None:
        return done
    scale = 1 / (std * math.sqrt(2))
    first = -(M if not sym else M - 1) / 2.0
    k = _points(first * scale, scale, M, dtype, device, requires_grad)
    return torch.exp(-(k**2))


def kaiser(
    M: int,  # noqa: N803
    *,
    beta: float = 12.0,
    sym: bool = True,
    dtype: torch.dtype | None = None,
    layout: torch.layout = torch.strided,
    device: torch.device | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``I0(sqrt(beta^2 - k^2)) / I0(beta)`` for k evenly spaced in [-beta, beta].

    Examples::

        >>> torch.signal.windows.kaiser(3, beta=2.0)
        tensor([0.4387, 1.0000, 0.4387])
    """
    dtype, done = _start("kaiser", M, dtype, layout, device, requires_grad)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    if done is not None:
        return done
    if beta == 0:
        return torch.ones(M, dtype=dtype, device=device, requires_grad=requires_grad)
    step = 2.0 * beta / (M if not sym else M - 1)
    end = min(-beta + (M - 1) * step, beta)
    k = torch.linspace(-beta, end, M, dtype=dtype, device=device, requires_grad=requires_grad)
    peak = torch.i0(torch.tensor(beta, dtype=dtype, device=device))
    return torch.i0(torch.sqrt(beta * beta - torch.pow(k, 2))) / peak


def general_cosine(
    M,  # noqa: N803
    *,
    a: Iterable,
    sym: bool = True,
    dtype: torch.dtype | None = None,
    layout: torch.layout = torch.strided,
    device: torch.device | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``sum_i (-1)^i a_i cos(2 pi i n / N)``.

    Examples::

        >>> torch.signal.windows.general_cosine(3, a=[0.5, 0.5])
        tensor([0., 1., 0.])
    """
    if a is None:
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    dtype, done = _start("general_cosine", M, dtype, layout, device, requires_grad)
    if done is not None:
        return done
    step = 2 * torch.pi / (M if not sym else M - 1)
    k = _points(0.0, step, M, dtype, device, requires_grad)
    signed = torch.tensor(
        [(-1) ** i * w for i, w in enumerate(a)],
        dtype=dtype,
        device=device,
        requires_grad=requires_grad,
    )
    order = torch.arange(signed.shape[0], dtype=signed.dtype, device=device)
    return (signed.unsqueeze(-1) * torch.cos(order.unsqueeze(-1) * k)).sum(0)


def general_hamming(
    M,  # noqa: N803
    *,
    alpha: float = 0.54,
    sym: bool = True,
    dtype: torch.dtype | None = None,
    layout: torch.layout = torch.strided,
    device: torch.device | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``alpha - (1 - alpha) cos(2 pi n / N)``.

    Examples::

        >>> torch.signal.windows.general_hamming(3, alpha=0.6)
        tensor([0.2000, 1.0000, 0.2000])
    """
    return general_cosine(
        M,
        a=[alpha, 1.0 - alpha],
        sym=sym,
        dtype=dtype,
        layout=layout,
        device=device,
        requires_grad=requires_grad,
    )


def _named_cosine(coefficients):
    def window(
        M: int,  # noqa: N803
        *,
        sym: bool = True,
        dtype: torch.dtype | None = None,
        layout: torch.layout = torch.strided,
        device: torch.device | None = None,
        requires_grad: bool = False,
    ) -> Tensor:
        return general_cosine(
            M,
            a=coefficients,
            sym=sym,
            dtype=dtype,
            layout=layout,
            device=device,
            requires_grad=requires_grad,
        )

    return window


def _named(name: str, coefficients, doc: str):
    window = _named_cosine(coefficients)
    window.__name__ = window.__qualname__ = name
    window.__doc__ = doc
    return window


hann = _named(
    "hann",
    [0.5, 0.5],
    """The Hann window ``0.5 - 0.5 cos(2 pi n / N)``.

    Examples::

        >>> torch.signal.windows.hann(3)
        tensor([0., 1., 0.])
    """,
)
hamming = _named(
    "hamming",
    [0.54, 0.46],
    """The Hamming window ``0.54 - 0.46 cos(2 pi n / N)``.

    Examples::

        >>> torch.signal.windows.hamming(3)
        tensor([0.0800, 1.0000, 0.0800])
    """,
)
blackman = _named(
    "blackman",
    [0.42, 0.5, 0.08],
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)``.

    Examples::

        >>> torch.signal.windows.blackman(3, dtype=torch.float64)
        tensor([-1.3878e-17,  1.0000e+00, -1.3878e-17], dtype=torch.float64)
    """,
)
nuttall = _named(
    "nuttall",
    [0.3635819, 0.4891775, 0.1365995, 0.0106411],
    """Nuttall's minimum 4-term Blackman-Harris window.

    Examples::

        >>> torch.signal.windows.nuttall(3, dtype=torch.float64)
        tensor([3.6280e-04, 1.0000e+00, 3.6280e-04], dtype=torch.float64)
    """,
)


def bartlett(
    M: int,  # noqa: N803
    *,
    sym: bool = True,
    dtype: torch.dtype | None = None,
    layout: torch.layout = torch.strided,
    device: torch.device | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """The triangular window ``1 - |2n / N - 1|``.

    Examples::

        >>> torch.signal.windows.bartlett(5)
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    dtype, done = _start("bartlett", M, dtype, layout, device, requires_grad)
    if done is not None:
        return done
    step = 2 / (M if not sym else M - 1)
    return 1 - torch.abs(_points(-1.0, step, M, dtype, device, requires_grad))
