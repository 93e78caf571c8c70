"""Expressions using the public names of PyTorch 2.13 that torch-core added for the
public-names check of issue 20 (tests/test_public_names.py at the repository root): the
in-place neural-network functions of ``torch``, ``torch.bilinear``, the window functions,
``stft``/``istft``, ...

tools/golden/record_added_names.py records what real PyTorch gives
(golden/added_names.json); test_added_names.py compares, values to a relative tolerance
of 1e-5 (float64 to 1e-10). Each outcome is the value (tensors as dtype, shape and
values) or the error's builtin type and message.
"""

from __future__ import annotations

import math

import golden_describe  # beside this file (the recorder puts this folder on the path)

SETUP = """
x = torch.tensor([-2., -0.5, 0., 0.5, 2.])
def grad_of(f, *values):
    leaf = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    f(leaf * 1).sum().backward()
    return leaf.grad
class Sub(torch.Tensor):
    pass
def temp_file(values):
    import os, tempfile
    import numpy as np
    path = os.path.join(tempfile.mkdtemp(), "values.bin")
    np.asarray(values, dtype=np.float32).tofile(path)
    return path
def file_floats(path):
    import numpy as np
    return np.fromfile(path, dtype=np.float32).tolist()
def step_in_hook(t):
    with torch.no_grad():
        t.sub_(t.grad)
    t.grad = None
"""

