"""torch.save / torch.load round trips, options and errors (files made here)."""

from __future__ import annotations

import collections
import errno
import io
import os
import pathlib
import pickle
import signal
import struct
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import torch
from torch._serialization import zip_writer

ALL_DTYPES = [
    torch.bool,
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.bfloat16,
    torch.float32,
    torch.float64,
    torch.complex64,
    torch.complex128,
]


def round_trip(obj, **load_args):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer, **load_args)


def same(a, b) -> bool:
    return (
        a.dtype == b.dtype
        and a.shape == b.shape
        and a.stride() == b.stride()
        and a.storage_offset() == b.storage_offset()
        and np.array_equal(a.numpy(), b.numpy(), equal_nan=True)
    )


# ------------------------------------------------------------------------ round trips


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_every_dtype_round_trips(dtype):
    x = torch.arange(7).to(dtype) if dtype is not torch.bool else torch.tensor([True, False])
    assert same(round_trip(x), x)


def test_special_floats_and_bfloat16_bits():
    x = torch.tensor([float("nan"), float("inf"), -0.0, 1e-40], dtype=torch.bfloat16)
    y = round_trip(x)
    assert y.view(torch.int16).tolist() == x.view(torch.int16).tolist()


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.tensor(3.5),
        lambda: torch.tensor(True),
        lambda: torch.empty(0),
        lambda: torch.zeros(2, 0, 3),
        lambda: torch.arange(12.0).reshape(3, 4).t(),
        lambda: torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1),
        lambda: torch.arange(10.0)[::3],
        lambda: torch.arange(3.0)[:1].expand(4, 3),
    ],
    ids=["0-dim", "0-dim bool", "empty", "empty 3-d", "transposed", "permuted", "step", "expand"],
)
def test_shapes_and_strides_round_trip(make):
    x = make()
    assert same(round_trip(x), x)


def test_views_saved_together_share_storage_again():
    x = torch.arange(10.0)
    loaded = round_trip({"x": x, "part": x[2:6], "matrix": x.view(2, 5).t()})
    assert loaded["part"].untyped_storage() is loaded["x"].untyped_storage()
    assert loaded["matrix"].untyped_storage() is loaded["x"].untyped_storage()
    assert loaded["part"].storage_offset() == 2
    loaded["x"][3] = 100.0
    assert loaded["part"][1].item() == 100.0
    assert loaded["matrix"][3, 0].item() == 100.0


def test_storage_written_once():
    x = torch.zeros(1000)
    buffer = io.BytesIO()
    torch.save([x, x[1:], x[:10]], buffer)
    names = zipfile.ZipFile(buffer).namelist()
    assert [n for n in names if "/data/" in n] == ["archive/data/0"]


def test_one_storage_as_two_dtypes_raises():
    x = torch.arange(4, dtype=torch.int32)
    with pytest.raises(RuntimeError, match="view the same data as different types"):
        torch.save([x, x.view(torch.float32)], io.BytesIO())


def test_storages_and_nested_containers():
    x = torch.arange(4.0)
    obj = {
        "list": [x, (1, "two", None)],
        "ordered": collections.OrderedDict(b=2, a=1),
        "size": torch.Size([2, 3]),
        "dtype": torch.bfloat16,
        "device": torch.device("cpu"),
        "set": {1, 2},
        "bytes": b"\x00\xff",
        "complex": 1 - 2j,
        "storage": torch.arange(4.0).untyped_storage(),
    }
    loaded = round_trip(obj)
    assert loaded["list"][1] == (1, "two", None)
    assert isinstance(loaded["ordered"], collections.OrderedDict)
    assert list(loaded["ordered"]) == ["b", "a"]
    assert loaded["size"] == torch.Size([2, 3]) and isinstance(loaded["size"], torch.Size)
    assert loaded["dtype"] is torch.bfloat16
    assert loaded["device"] == torch.device("cpu")
    assert loaded["set"] == {1, 2} and loaded["bytes"] == b"\x00\xff"
    assert loaded["complex"] == 1 - 2j
    assert loaded["storage"].nbytes() == 16


