"""Survey of bad-argument calls: which exception each one raises (or what it returns).

Run it under real PyTorch and under this project and diff the two outputs:

    ~/.cache/ptdiff/ref/bin/python tools/audit_bad_args.py > /tmp/ref.txt
    python tools/audit_bad_args.py > /tmp/ours.txt
    diff /tmp/ref.txt /tmp/ours.txt

or ``python tools/audit_bad_args.py --diff REF.txt`` to print only the mismatches
(the type or the "ok" outcome; messages are not compared). Each case is one Python
expression evaluated with ``torch``, ``F`` (``torch.nn.functional``) and the small
tensors of ``_namespace()`` in scope. ``tools/golden/record_bad_args.py`` records the
outcomes of real PyTorch for the golden tests.
"""

from __future__ import annotations

import sys
import warnings

# (group, name, expression); group "core" needs only torch-core, "nn" needs torch.nn.
CASES: list[tuple[str, str, str]] = []


def _add(group: str, name: str, source: str) -> None:
    CASES.append((group, name, source))


def _pool_cases() -> None:
    inputs = {1: "x1", 2: "x2", 3: "x3"}
    for nd, x in inputs.items():
        for kind in ("max", "avg", "lp"):
            head = f"F.{kind}_pool{nd}d({x}, " + ("2, " if kind == "lp" else "")
            for arg, values in {
                "kernel_size": (0, -1, 100),
                "stride": (0, -1),
                "padding": (-1, 2),
                "dilation": (0, -1),
            }.items():
                for v in values:
                    if arg != "kernel_size":
                        call = f"{head}2, {arg}={v})"
                    else:
                        call = f"{head}{v})"
                    if kind != "max" and arg in ("dilation", "padding"):
                        if kind == "lp" or arg == "dilation":
                            continue
                    _add("nn", f"{kind}_pool{nd}d_{arg}_{v}", call)
            lp = "2, " if kind == "lp" else ""
            _add("nn", f"{kind}_pool{nd}d_rank", f"F.{kind}_pool{nd}d(torch.zeros(2), {lp}1)")
            _add("nn", f"{kind}_pool{nd}d_kernel_len", f"{head}(2,) * {nd + 1})")
        _add(
            "nn",
            f"avg_pool{nd}d_divisor_0",
            f"F.avg_pool{nd}d({x}, 2, divisor_override=0)"
            if nd > 1
            else f"F.avg_pool1d({x}, 2, 2, 0, False, True)",
        )
        for kind in ("max", "avg"):
            fn = f"F.adaptive_{kind}_pool{nd}d"
            _add("nn", f"adaptive_{kind}{nd}d_0", f"{fn}({x}, 0)")
            _add("nn", f"adaptive_{kind}{nd}d_neg", f"{fn}({x}, -1)")
            _add("nn", f"adaptive_{kind}{nd}d_len", f"{fn}({x}, (2,) * {nd + 1})")
            _add("nn", f"adaptive_{kind}{nd}d_rank", f"{fn}(torch.zeros(2), 1)")
            _add("nn", f"adaptive_{kind}{nd}d_big", f"{fn}({x}, 20).shape")
        _add(
            "nn",
            f"max_unpool{nd}d_neg_kernel",
            f"F.max_unpool{nd}d(*F.max_pool{nd}d({x}, 2, return_indices=True), 0)",
        )
        _add(
            "nn",
            f"max_unpool{nd}d_out_size",
            f"F.max_unpool{nd}d(*F.max_pool{nd}d({x}, 2, return_indices=True), 2, "
            f"output_size=(1,) * {nd})",
        )
    _add("nn", "max_pool2d_dilation_0_tuple", "F.max_pool2d(x2, 2, dilation=(1, 0))")
    _add("nn", "max_pool2d_ceil", "F.max_pool2d(x2, 3, 3, ceil_mode=True).shape")
    _add("nn", "avg_pool2d_divisor_neg", "F.avg_pool2d(x2, 2, divisor_override=-1)")


def _conv_cases() -> None:
    shapes = {1: ("x1", "w1"), 2: ("x2", "w2"), 3: ("x3", "w3")}
    for nd, (x, w) in shapes.items():
        c = f"F.conv{nd}d"
        t = f"F.conv_transpose{nd}d"
        for arg, values in {
            "stride": (0, -1),
            "padding": (-1,),
            "dilation": (0, -1),
            "groups": (0, -1, 3),
        }.items():
            for v in values:
                _add("nn", f"conv{nd}d_{arg}_{v}", f"{c}({x}, {w}, {arg}={v})")
                if arg != "groups" or v != 3:
                    _add("nn", f"conv_t{nd}d_{arg}_{v}", f"{t}({x}, {w}, {arg}={v})")
        _add("nn", f"conv{nd}d_kernel_big", f"{c}({x}, torch.zeros((2, 2) + (9,) * {nd}))")
        _add("nn", f"conv{nd}d_channels", f"{c}({x}, torch.zeros((2, 3) + (1,) * {nd}))")
        _add("nn", f"conv{nd}d_weight_rank", f"{c}({x}, torch.zeros(2, 2))")
        _add("nn", f"conv{nd}d_bias_size", f"{c}({x}, {w}, torch.zeros(3))")
        _add("nn", f"conv{nd}d_bias_f64", f"{c}({x}, {w}, torch.zeros(2, dtype=torch.float64))")
        _add("nn", f"conv{nd}d_weight_f64", f"{c}({x}, {w}.double())")
        _add("nn", f"conv{nd}d_int", f"{c}({x}.long(), {w}.long())")
        _add("nn", f"conv{nd}d_input_rank", f"{c}(torch.zeros(2), {w})")
        _add("nn", f"conv{nd}d_stride_len", f"{c}({x}, {w}, stride=(1,) * {nd + 1})")
        _add("nn", f"conv{nd}d_same_stride", f"{c}({x}, {w}, stride=2, padding='same')")
        _add("nn", f"conv{nd}d_pad_str", f"{c}({x}, {w}, padding='full')")
        _add("nn", f"conv_t{nd}d_outpad", f"{t}({x}, {w}, stride=2, output_padding=2)")
        _add("nn", f"conv_t{nd}d_outpad_neg", f"{t}({x}, {w}, output_padding=-1)")
        _add("nn", f"conv_t{nd}d_channels", f"{t}({x}, torch.zeros((3, 2) + (1,) * {nd}))")
        _add("nn", f"conv_t{nd}d_bias_f64", f"{t}({x}, {w}, torch.zeros(2, dtype=torch.float64))")
    _add("nn", "conv2d_empty_batch", "F.conv2d(torch.zeros(0, 2, 5, 5), w2).shape")
    _add("nn", "conv2d_zero_channels", "F.conv2d(torch.zeros(1, 0, 5, 5), w2)")
    _add(
        "nn",
        "conv_tbc_pad",
        "F.conv_tbc(torch.zeros(5, 1, 2), torch.zeros(3, 2, 2), torch.zeros(2), -1)",
    )


