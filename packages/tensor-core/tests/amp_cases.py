"""Ops run under ``torch.autocast("cpu")`` whose output dtypes are compared with PyTorch
2.13's (recorded by tools/golden/record_amp.py into golden/amp.json).

Each case is an expression over ``r(*shape)`` (random values of the input dtype),
``torch`` and ``F`` (torch.nn.functional; the ``nn_`` cases need torch-nn)."""

from __future__ import annotations

#: (label, input dtype, autocast dtype): every case runs under each
SETTINGS = (
    ("f32_bf16", "float32", "bfloat16"),
    ("bf16_bf16", "bfloat16", "bfloat16"),
    ("f32_f16", "float32", "float16"),
    ("f16_bf16", "float16", "bfloat16"),
    ("f64_bf16", "float64", "bfloat16"),
)

EYE3 = "torch.eye(3, dtype=r(1).dtype) * 3"

CORE_CASES = {
    "mm": "torch.mm(r(3, 4), r(4, 2))",
    "Tensor.mm": "r(3, 4).mm(r(4, 2))",
    "matmul": "torch.matmul(r(3, 4), r(4, 2))",
    "matmul_operator": "r(3, 4) @ r(4, 2)",
    "matmul_vectors": "torch.matmul(r(4), r(4))",
    "bmm": "torch.bmm(r(2, 3, 4), r(2, 4, 2))",
    "addmm": "torch.addmm(r(3, 2), r(3, 4), r(4, 2))",
    "baddbmm": "torch.baddbmm(r(2, 3, 2), r(2, 3, 4), r(2, 4, 2), beta=0.5)",
    "addbmm": "torch.addbmm(r(3, 2), r(2, 3, 4), r(2, 4, 2))",
    "linalg_vecdot": "torch.linalg.vecdot(r(3, 4), r(3, 4))",
    "einsum": "torch.einsum('ij,jk->ik', r(3, 4), r(4, 2))",
    "tensordot": "torch.tensordot(r(3, 4), r(4, 2), 1)",
    "inner_matrices": "torch.inner(r(2, 2), r(2, 2))",
    "inner_vectors": "torch.inner(r(3), r(3))",
    "multi_dot": "torch.linalg.multi_dot([r(2, 2), r(2, 2), r(2, 2)])",
    "matrix_power": "torch.linalg.matrix_power(r(2, 2), 3)",
    "addmm_inplace": "r(2, 2).addmm_(r(2, 2), r(2, 2))",
    "mm_out": "torch.mm(r(2, 2), r(2, 2), out=torch.empty(2, 2, dtype=r(1).dtype))",
    "mv": "torch.mv(r(3, 4), r(4))",
    "dot": "torch.dot(r(4), r(4))",
    "addmv": "torch.addmv(r(3), r(3, 4), r(4))",
    "outer": "torch.outer(r(3), r(2))",
    "kron": "torch.kron(r(2, 2), r(2, 2))",
    "softmax": "torch.softmax(r(3, 4), -1)",
    "log_softmax": "torch.log_softmax(r(3, 4), -1)",
    "sum": "torch.sum(r(3, 4))",
    "mean": "torch.mean(r(3, 4))",
    "cumsum": "torch.cumsum(r(3, 4), 0)",
    "cumprod": "torch.cumprod(r(3, 4), 0)",
    "prod": "torch.prod(r(3, 4))",
    "quantile": "torch.quantile(r(5), 0.3)",
    "nanquantile": "torch.nanquantile(r(5), 0.3)",
    "cdist": "torch.cdist(r(3, 4), r(2, 4))",
    "trace": "torch.trace(r(3, 3))",
    "polar": "torch.polar(r(3), r(3))",
    "view_as_complex": "torch.view_as_complex(r(3, 2))",
    "inverse": f"torch.inverse(r(3, 3) + {EYE3})",
    "pinverse": "torch.pinverse(r(3, 3))",
    "linalg_inv": f"torch.linalg.inv(r(3, 3) + {EYE3})",
    "linalg_solve": f"torch.linalg.solve(r(3, 3) + {EYE3}, r(3))",
    "linalg_svdvals": "torch.linalg.svdvals(r(3, 3))",
    "linalg_norm": "torch.linalg.norm(r(3, 3))",
    "linalg_vector_norm": "torch.linalg.vector_norm(r(3, 3))",
    "linalg_qr": "torch.linalg.qr(r(3, 3))[0]",
    "linalg_cond": f"torch.linalg.cond(r(3, 3) + {EYE3})",
    "linalg_cholesky": f"torch.linalg.cholesky({EYE3})",
    "svd": "torch.svd(r(3, 3))[1]",
    "qr": "torch.qr(r(3, 3))[0]",
    "fft_fft": "torch.fft.fft(r(8))",
    "fft_rfft": "torch.fft.rfft(r(8))",
    "fft_irfft": "torch.fft.irfft(r(8))",
    "cat": "torch.cat([r(2), r(2)])",
    "stack": "torch.stack([r(2), r(2)])",
    "cat_with_float32": "torch.cat([r(2), torch.ones(2)])",
    "cat_with_bfloat16": "torch.cat([r(2), torch.ones(2, dtype=torch.bfloat16)])",
    "cat_with_float64": "torch.cat([r(2), torch.ones(2, dtype=torch.float64)])",
    "cat_with_int64": "torch.cat([r(2), torch.ones(2, dtype=torch.int64)])",
    "stack_with_float32": "torch.stack([r(2), torch.ones(2)])",
    "hstack_with_float32": "torch.hstack([r(2), torch.ones(2)])",
    "index_copy": "torch.zeros(3, dtype=torch.bfloat16).index_copy(0, torch.tensor([0, 1]), r(2))",
    "relu": "torch.relu(r(3))",
    "sigmoid": "torch.sigmoid(r(3))",
    "exp": "torch.exp(r(3))",
    "add": "r(3) + r(3)",
    "mm_integers": "torch.mm(torch.ones(2, 2).long(), torch.ones(2, 2).long())",
}