NN_INPLACE = {
    "celu_": "y = x.clone(); r = torch.celu_(y, 2.0); (r, r is y)",
    "selu_": "y = x.clone(); r = torch.selu_(y); (r, r is y)",
    "selu_long": "torch.selu_(torch.tensor([1, -2]))",
    "celu_long": "torch.celu(torch.tensor([1, -2]))",
    "selu_grad": "grad_of(torch.selu_, -1., 2.)",
    "selu_leaf": "torch.selu_(torch.ones(2, requires_grad=True))",
    "threshold_": "y = x.clone(); torch.threshold_(y, 0.1, 20.); y",
    "threshold_long": "torch.threshold_(torch.tensor([1, -2]), 0.5, 2.5)",
    "threshold_bool": "torch.threshold(torch.tensor([True, False]), 0.5, 2.5)",
    "threshold_grad": "grad_of(lambda t: torch.threshold_(t, 0.5, 3.), -1., 2.)",
    "rrelu_eval": "y = x.clone(); torch.rrelu_(y); y",
    "rrelu_train": "torch.manual_seed(0); y = x.clone(); torch.rrelu_(y, 0.1, 0.3, True); y",
    "rrelu_long": "torch.rrelu_(torch.tensor([1, -2]))",
    "dropout_": (
        "torch.manual_seed(0); y = torch.ones(8); r = torch.dropout_(y, 0.5, True); (y, r is y)"
    ),
    "dropout_eval": "y = torch.ones(3); torch.dropout_(y, 0.5, False)",
    "dropout_p1": "torch.dropout_(torch.ones(3), 1.0, True)",
    "dropout_bad_p": "torch.dropout_(torch.ones(3), 1.5, True)",
    "dropout_long": "torch.dropout_(torch.tensor([1, 2]), 0.5, True)",
    "dropout_grad": (
        "torch.manual_seed(0); grad_of(lambda t: torch.dropout_(t, 0.5, True), 1., 2., 3., 4.)"
    ),
    "feature_dropout_": (
        "torch.manual_seed(0); torch.feature_dropout_(torch.ones(2, 3, 2), 0.5, True)"
    ),
    "alpha_dropout_": "torch.manual_seed(0); torch.alpha_dropout_(torch.ones(6), 0.5, True)",
    "feature_alpha_dropout_": (
        "torch.manual_seed(0); torch.feature_alpha_dropout_(torch.ones(2, 3, 1), 0.5, True)"
    ),
    "native_dropout": "torch.manual_seed(0); torch.native_dropout(torch.ones(6), 0.5, True)",
    "native_dropout_eval": "torch.native_dropout(torch.ones(3), 0.5, False)",
    "native_dropout_none": "torch.manual_seed(1); torch.native_dropout(torch.ones(3), 0.5, None)",
    "native_dropout_p1": "torch.native_dropout(torch.ones(3), 1.0, True)",
    "embedding_renorm_": (
        "w = torch.arange(9.).reshape(3, 3); "
        "torch.embedding_renorm_(w, torch.tensor([0, 2, 2]), 1.0, 2.0); w"
    ),
    "embedding_renorm_float_indices": (
        "torch.embedding_renorm_(torch.ones(3, 3), torch.tensor([0.]), 1., 2.)"
    ),
    "bilinear": (
        "i1 = torch.arange(6.).reshape(2, 3); i2 = torch.arange(8.).reshape(2, 4); "
        "W = torch.arange(24.).reshape(2, 3, 4) / 10; "
        "torch.bilinear(i1, i2, W, torch.tensor([1., 2.]))"
    ),
    "bilinear_no_bias": "torch.bilinear(torch.ones(3), torch.ones(4), torch.ones(2, 3, 4))",
    "bilinear_batch": "torch.bilinear(torch.ones(2, 3), torch.ones(1, 4), torch.ones(1, 3, 4))",
    "bilinear_dims": "torch.bilinear(torch.ones(2, 3), torch.ones(2, 2, 4), torch.ones(1, 3, 4))",
    "bilinear_input1": "torch.bilinear(torch.ones(2, 2), torch.ones(2, 4), torch.ones(1, 3, 4))",
    "bilinear_input2": "torch.bilinear(torch.ones(2, 3), torch.ones(2, 4), torch.ones(1, 3, 3))",
    "bilinear_bias": (
        "torch.bilinear(torch.ones(2, 3), torch.ones(2, 4), torch.ones(1, 3, 4), torch.ones(2))"
    ),
    "channel_shuffle": "torch.channel_shuffle(torch.arange(24.).reshape(1, 6, 2, 2), 2)",
    "native_channel_shuffle": (
        "torch.native_channel_shuffle(torch.arange(12.).reshape(1, 6, 2), 3)"
    ),
    "channel_shuffle_groups": "torch.channel_shuffle(torch.ones(1, 6, 2), 4)",
    "channel_shuffle_dims": "torch.channel_shuffle(torch.ones(2, 4), 2)",
    "channel_shuffle_zero": "torch.channel_shuffle(torch.ones(1, 4, 2), 0)",
    "conv_tbc": (
        "torch.manual_seed(0); a = torch.randn(5, 2, 3); w = torch.randn(3, 3, 4); "
        "b = torch.randn(4); torch.conv_tbc(a, w, b, 1)"
    ),
    "conv_tbc_no_pad": (
        "torch.conv_tbc(torch.ones(5, 2, 3), torch.ones(3, 3, 4), torch.ones(4)).shape"
    ),
    "conv_tbc_channels": "torch.conv_tbc(torch.ones(5, 2, 3), torch.ones(3, 2, 4), torch.ones(4))",
    "conv_tbc_dims": "torch.conv_tbc(torch.ones(2, 3), torch.ones(3, 3, 4), torch.ones(4))",
    "conv_tbc_bias": "torch.conv_tbc(torch.ones(5, 2, 3), torch.ones(3, 3, 4), torch.ones(2))",
    "native_group_norm": (
        "torch.manual_seed(0); g = torch.randn(2, 4, 3); "
        "torch.native_group_norm(g, torch.ones(4), torch.zeros(4), 2, 4, 3, 2, 1e-5)"
    ),
    "grid_sampler_2d": (
        "torch.grid_sampler_2d(torch.arange(16.).reshape(1, 1, 4, 4), "
        "torch.tensor([[[[0., 0.], [0.5, -0.5]]]]), 0, 0, False)"
    ),
    "grid_sampler_2d_dims": (
        "torch.grid_sampler_2d(torch.ones(1, 1, 2, 2, 2), torch.zeros(1, 1, 1, 1, 3), 0, 0, False)"
    ),
    "grid_sampler_3d": (
        "torch.grid_sampler_3d(torch.arange(8.).reshape(1, 1, 2, 2, 2), "
        "torch.zeros(1, 1, 1, 1, 3), 0, 0, False)"
    ),
}

