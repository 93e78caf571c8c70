"""Audit torch-core's math API against real PyTorch (issue 4's "What to build" lists).

    python tools/audit_api.py [--ours PYTHON] [--ref PYTHON] [--all]

For every name below it asks both interpreters whether ``torch.X``, ``Tensor.X``,
``Tensor.X_`` (in-place) and ``out=`` exist, and prints what PyTorch has and we lack.
Each interpreter is run on this same file with ``--probe``, so the two ``torch``
packages never meet in one process. ``--all`` prints the full table.

Where the out= answer comes from: under PyTorch, whether a schema ``aten::X`` (or
``aten::linalg_X``) has an out argument; under ours, whether the function's signature
names ``out``.
"""

from __future__ import annotations

import argparse
import inspect
import json
import subprocess
import sys

__all__ = ["NAMES", "LINALG", "probe", "missing", "main"]

_TRIG = ["sin", "cos", "tan", "asin", "acos", "atan", "arcsin", "arccos", "arctan"]
_HYPERBOLIC = ["sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh"]

#: issue 4, "What to build", by list (names under ``torch``)
NAMES = {
    "pointwise": [
        *(
            "add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow "
            "abs absolute neg negative sign sgn sqrt rsqrt exp exp2 expm1 log log1p log2 log10 "
            "atan2 arctan2 sigmoid logit erf erfc erfinv lgamma digamma floor ceil round trunc "
            "fix frac clamp clip clamp_min clamp_max lerp addcmul addcdiv where maximum minimum "
            "fmax fmin hypot eq ne lt le gt ge greater greater_equal less less_equal not_equal "
            "equal isnan isinf isfinite isposinf isneginf isreal nan_to_num logical_and "
            "logical_or logical_xor logical_not bitwise_and bitwise_or bitwise_xor bitwise_not "
            "bitwise_left_shift bitwise_right_shift reciprocal square positive copysign signbit "
            "xlogy float_power logaddexp logaddexp2 deg2rad rad2deg nextafter heaviside isclose "
            "allclose is_complex is_floating_point is_nonzero fill zero_ real imag conj angle "
            "view_as_real view_as_complex polar complex "
        ).split(),
        *_TRIG,
        *_HYPERBOLIC,
    ],
    "reductions": (
        "sum mean prod std var std_mean var_mean max min amax amin aminmax argmax argmin norm "
        "logsumexp cumsum cumprod cummax cummin logcumsumexp all any count_nonzero median "
        "nanmedian mode kthvalue nansum nanmean quantile nanquantile dist "
    ).split(),
    "shape and selection": (
        "cat concat concatenate stack hstack vstack dstack column_stack gather scatter "
        "scatter_add scatter_reduce index_select index_add index_copy index_fill index_put "
        "index_reduce masked_fill masked_select masked_scatter take take_along_dim nonzero "
        "argwhere repeat_interleave tile roll flip fliplr flipud rot90 tril triu sort argsort "
        "msort topk unique unique_consecutive searchsorted bucketize histc bincount meshgrid "
        "cartesian_prod broadcast_to broadcast_tensors einsum tensordot outer ger cross diag "
        "diag_embed diagflat trace kron cdist block_diag combinations tril_indices "
        "triu_indices chunk split tensor_split hsplit vsplit dsplit unbind narrow select "
        "squeeze unsqueeze flatten unflatten reshape permute transpose swapaxes swapdims "
        "movedim moveaxis t diagonal atleast_1d atleast_2d atleast_3d clone numel is_tensor "
        "is_same_size typename "
    ).split(),
    "linear algebra": (
        "mm bmm matmul mv dot vdot inner addmm addbmm baddbmm addmv addr chain_matmul det "
        "logdet slogdet inverse cholesky cholesky_solve cholesky_inverse qr svd pinverse "
        "matrix_power matrix_exp lu triangular_solve "
    ).split(),
    "nn kernels": (
        "conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d max_pool1d "
        "max_pool2d max_pool3d avg_pool1d adaptive_avg_pool1d adaptive_max_pool1d "
        "max_pool1d_with_indices batch_norm layer_norm group_norm instance_norm softmax "
        "log_softmax embedding embedding_bag dropout alpha_dropout feature_dropout "
        "feature_alpha_dropout pixel_shuffle pixel_unshuffle grid_sampler "
        "affine_grid_generator relu selu celu rrelu prelu hardshrink threshold pdist "
        "cosine_similarity pairwise_distance rnn_tanh_cell rnn_relu_cell lstm_cell gru_cell "
        "constant_pad_nd native_layer_norm native_batch_norm binary_cross_entropy_with_logits "
        "cosine_embedding_loss hinge_embedding_loss kl_div margin_ranking_loss "
        "poisson_nll_loss triplet_margin_loss ctc_loss "
    ).split(),
}