NN_CASES = {
    "nn_linear": "F.linear(r(3, 4), r(2, 4), r(2))",
    "nn_linear_no_bias": "F.linear(r(3, 4), r(2, 4))",
    "nn_conv1d": "F.conv1d(r(1, 2, 5), r(3, 2, 2))",
    "nn_conv2d": "F.conv2d(r(1, 2, 5, 5), r(3, 2, 2, 2), r(3))",
    "nn_conv3d": "F.conv3d(r(1, 2, 4, 4, 4), r(3, 2, 2, 2, 2))",
    "nn_conv_transpose2d": "F.conv_transpose2d(r(1, 2, 4, 4), r(2, 3, 2, 2))",
    "nn_prelu": "F.prelu(r(2, 3), r(1))",
    "nn_sdpa": "F.scaled_dot_product_attention(r(1, 2, 3, 4), r(1, 2, 3, 4), r(1, 2, 3, 4))",
    "nn_bilinear": "F.bilinear(r(2, 3), r(2, 4), r(5, 3, 4))",
    "nn_softmax": "F.softmax(r(3, 4), -1)",
    "nn_layer_norm": "F.layer_norm(r(3, 4), (4,))",
    "nn_group_norm": "F.group_norm(r(2, 4, 3), 2)",
    "nn_batch_norm": "F.batch_norm(r(2, 4), None, None, training=True)",
    "nn_mse_loss": "F.mse_loss(r(3, 4), r(3, 4))",
    "nn_l1_loss": "F.l1_loss(r(3, 4), r(3, 4))",
    "nn_smooth_l1_loss": "F.smooth_l1_loss(r(3, 4), r(3, 4))",
    "nn_huber_loss": "F.huber_loss(r(3, 4), r(3, 4))",
    "nn_cross_entropy": "F.cross_entropy(r(3, 4), torch.tensor([0, 1, 2]))",
    "nn_nll_loss": "F.nll_loss(r(3, 4), torch.tensor([0, 1, 2]))",
    "nn_kl_div": "F.kl_div(r(3, 4), r(3, 4), reduction='batchmean')",
    "nn_binary_cross_entropy": "F.binary_cross_entropy(r(3, 4) * 0.5 + 0.2, r(3, 4))",
    "nn_bce_with_logits": "F.binary_cross_entropy_with_logits(r(3, 4), r(3, 4))",
    "nn_soft_margin_loss": "F.soft_margin_loss(r(3, 4), r(3, 4))",
    "nn_margin_ranking_loss": "F.margin_ranking_loss(r(3), r(3), r(3))",
    "nn_hinge_embedding_loss": "F.hinge_embedding_loss(r(3, 4), r(3, 4))",
    "nn_cosine_embedding_loss": (
        "F.cosine_embedding_loss(r(3, 4), r(3, 4), torch.tensor([1, -1, 1]))"
    ),
    "nn_poisson_nll_loss": "F.poisson_nll_loss(r(3, 4), r(3, 4))",
    "nn_triplet_margin_loss": "F.triplet_margin_loss(r(3, 4), r(3, 4), r(3, 4))",
    "nn_multi_margin_loss": "F.multi_margin_loss(r(3, 4), torch.tensor([0, 1, 2]))",
    "nn_multilabel_margin_loss": (
        "F.multilabel_margin_loss(r(3, 4), torch.tensor([[0, 1, -1, 0]] * 3))"
    ),
    "nn_gaussian_nll_loss": "F.gaussian_nll_loss(r(3, 4), r(3, 4), r(3, 4) + 0.1)",
    "nn_avg_pool3d": "F.avg_pool3d(r(1, 1, 4, 4, 4), 2)",
    "nn_avg_pool2d": "F.avg_pool2d(r(1, 1, 4, 4), 2)",
    "nn_max_pool3d": "F.max_pool3d(r(1, 1, 4, 4, 4), 2)",
    "nn_max_pool2d": "F.max_pool2d(r(1, 1, 4, 4), 2)",
    "nn_adaptive_avg_pool3d": "F.adaptive_avg_pool3d(r(1, 1, 4, 4, 4), 2)",
    "nn_adaptive_avg_pool2d": "F.adaptive_avg_pool2d(r(1, 1, 4, 4), 2)",
    "nn_adaptive_max_pool3d": "F.adaptive_max_pool3d(r(1, 1, 4, 4, 4), 2)",
    "nn_pad_reflect": "F.pad(r(1, 2, 4), (1, 1), mode='reflect')",
    "nn_pad_replicate": "F.pad(r(1, 2, 4), (1, 1), mode='replicate')",
    "nn_pad_constant": "F.pad(r(1, 2, 4), (1, 1))",
    "nn_grid_sample": "F.grid_sample(r(1, 1, 4, 4), r(1, 2, 2, 2) * 2 - 1, align_corners=False)",
    "nn_interpolate": "F.interpolate(r(1, 1, 4, 4), scale_factor=2)",
    "nn_gelu": "F.gelu(r(3))",
    "nn_dropout": "F.dropout(r(3), 0.0)",
    "nn_embedding": "F.embedding(torch.tensor([0, 1]), r(3, 4))",
    "nn_normalize": "F.normalize(r(3, 4))",
    "nn_cosine_similarity": "F.cosine_similarity(r(3, 4), r(3, 4))",
    "nn_max_unpool2d": ("F.max_unpool2d(*F.max_pool2d(r(1, 1, 4, 4), 2, return_indices=True), 2)"),
    "nn_ctc_loss": (
        "F.ctc_loss(r(5, 1, 3).log_softmax(-1), torch.tensor([[1, 2]]), torch.tensor([5]), "
        "torch.tensor([2]))"
    ),
    "nn_multihead_attention": (
        "torch.nn.MultiheadAttention(4, 2).to(r(1).dtype)(r(3, 1, 4), r(3, 1, 4), r(3, 1, 4))[0]"
    ),
}