_W = "torch.signal.windows."
WINDOWS = {
    "hann_window": "torch.hann_window(5)",
    "hann_window_symmetric": "torch.hann_window(5, False)",
    "hann_window_one": "torch.hann_window(1)",
    "hann_window_empty": "torch.hann_window(0)",
    "hann_window_bfloat16": "torch.hann_window(4, dtype=torch.bfloat16)",
    "hann_window_grad": "torch.hann_window(3, requires_grad=True).requires_grad",
    "hann_window_long": "torch.hann_window(3, dtype=torch.int64)",
    "hann_window_negative": "torch.hann_window(-1)",
    "hamming_window": "torch.hamming_window(5, True, 0.5, 0.4)",
    "hamming_window_default": "torch.hamming_window(6, dtype=torch.float64)",
    "blackman_window": "torch.blackman_window(5, dtype=torch.float64)",
    "blackman_window_periodic": "torch.blackman_window(6)",
    "bartlett_window": "torch.bartlett_window(6)",
    "bartlett_window_symmetric": "torch.bartlett_window(5, False, dtype=torch.float64)",
    "kaiser_window": "torch.kaiser_window(6)",
    "kaiser_window_beta": "torch.kaiser_window(6, False, 5.0, dtype=torch.float64)",
    "kaiser_window_int": "torch.kaiser_window(3, dtype=torch.int32)",
    "windows_hann": _W + "hann(5)",
    "windows_hann_periodic": _W + "hann(5, sym=False)",
    "windows_gaussian": _W + "gaussian(5, std=2.)",
    "windows_exponential": _W + "exponential(5)",
    "windows_exponential_center": _W + "exponential(5, center=1., tau=2., sym=False)",
    "windows_exponential_sym_center": _W + "exponential(5, center=1.)",
    "windows_cosine": _W + "cosine(4)",
    "windows_cosine_periodic": _W + "cosine(4, sym=False, dtype=torch.float64)",
    "windows_general_cosine": _W + "general_cosine(5, a=[0.5, 0.5])",
    "windows_general_hamming": _W + "general_hamming(5, alpha=0.6)",
    "windows_nuttall": _W + "nuttall(5, dtype=torch.float64)",
    "windows_kaiser": _W + "kaiser(5, beta=3.)",
    "windows_kaiser_zero": _W + "kaiser(4, beta=0.)",
    "windows_blackman": _W + "blackman(6, sym=False, dtype=torch.float64)",
    "windows_bartlett": _W + "bartlett(5)",
    "windows_hamming": _W + "hamming(5)",
    "windows_one": _W + "hamming(1)",
    "windows_negative": _W + "hann(-1)",
    "windows_long": _W + "hann(3, dtype=torch.int64)",
    "windows_bad_std": _W + "gaussian(4, std=-1.)",
    "windows_no_coefficients": _W + "general_cosine(4, a=[])",
    "torch_windows_alias": "torch.windows is torch.signal.windows",
}

_SIGNAL = "torch.manual_seed(0); s = torch.randn(20); "
_SPECTRUM = (
    _SIGNAL + "w = torch.hann_window(8); z = torch.stft(s, 8, window=w, return_complex=True); "
)
STFT = {
    "stft": _SIGNAL + "torch.stft(s, 8, window=torch.ones(8), return_complex=True)",
    "stft_hop_window": _SIGNAL
    + "torch.stft(s, 8, 2, window=torch.hann_window(8), return_complex=True)",
    "stft_short_window": (
        _SIGNAL + "torch.stft(s, 8, 4, 6, torch.hann_window(6), center=False, return_complex=True)"
    ),
    "stft_real_pairs": _SIGNAL + "torch.stft(s, 8, window=torch.ones(8), return_complex=False)",
    "stft_needs_return_complex": _SIGNAL + "torch.stft(s, 8)",
    "stft_twosided_normalized": (
        _SIGNAL + "torch.stft(s, 8, window=torch.ones(8), onesided=False, normalized=True, "
        "return_complex=True)"
    ),
    "stft_batch_constant": (
        _SIGNAL + "torch.stft(s.reshape(2, 10), 4, window=torch.ones(4), pad_mode='constant', "
        "return_complex=True)"
    ),
    "stft_replicate": (
        _SIGNAL + "torch.stft(s, 4, window=torch.ones(4), pad_mode='replicate', "
        "return_complex=True)"
    ),
    "stft_circular": (
        _SIGNAL + "torch.stft(s, 4, window=torch.ones(4), pad_mode='circular', return_complex=True)"
    ),
    "stft_long_frame": _SIGNAL + "torch.stft(s, 30, window=torch.ones(30), return_complex=True)",
    "stft_hop_zero": _SIGNAL + "torch.stft(s, 8, hop_length=0, return_complex=True)",
    "stft_win_too_long": _SIGNAL + "torch.stft(s, 8, win_length=9, return_complex=True)",
    "stft_window_size": _SIGNAL + "torch.stft(s, 8, window=torch.ones(5), return_complex=True)",
    "stft_3d": _SIGNAL + "torch.stft(s.reshape(1, 2, 10), 4, return_complex=True)",
    "stft_zero_fft": _SIGNAL + "torch.stft(s, 0, return_complex=True)",
    "stft_complex": (
        _SIGNAL + "torch.stft(s.to(torch.complex128), 8, window=torch.ones(8, dtype=torch.float64))"
    ),
    "stft_method": _SIGNAL + "s.stft(8, window=torch.ones(8), return_complex=True, center=False)",
    "stft_float64": (
        _SIGNAL + "torch.stft(s.double(), 6, 3, window=torch.hann_window(6, dtype=torch.float64), "
        "return_complex=True)"
    ),
    "stft_grad": (
        "torch.manual_seed(0); v = torch.randn(12, dtype=torch.float64); "
        "grad_of(lambda t: torch.stft(t, 4, window=torch.hann_window(4, dtype=torch.float64), "
        "return_complex=True).abs(), *v.tolist())"
    ),
    "istft": _SPECTRUM + "torch.istft(z, 8, window=w)",
    "istft_length": _SPECTRUM + "torch.istft(z, 8, window=w, length=18)",
    "istft_longer": _SPECTRUM + "torch.istft(z, 8, window=w, length=30)",
    "istft_rectangular": _SPECTRUM + "torch.istft(z, 8, window=torch.ones(8))",
    "istft_not_centered": _SPECTRUM + "torch.istft(z, 8, window=w, center=False)",
    "istft_real": _SPECTRUM + "torch.istft(z.real, 8)",
    "istft_onesided_complex": _SPECTRUM + "torch.istft(z, 8, window=w, return_complex=True)",
    "istft_twosided_mismatch": _SPECTRUM + "torch.istft(z, 8, window=w, onesided=False)",
    "istft_twosided": (
        _SIGNAL + "z = torch.stft(s, 8, window=torch.hann_window(8), onesided=False, "
        "return_complex=True); torch.istft(z, 8, window=torch.hann_window(8), onesided=False)"
    ),
    "istft_normalized_batch": (
        _SIGNAL + "w = torch.hann_window(4); z = torch.stft(s.reshape(2, 10), 4, window=w, "
        "normalized=True, return_complex=True); torch.istft(z, 4, window=w, normalized=True)"
    ),
    "istft_method": _SPECTRUM + "z.istft(8, window=w, hop_length=2, win_length=8)",
}

