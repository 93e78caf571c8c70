"""Every op of the op database against its NumPy reference, and the database against the
registry (every public op has an entry)."""

import pytest

from torch._interface import ops
from torch.testing._opinfo import op_db
from torch.testing._opinfo_base import check_against_reference

# entries without a NumPy reference are checked against PyTorch in test_expressions
CASES = [(info, dtype) for info in op_db for dtype in info.dtypes if info.ref is not None]


# composites whose parts are all in the database and that have no randomness-free sample
# (the nn-only functions are torch-nn's: packages/nn/tests/functional/test_opinfo.py)
_NO_ENTRY = {
    "dropout",
    "feature_dropout",
    "alpha_dropout",
    "instance_norm",
    "kl_div",
    "binary_cross_entropy_with_logits",
    "celu",
    "selu",
    "prelu",
    "threshold",
    "hardshrink",
    "constant_pad_nd",
}


def _untested_composite(op) -> bool:
    return op.extra.get("composite", False) and op.name in _NO_ENTRY


def test_every_registered_public_op_has_an_entry():
    covered = {info.name for info in op_db}
    public = {
        op.name
        for op in ops
        if not op.name.startswith("_") and not op.inplace and not _untested_composite(op)
    }
    public |= {op.name for op in ops if op.name in ("index_put_", "copy_")}
    missing = sorted(public - covered - {"true_divide"})
    assert missing == [], f"ops without an op-database entry: {missing}"


@pytest.mark.parametrize("info,dtype", CASES, ids=[f"{i.name}-{d}" for i, d in CASES])
def test_op_matches_numpy_reference(info, dtype):
    check_against_reference(info, dtype)