def _resample_cases() -> None:
    for mode in ("nearest", "bilinear", "bicubic", "area", "nearest-exact"):
        for name, kw in {
            "size0": "size=0",
            "size_neg": "size=-1",
            "size_neg_tuple": "size=(2, -1)",
            "scale0": "scale_factor=0",
            "scale_neg": "scale_factor=-1.0",
            "scale_small": "scale_factor=0.01",
        }.items():
            _add("nn", f"interp_{mode}_{name}", f"F.interpolate(x2, {kw}, mode='{mode}')")
    _add("nn", "interp_both", "F.interpolate(x2, size=2, scale_factor=2.0)")
    _add("nn", "interp_neither", "F.interpolate(x2)")
    _add("nn", "interp_mode", "F.interpolate(x2, size=2, mode='cubic')")
    _add("nn", "interp_align_nearest", "F.interpolate(x2, size=2, align_corners=True)")
    _add("nn", "interp_size_len", "F.interpolate(x2, size=(2, 2, 2))")
    _add("nn", "interp_scale_len", "F.interpolate(x2, scale_factor=(2.0, 2.0, 2.0))")
    _add("nn", "interp_rank2", "F.interpolate(torch.zeros(2, 3), size=2)")
    _add("nn", "interp_bilinear_3d", "F.interpolate(x1, size=2, mode='bilinear')")
    _add("nn", "interp_linear_4d", "F.interpolate(x2, size=2, mode='linear')")
    _add("nn", "interp_trilinear_4d", "F.interpolate(x2, size=2, mode='trilinear')")
    _add("nn", "interp_scale_nan", "F.interpolate(x2, scale_factor=float('nan'))")
    _add("nn", "interp_scale_inf", "F.interpolate(x2, scale_factor=float('inf'))")
    _add("nn", "interp_size_float", "F.interpolate(x2, size=2.5)")
    _add("nn", "interp_int_input", "F.interpolate(x2.long(), size=2, mode='bilinear')")
    _add("nn", "upsample_0", "F.upsample(x2, scale_factor=0)")
    _add("nn", "upsample_nearest_0", "F.upsample_nearest(x2, size=0)")
    _add("nn", "upsample_bilinear_neg", "F.upsample_bilinear(x2, size=-2)")
    for name, call in {
        "pixel_shuffle_0": "F.pixel_shuffle(x4, 0)",
        "pixel_shuffle_neg": "F.pixel_shuffle(x4, -1)",
        "pixel_shuffle_div": "F.pixel_shuffle(x4, 3)",
        "pixel_shuffle_rank": "F.pixel_shuffle(torch.zeros(4, 4), 2)",
        "pixel_unshuffle_0": "F.pixel_unshuffle(x4, 0)",
        "pixel_unshuffle_neg": "F.pixel_unshuffle(x4, -1)",
        "pixel_unshuffle_div": "F.pixel_unshuffle(x4, 3)",
        "pixel_unshuffle_rank": "F.pixel_unshuffle(torch.zeros(4, 4), 2)",
        "channel_shuffle_0": "F.channel_shuffle(x4, 0)",
        "channel_shuffle_div": "F.channel_shuffle(x4, 3)",
        "grid_sample_nan": "F.grid_sample(x2, torch.full((1, 2, 2, 2), float('nan')), "
        "align_corners=False).isnan().all().item()",
        "grid_sample_nan_nearest": "F.grid_sample(x2, torch.full((1, 2, 2, 2), float('nan')), "
        "mode='nearest', align_corners=False).isnan().all().item()",
        "grid_sample_nan_border": "F.grid_sample(x2, torch.full((1, 2, 2, 2), float('nan')), "
        "padding_mode='border', align_corners=False).isnan().all().item()",
        "grid_sample_mode": "F.grid_sample(x2, torch.zeros(1, 2, 2, 2), mode='linear')",
        "grid_sample_pad": "F.grid_sample(x2, torch.zeros(1, 2, 2, 2), padding_mode='x')",
        "grid_sample_grid_last": "F.grid_sample(x2, torch.zeros(1, 2, 2, 3))",
        "grid_sample_batch": "F.grid_sample(x2, torch.zeros(2, 2, 2, 2))",
        "grid_sample_rank": "F.grid_sample(x2, torch.zeros(2, 2, 2))",
        "grid_sample_dtype": "F.grid_sample(x2, torch.zeros(1, 2, 2, 2).double())",
        "grid_sample_bicubic_5d": "F.grid_sample(x3, torch.zeros(1, 2, 2, 2, 3), mode='bicubic')",
        "affine_grid_theta": "F.affine_grid(torch.zeros(1, 3, 3), (1, 1, 2, 2))",
        "affine_grid_batch": "F.affine_grid(torch.zeros(2, 2, 3), (1, 1, 2, 2))",
        "affine_grid_size_len": "F.affine_grid(torch.zeros(1, 2, 3), (1, 1, 2))",
        "affine_grid_size0": "F.affine_grid(torch.zeros(1, 2, 3), (1, 1, 0, 2))",
        "affine_grid_int": "F.affine_grid(torch.zeros(1, 2, 3).long(), (1, 1, 2, 2))",
        "unfold_kernel0": "F.unfold(x2, 0)",
        "unfold_stride0": "F.unfold(x2, 2, stride=0)",
        "unfold_dilation0": "F.unfold(x2, 2, dilation=0)",
        "unfold_padding_neg": "F.unfold(x2, 2, padding=-1)",
        "unfold_big": "F.unfold(x2, 9)",
        "unfold_rank": "F.unfold(x1, 2)",
        "unfold_3d_ok": "F.unfold(x2[0], 2).shape",
        "fold_kernel0": "F.fold(torch.zeros(1, 8, 4), (3, 3), 0)",
        "fold_stride0": "F.fold(torch.zeros(1, 8, 4), (3, 3), 2, stride=0)",
        "fold_mismatch": "F.fold(torch.zeros(1, 8, 5), (3, 3), 2)",
        "fold_channels": "F.fold(torch.zeros(1, 7, 4), (3, 3), 2)",
        "fold_rank": "F.fold(torch.zeros(8), (3, 3), 2)",
        "fold_dilation0": "F.fold(torch.zeros(1, 8, 4), (3, 3), 2, dilation=0)",
        "pad_odd": "F.pad(x2, (1,))",
        "pad_long": "F.pad(x1, (1, 1) * 4)",
        "pad_neg_big": "F.pad(x1, (-5, -5))",
        "pad_reflect_big": "F.pad(x1, (8, 8), mode='reflect')",
        "pad_replicate_neg": "F.pad(x1, (-1, -1), mode='replicate').shape",
        "pad_mode": "F.pad(x1, (1, 1), mode='wrap')",
        "pad_reflect_value": "F.pad(x1, (1, 1), mode='reflect', value=1.0)",
        "pad_circular_big": "F.pad(x1, (9, 9), mode='circular')",
        "pad_reflect_rank": "F.pad(torch.zeros(3), (1, 1), mode='reflect')",
        "pad_float": "F.pad(x1, (1.5, 1))",
    }.items():
        _add("nn", name, call)


