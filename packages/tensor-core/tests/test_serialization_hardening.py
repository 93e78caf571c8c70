"""Issue 15, items 3-5: what a checkpoint may set on a tensor, the resources a load may
take, and what a save does to the file it replaces and to the temporary files of saves
that were killed."""

from __future__ import annotations

import collections
import io
import os
import pickle
import signal
import stat
import subprocess
import sys
import textwrap
import time
import tracemalloc
import zipfile

import pytest

import torch
from torch._serialization import atomic_file, limits, unpickler

P61 = (1 << 61) - 1  # hash(k * P61) == 0 for every int k


def _zip(records: dict, compressed=()) -> bytes:
    """A checkpoint archive holding ``records`` (name -> bytes) under ``archive/``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in records.items():
            method = zipfile.ZIP_DEFLATED if name in compressed else zipfile.ZIP_STORED
            archive.writestr(zipfile.ZipInfo(f"archive/{name}"), data, compress_type=method)
    return buffer.getvalue()


def _pickle_checkpoint(pickle_bytes: bytes, compressed: bool = False) -> io.BytesIO:
    records = {"data.pkl": pickle_bytes, "byteorder": b"little", "version": b"3\n"}
    return io.BytesIO(_zip(records, ("data.pkl",) if compressed else ()))


def _saved(obj, **kwargs) -> io.BytesIO:
    buffer = io.BytesIO()
    torch.save(obj, buffer, **kwargs)
    buffer.seek(0)
    return buffer


# ------------------------------------------------------------ item 3: tensor state


class _WithState:
    """Pickles as a parameter rebuilt with ``state`` through one of PyTorch's two
    rebuilders that carry Python attributes."""

    def __init__(self, state, rebuilder):
        self.state, self.rebuilder = state, rebuilder

    def __reduce_ex__(self, protocol):
        data = torch.zeros(2, dtype=torch.float64)
        hooks = collections.OrderedDict()
        if self.rebuilder == "parameter":
            return torch._utils._rebuild_parameter_with_state, (data, False, hooks, self.state)
        storage = data.storage()
        args = (storage, 0, (2,), (1,), False, hooks)
        parameter = type(torch.nn.Parameter(torch.zeros(1)))
        return _REBUILD_FROM_TYPE, (torch._utils._rebuild_tensor_v2, parameter, args, self.state)


def _rebuild_from_type_stand_in(*args):  # pickled under PyTorch's name for it
    raise AssertionError("never called: the load resolves the name to the real one")


_rebuild_from_type_stand_in.__module__ = "torch._tensor"
_rebuild_from_type_stand_in.__qualname__ = "_rebuild_from_type_v2"
_REBUILD_FROM_TYPE = _rebuild_from_type_stand_in


@pytest.fixture
def pytorch_rebuild_name(monkeypatch):
    import torch._tensor

    monkeypatch.setattr(
        torch._tensor, "_rebuild_from_type_v2", _rebuild_from_type_stand_in, raising=False
    )


# from_type rebuilds an nn.Parameter: it needs torch-nn (skipped in core's own session)
REBUILDERS = ["parameter", pytest.param("from_type", marks=pytest.mark.nn)]
PRIVATE_FIELDS = {
    "_dtype": torch.int8,
    "_offset_": -5,
    "_version_": [7],
    "_grad_fn": 5,
    "_base": None,
    "_storage_": None,
    "_np": [1.0, 2.0],
    "_requires_grad": "yes",
    "_view_version": 3,
    "dtype": torch.int8,
    "data": torch.ones(2),
    "is_leaf": False,
}


@pytest.mark.parametrize("rebuilder", REBUILDERS)
@pytest.mark.parametrize("field", sorted(PRIVATE_FIELDS))
def test_state_cannot_set_framework_fields(field, rebuilder, pytorch_rebuild_name):
    buffer = _saved(_WithState({field: PRIVATE_FIELDS[field]}, rebuilder))
    with pytest.raises(pickle.UnpicklingError, match=f"field '{field}'"):
        torch.load(buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match=f"field '{field}'"):
        torch.load(buffer, weights_only=False)


@pytest.mark.parametrize("rebuilder", REBUILDERS)
@pytest.mark.parametrize(
    "field, value, message",
    [
        ("requires_grad", "yes", "'requires_grad' must be a bool, got str"),
        ("requires_grad", 1, "'requires_grad' must be a bool, got int"),
        ("grad", torch.zeros(3, dtype=torch.float64), r"'grad' of shape \[3\]"),
        ("grad", torch.zeros(2), "dtype torch.float32"),
        ("grad", "nope", "'grad' must be a Tensor or None, got str"),
    ],
)
def test_state_public_fields_are_type_checked(
    field, value, message, rebuilder, pytorch_rebuild_name
):
    with pytest.raises(pickle.UnpicklingError, match=message):
        torch.load(_saved(_WithState({field: value}, rebuilder)))


@pytest.mark.autograd  # the loaded tensor requires grad
@pytest.mark.parametrize("rebuilder", REBUILDERS)
def test_state_sets_public_fields_that_pass(rebuilder, pytorch_rebuild_name):
    grad = torch.full((2,), 3.0, dtype=torch.float64)
    loaded = torch.load(_saved(_WithState(({"requires_grad": True}, {"grad": grad}), rebuilder)))
    assert loaded.requires_grad is True and loaded.dtype is torch.float64
    assert loaded.grad.tolist() == [3.0, 3.0]


def test_state_of_a_bad_shape_is_refused():
    with pytest.raises(pickle.UnpicklingError, match=r"\(dict, slots\) pair"):
        torch.load(_saved(_WithState(({}, {}, {}), "parameter")))


# ------------------------------------------------- item 4: resources taken by a load


def _dict_pickle(keys, opcode=b"u") -> bytes:
    """Protocol-2 pickle of {key: None for key in keys} (int keys) built with SETITEMS
    (b"u") or DICT (b"d")."""
    body = b"".join(pickle.dumps(k, 2)[2:-1] + b"N" for k in keys)
    if opcode == b"d":
        return b"\x80\x02(" + body + b"d."
    return b"\x80\x02}(" + body + b"u."


def test_colliding_int_keys_refused_quickly():
    keys = [k * P61 for k in range(1, 40001)]  # 560 KB; 11 s to load before the guard
    for opcode in (b"u", b"d"):
        start = time.perf_counter()
        with pytest.raises(pickle.UnpicklingError, match="same hash"):
            torch.load(_pickle_checkpoint(_dict_pickle(keys, opcode)))
        assert time.perf_counter() - start < 2.0  # 11 s, 28 s or a hang before


@pytest.mark.parametrize(
    "obj",
    [
        {-k * P61: 0 for k in range(1, 200)},
        {(k * P61, 0): 0 for k in range(1, 200)},
        collections.OrderedDict((k * P61, 0) for k in range(1, 200)),
        {"nested": {k * P61: 0 for k in range(1, 200)}},
        set(k * P61 for k in range(1, 200)),
        collections.Counter({k * P61: 1 for k in range(1, 200)}),
    ],
    ids=["negative", "tuple", "ordered_dict", "nested", "set", "counter"],
)
def test_colliding_keys_refused_in_every_container(obj):
    with pytest.raises(pickle.UnpicklingError, match="same hash"):
        torch.load(_saved(obj))
    assert torch.load(_saved(obj), weights_only=False) == obj  # trusted: as pickle would


def test_ordinary_keys_still_load():
    obj = {
        "ints": {k: k for k in range(5000)},
        "near": {-1: "a", -2: "b", 0: "c", P61: "d", 1.0: "e", 0.5: "f"},
        "tuples": {(k, "x"): k for k in range(300)},
        "strs": {f"layer{k}.weight": k for k in range(5000)},
        "set": {1, 2, 3},
        "counter": collections.Counter("abracadabra"),
        "dtype_keys": {torch.float32: 1, torch.int64: 2},
    }
    assert torch.load(_saved(obj)) == obj


def test_deeply_shared_tuple_key_refused_quickly():
    # t = (t', t'), 60 levels deep through the memo: hashing it would take 2**60 steps
    pkl = b"\x80\x02}N\x85q\x000"  # {} then (None,) as memo 0, popped
    for level in range(60):
        pkl += b"h" + bytes([level]) + b"h" + bytes([level]) + b"\x86q" + bytes([level + 1])
        pkl += b"0"
    pkl += b"h" + bytes([60]) + b"Ns."  # {t60: None}
    start = time.perf_counter()
    with pytest.raises(pickle.UnpicklingError, match="more than 256 items"):
        torch.load(_pickle_checkpoint(pkl))
    assert time.perf_counter() - start < 2.0  # 11 s, 28 s or a hang before


def test_frozenset_refused_as_in_pytorch():
    with pytest.raises(pickle.UnpicklingError, match="builtins.frozenset"):
        torch.load(_saved({"f": frozenset({1, 2})}))
    with pytest.raises(pickle.UnpicklingError, match="FROZENSET"):
        torch.load(_saved(frozenset({1, 2}), pickle_protocol=4))


def test_sets_load_as_in_pytorch():
    # protocol 2 pickles a set as builtins.set over a list: PyTorch loads it; protocol 4's
    # EMPTY_SET/ADDITEMS opcodes it refuses
    assert torch.load(_saved({"s": {1, 2}}))["s"] == {1, 2}
    with pytest.raises(pickle.UnpicklingError, match="EMPTY_SET"):
        torch.load(_saved({"s": {1, 2}}, pickle_protocol=4))
    assert torch.load(_saved({"s": {1, 2}}, pickle_protocol=4), weights_only=False)["s"] == {1, 2}


def test_compressed_pickle_bomb_refused_before_inflating():
    bomb = b"\x80\x02" + b"}" * 40_000_000 + b"."  # ~40 KB deflated, ~3 GB to unpickle
    checkpoint = _pickle_checkpoint(bomb, compressed=True)
    assert len(checkpoint.getvalue()) < 100_000
    start = time.perf_counter()
    with pytest.raises(RuntimeError, match="max_pickle_bytes=40000003"):
        torch.load(checkpoint)
    assert time.perf_counter() - start < 2.0  # 11 s, 28 s or a hang before


def test_max_pickle_bytes_overrides_the_cap():
    data = _zip({"data.pkl": pickle.dumps({"a": [1] * 1000}, 2)}, compressed=("data.pkl",))
    assert torch.load(io.BytesIO(data)) == {"a": [1] * 1000}
    with pytest.raises(RuntimeError, match="over the 100 allowed"):
        torch.load(io.BytesIO(data), max_pickle_bytes=100)
    limit = len(pickle.dumps({"a": [1] * 1000}, 2))
    assert torch.load(io.BytesIO(data), max_pickle_bytes=limit) == {"a": [1] * 1000}
    with pytest.raises(RuntimeError, match="over the 10 allowed"):  # stored ones too
        torch.load(_saved({"a": 1}), max_pickle_bytes=10)
    with pytest.raises(ValueError, match="max_pickle_bytes must be a non-negative int"):
        torch.load(_saved({"a": 1}), max_pickle_bytes=-1)


def test_compressed_storage_inflates_in_place():
    values = torch.zeros(1 << 24)  # 64 MiB
    with zipfile.ZipFile(_saved({"w": values})) as archive:
        records = {n.split("/", 1)[1]: archive.read(n) for n in archive.namelist()}
    data = _zip(records, compressed=("data/0",))
    tracemalloc.start()
    try:
        loaded = torch.load(io.BytesIO(data))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert loaded["w"].shape == (1 << 24,) and not loaded["w"].any()
    assert peak < 1.5 * values.numel() * 4  # twice the storage before


def test_memory_error_while_unpickling_is_reported_as_such(monkeypatch):
    def out_of_memory(self):
        raise MemoryError()

    monkeypatch.setitem(unpickler._OPCODES, pickle.EMPTY_DICT[0], out_of_memory)
    with pytest.raises(pickle.UnpicklingError, match="ran out of memory") as caught:
        torch.load(_saved({"a": 1}))
    assert "Malformed" not in str(caught.value)


# -------------------------------------------------------- item 5: what a save leaves


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o604, 0o755])
def test_save_keeps_the_mode_of_the_file_it_replaces(tmp_path, mode):
    path = tmp_path / "model.pt"
    torch.save(torch.ones(2), path)
    os.chmod(path, mode)
    torch.save(torch.zeros(2), path)
    assert stat.S_IMODE(os.stat(path).st_mode) == mode
    assert torch.load(path).tolist() == [0.0, 0.0]


def test_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        torch.save(torch.ones(2), tmp_path / "new.pt")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.pt").st_mode) == 0o640


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_save_keeps_the_owner_where_allowed(tmp_path):
    path = tmp_path / "model.pt"
    torch.save(torch.ones(2), path)
    os.chown(path, 12345, 23456)
    torch.save(torch.zeros(2), path)
    assert (os.stat(path).st_uid, os.stat(path).st_gid) == (12345, 23456)


def test_hard_links_are_split(tmp_path):
    # documented: the rename gives the path a new file; other links keep the old one
    path, link = tmp_path / "model.pt", tmp_path / "link.pt"
    torch.save(torch.ones(2), path)
    os.link(path, link)
    torch.save(torch.zeros(2), path)
    assert torch.load(link).tolist() == [1.0, 1.0]
    assert torch.load(path).tolist() == [0.0, 0.0]


_KILLED_SAVE = textwrap.dedent(
    """
    import os, signal, sys, torch
    from torch._serialization import atomic_file

    def die(temporary, path):  # after the data is written, before the rename
        os.kill(os.getpid(), signal.SIGKILL)

    atomic_file._replace = die
    torch.save(torch.ones(1000), sys.argv[1])
    """
)


def _temporaries(folder) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def test_next_save_removes_temporary_of_a_killed_save(tmp_path):
    path = tmp_path / "model.pt"
    result = subprocess.run([sys.executable, "-c", _KILLED_SAVE, str(path)], check=False)
    assert result.returncode == -signal.SIGKILL
    left = _temporaries(tmp_path)
    assert len(left) == 1 and left[0].startswith(".model.pt.")
    assert os.path.getsize(tmp_path / left[0]) > 4000
    torch.save(torch.zeros(2), tmp_path / "other.pt")  # another path: left alone
    assert _temporaries(tmp_path) == left
    torch.save(torch.zeros(2), path)
    assert _temporaries(tmp_path) == []
    assert torch.load(path).tolist() == [0.0, 0.0]


def test_temporary_of_a_live_writer_is_kept(tmp_path):
    live = tmp_path / f".model.pt.{atomic_file._writer_token()}.abc123.tmp"
    live.write_bytes(b"partial")
    reused_pid = tmp_path / f".model.pt.{os.getpid()}-{atomic_file._boot_id()}-1.abc124.tmp"
    reused_pid.write_bytes(b"partial")  # our pid, another start time: its writer is gone
    unrelated = tmp_path / ".model.pt.notes.tmp"
    unrelated.write_bytes(b"keep")
    torch.save(torch.zeros(2), tmp_path / "model.pt")
    assert live.exists() and unrelated.exists() and not reused_pid.exists()


def test_locked_temporary_is_kept_even_if_its_pid_looks_gone(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    locked = tmp_path / ".model.pt.999999999-0-1.abc125.tmp"
    locked.write_bytes(b"partial")
    with open(locked, "rb") as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)
        torch.save(torch.zeros(2), tmp_path / "model.pt")
        assert locked.exists()
    torch.save(torch.zeros(2), tmp_path / "model.pt")
    assert not locked.exists()


def test_limits_are_documented_constants():
    assert limits.MAX_EQUAL_HASHES >= 8 and limits.DEFAULT_MAX_INFLATED_PICKLE_BYTES >= 1 << 20
