"""Fuzzing ``torch.load`` with mutated and truncated checkpoints.

Seeds are checkpoints saved here (zip, protocol 4, legacy format) and by real PyTorch 2.13
(tests/golden/serialization). Each case applies one mutation: bit flips, byte inserts and
deletes, truncation at a structural boundary (zip headers, records, pickle opcodes), zip
header and central-directory fields set to edge values, pickle opcodes swapped, deleted
or repeated inside a re-zipped (CRC-valid) archive, huge length fields, and compressed
records. Whatever the mutation, a load may only succeed or raise ``RuntimeError`` or
``pickle.UnpicklingError`` (an empty file raises ``EOFError``, as in PyTorch), each case
within 2 s and 1 GiB.

The default run tries a small deterministic sample in-process. ``nox -s fuzz_load`` sets
``FUZZ_LOAD_CASES`` (2,500 by default) and runs them in worker processes whose address
space is capped at 1 GiB above their baseline and which the parent kills on a hang.
"""

from __future__ import annotations

import io
import json
import os
import pathlib
import pickle
import pickletools
import queue
import random
import struct
import subprocess
import sys
import threading
import time
import zipfile

import pytest

import torch

GOLDEN = pathlib.Path(__file__).parent / "golden" / "serialization"
TIME_LIMIT_S = 2.0
MEMORY_LIMIT_BYTES = 1 << 30
HANG_KILL_S = 15.0  # the parent's limit: a case still running by then is a hang
SAMPLE_CASES = 600
FULL_CASES = int(os.environ.get("FUZZ_LOAD_CASES", "0"))

# ------------------------------------------------------------------------ seeds


def _our_seeds() -> dict[str, bytes]:
    """Checkpoints saved by this project, byte-identical from run to run."""
    from torch._serialization import zip_format

    saved_id = zip_format._serialization_id
    zip_format._serialization_id = lambda: b"0" * 40
    try:
        base = torch.arange(48.0).reshape(6, 8)
        objects = {
            "ours_state": {"w": base, "b": torch.ones(8, dtype=torch.float64), "n": 3},
            "ours_views": {"x": base, "row": base[2], "t": base.t(), "col": base[:, 1]},
            "ours_nested": [{"a": (1, 2.5, None, "s", b"\x00")}, [torch.zeros(3)], {7: True}],
            "ours_dtypes": {
                str(d): torch.ones(3, dtype=d)
                for d in (torch.int8, torch.int64, torch.float16, torch.bool, torch.complex64)
            },  # fmt: skip
        }
        seeds = {}
        for name, obj in objects.items():
            for suffix, kwargs in (("", {}), ("_p4", {"pickle_protocol": 4})):
                buffer = io.BytesIO()
                torch.save(obj, buffer, **kwargs)
                seeds[name + suffix] = buffer.getvalue()
        buffer = io.BytesIO()
        torch.save(objects["ours_views"], buffer, _use_new_zipfile_serialization=False)
        seeds["ours_legacy"] = buffer.getvalue()
        return seeds
    finally:
        zip_format._serialization_id = saved_id


def _pytorch_seeds() -> dict[str, bytes]:
    """Checkpoints saved by real PyTorch 2.13 (and the hostile corpus built with it)."""
    seeds = {f"pt_{p.stem}": p.read_bytes() for p in sorted(GOLDEN.glob("*.pt"))}
    for path in sorted((GOLDEN / "corpus").glob("*.pt")):
        if path.stat().st_size:
            seeds[f"corpus_{path.stem}"] = path.read_bytes()
    return seeds


def all_seeds() -> list[tuple[str, bytes]]:
    return sorted({**_our_seeds(), **_pytorch_seeds()}.items())


# -------------------------------------------------------------- structure


_ZIP_SIGNATURES = {
    b"PK\x03\x04": 30,  # local header: fixed part
    b"PK\x01\x02": 46,  # central directory entry
    b"PK\x05\x06": 22,  # end of central directory
    b"PK\x06\x06": 56,  # zip64 end record
    b"PK\x06\x07": 20,  # zip64 locator
}


def _zip_headers(data: bytes) -> list[tuple[int, int]]:
    """``(offset, fixed size)`` of every zip header signature found in ``data``."""
    found = []
    for signature, size in _ZIP_SIGNATURES.items():
        start = data.find(signature)
        while start >= 0:
            found.append((start, size))
            start = data.find(signature, start + 1)
    return sorted(found)


