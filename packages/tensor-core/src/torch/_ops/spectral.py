"""Window functions (``torch.hann_window``, ``hamming_window``, ``blackman_window``,
``bartlett_window``, ``kaiser_window``) and the short-time Fourier transform
(``torch.stft``, ``torch.istft`` and their Tensor methods).

Everything is composed of core ops, so autograd differentiates ``stft``/``istft`` through
their parts. The windows are computed in the requested dtype, step by step as PyTorch's
kernels do, so float32 and bfloat16 windows round as PyTorch's.
"""

from __future__ import annotations

import math

from .. import _dtype
from .._tensor import Tensor
from ._dispatch import defop, warn_once

__all__ = [
    "hann_window",
    "hamming_window",
    "blackman_window",
    "bartlett_window",
    "kaiser_window",
    "stft",
    "istft",
]


def _t():
    import torch

    return torch


# ------------------------------------------------------------------------ windows


def _options_text(dtype, device, requires_grad) -> str:
    """PyTorch's printing of the TensorOptions a factory got (its dtype errors show it)."""
    cpp = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char"}
    name = str(dtype).removeprefix("torch.")
    grad = "true" if requires_grad else "false (default)"
    return (
        f"TensorOptions(dtype={cpp.get(name, name)}, device={device or 'cpu'}, "
        f"layout=Strided (default), requires_grad={grad}, pinned_memory=false, "
        "memory_format=(nullopt))"
    )


def _window_start(name, length, dtype, device, requires_grad):
    """Checks of every window factory; the dtype to compute in."""
    dtype = dtype or _dtype.get_default_dtype()
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: "
            f"{_options_text(dtype, device, requires_grad)}"
        )
    if length < 0:
        raise RuntimeError(
            f"{name} requires non-negative window_length, got window_length={length}"
        )
    return dtype


def _finish(window: Tensor, periodic: bool, length: int, requires_grad: bool) -> Tensor:
    """Drop the extra last point of a periodic window; set ``requires_grad``."""
    window = window[:length] if periodic else window
    window = window.contiguous()
    if requires_grad:
        window.requires_grad_(True)
    return window


def _window_points(name, length, periodic, dtype, device, requires_grad):
    """The checked dtype, how many points to compute (one more for a periodic window, which
    ``_finish`` drops) and, for lengths 0 and 1, the finished window (else None)."""
    dtype = _window_start(name, length, dtype, device, requires_grad)
    points = length + 1 if periodic else length
    return dtype, points, _trivial(length, dtype, device, requires_grad)


def _trivial(length, dtype, device, requires_grad):
    """The windows of length 0 and 1 (empty and ``[1.]``), or None."""
    if length > 1:
        return None
    torch = _t()
    window = torch.ones(length, dtype=dtype, device=device)
    return window.requires_grad_(True) if requires_grad else window


@defop("hamming_window")
def hamming_window(
    window_length: int,
    periodic: bool = True,
    alpha: float = 0.54,
    beta: float = 0.46,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """``alpha - beta cos(2 pi n / N)``: N is ``window_length`` when ``periodic`` (the
    window for spectral analysis), else ``window_length - 1`` (symmetric).

    Examples::

        >>> torch.hamming_window(4)
        tensor([0.0800, 0.5400, 1.0000, 0.5400])
    """
    dtype, points, trivial = _window_points(
        "hamming_window", window_length, periodic, dtype, device, requires_grad
    )
    if trivial is not None:
        return trivial
    torch = _t()
    step = torch.arange(points, dtype=dtype, device=device) * (2 * math.pi / (points - 1))
    window = torch.cos(step) * -beta + alpha
    return _finish(window, periodic, window_length, requires_grad)


@defop("hann_window")
def hann_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """``0.5 - 0.5 cos(2 pi n / N)`` (see ``hamming_window`` for N).

    Examples::

        >>> torch.hann_window(4)
        tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    _window_start("hann_window", window_length, dtype, device, requires_grad)
    return hamming_window(
        window_length, periodic, 0.5, 0.5, dtype=dtype, device=device, requires_grad=requires_grad
    )


@defop("blackman_window")
def blackman_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """``0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)``.

    Examples::

        >>> torch.blackman_window(4, dtype=torch.float64)
        tensor([0.0000, 0.3400, 1.0000, 0.3400], dtype=torch.float64)
    """
    dtype, points, trivial = _window_points(
        "blackman_window", window_length, periodic, dtype, device, requires_grad
    )
    if trivial is not None:
        return trivial
    torch = _t()
    half = torch.arange(points, dtype=dtype, device=device) * (math.pi / (points - 1))
    window = torch.cos(half * 4) * 0.08 - torch.cos(half * 2) * 0.5 + 0.42
    return _finish(window, periodic, window_length, requires_grad)


@defop("bartlett_window")
def bartlett_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """The triangular window ``1 - |2n / N - 1|``.

    Examples::

        >>> torch.bartlett_window(4)
        tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    dtype, points, trivial = _window_points(
        "bartlett_window", window_length, periodic, dtype, device, requires_grad
    )
    if trivial is not None:
        return trivial
    torch = _t()
    ramp = torch.arange(points, dtype=dtype, device=device) * (2.0 / (points - 1))
    rising = (points - 1) // 2 + 1  # the first half rises; the rest falls as 2 - ramp
    window = torch.cat([ramp[:rising], 2 - ramp[rising:]])
    return _finish(window, periodic, window_length, requires_grad)


