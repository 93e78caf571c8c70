"""Arrays whose dtype object came through pickle (DataLoader batches, torch.multiprocessing,
copy.deepcopy) are the same type to torch._C as freshly made ones: NumPy builds a new,
equal dtype object when it unpickles, and the kernels used to compare dtype objects by
identity, so `.sum()` of a tensor sent by a DataLoader worker raised TypeError."""

import copy
import pickle

import numpy as np
import pytest

import torch
from torch import _native

pytestmark = pytest.mark.skipif(not _native.ENABLED, reason="torch._C's dtype checks")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_tensors_through_pickle_reach_the_native_kernels(dtype):
    original = torch.arange(70000, dtype=dtype).reshape(700, 100) / 7
    for revived in (pickle.loads(pickle.dumps(original)), copy.deepcopy(original)):
        assert torch.equal(revived.sum(), original.sum())  # cascade / threaded sums
        assert torch.equal(revived[:3].sum(), original[:3].sum())
        assert torch.equal(revived.exp(), original.exp())  # unary kernel
        assert torch.equal(revived + revived, original + original)  # binary kernel
        assert torch.allclose(revived @ revived.T, original @ original.T)  # BLAS


def test_unpickled_dtype_is_not_the_canonical_object_but_is_accepted():
    revived = pickle.loads(pickle.dumps(np.dtype(np.float32)))
    array = np.ones(8, dtype=revived)
    assert torch._C.cascade_sum(array) == 8.0
    # a byte-swapped array is another type: still refused
    with pytest.raises(TypeError):
        torch._C.cascade_sum(np.ones(8, dtype=">f4"))
