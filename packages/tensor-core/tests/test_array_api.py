"""The array API namespace (2024.12 revision) of ``torch.Tensor``: its names, the
standard's semantics where they differ from PyTorch's, and gradients through it.
The full differential check against array-api-strict is tools/array_api_conformance.py
(nox session ``array-api``); a short run of it is the last test here."""

import importlib.util
import math
import pathlib
import sys

import numpy as np
import pytest

import torch

xp = torch.zeros(1).__array_namespace__()

# every name of the 2024.12 revision: functions, constants, dtypes, extensions
STANDARD_2024_12 = """
abs acos acosh add all any arange argmax argmin argsort asarray asin asinh astype atan atan2
atanh bitwise_and bitwise_invert bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor
bool broadcast_arrays broadcast_to can_cast ceil clip complex128 complex64 concat conj copysign
cos cosh count_nonzero cumulative_prod cumulative_sum diff divide e empty empty_like equal exp
expand_dims expm1 eye fft finfo flip float32 float64 floor floor_divide from_dlpack full
full_like greater greater_equal hypot iinfo imag inf int16 int32 int64 int8 isdtype isfinite
isinf isnan less less_equal linalg linspace log log10 log1p log2 logaddexp logical_and
logical_not logical_or logical_xor matmul matrix_transpose max maximum mean meshgrid min minimum
moveaxis multiply nan negative newaxis nextafter nonzero not_equal ones ones_like permute_dims pi
positive pow prod real reciprocal remainder repeat reshape result_type roll round searchsorted
sign signbit sin sinh sort sqrt square squeeze stack std subtract sum take take_along_axis tan
tanh tensordot tile tril triu trunc uint16 uint32 uint64 uint8 unique_all unique_counts
unique_inverse unique_values unstack var vecdot where zeros zeros_like
__array_namespace_info__
""".split()
LINALG = """cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power
matrix_rank matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot
vector_norm""".split()
FFT = """fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift
ifftshift""".split()


def test_every_name_of_the_revision():
    assert xp.__array_api_version__ == "2024.12"
    assert [n for n in STANDARD_2024_12 if not hasattr(xp, n)] == []
    assert [n for n in LINALG if not hasattr(xp.linalg, n)] == []
    assert [n for n in FFT if not hasattr(xp.fft, n)] == []


def test_namespace_versions():
    t = torch.zeros(1)
    assert t.__array_namespace__(api_version="2024.12") is xp
    with pytest.raises(ValueError, match="Unrecognized array API version"):
        t.__array_namespace__(api_version="2099.01")


def test_inspection():
    info = xp.__array_namespace_info__()
    assert info.capabilities()["boolean indexing"] and info.capabilities()["max dimensions"]
    assert info.default_device() == torch.device("cpu") and info.devices() == [torch.device("cpu")]
    assert info.default_dtypes() == {
        "real floating": torch.float32,
        "complex floating": torch.complex64,
        "integral": torch.int64,
        "indexing": torch.int64,
    }
    assert list(info.dtypes(kind="unsigned integer")) == ["uint8", "uint16", "uint32", "uint64"]
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {
        "bool",
        "complex64",
        "complex128",
    }
    with pytest.raises(ValueError, match="kind"):
        info.dtypes(kind="real")


def test_standard_semantics_where_pytorch_differs():
    u8 = xp.asarray([200, 100], dtype=xp.uint8)
    assert xp.sum(u8).dtype is torch.uint64 and int(xp.sum(u8)) == 300
    assert xp.sum(xp.asarray([1, 2], dtype=xp.int32)).dtype is torch.int64
    x = xp.asarray([1.0, 2.0, 4.0])
    assert math.isclose(
        float(xp.std(x, correction=1)), float(np.std([1, 2, 4], ddof=1)), rel_tol=1e-6
    )
    assert xp.var(x).item() == pytest.approx(np.var([1.0, 2.0, 4.0]))
    # uint16 computes in the namespace (PyTorch's own add refuses it)
    a = xp.asarray([1, 2], dtype=xp.uint16)
    assert xp.add(a, a).tolist() == [2, 4] and xp.add(a, a).dtype is torch.uint16
    with pytest.raises(NotImplementedError, match="add_stub"):
        a + a
    assert xp.cumulative_sum(a, include_initial=True).tolist() == [0, 1, 3]
    assert xp.cumulative_prod(xp.asarray([2, 3])).tolist() == [2, 6]


def test_sets_sorting_searching():
    values, indices, inverse, counts = xp.unique_all(xp.asarray([[3, 1], [1, 2]]))
    assert values.tolist() == [1, 2, 3] and indices.tolist() == [1, 3, 0]
    assert inverse.tolist() == [[2, 0], [0, 1]] and counts.tolist() == [2, 1, 1]
    nans = xp.unique_values(xp.asarray([float("nan"), float("nan")]))
    assert nans.shape == (2,)  # each NaN is distinct
    x = xp.asarray([3, 1, 3, 2])
    assert xp.argsort(x, descending=True).tolist() == [0, 2, 3, 1]  # stable
    assert xp.searchsorted(xp.asarray([1, 2, 2, 5]), xp.asarray([2, 6]), side="right").tolist() == [
        3,
        4,
    ]
    idx = xp.asarray([[1, 0], [0, 0]])
    taken = xp.take_along_axis(xp.asarray([[10, 20], [30, 40]]), idx, axis=1)
    assert taken.tolist() == [[20, 10], [30, 30]]
    assert xp.count_nonzero(xp.asarray([[0, 1], [2, 0]]), axis=1).tolist() == [1, 1]