@defop("kaiser_window")
def kaiser_window(
    window_length: int,
    periodic: bool = True,
    beta: float = 12.0,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """``I0(beta sqrt(1 - (2n / N - 1)^2)) / I0(beta)``, I0 the modified Bessel function of
    the first kind of order 0.

    Examples::

        >>> torch.kaiser_window(4, True, 2.0)
        tensor([0.4387, 0.8348, 1.0000, 0.8348])
    """
    dtype, points, trivial = _window_points(
        "kaiser_window", window_length, periodic, dtype, device, requires_grad
    )
    if trivial is not None:
        return trivial
    torch = _t()
    center = (points - 1) / 2.0
    n = torch.arange(points, dtype=torch.float64, device=device)
    ratio = (n - center) / center
    window = torch.i0(beta * torch.sqrt(torch.clamp(1 - ratio * ratio, min=0)))
    window = (window / torch.i0(torch.tensor(beta, dtype=torch.float64))).to(dtype)
    return _finish(window, periodic, window_length, requires_grad)


# --------------------------------------------------------------------------- stft


def _type_text(t: Tensor) -> str:
    return f"{t.type()}[{', '.join(str(n) for n in t.shape)}]"


def _flag(value) -> str:
    return "None" if value is None else str(int(bool(value)))


def _window_text(window) -> str:
    return "None" if window is None else f"{window.type()}{{{list(window.shape)}}}"


def _pad_signal(input: Tensor, pad: int, mode: str) -> Tensor:
    """Pad the last dim by ``pad`` on both ends: "reflect", "constant", "replicate" or
    "circular" (the modes of ``F.pad`` that stft accepts)."""
    torch = _t()
    length = input.shape[-1]
    if mode == "constant":
        return torch.constant_pad_nd(input, (pad, pad))
    if mode == "reflect":
        if pad >= length:
            raise RuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input "
                f"dimension, but got: padding ({pad}, {pad}) at dimension {input.dim() - 1} "
                f"of input {list(input.shape)}"
            )
        index = (
            list(range(pad, 0, -1))
            + list(range(length))
            + list(range(length - 2, length - 2 - pad, -1))
        )
    elif mode == "replicate":
        index = [0] * pad + list(range(length)) + [length - 1] * pad
    elif mode == "circular":
        index = [(i - pad) % length for i in range(length + 2 * pad)]
    else:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    return input.index_select(-1, torch.tensor(index, dtype=torch.int64))


def _padded_window(window, win_length: int, n_fft: int, dtype, device) -> Tensor:
    torch = _t()
    if window is None:
        window = torch.ones(win_length, dtype=dtype, device=device)
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = torch.constant_pad_nd(window, (left, n_fft - win_length - left))
    return window


def _warn_no_window(inverse: bool) -> None:
    advice = (
        "Please provide the same window used by stft to make the inversion lossless."
        if inverse
        else "which is known to cause spectral leakage. Other windows such as "
        "torch.hann_window or torch.hamming_window are recommended to reduce spectral "
        "leakage."
    )
    warn_once(
        "istft window" if inverse else "stft window",
        f"A window was not provided. A rectangular window will be applied{'.' if inverse else ','}"
        f"{advice}To suppress this warning and use a rectangular window, explicitly set "
        "`window=torch.ones(n_fft, device=<device>)`.",
        stacklevel=3,
    )


