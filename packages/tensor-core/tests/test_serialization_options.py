"""torch.serialization's process-wide options and helpers (behaviour checked against
PyTorch 2.13 by hand: CRC option, skip_data, mmap flags, load endianness, storage
locations, version and storage-type helpers)."""

import io
import mmap
import os
import types
import warnings
import zipfile

import pytest

import torch
import torch.serialization as ser
from torch._serialization import location


def _records(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename.split("/", 1)[1]: info for info in archive.infolist()}


def _saved(obj, **kwargs) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer, **kwargs)
    return buffer.getvalue()


def test_crc32_option_writes_zero_crcs_that_load_still_reads():
    assert ser.get_crc32_options() is True
    ser.set_crc32_options(False)
    try:
        data = _saved({"x": torch.arange(6.0)})
    finally:
        ser.set_crc32_options(True)
    assert all(info.CRC == 0 for info in _records(data).values())
    assert torch.load(io.BytesIO(data))["x"].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert all(info.CRC != 0 for name, info in _records(_saved(torch.ones(2))).items())


def test_skip_data_saves_every_record_with_zeroed_storages():
    x = torch.arange(1.0, 7.0)
    full = _records(_saved({"x": x}))
    with ser.skip_data():
        data = _saved({"x": x})
    skipped = _records(data)
    assert {n: i.file_size for n, i in skipped.items()} == {n: i.file_size for n, i in full.items()}
    assert skipped["data/0"].CRC == 0
    assert torch.load(io.BytesIO(data))["x"].tolist() == [0.0] * 6
    with ser.skip_data(materialize_fake_tensors=True), ser.skip_data():  # nests
        loaded = torch.load(io.BytesIO(_saved({"x": x})))
    assert loaded["x"].shape == (6,) and loaded["x"].dtype == torch.float32


def test_skip_data_refuses_the_legacy_format():
    with ser.skip_data(), pytest.raises(RuntimeError, match="_use_new_zipfile_serialization"):
        torch.save(torch.ones(1), io.BytesIO(), _use_new_zipfile_serialization=False)


def test_mmap_options_shared_writes_reach_the_file(tmp_path):
    path = tmp_path / "m.pt"
    torch.save({"x": torch.zeros(4)}, path)
    assert ser.get_default_mmap_options() == mmap.MAP_PRIVATE
    with ser.set_default_mmap_options(mmap.MAP_SHARED):
        assert ser.get_default_mmap_options() == mmap.MAP_SHARED
        mapped = torch.load(path, mmap=True)
        mapped["x"].add_(5)
        del mapped
    assert ser.get_default_mmap_options() == mmap.MAP_PRIVATE
    assert torch.load(path)["x"].tolist() == [5.0] * 4
    private = torch.load(path, mmap=True)
    private["x"].add_(1)
    assert torch.load(path)["x"].tolist() == [5.0] * 4  # copy-on-write by default
    with pytest.raises(ValueError, match="expected mmap.MAP_PRIVATE or mmap.MAP_SHARED"):
        ser.set_default_mmap_options(5)


def _without_byteorder(data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if not info.filename.endswith("/byteorder"):
                dst.writestr(info.filename, src.read(info))
    return out.getvalue()


def test_default_load_endianness_applies_to_files_without_a_byteorder_record():
    data = _without_byteorder(_saved(torch.tensor([1, 256], dtype=torch.int16)))
    assert ser.get_default_load_endianness() is None
    assert torch.load(io.BytesIO(data)).tolist() == [1, 256]
    try:
        ser.set_default_load_endianness(ser.LoadEndianness.BIG)
        assert torch.load(io.BytesIO(data)).tolist() == [256, 1]
        ser.set_default_load_endianness(ser.LoadEndianness.LITTLE)
        assert torch.load(io.BytesIO(data)).tolist() == [1, 256]
    finally:
        ser.set_default_load_endianness(None)
    with pytest.raises(TypeError, match="Invalid argument type"):
        ser.set_default_load_endianness("big")
    assert [e.value for e in ser.LoadEndianness] == [1, 2, 3]


def test_registered_package_tags_and_restores_a_location(monkeypatch):
    monkeypatch.setattr(location, "_packages", list(location._packages))
    seen = []

    def tagger(storage):
        return "mydev:1"

    def restore(storage, where):
        if where.startswith("mydev"):
            seen.append(where)
            return storage
        return None

    ser.register_package(1, tagger, restore)
    x = torch.arange(3.0)
    assert ser.location_tag(x.untyped_storage()) == "mydev:1"
    assert torch.load(io.BytesIO(_saved(x))).tolist() == [0.0, 1.0, 2.0]
    assert seen == ["mydev:1"]
    with pytest.raises(TypeError, match="callable"):
        ser.register_package(5, 1, restore)


def test_locations_without_a_package_raise():
    storage = torch.ones(1).untyped_storage()
    assert ser.location_tag(storage) == "cpu"
    assert ser.default_restore_location(storage, "cpu") is storage
    with pytest.raises(RuntimeError, match=r"torch.cuda.is_available\(\) is False"):
        ser.default_restore_location(storage, "cuda:0")
    with pytest.raises(RuntimeError, match=r"XPU device but torch.xpu.is_available"):
        ser.default_restore_location(storage, "xpu:0")
    with pytest.raises(RuntimeError, match=r"UntypedStorage \(tagged with bogus\)"):
        ser.default_restore_location(storage, "bogus")
    with pytest.raises(RuntimeError, match="HPU device module is not registered"):
        ser.validate_hpu_device("hpu:0")
    with pytest.raises(RuntimeError, match="determine data location"):
        ser.location_tag(object())


def test_version_and_storage_type_helpers():
    module = types.ModuleType("m")
    module.__version__ = "1.2.x"
    assert ser.check_module_version_greater_or_equal(module, (1, 2))
    assert not ser.check_module_version_greater_or_equal(module, (1, 3))
    with pytest.raises(RuntimeError, match="malformed"):
        ser.check_module_version_greater_or_equal(module, (1, 2, 0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert ser.check_module_version_greater_or_equal(module, (1, 2, 0), False)
    assert "malformed" in str(caught[0].message)
    assert str(ser.StorageType("FloatStorage")) == "StorageType(dtype=torch.float32)"
    assert ser.StorageType("LongStorage").dtype is torch.int64
    with pytest.raises(KeyError, match='"Nope" is not recognized'):
        ser.StorageType("Nope")
    assert ser.normalize_storage_type(torch.LongStorage) is torch.LongStorage
    assert ser.storage_to_tensor_type(torch.FloatStorage(2)) is torch.FloatTensor
    assert issubclass(ser.SourceChangeWarning, Warning)
    with ser.mkdtemp() as folder:
        assert os.path.isdir(folder)
    assert not os.path.exists(folder)