def test_legacy_format_round_trip():
    x = torch.arange(6.0)
    buffer = io.BytesIO()
    torch.save({"x": x, "tail": x[3:], "i": torch.tensor([1, 2], dtype=torch.int16)}, buffer,
               _use_new_zipfile_serialization=False)  # fmt: skip
    assert not buffer.getvalue().startswith(b"PK")
    buffer.seek(0)
    loaded = torch.load(buffer)
    assert loaded["tail"].untyped_storage() is loaded["x"].untyped_storage()
    assert loaded["tail"].tolist() == [3.0, 4.0, 5.0] and loaded["i"].dtype == torch.int16


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_pickle_protocols(protocol):
    buffer = io.BytesIO()
    torch.save({"x": torch.ones(2), "n": 3}, buffer, pickle_protocol=protocol)
    buffer.seek(0)
    assert torch.load(buffer)["x"].tolist() == [1.0, 1.0]


# ----------------------------------------------------------------------- zip layout


def test_zip_layout_matches_pytorch(tmp_path):
    path = tmp_path / "my.model.pt"
    torch.save({"a": torch.ones(3), "b": torch.zeros(2, dtype=torch.int64)}, path)
    raw = path.read_bytes()
    archive = zipfile.ZipFile(path)
    assert archive.namelist() == [
        "my.model/data.pkl",
        "my.model/.format_version",
        "my.model/.storage_alignment",
        "my.model/byteorder",
        "my.model/data/0",
        "my.model/data/1",
        "my.model/version",
        "my.model/.data/serialization_id",
    ]
    assert archive.read("my.model/byteorder") == b"little"
    assert archive.read("my.model/version") == b"3\n"
    assert archive.read("my.model/data.pkl")[:2] == b"\x80\x02"
    for info in archive.infolist():
        assert info.compress_type == zipfile.ZIP_STORED
        name_length, extra_length = struct.unpack_from("<HH", raw, info.header_offset + 26)
        data_start = info.header_offset + 30 + name_length + extra_length
        assert data_start % zip_writer.ALIGNMENT == 0, info.filename
    assert archive.testzip() is None  # every CRC checks out


def test_zip64_fields_for_large_offsets():
    # the central directory switches to zip64 fields past 4 GiB; checked on a fake offset
    writer = zip_writer.ZipWriter(io.BytesIO(), "a")
    entry = zip_writer._Entry(b"a/x", 2**33, 5, 0)
    header = writer._central_header(entry)
    assert struct.unpack_from("<I", header, 42)[0] == 0xFFFFFFFF
    assert struct.unpack_from("<Q", header, 46 + 3 + 4)[0] == 2**33


# ------------------------------------------------------------------- sources and options


def test_path_pathlib_and_file_objects(tmp_path):
    x = torch.arange(3.0)
    torch.save(x, str(tmp_path / "a.pt"))
    torch.save(x, tmp_path / "b.pt")
    with open(tmp_path / "c.pt", "wb") as f:
        torch.save(x, f)
    for name in "abc":
        assert torch.load(tmp_path / f"{name}.pt").tolist() == [0.0, 1.0, 2.0]
        assert torch.load(str(tmp_path / f"{name}.pt")).tolist() == [0.0, 1.0, 2.0]
        with open(tmp_path / f"{name}.pt", "rb") as f:
            assert torch.load(f).tolist() == [0.0, 1.0, 2.0]


def test_load_from_unseekable_stream(tmp_path):
    torch.save(torch.ones(2), tmp_path / "x.pt")

    class Pipe(io.RawIOBase):
        def __init__(self, data):
            self._data = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, b):
            return self._data.readinto(b)

    assert torch.load(Pipe((tmp_path / "x.pt").read_bytes())).tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    "map_location",
    ["cpu", torch.device("cpu"), {"cpu": "cpu"}, lambda storage, location: storage, None],
    ids=["str", "device", "dict", "function", "none"],
)
def test_map_location_to_cpu(map_location):
    assert round_trip(torch.ones(2), map_location=map_location).tolist() == [1.0, 1.0]


def test_map_location_function_sees_each_storage_and_tag():
    seen = []

    def record(storage, location):
        seen.append((storage.nbytes(), location))
        return None

    round_trip([torch.ones(2), torch.zeros(3, dtype=torch.int64)], map_location=record)
    assert seen == [(8, "cpu"), (24, "cpu")]


def test_map_location_errors():
    with pytest.raises(RuntimeError, match="CUDA device but torch.cuda.is_available"):
        round_trip(torch.ones(1), map_location="cuda")
    with pytest.raises(RuntimeError, match="CUDA device"):
        round_trip(torch.ones(1), map_location={"cpu": "cuda:0"})
    with pytest.raises(TypeError, match="map_location"):
        round_trip(torch.ones(1), map_location=7)