HOOKED = "calls = []; p = torch.ones(2, requires_grad=True); "
TENSOR_METHODS = {
    "as_subclass": (
        "a = torch.arange(3.); b = a.as_subclass(Sub); b[0] = 7; "
        "(a, type(b).__name__, b._base is a, b.is_leaf, a.as_subclass(torch.Tensor) is a)"
    ),
    "as_subclass_grad": (
        "x = torch.ones(2, requires_grad=True); y = x.as_subclass(Sub); "
        "(y * 2).sum().backward(); (x.grad, y.requires_grad, y.grad_fn is not None, y.is_leaf)"
    ),
    "as_subclass_not_tensor": "torch.arange(3.).as_subclass(int)",
    "post_accumulate_grad_hook": (
        HOOKED + "h = p.register_post_accumulate_grad_hook(lambda t: calls.append(t.grad * 1)); "
        "(p * 3).sum().backward(); (p * 3).sum().backward(); h.remove(); "
        "(p * 3).sum().backward(); (calls, type(h).__name__, p.grad)"
    ),
    "post_accumulate_grad_step": (
        "q = torch.ones(2, requires_grad=True); "
        "q.register_post_accumulate_grad_hook(step_in_hook); "
        "(q * q).sum().backward(); (q.detach(), q.grad)"
    ),
    "post_accumulate_grad_autograd_grad": (
        HOOKED + "p.register_post_accumulate_grad_hook(lambda t: calls.append(1)); "
        "torch.autograd.grad((p * 2).sum(), p); calls"
    ),
    "module_load": "t = torch.ones(2); r = t.module_load(torch.zeros(2)); (r, t, r is t)",
    "module_load_assign": (
        "q = torch.ones(2, requires_grad=True); r = q.module_load(torch.zeros(2), assign=True); "
        "(r, r.requires_grad)"
    ),
    "module_load_leaf": "torch.ones(2, requires_grad=True).module_load(torch.zeros(2))",
    "swap_tensors": (
        "a = torch.ones(2); b = torch.zeros(3, dtype=torch.int64); a.foo = 1; ia = id(a); "
        "r = torch.utils.swap_tensors(a, b); (r, a, b, id(a) == ia, b.foo, hasattr(a, 'foo'))"
    ),
    "swap_tensors_classes": (
        "p = torch.nn.Parameter(torch.ones(2)) if hasattr(torch, 'nn') else None; "
        "t = torch.zeros(2); torch.utils.swap_tensors(p, t); "
        "(type(p).__name__, type(t).__name__, p, t.detach(), t.requires_grad)"
    ),
    "swap_tensors_not_tensor": "torch.utils.swap_tensors(torch.ones(1), 3)",
    "post_accumulate_grad_no_grad": "torch.ones(2).register_post_accumulate_grad_hook(print)",
    "post_accumulate_grad_nonleaf": (HOOKED + "(p * 2).register_post_accumulate_grad_hook(print)"),
}