def _pickle_boundaries(data: bytes, start: int = 0) -> list[int]:
    """Offsets of the opcodes of the consecutive pickles from ``start`` (legacy files
    are several pickles in a row), as far as they parse."""
    offsets = []
    position = start
    while position < len(data):
        try:
            ops = list(pickletools.genops(io.BytesIO(data[position:])))
        except Exception:
            break
        offsets.extend(position + pos for _, _, pos in ops)
        position += ops[-1][2] + 1
        if len(offsets) > 20000:
            break
    return offsets


def _boundaries(data: bytes) -> list[int]:
    if data[:4] == b"PK\x03\x04":
        points = []
        for offset, size in _zip_headers(data):
            points += [offset, offset + 4, offset + size]
            if data[offset : offset + 4] == b"PK\x03\x04" and offset + 30 <= len(data):
                name, extra = struct.unpack_from("<HH", data, offset + 26)
                packed = struct.unpack_from("<I", data, offset + 18)[0]
                body = offset + 30 + name + extra
                points += [body, body + packed]
        return sorted(p for p in set(points) if 0 < p < len(data))
    return [p for p in _pickle_boundaries(data) if p > 0]


def _records(data: bytes) -> list[tuple[zipfile.ZipInfo, bytes]] | None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return [(info, archive.read(info)) for info in archive.infolist()]
    except Exception:
        return None


def _rezip(records, replace: dict[str, bytes] | None = None, deflate=lambda name: False):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for info, body in records:
            name = info.filename
            body = (replace or {}).get(name, body)
            method = zipfile.ZIP_DEFLATED if deflate(name) else zipfile.ZIP_STORED
            archive.writestr(zipfile.ZipInfo(name), body, compress_type=method)
    return buffer.getvalue()


# -------------------------------------------------------------- mutations


