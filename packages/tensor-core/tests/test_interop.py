"""NumPy, DLPack, the array API namespace and pickling."""

import copy
import pickle

import numpy as np
import pytest

import torch


def test_numpy_shares_memory_both_ways():
    array = np.zeros(3, dtype=np.float32)
    tensor = torch.from_numpy(array)
    tensor[1] = 5
    assert array[1] == 5
    back = tensor.numpy()
    back[2] = 7
    assert tensor[2].item() == 7 and np.shares_memory(back, array)


def test_from_numpy_keeps_strides_of_views():
    array = np.arange(12.0).reshape(3, 4)
    tensor = torch.from_numpy(array[:, 1::2])
    assert tensor.stride() == (4, 2) and tensor.storage_offset() == 1
    array[0, 1] = -1
    assert tensor[0, 0].item() == -1


def test_numpy_refuses_tensors_that_require_grad():
    x = torch.ones(2, requires_grad=True) if _has_autograd() else None
    if x is None:
        pytest.skip("needs torch-autograd")
    with pytest.raises(RuntimeError, match="Use tensor.detach\\(\\).numpy\\(\\)"):
        x.numpy()
    assert x.detach().numpy().tolist() == [1.0, 1.0]


def _has_autograd() -> bool:
    from torch._interface import get_grad_engine

    return get_grad_engine().available


def test_array_protocol_and_priority():
    t = torch.tensor([1.0, 2.0])
    assert np.asarray(t).tolist() == [1.0, 2.0]
    assert np.asarray(t, dtype=np.int64).dtype == np.int64
    mixed = np.ones(2) + t
    assert isinstance(mixed, torch.Tensor) and mixed.dtype is torch.float64
    assert isinstance(t * np.ones(2, dtype=np.float32), torch.Tensor)


def test_dlpack_both_ways():
    t = torch.arange(4.0)
    a = np.from_dlpack(t)
    assert a.__array_interface__["data"][0] == t.data_ptr()
    if a.flags.writeable:  # NumPy < 2.1 imports every DLPack capsule read-only
        a[0] = 9
        assert t[0].item() == 9
    u = torch.from_dlpack(np.arange(3))
    assert u.dtype is torch.int64 and u.tolist() == [0, 1, 2]
    capsule = torch.utils.dlpack.to_dlpack(t)
    v = torch.utils.dlpack.from_dlpack(capsule)
    assert v.data_ptr() == t.data_ptr()


def test_array_namespace():
    xp = torch.ones(2).__array_namespace__()
    assert xp.__array_api_version__ == "2024.12"
    x = xp.asarray([1.0, 2.0])
    assert xp.sum(xp.multiply(x, 2)).item() == 6.0
    assert xp.permute_dims(xp.zeros((2, 3)), (1, 0)).shape == (3, 2)
    assert xp.astype(x, xp.int32).dtype is xp.int32
    with pytest.raises(ValueError, match="array API version"):
        torch.ones(1).__array_namespace__(api_version="1999.01")


@pytest.mark.parametrize(
    "dtype", [torch.float32, torch.bfloat16, torch.int8, torch.bool, torch.complex64]
)
def test_pickle_copies_data(dtype):
    t = torch.ones(2, 3).to(dtype)
    view = t[1]
    restored = pickle.loads(pickle.dumps(view))
    assert restored.dtype is dtype and restored.shape == (3,)
    assert restored.data_ptr() != view.data_ptr()
    clone = copy.deepcopy(t)
    assert clone.tolist() == t.tolist() and clone.data_ptr() != t.data_ptr()


def test_hash_is_identity():
    a, b = torch.ones(1), torch.ones(1)
    assert len({a, b}) == 2 and hash(a) == id(a)