_MAKE = "torch.manual_seed(0); from torch.testing import make_tensor; make_tensor("
TESTING = {
    "make_tensor_float": _MAKE + "(2, 3), dtype=torch.float32, device='cpu')",
    "make_tensor_ints": _MAKE + "2, 3, dtype=torch.int64, device='cpu')",
    "make_tensor_bool": _MAKE + "(4,), dtype=torch.bool, device='cpu')",
    "make_tensor_complex": _MAKE + "(2,), dtype=torch.complex64, device='cpu', low=-1, high=1)",
    "make_tensor_uint8": _MAKE + "(3,), dtype=torch.uint8, device='cpu', low=1, high=5)",
    "make_tensor_noncontiguous": (
        _MAKE + "(3, 2), dtype=torch.float64, device='cpu', noncontiguous=True); "
        "(t := make_tensor((3, 2), dtype=torch.float64, device='cpu', noncontiguous=True), "
        "t.stride())"
    ),
    "make_tensor_exclude_zero": _MAKE + "(5,), dtype=torch.int8, device='cpu', exclude_zero=True)",
    "make_tensor_half": (
        _MAKE + "(5,), dtype=torch.float16, device='cpu', exclude_zero=True, low=0, high=0.001)"
    ),
    "make_tensor_grad": (
        _MAKE + "(), dtype=torch.float32, device='cpu', requires_grad=True).requires_grad"
    ),
    "make_tensor_channels_last": (
        _MAKE + "(2, 2, 2, 2), dtype=torch.float32, device='cpu', "
        "memory_format=torch.channels_last).stride()"
    ),
    "make_tensor_bfloat16": _MAKE + "(2,), dtype=torch.bfloat16, device='cpu')",
    "make_tensor_wide": (
        _MAKE + "(2,), dtype=torch.float32, device='cpu', low=-1e38 * 4, high=1e38 * 4)"
    ),
    "make_tensor_int_grad": _MAKE + "(2,), dtype=torch.int64, device='cpu', requires_grad=True)",
    "make_tensor_low_high": _MAKE + "(2,), dtype=torch.float32, device='cpu', low=3, high=1)",
    "make_tensor_nan": _MAKE + "(2,), dtype=torch.float32, device='cpu', low=float('nan'))",
    "make_tensor_out_of_range": _MAKE + "(2,), dtype=torch.uint8, device='cpu', low=-5, high=-1)",
    "assert_allclose_passes": (
        "torch.testing.assert_allclose(torch.ones(2), torch.ones(2) + 1e-6)"
    ),
    "assert_allclose_fails": "torch.testing.assert_allclose(torch.ones(2), torch.ones(2) + 1e-3)",
    "assert_allclose_list": "torch.testing.assert_allclose(torch.ones(2), [1., 1.])",
    "assert_allclose_nan": (
        "torch.testing.assert_allclose(torch.tensor([float('nan')]), torch.tensor([float('nan')]))"
    ),
    "assert_allclose_dtypes": (
        "torch.testing.assert_allclose(torch.ones(2, dtype=torch.float64), torch.ones(2))"
    ),
    "assert_allclose_msg": (
        "torch.testing.assert_allclose(torch.ones(2), torch.ones(2) * 2, msg='custom')"
    ),
    "assert_allclose_rtol_only": (
        "torch.testing.assert_allclose(torch.ones(2), torch.ones(2) * 2, rtol=0.1)"
    ),
}

