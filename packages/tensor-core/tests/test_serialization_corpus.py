"""The corpus of hostile and corrupt checkpoints (tools/golden/record_serialization.py):
each raises its expected exception, quickly, without running anything it names.

The policy: a pickle that asks for anything outside the allowlist, or is malformed, raises
``pickle.UnpicklingError``; a broken archive or storage geometry that does not fit raises
``RuntimeError``; an empty file raises ``EOFError`` (all as in PyTorch where PyTorch
raises one of these). Where PyTorch raises something else, or loads a corrupt file
anyway, ``DIFFERS_FROM_PYTORCH`` says why this reader is stricter.
"""

from __future__ import annotations

import collections
import io
import json
import os
import pathlib
import pickle
import random
import struct
import time

import pytest

import torch
from torch._serialization import limits

GOLDEN = pathlib.Path(__file__).parent / "golden" / "serialization"
CORPUS = json.loads((GOLDEN / "corpus.json").read_text())
SIDE_EFFECT_FILE = "serialization_corpus_pwned"

U, R = pickle.UnpicklingError, RuntimeError
EXPECTED = {
    "bad_central_directory": R,
    "bad_offset": R,
    "bad_persistent_id": U,
    "builtins_eval": U,
    "builtins_exec": U,
    "builtins_getattr": U,
    "builtins_open": U,
    "bytearray_bomb": U,
    "crc_mismatch": R,
    "empty": EOFError,
    "ext_opcode": U,
    "huge_stride": R,
    "huge_string_length": U,
    "inflates_past_claim": R,
    "inst_opcode": U,
    "legacy_os_system": U,
    "memo_miss": U,
    "missing_data_pkl": R,
    "missing_record": R,
    "mutated_archive_0": R,
    "mutated_archive_1": R,
    "mutated_archive_2": R,
    "mutated_archive_3": R,
    "mutated_pickle_0": U,
    "mutated_pickle_1": U,
    "mutated_pickle_2": U,
    "mutated_pickle_3": U,
    "negative_offset": R,
    "negative_size": R,
    "negative_stride": R,
    "next_buffer": U,
    "no_stop": U,
    "not_a_zip_or_pickle": U,
    "obj_opcode": U,
    "os_system": U,
    "posix_system": U,
    "rebuild_from_type_gadget": U,
    "state_sets_class": U,
    "stack_global_system": U,
    "stack_underflow": U,
    "storage_class_call": U,
    "storage_past_record": R,
    "subprocess_popen": U,
    "tar_format": R,
    "torch_load_gadget": U,
    "truncated_half": R,
    "truncated_tail": R,
    "wrong_magic": U,
    "zip_bomb_pickle": R,
    "zip_bomb_storage": R,
    "zip_os_system": U,
}

# where PyTorch 2.13 does something else, and why this reader does not
DIFFERS_FROM_PYTORCH = {
    "bad_central_directory": "miniz ignores the bad directory offset; we refuse the archive",
    "crc_mismatch": "PyTorch skips the CRC and unpickles the changed bytes; CRC error here",
    "mutated_archive_0": "changed data.pkl: the CRC check refuses it before unpickling",
    "mutated_archive_1": "changed data.pkl: the CRC check refuses it before unpickling",
    "mutated_archive_2": "miniz loads despite a damaged end record; refused here",
    "mutated_archive_3": "miniz loads despite a damaged end record; refused here",
    "bad_persistent_id": "AttributeError inside PyTorch's loader; a malformed pickle here",
    "bytearray_bomb": "PyTorch calls bytearray(2**40) (MemoryError); refused here",
    "storage_class_call": "TypeError there; calling a storage class is refused here",
    "memo_miss": "KeyError there",
    "stack_underflow": "IndexError there",
    "huge_string_length": "EOFError there",
    "no_stop": "EOFError there",
    "mutated_pickle_0": "UnicodeDecodeError there",
    "mutated_pickle_3": "UnicodeDecodeError there",
    "rebuild_from_type_gadget": "PyTorch calls bytearray(2**40) through it (MemoryError)",
    "state_sets_class": "TypeError there, from setattr; refused before any setattr here",
    "zip_bomb_pickle": "not given to PyTorch (it may try to allocate the claim)",
    "zip_bomb_storage": "not given to PyTorch (it may try to allocate the claim)",
}