def _misc_nn_cases() -> None:
    for name, call in {
        "embedding_oob": "F.embedding(torch.tensor([5]), torch.zeros(3, 2))",
        "embedding_neg": "F.embedding(torch.tensor([-1]), torch.zeros(3, 2))",
        "embedding_float": "F.embedding(torch.tensor([1.0]), torch.zeros(3, 2))",
        "embedding_weight_1d": "F.embedding(torch.tensor([1]), torch.zeros(3))",
        "embedding_padding_idx": "F.embedding(torch.tensor([1]), torch.zeros(3, 2), padding_idx=5)",
        "embedding_padding_idx_neg": "F.embedding(torch.tensor([1]), torch.zeros(3, 2), "
        "padding_idx=-5)",
        "embedding_bag_offsets": "F.embedding_bag(torch.tensor([1, 2]), torch.zeros(3, 2), "
        "torch.tensor([1]))",
        "embedding_bag_mode": "F.embedding_bag(torch.tensor([[1, 2]]), torch.zeros(3, 2), "
        "mode='min')",
        "one_hot_neg": "F.one_hot(torch.tensor([-1, 0]))",
        "one_hot_small": "F.one_hot(torch.tensor([3]), 2)",
        "one_hot_float": "F.one_hot(torch.tensor([1.0]))",
        "one_hot_zero_classes": "F.one_hot(torch.tensor([0]), 0)",
        "one_hot_empty": "F.one_hot(torch.tensor([], dtype=torch.long))",
        "ce_target_oob": "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 3]))",
        "ce_target_neg": "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, -2]))",
        "ce_batch": "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1, 2]))",
        "ce_target_float_shape": "F.cross_entropy(torch.zeros(2, 3), torch.zeros(2, 4))",
        "ce_target_int32": "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]).int())",
        "ce_weight_size": "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), "
        "weight=torch.ones(2))",
        "ce_smoothing": "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), "
        "label_smoothing=1.5)",
        "ce_reduction": "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), reduction='avg')",
        "nll_oob": "F.nll_loss(torch.zeros(2, 3), torch.tensor([0, 3]))",
        "nll_rank": "F.nll_loss(torch.zeros(2, 3, 4), torch.tensor([0, 1]))",
        "nll_float_target": "F.nll_loss(torch.zeros(2, 3), torch.tensor([0.0, 1.0]))",
        "mse_shape": "F.mse_loss(torch.zeros(2, 3), torch.zeros(4, 3))",
        "mse_reduction": "F.mse_loss(torch.zeros(2), torch.zeros(2), reduction='foo')",
        "l1_shape": "F.l1_loss(torch.zeros(2, 3), torch.zeros(4, 3))",
        "bce_range": "F.binary_cross_entropy(torch.full((2,), 2.0), torch.zeros(2))",
        "bce_shape": "F.binary_cross_entropy(torch.zeros(2), torch.zeros(3))",
        "bce_logits_shape": "F.binary_cross_entropy_with_logits(torch.zeros(2), torch.zeros(3))",
        "kl_reduction": "F.kl_div(torch.zeros(2), torch.zeros(2), reduction='foo')",
        "smooth_l1_beta": "F.smooth_l1_loss(torch.zeros(2), torch.zeros(2), beta=-1.0)",
        "huber_delta": "F.huber_loss(torch.zeros(2), torch.zeros(2), delta=0.0)",
        "margin_ranking_shape": "F.margin_ranking_loss(torch.zeros(2), torch.zeros(3), "
        "torch.zeros(2))",
        "multi_margin_p": "F.multi_margin_loss(torch.zeros(2, 3), torch.tensor([0, 1]), p=3)",
        "multi_margin_oob": "F.multi_margin_loss(torch.zeros(2, 3), torch.tensor([0, 3]))",
        "triplet_shape": "F.triplet_margin_loss(torch.zeros(2, 3), torch.zeros(2, 3), "
        "torch.zeros(2, 4))",
        "cosine_sim_shape": "F.cosine_similarity(torch.zeros(2, 3), torch.zeros(2, 4))",
        "pairwise_shape": "F.pairwise_distance(torch.zeros(2, 3), torch.zeros(2, 4))",
        "pdist_rank": "F.pdist(torch.zeros(3))",
        "pdist_p_neg": "F.pdist(torch.zeros(3, 2), p=-1)",
        "gaussian_nll_var": "F.gaussian_nll_loss(torch.zeros(2), torch.zeros(2), -torch.ones(2))",
        "poisson_nll_shape": "F.poisson_nll_loss(torch.zeros(2), torch.zeros(3))",
        "ctc_blank": "F.ctc_loss(torch.zeros(5, 1, 3).log_softmax(2), torch.tensor([[1]]), "
        "[5], [1], blank=3)",
        "bn_running_size": "F.batch_norm(x2, torch.zeros(3), torch.ones(3))",
        "bn_weight_size": "F.batch_norm(x2, torch.zeros(2), torch.ones(2), torch.ones(3))",
        "bn_train_one": "F.batch_norm(torch.zeros(1, 2), None, None, training=True)",
        "ln_shape": "F.layer_norm(x2, (5,))",
        "ln_weight": "F.layer_norm(x2, (6,), torch.ones(5))",
        "gn_div": "F.group_norm(x2, 3)",
        "gn_zero": "F.group_norm(x2, 0)",
        "gn_weight": "F.group_norm(x2, 1, torch.ones(3))",
        "in_running": "F.instance_norm(x2, torch.zeros(3), torch.ones(3))",
        "lrn_size0": "F.local_response_norm(x2, 0)",
        "lrn_rank": "F.local_response_norm(torch.zeros(3, 2), 2)",
        "rms_shape": "F.rms_norm(x2, (5,))",
        "normalize_dim": "F.normalize(x2, dim=5)",
        "softmax_dim": "F.softmax(x2, dim=4)",
        "log_softmax_dim": "F.log_softmax(x2, dim=-5)",
        "glu_odd": "F.glu(torch.zeros(2, 3))",
        "glu_dim": "F.glu(torch.zeros(2, 4), dim=2)",
        "linear_shape": "F.linear(torch.zeros(2, 3), torch.zeros(4, 5))",
        "linear_bias": "F.linear(torch.zeros(2, 3), torch.zeros(4, 3), torch.zeros(5))",
        "bilinear_shape": "F.bilinear(torch.zeros(2, 3), torch.zeros(2, 4), torch.zeros(5, 3, 3))",
        "prelu_weight": "F.prelu(x2, torch.ones(3))",
        "threshold_inplace_int": "F.hardtanh(x2, 2.0, 1.0)",
        "softplus_beta0": "F.softplus(x2, beta=0).isnan().any().item()",
        "gumbel_dim": "F.gumbel_softmax(torch.zeros(2, 3), dim=4)",
        "sdpa_shape": "F.scaled_dot_product_attention(torch.zeros(1, 2, 3), "
        "torch.zeros(1, 2, 4), torch.zeros(1, 2, 4))",
    }.items():
        _add("nn", name, call)
    for fn in (
        "dropout",
        "dropout1d",
        "dropout2d",
        "dropout3d",
        "alpha_dropout",
        "feature_alpha_dropout",
    ):
        x = {"dropout1d": "x1", "dropout3d": "x3"}.get(fn, "x2")
        _add("nn", f"{fn}_neg", f"F.{fn}({x}, -0.1)")
        _add("nn", f"{fn}_big", f"F.{fn}({x}, 1.5)")
    _add("nn", "dropout2d_rank", "F.dropout2d(torch.zeros(2), 0.5)")