RESIZE = {
    "resize_shrink": (
        "a = torch.arange(6.); b = a.resize_(2, 2); (b is a, a, a.stride(), a.storage_offset())"
    ),
    "resize_back": "a = torch.arange(6.); a.resize_(2, 2); a.resize_(3); a",
    "resize_grow_shared": (
        "c = torch.arange(4.); d = c.view(2, 2); c.resize_(6); c[1] = 9; "
        "(c[:4], d, c.untyped_storage().nbytes(), "
        "d.untyped_storage().data_ptr() == c.untyped_storage().data_ptr())"
    ),
    "resize_offset": (
        "e = torch.arange(6.)[2:]; e.resize_(5); "
        "(e.shape, e.storage_offset(), e.untyped_storage().nbytes(), e[:4])"
    ),
    "resize_restrides": "f = torch.arange(8.).reshape(2, 4).t(); f.resize_(2, 2); (f, f.stride())",
    "resize_same_shape": "g = torch.arange(8.).reshape(2, 4).t(); g.resize_(4, 2); g.stride()",
    "resize_channels_last": (
        "h = torch.ones(1, 2, 2, 3); h.resize_(1, 2, 2, 3, memory_format=torch.channels_last); "
        "h.stride()"
    ),
    "resize_requires_grad": "torch.ones(2, requires_grad=True).resize_(3)",
    "resize_negative": "torch.ones(2).resize_(-1)",
    "resize_tuple": "torch.ones(2).resize_((2, 3)).shape",
    "resize_list": "torch.ones(2).resize_([3]).shape",
    "resize_as_function": "torch.resize_as_(torch.ones(2), torch.ones(3, 2)).shape",
    "resize_as_method": (
        "r = torch.ones(2).resize_as_(torch.ones(2, 3, dtype=torch.int64)); "
        "(r.shape, r.dtype, r[0, :2])"
    ),
    "resize_scalar": "torch.tensor(5.).resize_(1, 1)",
    "resize_version": "x = torch.ones(3); v = x._version; x.resize_(2); x._version - v",
    "resize_out_of_place": "torch.arange(4.).resize(2, 2)",
    "resize_out_of_place_count": "torch.ones(2).resize(3)",
    "resize_as_out_of_place": "torch.ones(2, 2).resize_as(torch.ones(4))",
    "resize_grad": (
        "x = torch.arange(4., requires_grad=True); (x.resize(2, 2) * 2).sum().backward(); x.grad"
    ),
}

_ARRAY = "import array; a = array.array('i', [1, 2, 3, 4]); "
_POINTS = "x = torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.], [0.5, 1.5]]); "
CREATION = {
    "frombuffer_shares": _ARRAY
    + "t = torch.frombuffer(a, dtype=torch.int32); t[0] = -1; (t, a[0])",
    "frombuffer_count_offset": _ARRAY + "torch.frombuffer(a, dtype=torch.int32, count=2, offset=4)",
    "frombuffer_bytearray": "torch.frombuffer(bytearray([1, 0, 2, 0]), dtype=torch.int16)",
    "frombuffer_bytes": "torch.frombuffer(b'\\x01\\x02', dtype=torch.uint8)",
    "frombuffer_grad": (
        "torch.frombuffer(bytearray(8), dtype=torch.float32, requires_grad=True).requires_grad"
    ),
    "frombuffer_count_too_big": _ARRAY + "torch.frombuffer(a, dtype=torch.int32, count=5)",
    "frombuffer_offset_too_big": _ARRAY + "torch.frombuffer(a, dtype=torch.int32, offset=16)",
    "frombuffer_not_multiple": _ARRAY + "torch.frombuffer(a, dtype=torch.int64, offset=3)",
    "frombuffer_empty": "torch.frombuffer(bytearray(0), dtype=torch.int16)",
    "frombuffer_not_buffer": "torch.frombuffer([1, 2], dtype=torch.int16)",
    "frombuffer_negative_offset": _ARRAY + "torch.frombuffer(a, dtype=torch.int32, offset=-1)",
    "from_file_private": (
        "p = temp_file([0, 1, 2, 3]); t = torch.from_file(p, size=4, dtype=torch.float32); "
        "t[0] = 9; (t, file_floats(p))"
    ),
    "from_file_shared": (
        "p = temp_file([0, 1, 2, 3]); t = torch.from_file(p, shared=True, size=4); t[1] = 7; "
        "file_floats(p)"
    ),
    "from_file_prefix": "torch.from_file(temp_file([5, 6, 7]), size=2)",
    "from_file_too_small": ("torch.from_file(temp_file([0, 1]), size=10).shape"),
    "from_file_empty": "torch.from_file(temp_file([1]), shared=False, size=0)",
    "histogramdd_weights": (
        _POINTS + "torch.histogramdd(x, bins=[3, 3], weight=torch.tensor([1., 2., 4., 8., 16.]))"
    ),
    "histogramdd_density_range": (
        _POINTS + "torch.histogramdd(x, bins=2, range=[0., 1., 0., 2.], density=True)"
    ),
    "histogramdd_edges": (
        _POINTS + "torch.histogramdd(x, bins=[torch.tensor([0., 1., 2.5]), torch.tensor([0., 2.])])"
    ),
    "histogramdd_float64": (
        "torch.histogramdd(torch.tensor([[1.], [2.], [2.]], dtype=torch.float64), bins=2)"
    ),
    "histogramdd_names": _POINTS + "r = torch.histogramdd(x, bins=2); (type(r).__name__, r.hist)",
    "histogramdd_long": _POINTS + "torch.histogramdd(x.long(), bins=2)",
    "histogramdd_bins_size": _POINTS + "torch.histogramdd(x, bins=[2])",
    "histogramdd_range_size": _POINTS + "torch.histogramdd(x, bins=2, range=[0., 1.])",
    "histogramdd_range_order": _POINTS + "torch.histogramdd(x, bins=2, range=[1., 0., 0., 1.])",
    "histogramdd_zero_bins": _POINTS + "torch.histogramdd(x, bins=0)",
    "histogramdd_1d": _POINTS + "torch.histogramdd(x[0], bins=2)",
}

