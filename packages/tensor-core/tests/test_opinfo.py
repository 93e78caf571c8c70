"""Every op of the op database against its NumPy reference, and the database against the
registry (every public op has an entry)."""

import numpy as np
import pytest

import torch
from torch._interface import ops
from torch.testing._opinfo import op_db

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
    for sample in info.sample_inputs(dtype):
        result = info.op(*sample.tensors, *sample.args, **sample.kwargs)
        arrays = [t.numpy() for t in sample.tensors]
        with np.errstate(all="ignore"):
            expected = np.asarray(info.ref(*arrays, *sample.args, **sample.kwargs))
        assert tuple(result.shape) == expected.shape
        rtol = 1e-5 if dtype is torch.float32 else 1e-12
        np.testing.assert_allclose(
            result.numpy().astype(np.float64) if result.dtype is not torch.bool else result.numpy(),
            expected.astype(np.float64) if expected.dtype != bool else expected,
            rtol=rtol,
            atol=rtol,
        )