def run(code: str, torch, input_dtype: str, autocast_dtype: str) -> str:
    """The dtype name of ``code``'s result under autocast, or the error it raised."""
    import warnings

    try:
        import torch.nn.functional as F  # noqa: N812
    except ImportError:  # torch-core alone: only the core cases run
        F = None  # noqa: N806

    generator = torch.Generator().manual_seed(0)
    dtype = getattr(torch, input_dtype)

    def r(*shape):
        return torch.rand(*shape, generator=generator).to(dtype)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with torch.autocast("cpu", dtype=getattr(torch, autocast_dtype)):
                result = eval(code, {"torch": torch, "F": F, "r": r})
        return str(result.dtype).removeprefix("torch.")
    except Exception as error:  # noqa: BLE001 - recorded as the outcome
        return f"{type(error).__name__}: {error}"


def outcome(code: str, torch) -> dict:
    return {label: run(code, torch, dt, ad) for label, dt, ad in SETTINGS}


class FakeOptimizer:
    """What GradScaler needs of an optimizer (torch-core's tests have no torch-optim):
    ``param_groups`` and ``step``, here plain SGD with learning rate 0.1."""

    def __init__(self, params):
        self.param_groups = [{"params": list(params)}]

    def step(self):
        for p in self.param_groups[0]["params"]:
            p.sub_(p.grad * 0.1)
        return "stepped"


#: per iteration, the gradient (before scaling) of the one parameter
SCALER_GRADIENTS = (
    [1.0, 2.0], [0.5, -1.0], [float("inf"), 1.0], [1.0, 1.0], [1.0, float("nan")],
    [2.0, 2.0], [1.0, 0.0], [0.25, 0.25], [3.0, -3.0],
)  # fmt: skip


def scaler_trajectory(torch) -> dict:
    """Run GradScaler("cpu") through SCALER_GRADIENTS; return what it did each step."""
    param = torch.zeros(2)
    optimizer = FakeOptimizer([param])
    scaler = torch.amp.GradScaler("cpu", init_scale=8.0, growth_interval=2)
    steps = []
    for i, grad in enumerate(SCALER_GRADIENTS):
        scaled = scaler.scale(torch.tensor(1.0))
        param.grad = torch.tensor(grad) * scaled
        if i % 3 == 0:
            scaler.unscale_(optimizer)
        returned = scaler.step(optimizer)
        scaler.update()
        steps.append(
            {
                "scaled_loss": scaled.item(),
                "returned": returned,
                "scale": scaler.get_scale(),
                "tracker": scaler.state_dict()["_growth_tracker"],
                "param": param.tolist(),
            }
        )
    bf16 = scaler.scale(torch.ones(2, dtype=torch.bfloat16))
    return {
        "steps": steps,
        "state_dict": scaler.state_dict(),
        "scaled_bfloat16": [str(bf16.dtype), bf16.tolist()],
        "scaled_list": [t.tolist() for t in scaler.scale([torch.ones(1), torch.ones(2)])],
    }