def _index_cases() -> None:
    for name, call in {
        "gather_neg": "torch.gather(a, 1, torch.tensor([[-1]]))",
        "gather_oob": "torch.gather(a, 1, torch.tensor([[4]]))",
        "gather_float": "torch.gather(a, 1, torch.tensor([[0.0]]))",
        "gather_int32_ok": "torch.gather(a, 1, torch.tensor([[0]]).int()).shape",
        "gather_dim": "torch.gather(a, 2, torch.tensor([[0]]))",
        "gather_rank": "torch.gather(a, 1, torch.tensor([0]))",
        "gather_big_index": "torch.gather(a, 1, torch.zeros(4, 2, dtype=torch.long))",
        "scatter_add_neg": "a.clone().scatter_add_(1, torch.tensor([[-1]]), torch.ones(1, 1))",
        "scatter_add_oob": "a.clone().scatter_add_(1, torch.tensor([[5]]), torch.ones(1, 1))",
        "scatter_add_src_small": "a.clone().scatter_add_(1, torch.zeros(3, 3, "
        "dtype=torch.long), torch.ones(1, 1))",
        "scatter_add_dtype": "a.clone().scatter_add_(1, torch.tensor([[0]]), "
        "torch.ones(1, 1).double())",
        "scatter_neg": "a.clone().scatter_(1, torch.tensor([[-1]]), 1.0)",
        "scatter_oob": "a.clone().scatter_(1, torch.tensor([[5]]), 1.0)",
        "scatter_src_small": "a.clone().scatter_(1, torch.zeros(3, 3, dtype=torch.long), "
        "torch.ones(1, 1))",
        "scatter_reduce_bad": "a.clone().scatter_reduce_(1, torch.tensor([[0]]), "
        "torch.ones(1, 1), 'max2')",
        "scatter_reduce_neg": "a.clone().scatter_reduce_(1, torch.tensor([[-1]]), "
        "torch.ones(1, 1), 'sum')",
        "scatter_float_index": "a.clone().scatter_(1, torch.tensor([[0.0]]), 1.0)",
        "index_select_oob": "torch.index_select(a, 0, torch.tensor([3]))",
        "index_select_neg": "torch.index_select(a, 0, torch.tensor([-1]))",
        "index_select_float": "torch.index_select(a, 0, torch.tensor([0.0]))",
        "index_select_2d": "torch.index_select(a, 0, torch.tensor([[0]]))",
        "index_select_dim": "torch.index_select(a, 2, torch.tensor([0]))",
        "index_add_src": "a.clone().index_add_(0, torch.tensor([0]), torch.ones(2, 4))",
        "index_add_oob": "a.clone().index_add_(0, torch.tensor([5]), torch.ones(1, 4))",
        "index_add_neg": "a.clone().index_add_(0, torch.tensor([-1]), torch.ones(1, 4))",
        "index_copy_oob": "a.clone().index_copy_(0, torch.tensor([5]), torch.ones(1, 4))",
        "index_copy_neg": "a.clone().index_copy_(0, torch.tensor([-1]), torch.ones(1, 4))",
        "index_fill_oob": "a.clone().index_fill_(0, torch.tensor([5]), 1.0)",
        "index_fill_neg": "a.clone().index_fill_(0, torch.tensor([-1]), 1.0).sum().item()",
        "index_put_oob": "a.clone().index_put_((torch.tensor([5]),), torch.tensor(1.0))",
        "getitem_oob": "a[5]",
        "getitem_tensor_oob": "a[torch.tensor([5])]",
        "getitem_neg_oob": "a[-4]",
        "getitem_too_many": "a[0, 0, 0]",
        "getitem_float": "a[torch.tensor([0.5])]",
        "getitem_mask_shape": "a[torch.tensor([True, False])]",
        "setitem_oob": "a.clone().__setitem__(5, 1.0)",
        "take_oob": "torch.take(a, torch.tensor([12]))",
        "take_neg_oob": "torch.take(a, torch.tensor([-13]))",
        "take_float": "torch.take(a, torch.tensor([0.0]))",
        "put_oob": "a.clone().put_(torch.tensor([12]), torch.tensor([1.0]))",
        "put_size": "a.clone().put_(torch.tensor([1, 2]), torch.tensor([1.0]))",
        "masked_fill_mask_dtype": "a.masked_fill(torch.ones(3, 4), 1.0)",
        "masked_fill_shape": "a.masked_fill(torch.ones(2, 4, dtype=torch.bool), 1.0)",
        "masked_fill_value_tensor": "a.masked_fill(a > 0, torch.ones(2))",
        "masked_select_shape": "a.masked_select(torch.ones(2, 4, dtype=torch.bool))",
        "masked_select_dtype": "a.masked_select(torch.ones(3, 4))",
        "masked_scatter_small": "a.clone().masked_scatter_(a >= 0, torch.ones(2))",
        "masked_scatter_dtype": "a.clone().masked_scatter_(a >= 0, torch.ones(12).double())",
        "index_reduce_bad": "a.clone().index_reduce_(0, torch.tensor([0]), torch.ones(1, 4), "
        "'avg')",
        "nonzero_ok": "torch.nonzero(a).shape",
        "where_shape": "torch.where(torch.ones(2, dtype=torch.bool), a, a)",
        "where_cond_dtype": "torch.where(torch.ones(3, 4), a, a)",
    }.items():
        _add("core", name, call)