def _stft_checks(input, n_fft, hop_length, win_length, window, normalized, onesided,
                 return_complex, align_to_window):  # fmt: skip
    def prefix() -> str:
        return (
            f"stft({_type_text(input)}, n_fft={n_fft}, hop_length={hop_length}, "
            f"win_length={win_length}, window={_window_text(window)}, "
            f"normalized={_flag(normalized)}, onesided={_flag(onesided)}, "
            f"return_complex={_flag(return_complex)}, align_to_window={_flag(align_to_window)}) : "
        )

    if input.dim() not in (1, 2):
        raise RuntimeError(prefix() + "expected a 1D or 2D tensor")
    length = input.shape[-1]
    if n_fft <= 0 or n_fft > length:
        raise RuntimeError(prefix() + f"expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop_length <= 0:
        raise RuntimeError(prefix() + f"expected hop_length > 0, but got hop_length={hop_length}")
    if win_length <= 0 or win_length > n_fft:
        raise RuntimeError(
            prefix() + f"expected 0 < win_length <= n_fft, but got win_length={win_length}"
        )
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        raise RuntimeError(
            prefix() + f"expected a 1D window tensor of size equal to win_length={win_length}, "
            f"but got window with size {list(window.shape)}"
        )


@defop("stft", method=True)
def stft(
    input: Tensor,
    n_fft: int,
    hop_length=None,
    win_length=None,
    window=None,
    center: bool = True,
    pad_mode: str = "reflect",
    normalized: bool = False,
    onesided=None,
    return_complex=None,
    align_to_window=None,
) -> Tensor:
    """Short-time Fourier transform: the DFT of each frame of ``n_fft`` samples taken every
    ``hop_length`` (default ``n_fft // 4``) samples, multiplied by ``window`` (length
    ``win_length``, default ``n_fft``, centred in the frame; default rectangular). With
    ``center`` the signal is first padded by ``n_fft // 2`` on both ends (``pad_mode``).
    Returns (freq, frames) or (batch, freq, frames), complex (``return_complex=True``,
    required for real input) or as real pairs (``False``, deprecated). ``onesided`` (the
    default for real input and window) keeps the ``n_fft // 2 + 1`` non-negative
    frequencies; ``normalized`` scales by ``n_fft ** -0.5``.

    Examples::

        >>> torch.stft(torch.arange(8.), 4, window=torch.hann_window(4), return_complex=True).shape
        torch.Size([3, 9])
    """
    torch = _t()
    if center:
        if align_to_window is not None:
            raise ValueError("stft align_to_window should only be set when center = false")
        dims = input.dim()
        pad = n_fft // 2
        extended = input.reshape((1,) * max(0, 3 - dims) + tuple(input.shape))
        padded = _pad_signal(extended, pad, pad_mode)
        input = padded.reshape(tuple(padded.shape[-dims:]))
    complex_input = input.is_complex() or (window is not None and window.is_complex())
    if return_complex is None:
        if not complex_input:
            raise RuntimeError(
                "stft requires the return_complex parameter be given for real inputs, and will "
                "further require that return_complex=True in a future PyTorch release."
            )
        return_complex = True
    elif not return_complex:
        warn_once(
            "stft real",
            "stft with return_complex=False is deprecated. In a future pytorch release, stft "
            "will return complex tensors for all inputs, and return_complex=False will raise "
            "an error.\nNote: you can still call torch.view_as_real on the complex output to "
            "recover the old return format.",
            stacklevel=2,  # (from stft itself: the caller's line)
        )
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    _stft_checks(input, n_fft, hop_length, win_length, window, normalized,
                 onesided, return_complex, align_to_window)  # fmt: skip
    if window is None:
        _warn_no_window(inverse=False)
    window = _padded_window(window, win_length, n_fft, input.real.dtype, input.device)
    batched = input.dim() == 2
    signal = input if batched else input.unsqueeze(0)
    offset = (n_fft - win_length) // 2 if align_to_window else 0
    usable = signal.shape[-1] - offset
    n_frames = 1 + (usable - n_fft) // hop_length
    # NOTE: the samples the frames use are cut before unfold, not the frames after it:
    # autograd overcounts the gradient of a slice of an overlapping (unfold) view
    used = signal[..., offset : offset + (n_frames - 1) * hop_length + n_fft]
    frames = used.unfold(-1, n_fft, hop_length)
    frames = frames * window
    onesided = (not complex_input) if onesided is None else onesided
    if onesided and complex_input:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    spectrum = torch.fft.rfft(frames, dim=-1) if onesided else torch.fft.fft(frames, dim=-1)
    if normalized:
        spectrum = spectrum * (n_fft**-0.5)
    spectrum = spectrum.transpose(-1, -2)
    if not batched:
        spectrum = spectrum.squeeze(0)
    return spectrum if return_complex else torch.view_as_real(spectrum)


@defop("istft", method=True)
def istft(
    input: Tensor,
    n_fft: int,
    hop_length=None,
    win_length=None,
    window=None,
    center: bool = True,
    normalized: bool = False,
    onesided=None,
    length=None,
    return_complex: bool = False,
) -> Tensor:
    """Inverse of ``stft``: the inverse DFT of each frame, windowed, overlap-added and
    divided by the overlap-added squared window (which must not vanish anywhere kept).
    ``length`` trims or zero-pads the signal to that many samples.

    Examples::

        >>> x = torch.arange(8.)
        >>> w = torch.hann_window(4)
        >>> torch.istft(torch.stft(x, 4, window=w, return_complex=True), 4, window=w)
        tensor([0., 1., 2., 3., 4., 5., 6., 7.])
    """
    torch = _t()
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    given_onesided = onesided

    def prefix() -> str:
        kind = {
            "torch.complex64": "CPUComplexFloatType",
            "torch.complex128": "CPUComplexDoubleType",
        }
        name = kind.get(str(input.dtype), input.type())
        return (
            f"istft({name}[{', '.join(str(n) for n in input.shape)}], n_fft={n_fft}, "
            f"hop_length={hop}, win_length={win}, window={_window_text(window)}, "
            f"center={_flag(center)}, normalized={_flag(normalized)}, "
            f"onesided={_flag(given_onesided)}, length={length}, "
            f"return_complex={_flag(return_complex)}) "
        )

    if not input.is_complex():
        raise RuntimeError(
            "istft requires a complex-valued input tensor matching the output from stft with "
            "return_complex=True."
        )
    if input.dim() not in (2, 3):
        raise RuntimeError(
            prefix() + ": expected a tensor with a 2 or 3 dimensions of complex dtype, but "
            f"got {input.dim()}"
        )
    batched = input.dim() == 3
    spectrum = input if batched else input.unsqueeze(0)
    n_freq, n_frames = spectrum.shape[-2], spectrum.shape[-1]
    onesided = (n_freq != n_fft) if onesided is None else onesided
    if onesided:
        if n_fft // 2 + 1 != n_freq:
            raise RuntimeError(
                prefix() + ": expected the frequency dimension (3rd to the last) of the input "
                f"tensor to match n_fft / 2 + 1 when onesided=True, but got {n_freq}"
            )
    elif n_fft != n_freq:
        raise RuntimeError(
            prefix() + ": expected the frequency dimension (3rd to the last) of the input "
            f"tensor to match n_fft when onesided=False, but got {n_freq}"
        )
    if not 0 < win <= n_fft:
        raise RuntimeError(
            prefix() + f": expected 0 < win_length <= n_fft, but got win_length={win}"
        )
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(
            prefix() + ": Invalid window shape. window has to be 1D and length of "
            f"`win_length`. Got window with size {list(window.shape)}"
        )
    if onesided and return_complex:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    if window is None:
        _warn_no_window(inverse=True)
    real_dtype = torch.float64 if input.dtype == torch.complex128 else torch.float32
    window = _padded_window(window, win, n_fft, real_dtype, input.device)
    if normalized:
        spectrum = spectrum * math.sqrt(n_fft)
    frames = spectrum.transpose(-1, -2)  # (batch, frames, freq)
    if onesided:
        frames = torch.fft.irfft(frames, n=n_fft, dim=-1)
    else:
        frames = torch.fft.ifft(frames, n=n_fft, dim=-1)
        frames = frames if return_complex else frames.real
    frames = frames * window
    total = n_fft + hop * (n_frames - 1)
    positions = (torch.arange(n_frames).unsqueeze(-1) * hop + torch.arange(n_fft)).reshape(-1)
    batch = frames.shape[0]
    signal = torch.zeros(batch, total, dtype=frames.dtype).index_add(
        -1, positions, frames.reshape(batch, -1)
    )
    squared = (window * window).expand(n_frames, n_fft).reshape(-1)
    envelope = torch.zeros(total, dtype=squared.dtype).index_add(0, positions, squared)
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    else:
        end = total - n_fft // 2 if center else total
    end = min(end, total)
    signal, envelope = signal[..., start:end], envelope[start:end]
    if bool((envelope.abs() < 1e-11).any()):
        raise RuntimeError(prefix() + "window overlap add min: 1")
    signal = signal / envelope
    if length is not None and signal.shape[-1] < length:
        signal = torch.constant_pad_nd(signal, (0, length - signal.shape[-1]))
    return signal if batched else signal.squeeze(0)