_LOW_RANK = (
    "torch.manual_seed(0); A = torch.randn(6, 4, dtype=torch.float64); torch.manual_seed(1); "
)
LOW_RANK = {
    # singular values, and the products U diag(S) V^H (free of the vectors' signs)
    "svd_lowrank": _LOW_RANK + "U, S, V = torch.svd_lowrank(A, q=3); (S, U @ torch.diag(S) @ V.mT)",
    "svd_lowrank_wide": (
        _LOW_RANK + "U, S, V = torch.svd_lowrank(A.T, q=2, niter=1); "
        "(S, U.shape, V.shape, U @ torch.diag(S) @ V.mT)"
    ),
    "svd_lowrank_batched": (
        _LOW_RANK + "U, S, V = torch.svd_lowrank(torch.randn(2, 5, 3), q=2); (S, U.shape, V.shape)"
    ),
    "svd_lowrank_float32": _LOW_RANK + "torch.svd_lowrank(A.float(), q=2)[1]",
    "svd_lowrank_q_too_big": _LOW_RANK + "torch.svd_lowrank(A, q=7)[1]",
    "svd_lowrank_M": (
        _LOW_RANK + "M = torch.ones(6, 4, dtype=torch.float64); "
        "U, S, V = torch.svd_lowrank(A, q=4, M=M); (S, U @ torch.diag(S) @ V.mT + M)"
    ),
    "pca_lowrank": _LOW_RANK + "U, S, V = torch.pca_lowrank(A); (S, U.shape)",
    "pca_lowrank_uncentered": _LOW_RANK + "torch.pca_lowrank(A, q=2, center=False)[1]",
    "pca_lowrank_q": _LOW_RANK + "torch.pca_lowrank(A, q=7)",
    "pca_lowrank_niter": _LOW_RANK + "torch.pca_lowrank(A, niter=-1)",
    "svd_lowrank_grad": (
        "torch.manual_seed(0); v = torch.randn(12, dtype=torch.float64); torch.manual_seed(1); "
        "grad_of(lambda t: torch.svd_lowrank(t.reshape(4, 3), q=2)[1], *v.tolist())"
    ),
}

_GRID = (
    "g = torch.tensor([1e-6, 0.1, 0.5, 1., 2., 3.5, 5., 7.9, 8.1, 11.9, 12.1, 15., 20., 33., "
    "50., 120.]); "
)
_EDGES = (
    "e = torch.tensor([0., -1., -0.0, float('inf'), float('-inf'), float('nan'), 1e-30, -3.]); "
)
_AIRY = (
    "a = torch.tensor([-30., -20., -9., -8.1, -7.9, -5., -2., -1., -1e-3, 0., 1e-3, 0.5, 1., "
    "2., 5., 10., 20., 50.]); "
)
# orders 0 and 1 of each family
_BESSEL_NAMES = tuple(
    f"{family}{order}"
    for family in ("bessel_j", "bessel_y", "modified_bessel_k", "scaled_modified_bessel_k")
    for order in (0, 1)
)
BESSEL = {
    **{f"{n}_grid": _GRID + f"torch.special.{n}(g)" for n in _BESSEL_NAMES},
    **{f"{n}_float64": _GRID + f"torch.special.{n}(g.double())" for n in _BESSEL_NAMES},
    **{f"{n}_edges": _EDGES + f"torch.special.{n}(e)" for n in _BESSEL_NAMES},
    "airy_ai": _AIRY + "torch.special.airy_ai(a)",
    "airy_ai_float64": _AIRY + "torch.special.airy_ai(a.double())",
    "airy_ai_edges": _EDGES + "torch.special.airy_ai(e)",
    "bessel_integers": "(torch.special.bessel_j0(torch.tensor([1, 2])), "
    "torch.special.airy_ai(torch.tensor([True])))",
    "bessel_half": "torch.special.bessel_y1(torch.ones(1, dtype=torch.float16))",
    "bessel_bfloat16": "torch.special.modified_bessel_k0(torch.ones(1, dtype=torch.bfloat16))",
    "bessel_complex": "torch.special.airy_ai(torch.ones(1, dtype=torch.complex64))",
    "bessel_out": (
        "o = torch.empty(2); r = torch.special.bessel_j0(torch.tensor([1., 2.]), out=o); "
        "(r is o, o)"
    ),
    "bessel_no_grad": ("torch.special.bessel_j0(torch.ones(2, requires_grad=True)).requires_grad"),
}