def test_mmap_maps_without_reading(tmp_path):
    path = tmp_path / "big.pt"
    w = torch.arange(1000.0)
    torch.save({"w": w, "v": w[10:20]}, path)
    loaded = torch.load(path, mmap=True)
    base = loaded["w"].numpy()
    while base.base is not None and not isinstance(base, np.memmap):
        base = base.base
    assert isinstance(base, np.memmap)
    assert loaded["v"].untyped_storage() is loaded["w"].untyped_storage()
    assert loaded["v"].tolist() == list(map(float, range(10, 20)))
    loaded["w"][0] = 5.0  # copy-on-write: the file keeps its bytes
    assert torch.load(path)["w"][0].item() == 0.0


def test_mmap_errors(tmp_path):
    buffer = io.BytesIO()
    torch.save(torch.ones(1), buffer)
    buffer.seek(0)
    with pytest.raises(ValueError, match="f must be a file path in order to use the mmap"):
        torch.load(buffer, mmap=True)
    torch.save(torch.ones(1), tmp_path / "old.pt", _use_new_zipfile_serialization=False)
    with pytest.raises(RuntimeError, match="mmap can only be used with files saved"):
        torch.load(tmp_path / "old.pt", mmap=True)


def test_load_argument_errors():
    with pytest.raises(RuntimeError, match="explicit pickle_module"):
        round_trip(torch.ones(1), pickle_module=pickle, weights_only=True)
    assert round_trip(torch.ones(1), pickle_module=pickle).tolist() == [1.0]
    with pytest.raises(FileNotFoundError):
        torch.load("/nonexistent/folder/file.pt")
    with pytest.raises(EOFError):
        torch.load(io.BytesIO(b""))


# ---------------------------------------------------------------------- atomic saves


def test_save_to_missing_folder_raises():
    with pytest.raises(RuntimeError, match="Parent directory /nonexistent/folder does not exist"):
        torch.save(torch.ones(1), "/nonexistent/folder/x.pt")