def _shape_cases() -> None:
    for name, call in {
        "narrow_start": "a.narrow(0, 5, 1)",
        "narrow_len_neg": "a.narrow(0, 0, -1)",
        "narrow_len_big": "a.narrow(0, 1, 3)",
        "narrow_dim": "a.narrow(2, 0, 1)",
        "narrow_start_neg": "a.narrow(0, -1, 1).shape",
        "narrow_0d": "torch.tensor(1.0).narrow(0, 0, 1)",
        "select_oob": "a.select(0, 3)",
        "select_neg_oob": "a.select(0, -4)",
        "select_dim": "a.select(2, 0)",
        "select_0d": "torch.tensor(1.0).select(0, 0)",
        "unfold_size_big": "a.unfold(1, 5, 1)",
        "unfold_step0": "a.unfold(1, 2, 0)",
        "unfold_step_neg": "a.unfold(1, 2, -1)",
        "unfold_size_neg": "a.unfold(1, -1, 1)",
        "unfold_dim": "a.unfold(2, 1, 1)",
        "as_strided_neg_stride": "a.as_strided((2,), (-1,))",
        "as_strided_neg_size": "a.as_strided((-2,), (1,))",
        "as_strided_oob": "a.as_strided((20,), (1,))",
        "as_strided_len": "a.as_strided((2, 2), (1,))",
        "as_strided_offset_neg": "a.as_strided((2,), (1,), -1)",
        "view_numel": "a.view(5, 3)",
        "view_two_neg": "a.view(-1, -1)",
        "view_neg2": "a.view(-2, 6)",
        "view_noncontig": "a.t().view(12)",
        "view_zero_infer": "torch.zeros(0, 3).view(-1, 0)",
        "view_dtype_size": "a.view(torch.float64)",
        "reshape_numel": "a.reshape(5, 3)",
        "reshape_two_neg": "a.reshape(-1, -1)",
        "expand_smaller": "a.expand(2, 4)",
        "expand_neg_new": "a.expand(-1, 3, 4)",
        "expand_fewer": "a.expand(4)",
        "expand_neg2": "a.expand(-2, 4)",
        "expand_as_bad": "a.expand_as(torch.zeros(2, 4))",
        "repeat_fewer": "a.repeat(2)",
        "repeat_neg": "a.repeat(-1, 1)",
        "tile_neg": "a.tile((-1, 1))",
        "roll_mismatch": "a.roll((1, 2), (0,))",
        "roll_dim": "a.roll(1, 2)",
        "roll_no_shift": "a.roll((), ())",
        "flip_dup": "a.flip(0, 0)",
        "flip_dim": "a.flip(2)",
        "permute_dup": "a.permute(0, 0)",
        "permute_len": "a.permute(0)",
        "transpose_dim": "a.transpose(0, 2)",
        "squeeze_dim": "a.squeeze(3)",
        "unsqueeze_dim": "a.unsqueeze(4)",
        "movedim_dup": "a.movedim((0, 1), (0, 0))",
        "diagonal_dup": "a.diagonal(0, 0, 0)",
        "diag_3d": "torch.diag(torch.zeros(2, 2, 2))",
        "tril_1d": "torch.tril(torch.zeros(3))",
        "flatten_order": "a.flatten(1, 0)",
        "unflatten_bad": "a.unflatten(1, (3, 3))",
        "topk_big": "a.topk(5)",
        "topk_neg": "a.topk(-1)",
        "topk_dim": "a.topk(1, dim=3)",
        "kthvalue_0": "a.kthvalue(0)",
        "kthvalue_big": "a.kthvalue(5)",
        "kthvalue_empty": "torch.zeros(0).kthvalue(1)",
        "sort_dim": "a.sort(dim=2)",
        "argsort_dim": "a.argsort(dim=-3)",
        "msort_0d": "torch.msort(torch.tensor(1.0)).shape",
        "cat_shape": "torch.cat([a, torch.zeros(3, 5)])",
        "cat_empty": "torch.cat([])",
        "cat_dim": "torch.cat([a, a], 2)",
        "cat_rank": "torch.cat([a, torch.zeros(4)])",
        "cat_0d": "torch.cat([torch.tensor(1.0), torch.tensor(2.0)])",
        "cat_dtype_ok": "torch.cat([a, a.long()]).dtype",
        "stack_shape": "torch.stack([a, torch.zeros(3, 5)])",
        "stack_empty": "torch.stack([])",
        "stack_dim": "torch.stack([a, a], 4)",
        "split_0": "a.split(0)",
        "split_neg": "a.split(-1)",
        "split_sizes": "a.split([1, 1], 0)",
        "split_sizes_neg": "a.split([4, -1], 0)",
        "chunk_0": "a.chunk(0)",
        "chunk_neg": "a.chunk(-1)",
        "tensor_split_0": "a.tensor_split(0)",
        "unbind_dim": "a.unbind(2)",
        "swapaxes_dim": "a.swapaxes(0, 5)",
        "broadcast_to_bad": "torch.broadcast_to(a, (2, 4))",
        "broadcast_tensors_bad": "torch.broadcast_tensors(a, torch.zeros(2))",
        "add_shape": "a + torch.zeros(2)",
        "add_inplace_broadcast": "torch.zeros(1, 4).add_(a)",
        "meshgrid_2d": "torch.meshgrid(a, a, indexing='ij')",
        "meshgrid_indexing": "torch.meshgrid(torch.zeros(2), indexing='xx')",
        "sum_dim": "a.sum(2)",
        "sum_dup": "a.sum((0, 0))",
        "mean_int": "torch.arange(3).mean()",
        "max_dim_empty": "torch.zeros(0, 3).max(0)",
        "argmax_empty": "torch.zeros(0).argmax()",
        "cumsum_dim": "a.cumsum(2)",
        "norm_p_str": "a.norm(p='foo')",
        "std_dim": "a.std(3)",
        "softmax_dim_core": "torch.softmax(a, 2)",
        "logsumexp_dim": "a.logsumexp(2)",
        "prod_dim": "a.prod(2)",
    }.items():
        _add("core", name, call)