def _bit_flips(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return bytes(out)


def _byte_edits(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(out) + 1)
        count = rng.randint(1, 16)
        kind = rng.randrange(3)
        if kind == 0:
            out[at:at] = bytes(rng.randrange(256) for _ in range(count))
        elif kind == 1:
            del out[at : at + count]
        else:
            out[at : at + count] = bytes(rng.randrange(256) for _ in range(count))
    return bytes(out) or b"\x00"


def _truncate(data: bytes, rng: random.Random) -> bytes:
    points = _boundaries(data) or [len(data) // 2]
    cut = rng.choice(points) + rng.choice((-1, 0, 0, 0, 1))
    return data[: max(1, min(cut, len(data) - 1))]


_EDGE_VALUES = (0, 1, 0xFF, 0xFFFF, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 2**64 - 1, 2**63)


def _zip_field(data: bytes, rng: random.Random) -> bytes:
    headers = _zip_headers(data)
    if not headers:
        return _bit_flips(data, rng)
    out = bytearray(data)
    for _ in range(rng.randint(1, 2)):
        offset, size = rng.choice(headers)
        width = rng.choice((2, 4, 8) if size > 40 else (2, 4))
        field = offset + 4 + rng.randrange(max(1, size - 4 - width))
        if field + width > len(out):
            continue
        old = int.from_bytes(out[field : field + width], "little")
        value = rng.choice(_EDGE_VALUES + (old + 1, old - 1, old * 2, rng.getrandbits(32)))
        out[field : field + width] = (value % (1 << (8 * width))).to_bytes(width, "little")
    return bytes(out)


_OPCODES = [op.code.encode("latin-1") for op in pickletools.opcodes]


def _mutate_pickle_bytes(pkl: bytes, rng: random.Random) -> bytes:
    points = _pickle_boundaries(pkl) or [0]
    out = bytearray(pkl)
    kind = rng.randrange(6)
    at = rng.choice(points)
    later = [p for p in points if p > at]
    end = rng.choice(later) if later else len(out)
    if kind == 0:  # an opcode replaced by another
        out[at] = rng.choice(_OPCODES)[0]
    elif kind == 1:  # one instruction deleted
        del out[at:end]
    elif kind == 2:  # a run of instructions repeated
        out[end:end] = out[at:end] * rng.randint(1, 4)
    elif kind == 3:  # two instructions swapped
        other = rng.choice(points)
        a, b = sorted((at, other))
        if a != b:
            out[a], out[b] = out[b], out[a]
    elif kind == 4:  # truncated at an instruction
        del out[at:]
    else:  # huge length or value after an opcode
        width = rng.choice((1, 4, 8))
        value = rng.choice(_EDGE_VALUES + (2**31 - 1, 2**40, rng.getrandbits(64)))
        out[at + 1 : at + 1 + width] = (value % (1 << (8 * width))).to_bytes(width, "little")
    return bytes(out)


def _pickle_ops(data: bytes, rng: random.Random) -> bytes:
    """Mutate the object graph and re-zip it with valid CRCs (or mutate the leading
    pickles of a legacy file in place)."""
    records = _records(data)
    if records is None:
        points = _pickle_boundaries(data)
        if not points:
            return _bit_flips(data, rng)
        head = points[-1] + 1
        return _mutate_pickle_bytes(data[:head], rng) + data[head:]
    pickled = [info.filename for info, _ in records if info.filename.endswith("data.pkl")]
    if not pickled:
        return _bit_flips(data, rng)
    body = dict((info.filename, b) for info, b in records)[pickled[0]]
    return _rezip(records, {pickled[0]: _mutate_pickle_bytes(body, rng)})


def _records_changed(data: bytes, rng: random.Random) -> bytes:
    """Storage records cut short, emptied, grown or removed, in a valid archive."""
    records = _records(data)
    if records is None:
        return _byte_edits(data, rng)
    index = rng.randrange(len(records))
    info, body = records[index]
    kind = rng.randrange(4)
    if kind == 0:
        records[index] = (info, body[: rng.randrange(len(body) + 1)])
    elif kind == 1:
        records[index] = (info, body + bytes(rng.randint(1, 64)))
    elif kind == 2:
        del records[index]
    else:
        records.insert(index, (zipfile.ZipInfo(info.filename + "x"), b"\x00" * 8))
    return _rezip(records)


def _compressed(data: bytes, rng: random.Random) -> bytes:
    """Records deflated, then the compressed bytes flipped."""
    records = _records(data)
    if records is None:
        return _bit_flips(data, rng)
    deflated = _rezip(records, deflate=lambda name: rng.random() < 0.7)
    return _bit_flips(deflated, rng) if rng.random() < 0.8 else deflated


MUTATIONS = [
    _bit_flips,
    _byte_edits,
    _truncate,
    _zip_field,
    _pickle_ops,
    _pickle_ops,
    _records_changed,
    _compressed,
]


def make_case(index: int, seeds: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """Case ``index``: a mutation of one seed, the same bytes on every run."""
    rng = random.Random(index * 7919 + 17)
    name, data = seeds[index % len(seeds)]
    mutation = MUTATIONS[(index // len(seeds) + index) % len(MUTATIONS)]
    return f"{index}:{name}:{mutation.__name__}", mutation(data, rng)


# ---------------------------------------------------------------- one case


def _allowed(error: BaseException, data: bytes) -> bool:
    if isinstance(error, EOFError) and not data:
        return True
    if isinstance(error, ModuleNotFoundError) and "distribution, which is not installed" in str(
        error
    ):
        return True  # core alone: a tensor that requires grad needs torch-autograd
    if not isinstance(error, (RuntimeError, pickle.UnpicklingError)):
        return False
    # a memory blowup caught on the way out still breaks the 1 GiB promise
    return "out of memory" not in str(error) and not isinstance(error.__cause__, MemoryError)


def run_case(data: bytes, as_path: str | None = None) -> tuple[str, float]:
    """``(outcome, seconds)``: outcome is "loaded", an allowed error type's name, or
    "BAD <type>: <message>"."""
    start = time.perf_counter()
    try:
        if as_path is not None:
            with open(as_path, "wb") as file:
                file.write(data)
            torch.load(as_path)
        else:
            torch.load(io.BytesIO(data))
        outcome = "loaded"
    except BaseException as error:  # noqa: BLE001 (the point is to see every type)
        if isinstance(error, KeyboardInterrupt):
            raise
        if _allowed(error, data):
            outcome = type(error).__name__
        else:
            outcome = f"BAD {type(error).__name__}: {str(error)[:300]}"
    return outcome, time.perf_counter() - start


# ------------------------------------------------------------ worker process


def _address_space() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


def worker(first: int, stop: int, folder: str) -> None:
    """Run cases ``first..stop-1``, one JSON line each on stdout, each under an address
    space limit of MEMORY_LIMIT_BYTES above what the process holds before it."""
    import resource
    import warnings

    warnings.simplefilter("ignore")
    seeds = all_seeds()
    path = os.path.join(folder, f"case-{os.getpid()}.pt")
    for index in range(first, stop):
        name, data = make_case(index, seeds)
        limit = _address_space() + MEMORY_LIMIT_BYTES
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
        outcome, seconds = run_case(data, path if index % 4 == 3 else None)
        resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        line = {"index": index, "name": name, "outcome": outcome, "seconds": seconds}
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()


def _spawn(first: int, stop: int, folder: str) -> subprocess.Popen:
    code = (
        "import importlib.util, sys;"
        f"spec = importlib.util.spec_from_file_location('load_fuzz', {str(__file__)!r});"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module);"
        f"module.worker({first}, {stop}, {folder!r})"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, bufsize=1
    )


def _reader(process: subprocess.Popen, lines: queue.Queue) -> None:
    for line in process.stdout:
        lines.put(line)
    lines.put(None)


def run_isolated(first: int, stop: int, folder: str) -> list[dict]:
    """Results of cases ``first..stop-1`` run by worker processes; a worker that goes
    silent for HANG_KILL_S is killed, its case reported as a hang, and a new worker
    goes on with the next case."""
    results: list[dict] = []
    next_case = first
    while next_case < stop:
        process = _spawn(next_case, stop, folder)
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_reader, args=(process, lines), daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=HANG_KILL_S)
            except queue.Empty:
                line = "hang"
            if line is None or line == "hang":
                process.kill()
                process.wait()
                if next_case < stop:
                    kind = "hang" if line == "hang" else f"worker died ({process.returncode})"
                    results.append({"index": next_case, "outcome": f"BAD {kind}", "seconds": 0})
                    next_case += 1
                break
            result = json.loads(line)
            results.append(result)
            next_case = result["index"] + 1
    return results


def _failures(results: list[dict]) -> list[dict]:
    return [r for r in results if r["outcome"].startswith("BAD") or r["seconds"] > TIME_LIMIT_S]


# --------------------------------------------------------------------- tests


def test_mutations_are_deterministic_and_varied():
    seeds = all_seeds()
    assert len(seeds) >= 60
    assert make_case(12345, seeds) == make_case(12345, seeds)
    kinds = {make_case(i, seeds)[0].split(":")[2] for i in range(200)}
    assert kinds == {m.__name__ for m in MUTATIONS}


def test_load_fuzz_sample():
    """A fixed sample, in this process: only the two error types, each case fast."""
    seeds = all_seeds()
    outcomes: dict[str, int] = {}
    bad = []
    for index in range(SAMPLE_CASES):
        name, data = make_case(index * 37 + 11, seeds)
        outcome, seconds = run_case(data)
        outcomes[outcome.split(":")[0]] = outcomes.get(outcome.split(":")[0], 0) + 1
        if outcome.startswith("BAD") or seconds > TIME_LIMIT_S:
            bad.append((name, outcome, round(seconds, 2)))
    assert not bad, bad
    assert outcomes.get("RuntimeError", 0) and outcomes.get("UnpicklingError", 0)


@pytest.mark.skipif(not FULL_CASES, reason="set FUZZ_LOAD_CASES (nox -s fuzz_load)")
def test_load_fuzz_full(tmp_path):
    if not sys.platform.startswith("linux"):
        pytest.skip("the memory cap needs Linux")
    start = time.perf_counter()
    workers = max(1, min(int(os.environ.get("FUZZ_LOAD_WORKERS", "2")), FULL_CASES))
    bounds = [FULL_CASES * k // workers for k in range(workers + 1)]
    results: list[dict] = []
    threads = [
        threading.Thread(
            target=lambda a, b: results.extend(run_isolated(a, b, str(tmp_path))),
            args=(bounds[k], bounds[k + 1]),
        )
        for k in range(workers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    counts: dict[str, int] = {}
    for result in results:
        key = result["outcome"].split(":")[0]
        counts[key] = counts.get(key, 0) + 1
    slowest = max(results, key=lambda r: r["seconds"])
    print(
        f"\nfuzz_load: {len(results)} cases in {elapsed:.1f} s with {workers} workers; "
        f"outcomes {dict(sorted(counts.items()))}; slowest {slowest['seconds']:.3f} s "
        f"({slowest.get('name')})"
    )
    assert len(results) == FULL_CASES
    failures = _failures(results)
    assert not failures, failures[:20]
