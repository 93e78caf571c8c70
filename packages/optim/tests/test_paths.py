"""Every optimizer's trajectory, bit for bit, through each of its implementations (the
native kernels and the tensor-op reference), as recorded by record_paths.py: a
restructuring of the optimizers must not change a single rounding."""

import pytest
from optim_testing import (
    IMPLEMENTATIONS,
    implementation,
    load_golden,
    path_digests,
    path_labels,
    record_key,
)

from torch._interface import optim as native_optim

NATIVE_CORE = native_optim.available()
# a pure core (TORCH_NATIVE=0) rounds some of its tensor ops differently: its own record
MODES = IMPLEMENTATIONS if NATIVE_CORE else ("pure_core",)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("label", path_labels())
def test_trajectory_is_bit_exact(label, dtype, mode):
    expected = load_golden("paths")[record_key(label, dtype, mode)]
    with implementation("reference" if mode == "pure_core" else mode):
        got = path_digests(label, dtype)
    steps = [step for step, (g, e) in enumerate(zip(got, expected), 1) if g != e]
    assert not steps, f"{label}/{dtype}/{mode}: differs after steps {steps} (last: state)"