def test_elementwise_additions_of_recent_revisions():
    x = xp.asarray([-2.0, 0.5, 3.0])
    assert xp.hypot(xp.asarray([3.0]), xp.asarray([4.0])).tolist() == [5.0]
    assert xp.copysign(x, xp.asarray(-1.0)).tolist() == [-2.0, -0.5, -3.0]
    assert xp.signbit(xp.asarray([-0.0, 0.0])).tolist() == [True, False]
    assert xp.nextafter(xp.asarray([1.0]), xp.asarray([2.0])).item() > 1.0
    assert xp.clip(x, min=-1, max=1).tolist() == [-1.0, 0.5, 1.0]
    assert xp.clip(xp.asarray([1, 300], dtype=xp.int16), max=200).tolist() == [1, 200]
    assert xp.reciprocal(xp.asarray([4.0])).tolist() == [0.25]
    assert xp.diff(xp.asarray([1, 4, 9]), prepend=xp.asarray([0])).tolist() == [1, 3, 5]


def test_creation_and_copies():
    t = torch.arange(3)
    assert xp.asarray(t) is t and xp.asarray(t, copy=True) is not t
    with pytest.raises(ValueError, match="copy"):
        xp.asarray([1, 2], copy=False)
    with pytest.raises(ValueError, match="copy"):
        xp.asarray(t, dtype=xp.float64, copy=False)
    assert xp.astype(t, xp.int64, copy=False) is t
    assert xp.astype(t, xp.int64).data_ptr() != t.data_ptr()
    assert xp.asarray([1.5]).dtype is torch.float32 and xp.asarray([1]).dtype is torch.int64
    assert xp.full((2,), True).dtype is torch.bool
    assert xp.linspace(0, 1, 3, endpoint=False).tolist() == pytest.approx([0, 1 / 3, 2 / 3])
    with pytest.raises(OverflowError):
        xp.asarray([2**70])


def test_views_share_memory():
    t = torch.zeros(2, 3)
    view = xp.permute_dims(t, (1, 0))
    view[0, 1] = 5.0
    assert t[1, 0].item() == 5.0
    with pytest.raises(ValueError, match="squeeze"):
        xp.squeeze(t, axis=0)
    with pytest.raises(ValueError, match="copy"):
        xp.reshape(xp.matrix_transpose(t), (6,), copy=False)


def test_dtype_functions():
    assert xp.result_type(xp.int8, xp.uint8) is torch.int16
    assert xp.result_type(xp.uint32, xp.int32) is torch.int64
    assert xp.result_type(xp.float32, xp.complex128) is torch.complex128
    assert xp.result_type(xp.asarray([1], dtype=xp.int8), 300) is torch.int8
    with pytest.raises(TypeError):
        xp.result_type(xp.int8, xp.float32)
    assert xp.can_cast(xp.int8, xp.int16) and not xp.can_cast(xp.int16, xp.uint64)
    assert xp.isdtype(xp.uint16, "unsigned integer") and xp.isdtype(xp.float32, ("bool", "numeric"))
    assert xp.finfo(xp.complex64).dtype is torch.float32 and xp.iinfo(xp.uint16).max == 65535


def test_linalg_and_fft():
    a = xp.asarray([[4.0, 1.0], [1.0, 3.0]], dtype=xp.float64)
    assert xp.linalg.eigh(a).eigenvalues.shape == (2,)
    q, r = xp.linalg.qr(a)
    assert np.allclose((q @ r).numpy(), a.numpy())
    assert xp.linalg.matrix_rank(a).item() == 2 and xp.linalg.solve(
        a, xp.asarray([1.0, 2.0])
    ).shape == (2,)
    assert xp.fft.fft(xp.asarray([1.0, 0.0, 0.0, 0.0])).dtype is torch.complex64
    assert xp.fft.fftfreq(4).dtype is torch.float32


@pytest.mark.autograd
def test_gradients_flow_through_the_namespace():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    xp.sum(xp.multiply(xp.exp(x), 2.0)).backward()
    assert torch.allclose(x.grad, 2 * torch.exp(x.detach()))


def test_dlpack_round_trip():
    t = torch.arange(4.0)
    back = xp.from_dlpack(np.arange(4.0))
    assert back.tolist() == t.tolist()
    copied = xp.from_dlpack(t, copy=True)
    assert copied.data_ptr() != t.data_ptr() and copied.tolist() == t.tolist()
    assert t.__dlpack__(copy=True, max_version=(1, 0), dl_device=(1, 0)) is not None


def test_torch_from_dlpack_device_and_copy():
    a = np.arange(3.0)
    copied, shared = torch.from_dlpack(a, copy=True), torch.from_dlpack(a, device="cpu")
    a[0] = 9.0
    assert copied[0].item() == 0.0 and shared[0].item() == 9.0
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        torch.from_dlpack(a, device="cuda")
    with pytest.raises(BufferError, match="Cannot pack tensors on meta"):
        torch.from_dlpack(a, device="meta")


@pytest.mark.skipif(
    importlib.util.find_spec("array_api_strict") is None, reason="needs array-api-strict"
)
def test_differential_check_against_array_api_strict():
    tools = pathlib.Path(__file__).resolve().parents[3] / "tools"
    sys.path.insert(0, str(tools))
    try:
        import array_api_conformance as check
    finally:
        sys.path.remove(str(tools))
    results = check.run(xp, examples=3)
    assert {name: failure for name, failure in results.items() if failure} == {}