# archive-level breakage: also refused with weights_only=False, before any unpickling
BROKEN_ARCHIVES = [
    "bad_central_directory",
    "crc_mismatch",
    "inflates_past_claim",
    "missing_data_pkl",
    "truncated_half",
    "truncated_tail",
    "zip_bomb_pickle",
    "zip_bomb_storage",
]


def test_corpus_is_complete():
    assert len(CORPUS) >= 20
    assert set(EXPECTED) == set(CORPUS)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_hostile_file_raises_without_side_effects(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the payloads would write SIDE_EFFECT_FILE here
    start = time.perf_counter()
    with pytest.raises(EXPECTED[name]):
        torch.load(GOLDEN / "corpus" / f"{name}.pt")
    assert time.perf_counter() - start < 1.0
    assert not os.path.exists(SIDE_EFFECT_FILE)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_agrees_with_pytorch_or_says_why(name):
    theirs = CORPUS[name]["pytorch"]
    if theirs != EXPECTED[name].__name__:
        assert name in DIFFERS_FROM_PYTORCH, f"PyTorch raises {theirs}"


@pytest.mark.parametrize("name", BROKEN_ARCHIVES)
def test_broken_archive_refused_even_when_trusted(name):
    with pytest.raises(RuntimeError):
        torch.load(GOLDEN / "corpus" / f"{name}.pt", weights_only=False)


def test_refusal_messages_name_the_global():
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL posix.system"):
        torch.load(GOLDEN / "corpus" / "posix_system.pt")
    with pytest.raises(pickle.UnpicklingError, match=r"Unsupported operand 105 \(INST\)"):
        torch.load(GOLDEN / "corpus" / "inst_opcode.pt")
    with pytest.raises(RuntimeError, match="zip bomb"):
        torch.load(GOLDEN / "corpus" / "zip_bomb_storage.pt")


def _valid_checkpoint() -> bytes:
    x = torch.arange(64.0)
    buffer = io.BytesIO()
    torch.save({"x": x, "part": x[3:9], "n": [1, "a", (2.5, None)], "i": torch.ones(3, 2)}, buffer)
    return buffer.getvalue()


def test_random_byte_changes_only_raise_the_two_error_types():
    valid = _valid_checkpoint()
    rng = random.Random(0)
    outcomes = collections.Counter()
    for _ in range(400):
        data = bytearray(valid)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            torch.load(io.BytesIO(bytes(data)))
            outcomes["loaded"] += 1  # a change in padding, a timestamp or tensor bytes
        except (RuntimeError, pickle.UnpicklingError) as error:
            outcomes[type(error).__name__] += 1
    assert outcomes["RuntimeError"] > 0


def test_every_truncation_raises_a_runtime_error():
    valid = _valid_checkpoint()
    for length in range(1, len(valid), 7):
        with pytest.raises((RuntimeError, pickle.UnpicklingError)):
            torch.load(io.BytesIO(valid[:length]))


def test_storage_crc_checked_on_request(monkeypatch):
    valid = bytearray(_valid_checkpoint())
    valid[valid.find(struct.pack("<f", 33.0))] ^= 0x01  # a byte inside tensor "x"
    loaded = torch.load(io.BytesIO(bytes(valid)))  # as PyTorch: tensor bytes unchecked
    assert loaded["x"][33].item() != 33.0
    monkeypatch.setattr(limits, "VERIFY_STORAGE_CRC", True)
    with pytest.raises(RuntimeError, match="CRC mismatch in record 'data/0'"):
        torch.load(io.BytesIO(bytes(valid)))