def test_failed_save_keeps_the_old_file(tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save({"step": 1}, path)
    before = path.read_bytes()

    class Unpicklable:
        def __reduce__(self):
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        torch.save({"step": 2, "bad": Unpicklable()}, path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["ckpt.pt"]  # the temporary file is gone


def test_save_replaces_and_keeps_permissions(tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save(1, path)
    torch.save(2, path)
    assert torch.load(path) == 2
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


def _save_matches_in_memory_save(path):
    state = {f"w{i}": torch.arange(3000.0 + i) for i in range(5)}
    torch.save(state, path)
    buffer = io.BytesIO()
    torch.save(state, buffer)
    on_disk, in_memory = zipfile.ZipFile(path), zipfile.ZipFile(buffer)
    assert on_disk.testzip() is None  # every CRC right
    names = [n for n in in_memory.namelist() if not n.endswith("serialization_id")]
    assert names and all(on_disk.read(n) == in_memory.read(n) for n in names)
    assert torch.load(path)["w4"].equal(state["w4"])


@pytest.mark.parametrize("range_sync", [True, False], ids=["sync_file_range", "thread"])
def test_write_behind_saves_the_same_bytes(tmp_path, monkeypatch, range_sync):
    """Both page-cache writers (Linux sync_file_range, the fdatasync thread elsewhere)
    over many windows give exactly the bytes of an in-memory save."""
    from torch._serialization import atomic_file

    if range_sync and atomic_file._sync_file_range() is None:
        pytest.skip("no sync_file_range on this system")
    if not range_sync:
        monkeypatch.setattr(atomic_file, "_sync_file_range", lambda: None)
    monkeypatch.setattr(atomic_file, "_direct_io_allowed", lambda descriptor: False)
    monkeypatch.setattr(atomic_file, "_WINDOW_BYTES", 1 << 12)  # many windows
    _save_matches_in_memory_save(tmp_path / "archive.pt")  # the name a file object gets


def _direct_writer_or_skip(tmp_path, monkeypatch):
    from torch._serialization import atomic_file

    if atomic_file.fcntl is None:
        pytest.skip("no fcntl on this system")

    with open(tmp_path / "probe", "wb") as probe:
        if not atomic_file._direct_io_allowed(probe.fileno()):
            pytest.skip("this file system has no O_DIRECT")
    chosen = []
    original = atomic_file._DirectWriter
    monkeypatch.setattr(atomic_file._DirectWriter, "BUFFER_BYTES", 1 << 13)  # many buffers
    monkeypatch.setattr(
        atomic_file, "_DirectWriter", lambda descriptor: chosen.append(1) or original(descriptor)
    )
    return atomic_file, chosen


def test_direct_io_saves_the_same_bytes(tmp_path, monkeypatch):
    """The O_DIRECT writer, over many small buffers and a last one cut short, gives
    exactly the bytes of an in-memory save; so does a save smaller than one buffer."""
    atomic_file, chosen = _direct_writer_or_skip(tmp_path, monkeypatch)
    _save_matches_in_memory_save(tmp_path / "archive.pt")
    torch.save({"small": torch.ones(3)}, tmp_path / "small.pt")
    assert torch.load(tmp_path / "small.pt")["small"].tolist() == [1.0] * 3
    assert len(chosen) == 2


def test_direct_io_refused_mid_save_goes_on_through_the_cache(tmp_path, monkeypatch):
    # some file systems accept O_DIRECT when the file is opened and refuse the writes
    atomic_file, chosen = _direct_writer_or_skip(tmp_path, monkeypatch)
    real_pwrite, refused = os.pwrite, []

    def pwrite(descriptor, data, offset):
        flags = atomic_file.fcntl.fcntl(descriptor, atomic_file.fcntl.F_GETFL)
        if flags & os.O_DIRECT and offset >= 1 << 14:
            refused.append(offset)
            raise OSError(errno.EINVAL, "Invalid argument")
        return real_pwrite(descriptor, data, offset)

    monkeypatch.setattr(atomic_file.os, "pwrite", pwrite)
    _save_matches_in_memory_save(tmp_path / "archive.pt")
    assert chosen and refused == [1 << 14]


def test_direct_io_write_error_keeps_the_old_file(tmp_path, monkeypatch):
    atomic_file, _ = _direct_writer_or_skip(tmp_path, monkeypatch)
    path = tmp_path / "ckpt.pt"
    torch.save({"step": 1}, path)
    before = path.read_bytes()

    def disk_full(descriptor, data, offset):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic_file.os, "pwrite", disk_full)
    with pytest.raises(OSError, match="No space left"):
        torch.save({"w": torch.zeros(100000)}, path)  # many buffers: the helper fails
    with pytest.raises(OSError, match="No space left"):
        torch.save({"step": 2}, path)  # one buffer: the calling thread fails
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["ckpt.pt", "probe"]


_KILLED_MID_SAVE = """
import os, signal, sys
import torch

class DiesWhilePickled:
    def __reduce__(self):
        os.kill(os.getpid(), signal.SIGKILL)

torch.save({"w": torch.arange(100000.0), "then": DiesWhilePickled()}, sys.argv[1])
"""


def test_process_killed_mid_save_keeps_the_old_file(tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save({"step": 1}, path)
    before = path.read_bytes()
    done = subprocess.run([sys.executable, "-c", _KILLED_MID_SAVE, str(path)], timeout=120)
    assert done.returncode == -signal.SIGKILL
    assert path.read_bytes() == before
    assert torch.load(path) == {"step": 1}


def test_save_through_a_symlink_writes_its_target(tmp_path):
    # as open(path, "wb") would: the link stays a link, its target gets the new bytes
    target = tmp_path / "ckpt_100.pt"
    torch.save(1, target)
    link = tmp_path / "latest.pt"
    link.symlink_to(target.name)
    torch.save(2, link)
    assert link.is_symlink() and torch.load(target) == 2
    dangling = tmp_path / "next.pt"
    dangling.symlink_to("ckpt_200.pt")
    torch.save(3, dangling)
    assert dangling.is_symlink() and torch.load(tmp_path / "ckpt_200.pt") == 3
    assert sorted(os.listdir(tmp_path)) == ["ckpt_100.pt", "ckpt_200.pt", "latest.pt", "next.pt"]


def test_save_over_a_file_open_elsewhere(tmp_path):
    # a reader holding the old checkpoint open keeps reading the old bytes
    path = tmp_path / "ckpt.pt"
    torch.save(torch.ones(4), path)
    with open(path, "rb") as old:
        torch.save(torch.zeros(4), path)
        assert torch.load(old).tolist() == [1.0] * 4
    assert torch.load(path).tolist() == [0.0] * 4


# ------------------------------------------------------------------------ weights_only


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


def test_weights_only_refuses_unknown_classes_and_says_how():
    buffer = io.BytesIO()
    torch.save({"p": Point(1, torch.ones(1))}, buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError) as info:
        torch.load(buffer)
    message = str(info.value)
    assert "Weights only load failed" in message
    assert f"GLOBAL {__name__}.Point" in message
    assert "add_safe_globals" in message and "weights_only=False" in message


def test_add_safe_globals_and_context_manager():
    buffer = io.BytesIO()
    torch.save(Point(1, torch.ones(2)), buffer)
    torch.serialization.clear_safe_globals()
    try:
        with torch.serialization.safe_globals([Point]):
            assert torch.serialization.get_safe_globals() == [Point]
            buffer.seek(0)
            loaded = torch.load(buffer)
        assert torch.serialization.get_safe_globals() == []
        assert isinstance(loaded, Point) and loaded.y.tolist() == [1.0, 1.0]
        torch.serialization.add_safe_globals([(Point, f"{__name__}.Point")])
        buffer.seek(0)
        assert torch.load(buffer).x == 1
    finally:
        torch.serialization.clear_safe_globals()
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError):
        torch.load(buffer)


def test_add_safe_globals_argument_errors():
    with pytest.raises(TypeError):
        torch.serialization.add_safe_globals(Point)
    with pytest.raises(ValueError):
        torch.serialization.add_safe_globals([(Point, 3)])


def test_weights_only_false_loads_anything():
    buffer = io.BytesIO()
    torch.save({"p": Point(2, 3)}, buffer)
    buffer.seek(0)
    assert torch.load(buffer, weights_only=False)["p"].y == 3


# --------------------------------------------------------------- nn and optim objects


def _nn():
    return pytest.importorskip("torch.nn", exc_type=ImportError)


@pytest.mark.autograd
def test_parameter_survives():
    nn = _nn()
    weight = nn.Parameter(torch.arange(4.0))
    frozen = nn.Parameter(torch.ones(2), requires_grad=False)
    loaded = round_trip({"w": weight, "view": weight[1:], "frozen": frozen})
    assert type(loaded["w"]) is nn.Parameter and loaded["w"].requires_grad
    assert type(loaded["frozen"]) is nn.Parameter and not loaded["frozen"].requires_grad
    assert loaded["view"].untyped_storage() is loaded["w"].untyped_storage()


@pytest.mark.autograd
def test_module_state_dict_round_trip():
    nn = _nn()
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
    state = round_trip(model.state_dict())
    other = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
    other.load_state_dict(state)
    for (name, a), b in zip(model.state_dict().items(), other.state_dict().values()):
        assert torch.equal(a, b), name
    assert state._metadata == model.state_dict()._metadata


@pytest.mark.autograd
def test_whole_module_needs_weights_only_false():
    nn = _nn()
    model = nn.Linear(2, 3)
    buffer = io.BytesIO()
    torch.save(model, buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="torch.nn.modules.linear.Linear"):
        torch.load(buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=False)
    assert isinstance(loaded, nn.Linear) and isinstance(loaded.weight, nn.Parameter)
    assert torch.equal(loaded.weight, model.weight)


@pytest.mark.autograd
def test_optimizer_state_dict_round_trip():
    nn = _nn()
    optim = pytest.importorskip("torch.optim", exc_type=ImportError)
    weight = nn.Parameter(torch.ones(3))
    optimizer = optim.Adam([weight], lr=0.1)
    (weight * 2).sum().backward()
    optimizer.step()
    state = round_trip(optimizer.state_dict())
    fresh = optim.Adam([nn.Parameter(torch.ones(3))], lr=0.5)
    fresh.load_state_dict(state)
    assert fresh.param_groups[0]["lr"] == 0.1
    saved = optimizer.state_dict()["state"][0]
    assert torch.equal(state["state"][0]["exp_avg_sq"], saved["exp_avg_sq"])
    assert torch.equal(state["state"][0]["step"], saved["step"])


def test_storage_class_names():
    assert torch.FloatStorage.__module__ == "torch"
    storage = torch.FloatStorage([1.0, 2.0])
    assert storage.dtype is torch.float32 and storage.tolist() == [1.0, 2.0]
    assert torch.LongStorage(3).size() == 3
    loaded = round_trip(torch.BFloat16Storage([1.5]))
    assert loaded.dtype is torch.bfloat16 and loaded.tolist() == [1.5]


def test_rebuild_functions_check_geometry():
    storage = torch.FloatStorage(4)
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch._utils._rebuild_tensor_v2(storage, 1, (2, 2), (2, 1), False, None)
    with pytest.raises(RuntimeError, match="negative"):
        torch._utils._rebuild_tensor_v2(storage, 0, (2,), (-1,), False, None)
    t = torch._utils._rebuild_tensor_v2(storage, 1, (3,), (1,), False, None)
    assert t.storage_offset() == 1 and t._base is None


def test_pathlib_prefix_uses_file_stem(tmp_path):
    torch.save(1, pathlib.Path(tmp_path) / "weights")
    assert zipfile.ZipFile(tmp_path / "weights").namelist()[0] == "weights/data.pkl"


def _rewrite_archive(data: bytes, change) -> bytes:
    """The records of a checkpoint passed through ``change(name, bytes) -> bytes`` and
    written again with this project's zip writer."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    writer = zip_writer.ZipWriter(out, "archive")
    for name in source.namelist():
        short = name.split("/", 1)[1]
        writer.write_record(short, change(short, source.read(name)))
    writer.close()
    return out.getvalue()


def test_big_endian_checkpoints_are_swapped_on_load():
    values = {"f": torch.tensor([1.5, -2.0]), "i": torch.tensor([1, 256], dtype=torch.int32),
              "c": torch.tensor([1 + 2j], dtype=torch.complex64)}  # fmt: skip
    buffer = io.BytesIO()
    torch.save(values, buffer)
    widths = {"0": 4, "1": 4, "2": 4}  # complex64 swaps its two float32 halves

    def to_big_endian(name, data):
        if name == "byteorder":
            return b"big"
        if name.startswith("data/"):
            width = widths[name[5:]]
            return np.frombuffer(data, f"<u{width}").astype(f">u{width}").tobytes()
        return data

    loaded = torch.load(io.BytesIO(_rewrite_archive(buffer.getvalue(), to_big_endian)))
    for name, tensor in values.items():
        assert torch.equal(loaded[name], tensor), name


def test_legacy_truncations_raise():
    buffer = io.BytesIO()
    torch.save({"x": torch.arange(8.0), "n": 3}, buffer, _use_new_zipfile_serialization=False)
    data = buffer.getvalue()
    for length in range(1, len(data), 5):
        with pytest.raises((RuntimeError, pickle.UnpicklingError)):
            torch.load(io.BytesIO(data[:length]))


def test_rebuild_v3_and_subclass_rebuild():
    storage = torch.UntypedStorage(8)
    t = torch._utils._rebuild_tensor_v3(storage, 0, (2,), (1,), False, None, torch.int32)
    assert t.dtype is torch.int32 and t.tolist() == [0, 0]

    class Marked(torch.Tensor):
        __slots__ = ()

    rebuilt = torch._utils._rebuild_from_type_v2(
        torch._utils._rebuild_tensor_v2,
        Marked,
        (torch.FloatStorage([1.0, 2.0]), 0, (2,), (1,), False, None),
        None,
    )
    assert type(rebuilt) is Marked and rebuilt.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("legacy", [False, True], ids=["zip", "legacy"])
def test_full_unpickler_reads_both_formats(tmp_path, legacy):
    x = torch.arange(5.0)
    path = tmp_path / "full.pt"
    torch.save({"p": Point(x, x[1:])}, path, _use_new_zipfile_serialization=not legacy)
    loaded = torch.load(path, weights_only=False)["p"]
    assert loaded.y.untyped_storage() is loaded.x.untyped_storage()
    if not legacy:
        mapped = torch.load(path, weights_only=False, mmap=True)["p"]
        assert mapped.y.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_numpy_values_load_once_their_globals_are_allowed():
    # PyTorch's documented recipe: allow the NumPy reconstructors and dtype classes
    values = {"lr": np.float64(0.5), "table": np.arange(3)}
    buffer = io.BytesIO()
    torch.save(values, buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="numpy"):
        torch.load(buffer)
    allowed = [
        np.float64(0).__reduce__()[0],  # numpy's scalar reconstructor
        np.arange(1).__reduce__()[0],  # numpy's array reconstructor
        np.dtype,
        np.ndarray,
        type(np.dtype("f8")),  # dtype instances are of per-type classes (NumPy >= 1.20)
        type(np.dtype("i8")),
    ]
    buffer.seek(0)
    with torch.serialization.safe_globals(allowed):
        loaded = torch.load(buffer)
    assert loaded["lr"] == 0.5 and loaded["table"].tolist() == [0, 1, 2]


def test_complex32_refused_both_ways():
    with pytest.raises(RuntimeError, match="complex32"):
        torch.save(torch.zeros(2, dtype=torch.complex32), io.BytesIO())
    with pytest.raises(RuntimeError, match="complex32"):
        torch._utils._rebuild_tensor_v3(
            torch.UntypedStorage(8), 0, (2,), (1,), False, None, torch.complex32
        )