#: names under ``torch.linalg``
LINALG = (
    "inv inv_ex det slogdet solve solve_ex cholesky cholesky_ex qr svd svdvals eig eigh "
    "eigvals eigvalsh lstsq pinv matrix_norm matrix_rank norm vector_norm cross matmul "
    "multi_dot matrix_power matrix_exp tensorinv tensorsolve lu lu_factor "
    "solve_triangular householder_product vander vecdot diagonal cond "
).split()


def _ours_has_out(function) -> bool:
    try:
        return "out" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


#: ops with an out= schema whose Python binding takes no ``out=`` (found by calling them
#: under PyTorch 2.13)
_NO_OUT_BINDING = set(
    "isnan isinf roll rot90 bincount trace clone flip masked_fill count_nonzero std_mean "
    "var_mean fill index_fill index_put masked_scatter repeat_interleave unique_consecutive "
    "diag_embed block_diag tril_indices triu_indices dist relu celu constant_pad_nd "
    "pixel_shuffle pixel_unshuffle embedding avg_pool1d adaptive_avg_pool1d "
    "binary_cross_entropy_with_logits native_layer_norm affine_grid_generator".split()
)


def _reference_out_names(torch) -> set:
    names = set()
    for schema in torch._C._jit_get_all_schemas():
        if any(a.is_out for a in schema.arguments):
            names.add(schema.name.split("::", 1)[1])
    return names - _NO_OUT_BINDING


def probe() -> dict:
    """What the running interpreter's ``torch`` has, per name: [torch.X, Tensor.X,
    Tensor.X_, out=]."""
    import torch

    reference = "+" in torch.__version__ or hasattr(torch._C, "_jit_get_all_schemas")
    out_names = _reference_out_names(torch) if reference else set()
    table = {}
    for names in NAMES.values():
        for name in names:
            function = getattr(torch, name, None)
            has_out = (
                name in out_names if reference else function is not None and _ours_has_out(function)
            )
            table[name] = [
                function is not None,
                hasattr(torch.Tensor, name),
                not name.endswith("_") and hasattr(torch.Tensor, name + "_"),
                has_out,
            ]
    for name in LINALG:
        function = getattr(torch.linalg, name, None)
        has_out = (
            f"linalg_{name}" in out_names
            if reference
            else function is not None and _ours_has_out(function)
        )
        table[f"linalg.{name}"] = [function is not None, False, False, has_out]
    return table


_COLUMNS = ("torch.{}", "Tensor.{}", "Tensor.{}_", "{}(out=)")


def missing(reference: dict, ours: dict) -> list[tuple[str, str]]:
    """Every API point PyTorch has and we lack, as (name, readable label) pairs."""
    gaps = []
    for name, flags in reference.items():
        mine = ours.get(name, [False] * 4)
        for column, theirs, have in zip(_COLUMNS, flags, mine):
            if theirs and not have:
                label = column.format(name)
                if name.startswith("linalg.") and column == "torch.{}":
                    label = f"torch.{name}"
                gaps.append((name, label))
    return gaps


def _run(python: str) -> dict:
    output = subprocess.run(
        [python, __file__, "--probe"], capture_output=True, text=True, check=True, cwd="/"
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--ours", default="/work/dev/bin/python")
    parser.add_argument("--ref", default="/work/ptref/bin/python")
    parser.add_argument("--all", action="store_true", help="print the whole table")
    args = parser.parse_args(argv)
    if args.probe:
        print(json.dumps(probe()))
        return 0
    reference, ours = _run(args.ref), _run(args.ours)
    if args.all:
        for name, flags in reference.items():
            print(f"{name:32s} ref={flags} ours={ours.get(name)}")
    gaps = missing(reference, ours)
    groups = {n: g for g, names in NAMES.items() for n in names}
    by_group: dict[str, list[str]] = {}
    for name, label in gaps:
        group = "torch.linalg" if name.startswith("linalg.") else groups[name]
        by_group.setdefault(group, []).append(label)
    for group, items in by_group.items():
        print(f"## {group} ({len(items)})")
        print("  " + ", ".join(items))
    print(f"{len(gaps)} missing")
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