def _creation_cases() -> None:
    for name, call in {
        "arange_step0": "torch.arange(0, 5, 0)",
        "arange_sign": "torch.arange(5, 0, 1)",
        "arange_inf": "torch.arange(0, float('inf'))",
        "arange_nan": "torch.arange(0, float('nan'))",
        "arange_ok_empty": "torch.arange(0, 0).shape",
        "linspace_neg": "torch.linspace(0, 1, -1)",
        "logspace_neg": "torch.logspace(0, 1, -1)",
        "empty_neg": "torch.empty(-1)",
        "empty_neg_tuple": "torch.empty(2, -3)",
        "zeros_neg": "torch.zeros(-1)",
        "ones_neg": "torch.ones((2, -1))",
        "full_neg": "torch.full((-1,), 1.0)",
        "full_bad_size": "torch.full(2.5, 1.0)",
        "randn_neg": "torch.randn(-1)",
        "rand_neg": "torch.rand(3, -1)",
        "eye_neg": "torch.eye(-1)",
        "eye_m_neg": "torch.eye(2, -1)",
        "zeros_float_size": "torch.zeros(2.0)",
        "tensor_ragged": "torch.tensor([[1, 2], [3]])",
        "tensor_str": "torch.tensor('a')",
        "randint_low_high": "torch.randint(5, 2, (3,))",
        "randint_equal": "torch.randint(3, 3, (3,))",
        "randint_neg_size": "torch.randint(0, 5, (-1,))",
        "randint_no_size": "torch.randint(5)",
        "randperm_neg": "torch.randperm(-1)",
        "normal_std_neg": "torch.normal(0.0, -1.0, (2,))",
        "normal_std_tensor_neg": "torch.normal(torch.zeros(2), -torch.ones(2))",
        "bernoulli_p": "torch.bernoulli(torch.full((2,), 1.5))",
        "uniform_from_to": "torch.zeros(2).uniform_(1, 0)",
        "multinomial_zero": "torch.multinomial(torch.zeros(3), 1)",
        "multinomial_neg": "torch.multinomial(torch.tensor([-1.0, 2.0]), 1)",
        "multinomial_too_many": "torch.multinomial(torch.ones(3), 4)",
        "multinomial_3d": "torch.multinomial(torch.ones(1, 1, 3), 1)",
        "multinomial_n0": "torch.multinomial(torch.ones(3), 0).shape",
        "multinomial_n_neg": "torch.multinomial(torch.ones(3), -1)",
        "multinomial_int": "torch.multinomial(torch.ones(3, dtype=torch.long), 1)",
        "multinomial_inf": "torch.multinomial(torch.tensor([1.0, float('inf')]), 1)",
        "multinomial_nan": "torch.multinomial(torch.tensor([1.0, float('nan')]), 1)",
        "bincount_neg": "torch.bincount(torch.tensor([-1, 2]))",
        "bincount_2d": "torch.bincount(torch.zeros(2, 2, dtype=torch.long))",
        "bincount_float": "torch.bincount(torch.tensor([1.0]))",
        "bincount_minlength": "torch.bincount(torch.tensor([1]), minlength=-1)",
        "bincount_weights": "torch.bincount(torch.tensor([1, 2]), torch.ones(3))",
        "histc_bins0": "torch.histc(torch.ones(3), bins=0)",
        "histc_bins_neg": "torch.histc(torch.ones(3), bins=-1)",
        "histc_range": "torch.histc(torch.ones(3), min=2, max=1)",
        "histc_int": "torch.histc(torch.ones(3, dtype=torch.long))",
        "histc_inf": "torch.histc(torch.tensor([1.0, float('inf')]))",
        "histogram_bins0": "torch.histogram(torch.ones(3), bins=0)",
        "histogram_range": "torch.histogram(torch.ones(3), bins=2, range=(2.0, 1.0))",
        "searchsorted_dims": "torch.searchsorted(torch.zeros(2, 3), torch.zeros(3, 1))",
        "searchsorted_side": "torch.searchsorted(torch.zeros(3), torch.zeros(1), side='mid')",
        "bucketize_2d": "torch.bucketize(torch.zeros(2), torch.zeros(2, 2))",
        "tril_indices_neg": "torch.tril_indices(-1, 2)",
        "combinations_r_neg": "torch.combinations(torch.zeros(3), -1)",
        "cartesian_2d": "torch.cartesian_prod(torch.zeros(2, 2))",
        "polar_dtype": "torch.polar(torch.ones(2).long(), torch.ones(2).long())",
    }.items():
        _add("core", name, call)


