"""Which ops autocast changes on the CPU, and how: PyTorch 2.13's CPU autocast table.

Names are PyTorch op names as ``torch._op_calls`` gives them (``torch.linalg.solve`` is
``linalg_solve``, ``F.cross_entropy`` is ``cross_entropy_loss``). Each op gets one of

- ``LOWER``: floating-point tensor arguments (not float64) are cast to the autocast dtype
  (``torch.bfloat16`` by default on the CPU, or ``torch.float16``);
- ``FLOAT32``: floating-point tensor arguments (not float64) are cast to ``torch.float32``;
- ``PROMOTE``: floating-point tensor arguments are cast to the widest of them and the
  autocast dtype, so that ``torch.cat`` of a float32 and a bfloat16 tensor gives float32.

Every other op runs on its arguments as they are (``softmax`` of a bfloat16 tensor stays
bfloat16). Out variants (``out=``) and in-place forms (``addmm_``) are never cast. The
lists were checked against PyTorch 2.13 by running each op under ``torch.autocast("cpu")``
(``tools/golden/record_amp.py``); ops that PyTorch decomposes into listed ops (``einsum``
into ``bmm``) are listed with them, since ours do not decompose through the bindings.
"""

from __future__ import annotations

__all__ = ["LOWER", "FLOAT32", "PROMOTE", "AS_IS", "POLICY", "policy_of"]

LOWER, FLOAT32, PROMOTE = "lower_precision_fp", "fp32", "promote"
#: run on the arguments as given, and leave the op's inner ops alone too (an op that
#: PyTorch computes without reaching a listed op, where ours goes through one)
AS_IS = "as_is"

_LOWER_PRECISION_OPS = (
    # convolutions
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "conv_tbc", "convolution",
    # matrix products
    "mm", "bmm", "matmul", "linalg_matmul", "addmm", "addbmm", "baddbmm", "linear",
    "linalg_vecdot", "prelu", "scaled_dot_product_attention",
    # PyTorch runs these through mm/bmm, so they come out in lower precision too
    "einsum", "tensordot", "chain_matmul", "linalg_multi_dot", "linalg_matrix_power",
)  # fmt: skip

_FLOAT32_OPS = (
    # losses
    "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "cross_entropy_loss", "nll_loss",
    "kl_div", "binary_cross_entropy", "binary_cross_entropy_with_logits", "soft_margin_loss",
    "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss",
    "poisson_nll_loss", "triplet_margin_loss", "multi_margin_loss",
    "multilabel_margin_loss", "ctc_loss",
    # pooling, sampling
    "avg_pool3d", "max_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d", "max_unpool2d",
    "max_unpool3d", "fractional_max_pool2d", "fractional_max_pool3d", "grid_sampler",
    # reductions and other precision-sensitive math
    "prod", "quantile", "nanquantile", "cdist", "trace", "polar", "view_as_complex", "stft",
    # linear algebra
    "cholesky", "cholesky_inverse", "cholesky_solve", "inverse", "lu_solve", "orgqr", "ormqr",
    "pinverse", "geqrf", "qr", "svd", "triangular_solve", "linalg_cond", "linalg_matrix_rank",
    "linalg_solve", "linalg_cholesky", "linalg_cholesky_ex", "linalg_svdvals",
    "linalg_eigvals", "linalg_eigvalsh", "linalg_inv", "linalg_inv_ex",
    "linalg_householder_product", "linalg_tensorinv", "linalg_tensorsolve", "linalg_qr",
    "linalg_svd", "linalg_eig", "linalg_eigh", "linalg_lstsq", "linalg_pinv",
    # FFTs
    "fft_fft", "fft_ifft", "fft_fft2", "fft_ifft2", "fft_fftn", "fft_ifftn", "fft_rfft",
    "fft_irfft", "fft_rfft2", "fft_irfft2", "fft_rfftn", "fft_irfftn", "fft_hfft",
    "fft_ihfft",
)  # fmt: skip

# cat and the functions PyTorch writes with it
_PROMOTE_OPS = (
    "cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack",
    "index_copy",
)  # fmt: skip

# PyTorch computes these without reaching a listed op; ours go through matmul or cat
_AS_IS_OPS = ("bilinear",)

POLICY: dict[str, str] = {
    **dict.fromkeys(_AS_IS_OPS, AS_IS),
    **dict.fromkeys(_LOWER_PRECISION_OPS, LOWER),
    **dict.fromkeys(_FLOAT32_OPS, FLOAT32),
    **dict.fromkeys(_PROMOTE_OPS, PROMOTE),
}


def _pad_policy(args, kwargs):
    # F.pad reaches reflection_pad*/replication_pad* (float32 ops) for those modes only
    mode = kwargs.get("mode", args[2] if len(args) > 2 else "constant")
    return FLOAT32 if mode in ("reflect", "replicate") else AS_IS


def _inner_policy(args, kwargs):
    # inner of matrices is a tensordot (an mm); of vectors, a plain product and sum
    if len(args) == 2 and all(getattr(a, "ndim", 0) >= 2 for a in args):
        return LOWER
    return AS_IS


#: ops whose policy depends on their arguments: name -> f(args, kwargs) -> policy or None
CONDITIONAL = {"pad": _pad_policy, "inner": _inner_policy}


def policy_of(name: str, args, kwargs):
    """The policy of op ``name`` for these arguments (None: left alone)."""
    rule = CONDITIONAL.get(name)
    if rule is not None:
        return rule(args, kwargs)
    return POLICY.get(name)
