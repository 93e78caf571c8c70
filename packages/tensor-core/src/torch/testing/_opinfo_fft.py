"""Op-database entries of ``torch.fft``, against ``numpy.fft``.

A complex result is compared (and differentiated) through ``view_as_real``, so the core
test compares real arrays and the autograd tests see a real output. Samples of two
tensors make a complex signal ``re + i im``: the reference test covers complex input that
way, while the complex gradcheck (first two samples, made complex128) covers it for
gradients, so single-tensor samples come first.
"""

from __future__ import annotations

import numpy as np

import torch

from ._opinfo_base import OpInfo, SampleInput, _make

__all__ = ["FFT_OPS"]


def _signal(re, im=None):
    return re if im is None else torch.complex(re, im)


def _np_signal(re, im=None):
    return re if im is None else re + 1j * im


def _as_real(result):
    return torch.view_as_real(result) if result.is_complex() else result


def _np_as_real(result):
    result = np.asarray(result)
    return np.stack([result.real, result.imag], -1) if np.iscomplexobj(result) else result


def _entry(name, reference, samples, real_input=False, axis=None, default_dims=None):
    """The row of ``torch.fft.<name>`` (op ``fft_<name>``) against ``reference`` (a
    ``numpy.fft`` function or one written here). ``axis``: the reference's name for our
    ``dim`` (``"axis"`` for the 1-D forms, else ``"axes"``); ``default_dims``: our default
    ``dim`` where it differs from NumPy's (none: NumPy's default)."""
    function = getattr(torch.fft, name)

    def op(*tensors, **kwargs):
        return _as_real(function(_signal(*tensors), **kwargs))

    def ref(*arrays, **kwargs):
        dim = kwargs.pop("dim", default_dims)
        if dim is None and "s" in kwargs:  # NumPy 2 wants the axes of ``s`` spelled out
            dim = tuple(range(-len(kwargs["s"]), 0))
        if dim is not None:
            kwargs[axis or "axes"] = dim
        return _np_as_real(reference(_np_signal(*arrays), **kwargs))

    return OpInfo(f"fft_{name}", op, ref, samples, supports_complex_grad=not real_input)


def _one_dim_samples(complex_samples=True):
    def samples(dtype):
        result = [
            SampleInput((_make((4, 5), dtype, 1),)),
            SampleInput((_make((3, 4), dtype, 2),), kwargs={"n": 6, "dim": 0, "norm": "ortho"}),
            SampleInput((_make((6,), dtype, 3),), kwargs={"n": 4, "norm": "forward"}),
        ]
        if complex_samples:
            result.append(SampleInput((_make((5,), dtype, 4), _make((5,), dtype, 5)), kwargs={}))
        return result

    return samples


def _half_spectrum_samples(dtype):
    """Inputs of irfft/hfft: one-sided spectra, with odd and even output lengths."""
    return [
        SampleInput((_make((3, 4), dtype, 6),)),
        SampleInput((_make((4,), dtype, 7),), kwargs={"n": 7, "norm": "ortho"}),
        SampleInput((_make((5, 3), dtype, 8),), kwargs={"n": 4, "dim": 0, "norm": "forward"}),
        SampleInput((_make((4,), dtype, 9), _make((4,), dtype, 10)), kwargs={"n": 5}),
    ]


def _n_dim_samples(complex_samples=True):
    def samples(dtype):
        result = [
            SampleInput((_make((3, 4), dtype, 11),)),
            SampleInput((_make((2, 3, 4), dtype, 12),), kwargs={"s": (4, 3), "norm": "ortho"}),
            SampleInput((_make((3, 4), dtype, 13),), kwargs={"dim": (1, 0), "norm": "forward"}),
        ]
        if complex_samples:
            result.append(SampleInput((_make((3, 2), dtype, 14), _make((3, 2), dtype, 15))))
        return result

    return samples


def _n_dim_half_samples(dtype):
    return [
        SampleInput((_make((3, 4), dtype, 16),)),
        SampleInput((_make((2, 3, 3), dtype, 17),), kwargs={"s": (3, 5), "norm": "ortho"}),
        SampleInput((_make((3, 4), dtype, 18),), kwargs={"dim": (1, 0), "norm": "forward"}),
        SampleInput((_make((2, 3), dtype, 19), _make((2, 3), dtype, 20))),
    ]