_DIAGS = "d = torch.arange(1., 13.).reshape(3, 4); "
SPDIAGS = {
    "spdiags": _DIAGS + "s = torch.sparse.spdiags(d, torch.tensor([0, -1, 2]), (4, 4)); "
    "(s._indices(), s._values(), s.to_dense())",
    "spdiags_wide": _DIAGS + "torch.sparse.spdiags(d, torch.tensor([0, 1, -2]), (3, 5)).to_dense()",
    "spdiags_vector": _DIAGS + "torch.sparse.spdiags(d[0], torch.tensor([0]), (4, 4)).to_dense()",
    "spdiags_scalar_offset": (
        _DIAGS + "torch.sparse.spdiags(d[:1], torch.tensor(1), (2, 6)).to_dense()"
    ),
    "spdiags_duplicates": _DIAGS + "torch.sparse.spdiags(d, torch.tensor([0, 0, 1]), (4, 4))",
    "spdiags_count": _DIAGS + "torch.sparse.spdiags(d, torch.tensor([0, 1]), (4, 4))",
    "spdiags_float_offsets": _DIAGS + "torch.sparse.spdiags(d, torch.tensor([0., 1., 2.]), (4, 4))",
    "spdiags_layout": (
        _DIAGS + "torch.sparse.spdiags(d, torch.tensor([0, 1, 2]), (4, 4), layout=torch.strided)"
    ),
    "spdiags_offsets_dims": _DIAGS + "torch.sparse.spdiags(d, torch.tensor([[0, 1, 2]]), (4, 4))",
}

CASES: dict[str, str] = {
    **NN_INPLACE,
    **SPDIAGS,
    **BESSEL,
    **LOW_RANK,
    **CREATION,
    **WINDOWS,
    **STFT,
    **TENSOR_METHODS,
    **TESTING,
    **RESIZE,
}

#: case -> the relative tolerance it is compared to, where PyTorch's values are less
#: accurate than ours: its float64 Bessel functions (Cephes' rational approximations)
#: are off by up to ~1e-8 between 3 and 12, its float32 Airy function by ~2e-5 at large |x|
LOOSE = {name: 1e-7 for name in CASES if name.endswith("_float64") and name in BESSEL}
LOOSE["airy_ai"] = 1e-4

#: cases whose error message is this project's own wording or names a temporary file
#: (only the type is compared)
TYPE_ONLY = {"assert_allclose_fails", "from_file_too_small"}

#: cases that record or backpropagate (skipped without torch-autograd)
#: cases that need torch-nn
NEEDS_NN = {"swap_tensors_classes"}

NEEDS_AUTOGRAD = {name for name in CASES if name.endswith("_grad") or name.endswith("_leaf")} | {
    name for name in TENSOR_METHODS if name != "as_subclass_not_tensor"
}


def _describe(torch, value):
    return golden_describe.describe(torch, value, lambda tensor: _values(torch, tensor))


def _values(torch, tensor) -> dict:
    """Dtype, shape and the flat values (complex ones as [real, imag], NaN and inf as their
    reprs)."""
    data = tensor.detach().reshape(-1)
    items = [[z.real, z.imag] for z in data.tolist()] if data.is_complex() else data.tolist()
    values = golden_describe.describe(torch, items)
    return {"dtype": str(tensor.dtype), "shape": list(tensor.shape), "values": values}


def outcome(torch, code: str) -> dict:
    """What running ``code`` (statements joined by "; ", the last an expression) gives,
    warnings silenced: the value or the error (builtin type and first line of the message)."""
    import warnings

    namespace = {"torch": torch, "__name__": "added_names_cases"}
    exec(SETUP, namespace)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return golden_describe.builtin_outcome(code, namespace, lambda v: _describe(torch, v))


def close(got, expected, rtol: float) -> bool:
    """Whether two outcomes agree, numbers to ``rtol`` (and an absolute 1e-6)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        if set(got) != set(expected):
            return False
        return all(close(got[k], expected[k], rtol) for k in expected)
    if isinstance(expected, list) and isinstance(got, list):
        return len(got) == len(expected) and all(
            close(g, e, rtol) for g, e in zip(got, expected, strict=True)
        )
    if isinstance(expected, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return math.isclose(got, expected, rel_tol=rtol, abs_tol=1e-6)
    return got == expected