def _linalg_cases() -> None:
    for name, call in {
        "matmul_shape": "torch.matmul(torch.zeros(2, 3), torch.zeros(4, 5))",
        "matmul_0d": "torch.matmul(torch.tensor(1.0), torch.zeros(2))",
        "matmul_1d": "torch.matmul(torch.zeros(2), torch.zeros(3))",
        "matmul_batch": "torch.matmul(torch.zeros(2, 2, 3), torch.zeros(3, 3, 4))",
        "matmul_dtype": "torch.matmul(torch.zeros(2, 3), torch.zeros(3, 2).double())",
        "mm_3d": "torch.mm(torch.zeros(2, 2, 2), torch.zeros(2, 2))",
        "mm_shape": "torch.mm(torch.zeros(2, 3), torch.zeros(4, 2))",
        "mm_1d": "torch.mm(torch.zeros(2), torch.zeros(2, 2))",
        "mm_dtype": "torch.mm(torch.zeros(2, 2), torch.zeros(2, 2).double())",
        "bmm_2d": "torch.bmm(torch.zeros(2, 2), torch.zeros(2, 2))",
        "bmm_batch": "torch.bmm(torch.zeros(2, 2, 3), torch.zeros(3, 3, 4))",
        "bmm_inner": "torch.bmm(torch.zeros(2, 2, 3), torch.zeros(2, 4, 4))",
        "mv_shape": "torch.mv(torch.zeros(2, 3), torch.zeros(4))",
        "mv_2d": "torch.mv(torch.zeros(2, 3), torch.zeros(3, 1))",
        "dot_shape": "torch.dot(torch.zeros(2), torch.zeros(3))",
        "dot_2d": "torch.dot(torch.zeros(2, 2), torch.zeros(2, 2))",
        "dot_dtype": "torch.dot(torch.zeros(2), torch.zeros(2).double())",
        "outer_2d": "torch.outer(torch.zeros(2, 2), torch.zeros(2)).shape",
        "addmm_shape": "torch.addmm(torch.zeros(3, 3), torch.zeros(2, 3), torch.zeros(3, 2))",
        "baddbmm_shape": "torch.baddbmm(torch.zeros(2, 2, 2), torch.zeros(2, 2, 3), "
        "torch.zeros(2, 4, 2))",
        "einsum_bad": "torch.einsum('ij,jk->ik', torch.zeros(2, 3), torch.zeros(4, 2))",
        "einsum_ops": "torch.einsum('ij,jk->ik', torch.zeros(2, 3))",
        "tensordot_shape": "torch.tensordot(torch.zeros(2, 3), torch.zeros(4, 2), dims=1)",
        "cross_shape": "torch.cross(torch.zeros(2, 2), torch.zeros(2, 2), dim=1)",
        "inverse_nonsquare": "torch.inverse(torch.zeros(2, 3))",
        "inverse_singular": "torch.linalg.inv(torch.zeros(2, 2))",
        "det_nonsquare": "torch.det(torch.zeros(2, 3))",
        "cholesky_nonpd": "torch.linalg.cholesky(-torch.eye(2))",
        "solve_shape": "torch.linalg.solve(torch.eye(2), torch.zeros(3))",
        "kron_ok": "torch.kron(torch.zeros(2), torch.zeros(2, 2)).shape",
        "trace_3d": "torch.trace(torch.zeros(2, 2, 2))",
        "cdist_shape": "torch.cdist(torch.zeros(2, 3), torch.zeros(2, 4))",
        "cdist_p_neg": "torch.cdist(torch.zeros(2, 3), torch.zeros(2, 3), p=-1)",
    }.items():
        _add("core", name, call)