def _two_dim_samples(dtype):
    return [
        SampleInput((_make((2, 3, 4), dtype, 21),)),
        SampleInput((_make((3, 4), dtype, 22),), kwargs={"s": (4, 6), "norm": "ortho"}),
    ]


# numpy.fft has no n-D hfft/ihfft: hfftn(x) is irfftn(conj(x)) scaled as a forward
# transform, ihfftn(x) the conjugate of rfftn(x) scaled as an inverse one
_SWAPPED_NORM = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _hfftn_ref(a, s=None, axes=None, norm=None):
    return np.fft.irfftn(np.conj(a), s, axes, _SWAPPED_NORM[norm])


def _ihfftn_ref(a, s=None, axes=None, norm=None):
    return np.conj(np.fft.rfftn(a, s, axes, _SWAPPED_NORM[norm]))


_LAST_TWO = (-2, -1)

_TRANSFORMS = [
    _entry("fft", np.fft.fft, _one_dim_samples(), axis="axis"),
    _entry("ifft", np.fft.ifft, _one_dim_samples(), axis="axis"),
    _entry("rfft", np.fft.rfft, _one_dim_samples(False), real_input=True, axis="axis"),
    _entry("ihfft", np.fft.ihfft, _one_dim_samples(False), real_input=True, axis="axis"),
    _entry("irfft", np.fft.irfft, _half_spectrum_samples, axis="axis"),
    _entry("hfft", np.fft.hfft, _half_spectrum_samples, axis="axis"),
    _entry("fftn", np.fft.fftn, _n_dim_samples()),
    _entry("ifftn", np.fft.ifftn, _n_dim_samples()),
    _entry("rfftn", np.fft.rfftn, _n_dim_samples(False), real_input=True),
    _entry("irfftn", np.fft.irfftn, _n_dim_half_samples),
    _entry("hfftn", _hfftn_ref, _n_dim_half_samples),
    _entry("ihfftn", _ihfftn_ref, _n_dim_samples(False), real_input=True),
    _entry("fft2", np.fft.fft2, _two_dim_samples),
    _entry("ifft2", np.fft.ifft2, _two_dim_samples),
    _entry("rfft2", np.fft.rfft2, _two_dim_samples, real_input=True),
    _entry("irfft2", np.fft.irfft2, _two_dim_samples),
    _entry("hfft2", _hfftn_ref, _two_dim_samples, default_dims=_LAST_TWO),
    _entry("ihfft2", _ihfftn_ref, _two_dim_samples, real_input=True, default_dims=_LAST_TWO),
]


def _frequency_samples(dtype):
    return [
        SampleInput((), (1,)),
        SampleInput((), (6, 0.5)),
        SampleInput((), (7, 2.0)),
    ]


def _frequency_entry(name):
    function, reference = getattr(torch.fft, name), getattr(np.fft, name)
    return OpInfo(
        f"fft_{name}",
        lambda n, d=1.0, dtype=None: function(n, d, dtype=dtype),
        lambda n, d=1.0, dtype=None: reference(n, d),
        lambda dtype: [
            SampleInput(s.tensors, s.args, {"dtype": dtype}) for s in _frequency_samples(dtype)
        ],
        differentiable=False,
    )


def _shift_samples(dtype):
    return [
        SampleInput((_make((5,), dtype, 23),)),
        SampleInput((_make((3, 4), dtype, 24),)),
        SampleInput((_make((3, 4, 5), dtype, 25),), kwargs={"dim": (0, -1)}),
        SampleInput((_make((3, 4), dtype, 26),), kwargs={"dim": 1}),
    ]


def _shift_entry(name):
    function, reference = getattr(torch.fft, name), getattr(np.fft, name)
    return OpInfo(
        f"fft_{name}",
        lambda x, dim=None: function(x, dim),
        lambda a, dim=None: reference(a, dim),
        _shift_samples,
        supports_complex_grad=True,
    )


FFT_OPS = [
    *_TRANSFORMS,
    _frequency_entry("fftfreq"),
    _frequency_entry("rfftfreq"),
    _shift_entry("fftshift"),
    _shift_entry("ifftshift"),
]