def _inplace_cases() -> None:
    for name, call in {
        "overlap_add_": "torch.zeros(3, 1).expand(3, 3).add_(1)",
        "overlap_add_tensor": "torch.zeros(3, 1).expand(3, 3).add_(torch.ones(3, 3))",
        "overlap_mul_": "torch.zeros(1).expand(3).mul_(2)",
        "overlap_copy_": "torch.zeros(1).expand(3).copy_(torch.ones(3))",
        "overlap_fill_": "torch.zeros(1).expand(3).fill_(2).shape",
        "overlap_zero_": "torch.zeros(1).expand(3).zero_().shape",
        "overlap_neg_": "torch.zeros(1).expand(3).neg_()",
        "overlap_exp_": "torch.zeros(1).expand(3).exp_()",
        "overlap_clamp_": "torch.zeros(1).expand(3).clamp_(0, 1)",
        "overlap_sub_": "torch.zeros(1).expand(3).sub_(1)",
        "overlap_div_": "torch.ones(1).expand(3).div_(2)",
        "overlap_pow_": "torch.ones(1).expand(3).pow_(2)",
        "overlap_relu_": "torch.zeros(1).expand(3).relu_()",
        "overlap_sigmoid_": "torch.zeros(1).expand(3).sigmoid_()",
        "overlap_addcmul_": "torch.zeros(1).expand(3).addcmul_(torch.ones(3), torch.ones(3))",
        "overlap_lerp_": "torch.zeros(1).expand(3).lerp_(torch.ones(3), 0.5)",
        "overlap_masked_fill_": "torch.zeros(1).expand(3).masked_fill_("
        "torch.ones(3, dtype=torch.bool), 1.0)",
        "overlap_index_fill_": "torch.zeros(1).expand(3).index_fill_(0, torch.tensor([0]), 1.0)",
        "overlap_index_add_": "torch.zeros(3, 1).expand(3, 3).index_add_(0, torch.tensor([0]), "
        "torch.ones(1, 3))",
        "overlap_index_copy_": "torch.zeros(3, 1).expand(3, 3).index_copy_(0, "
        "torch.tensor([0]), torch.ones(1, 3))",
        "overlap_scatter_": "torch.zeros(1).expand(3).scatter_(0, torch.tensor([0]), 1.0)",
        "overlap_scatter_add_": "torch.zeros(1).expand(3).scatter_add_(0, torch.tensor([0]), "
        "torch.ones(1))",
        "overlap_put_": "torch.zeros(1).expand(3).put_(torch.tensor([0]), torch.ones(1))",
        "overlap_setitem": "torch.zeros(1).expand(3).__setitem__(0, 1.0)",
        "overlap_setitem_all": "torch.zeros(1).expand(3).__setitem__(slice(None), 1.0)",
        "overlap_as_strided_add_": "torch.zeros(4).as_strided((3, 2), (1, 1)).add_(1)",
        "overlap_as_strided_ok": "torch.zeros(6).as_strided((3, 2), (1, 3)).add_(1).shape",
        "overlap_uniform_": "torch.zeros(1).expand(3).uniform_()",
        "overlap_normal_": "torch.zeros(1).expand(3).normal_()",
        "overlap_random_": "torch.zeros(1).expand(3).random_(0, 3)",
        "overlap_bernoulli_": "torch.zeros(1).expand(3).bernoulli_(0.5)",
        "overlap_out": "torch.add(torch.ones(3), 1, out=torch.zeros(1).expand(3))",
        "overlap_ok_size1": "torch.zeros(3, 1).expand(3, 1).add_(1).shape",
        "overlap_ok_empty": "torch.zeros(1).expand(0).add_(1).shape",
        "overlap_transpose_ok": "torch.zeros(2, 3).t().add_(1).shape",
        "overlap_abs_": "torch.zeros(1).expand(3).abs_()",
        "overlap_sort_out": "torch.sort(torch.ones(3), out=(torch.zeros(1).expand(3), "
        "torch.zeros(3, dtype=torch.long)))",
        "overlap_mul_self": "torch.zeros(1).expand(3).mul_(torch.zeros(1).expand(3))",
        "overlap_addmm_": "torch.zeros(2, 1).expand(2, 2).addmm_(torch.ones(2, 2), "
        "torch.ones(2, 2))",
        "overlap_t_": "torch.zeros(1).expand(3).unsqueeze(0).t_().shape",
        "inplace_dtype": "torch.zeros(2, dtype=torch.long).add_(1.5)",
        "inplace_bool": "torch.zeros(2, dtype=torch.bool).add_(1)",
        "inplace_shape": "torch.zeros(2).add_(torch.ones(3))",
        "copy_shape": "torch.zeros(2).copy_(torch.ones(3))",
    }.items():
        _add("core", name, call)


def _build() -> None:
    _pool_cases()
    _conv_cases()
    _resample_cases()
    _misc_nn_cases()
    _index_cases()
    _shape_cases()
    _creation_cases()
    _linalg_cases()
    _inplace_cases()


_build()


#: the names the case expressions use, per group (recorded into the golden files too)
SETUP = {
    "core": "import torch\na = torch.arange(12.0).reshape(3, 4) - 5.0\n",
    "nn": (
        "import torch\n"
        "import torch.nn.functional as F\n"
        "a = torch.arange(12.0).reshape(3, 4) - 5.0\n"
        "x1 = torch.arange(16.0).reshape(1, 2, 8)\n"
        "x2 = torch.arange(72.0).reshape(1, 2, 6, 6)\n"
        "x3 = torch.arange(128.0).reshape(1, 2, 4, 4, 4)\n"
        "x4 = torch.arange(64.0).reshape(1, 4, 4, 4)\n"
        "w1 = torch.ones(2, 2, 3)\n"
        "w2 = torch.ones(2, 2, 3, 3)\n"
        "w3 = torch.ones(2, 2, 3, 3, 3)\n"
    ),
}


def _namespace(group: str) -> dict:
    env: dict = {}
    exec(SETUP[group], env)  # noqa: S102  (our own setup code)
    return env


def _describe(value) -> str:
    import torch

    if isinstance(value, torch.Tensor):
        return f"ok shape={list(value.shape)} dtype={str(value.dtype).replace('torch.', '')}"
    if isinstance(value, torch.Size):
        return f"ok {list(value)}"
    if isinstance(value, (tuple, list)):
        return "ok (" + ", ".join(_describe(v)[3:] for v in value) + ")"
    if isinstance(value, torch.dtype):
        return f"ok {str(value).replace('torch.', '')}"
    return f"ok {value!r}"


def run_case(group: str, source: str) -> tuple[str, str]:
    """(outcome, message): the exception type's name and its message, or "ok ..."."""
    env = _namespace(group)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(source, env)  # noqa: S307  (the table is ours)
        except Exception as error:  # noqa: BLE001  (the survey reports every type)
            return type(error).__name__, str(error).strip().splitlines()[0][:90] if str(
                error
            ).strip() else ""
    return _describe(value), ""


def main(argv: list[str]) -> int:
    reference = None
    if argv[:1] == ["--diff"]:
        reference = {}
        for line in open(argv[1]):
            name, _, rest = line.rstrip("\n").partition("\t")
            reference[name] = rest.split("\t")[0]
        argv = argv[2:]
    only = set(argv)
    mismatches = 0
    for group, name, source in CASES:
        if only and group not in only and name not in only:
            continue
        outcome, message = run_case(group, source)
        if reference is None:
            print(f"{name}\t{outcome}\t{message}", flush=True)
        elif reference.get(name) != outcome:
            mismatches += 1
            print(
                f"{name}: torch {reference.get(name)} | ours {outcome} {message}\n    {source}",
                flush=True,
            )
    if reference is not None:
        print(f"{mismatches} mismatches of {len(CASES)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
