"""Record golden checkpoints written by real PyTorch, and the corpus of malicious or
corrupt files, for packages/tensor-core/tests/test_serialization*.py (run under real
PyTorch only):

    /work/ptref/bin/python tools/golden/record_serialization.py

Writes under packages/tensor-core/tests/golden/serialization/:

- ``<case>.pt``: checkpoints saved by ``torch.save`` (zip and legacy formats), one
  ``tar_format.pt`` in the tar format of PyTorch 0.1 built here byte by byte and checked
  by loading it with real PyTorch;
- ``manifest.json``: per case, every tensor in the loaded object (its path, dtype,
  shape, strides, offset, values, requires_grad, whether it is a Parameter, and which
  tensors share a storage) plus the non-tensor leaves;
- ``corpus/<name>.pt`` and ``corpus.json``: hostile or broken files, each with the
  exception type real PyTorch raises when loading it with the default weights_only=True.

The corpus files are crafted from raw pickle opcodes and raw zip records, so they do not
depend on how any pickler writes things.
"""

from __future__ import annotations

import collections
import io
import json
import math
import pathlib
import pickle
import random
import struct
import tarfile
import tempfile
import zipfile

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "packages" / "tensor-core" / "tests" / "golden" / "serialization"
CORPUS = OUT / "corpus"
SIDE_EFFECT_FILE = "serialization_corpus_pwned"  # what the payloads would create (cwd)

DTYPES = [
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


# ------------------------------------------------------------------------ description


def _values(t: torch.Tensor):
    if t.is_complex():
        return torch.view_as_real(t.resolve_conj()).tolist()
    return t.tolist()


def _json_float(value):
    # JSON has no inf/nan: spell them as strings
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, list):
        return [_json_float(v) for v in value]
    return value


def describe(obj) -> dict:
    """Every tensor and plain leaf of ``obj``, by path (the tests compute the same)."""
    tensors, leaves, groups = [], [], {}

    def visit(value, path):
        if isinstance(value, torch.Tensor):
            storage = value.untyped_storage().data_ptr()
            group = groups.setdefault(storage, len(groups))
            tensors.append(
                {
                    "path": path,
                    "dtype": str(value.dtype).removeprefix("torch."),
                    "shape": list(value.shape),
                    "stride": list(value.stride()),
                    "offset": value.storage_offset(),
                    "values": _json_float(_values(value.detach())),
                    "requires_grad": value.requires_grad,
                    "parameter": isinstance(value, torch.nn.Parameter),
                    "storage_group": group,
                    "storage_nbytes": value.untyped_storage().nbytes(),
                }
            )
        elif isinstance(value, dict):
            leaves.append(
                {"path": path, "type": type(value).__name__, "keys": list(map(repr, value))}
            )
            for key, item in value.items():
                visit(item, path + [repr(key)])
        elif isinstance(value, (list, tuple)):
            leaves.append({"path": path, "type": type(value).__name__, "length": len(value)})
            for index, item in enumerate(value):
                visit(item, path + [index])
        else:
            leaves.append({"path": path, "type": type(value).__name__, "repr": repr(value)})

    visit(obj, [])
    return {"tensors": tensors, "leaves": leaves}


# ------------------------------------------------------------------------------ cases


def dtype_cases() -> dict:
    out = {}
    for dtype in DTYPES:
        if dtype is torch.bool:
            out["bool"] = torch.tensor([True, False, True])
        elif dtype.is_complex:
            out[str(dtype)[6:]] = torch.tensor([1 + 2j, -0.5j, 3.25], dtype=dtype)
        elif dtype.is_floating_point:
            values = [0.0, -1.5, 3.140625, 1e-3, float("inf"), float("-inf"), float("nan")]
            out[str(dtype)[6:]] = torch.tensor(values, dtype=dtype)
        else:
            info = torch.iinfo(dtype)
            out[str(dtype)[6:]] = torch.tensor([info.min, 0, 1, info.max], dtype=dtype)
    return out


def view_cases() -> dict:
    x = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    y = torch.arange(24, dtype=torch.int64).reshape(2, 3, 4)
    return {
        "x": x,
        "slice": x[1:3],
        "t": x.t(),
        "every_other_column": x[:, ::2],
        "row": x[2],
        "narrow": x.narrow(1, 2, 3),
        "flat_part": x.view(-1)[5:17],
        "expanded": x[0, :1].expand(3, 4),
        "permuted": y.permute(2, 0, 1),
        "y_diagonal": y[0].diagonal(),
        "own": torch.ones(3),
    }


def special_cases() -> dict:
    return {
        "scalar": torch.tensor(2.5),
        "scalar_int": torch.tensor(7),
        "scalar_bool": torch.tensor(True),
        "empty": torch.empty(0),
        "empty_2d": torch.zeros(2, 0, 3),
        "empty_long": torch.zeros(0, dtype=torch.int64),
        "one": torch.ones(1, 1),
    }


def nested_cases():
    inner = torch.arange(6.0)
    ordered = collections.OrderedDict([("b", inner[:2]), ("a", 3)])
    return {
        "list": [inner, (inner[3:], "text"), [None, True, 2.5, -7]],
        "ordered": ordered,
        "tuple": (1, (2, (3, inner))),
        "size": torch.Size([2, 3]),
        "dtype": torch.float16,
        "device": torch.device("cpu"),
        "bytes": b"\x00\x01abc",
        "set": {1, 2},
        "big_int": 2**70,
        "complex": 1 - 2j,
        "unicode": "\u00e9t\u00e9",
    }


def parameter_cases():
    weight = torch.nn.Parameter(torch.arange(6.0).reshape(2, 3))
    return {
        "weight": weight,
        "frozen": torch.nn.Parameter(torch.ones(2), requires_grad=False),
        "plain": torch.zeros(2),
    }


def module_state():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.ReLU(), torch.nn.Linear(4, 2)
    )
    model(torch.randn(5, 3))  # updates the running statistics
    return model.state_dict()


def optimizer_state():
    torch.manual_seed(0)
    weight = torch.nn.Parameter(torch.randn(3, 2))
    bias = torch.nn.Parameter(torch.randn(2))
    optimizer = torch.optim.Adam([weight, bias], lr=0.01)
    for _ in range(2):
        optimizer.zero_grad()
        (weight.sum() * 2 + (bias**2).sum()).backward()
        optimizer.step()
    return {"optimizer": optimizer.state_dict(), "weight": weight.detach(), "bias": bias.detach()}


def sgd_state():
    weight = torch.nn.Parameter(torch.ones(2))
    optimizer = torch.optim.SGD([weight], lr=0.1, momentum=0.9)
    weight.sum().backward()
    optimizer.step()
    return optimizer.state_dict()


def whole_module():
    """A model pickled whole (classes by PyTorch's module paths, e.g.
    torch.nn.modules.batchnorm), its input, and its output in eval mode."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 2, 3),
        torch.nn.BatchNorm2d(2),
        torch.nn.ReLU(),
        torch.nn.Flatten(),
        torch.nn.Linear(8, 3),
        torch.nn.Dropout(0.5),
    )
    model(torch.randn(4, 1, 4, 4))  # updates the running statistics
    model.eval()
    sample = torch.randn(2, 1, 4, 4)
    with torch.no_grad():
        output = model(sample)
    return model, {"input": sample.tolist(), "output": output.tolist()}


CASES = {
    "dtypes": dtype_cases,
    "views": view_cases,
    "special": special_cases,
    "nested": nested_cases,
    "parameters": parameter_cases,
    "module_state": module_state,
    "optimizer_adam": optimizer_state,
    "optimizer_sgd": sgd_state,
}


# ---------------------------------------------------------------- the tar format (0.1)


def _pickled(obj) -> bytes:
    return pickle.dumps(obj, protocol=2)


def tar_checkpoint() -> tuple[bytes, object]:
    """A checkpoint in PyTorch 0.1's tar format: a float storage of 6 with a 2x3 tensor
    and its transpose, a long storage, and a graph naming them by key."""
    floats = struct.pack("<6f", *[0.5, 1.5, 2.5, 3.5, 4.5, 5.5])
    longs = struct.pack("<3q", 10, -20, 30)
    storages = io.BytesIO()
    storages.write(_pickled(2))
    storages.write(_pickled((101, "cpu", torch.FloatStorage)))
    storages.write(struct.pack("<q", 6) + floats)
    storages.write(_pickled((102, "cpu", torch.LongStorage)))
    storages.write(struct.pack("<q", 3) + longs)
    storages.write(_pickled([]))  # no storage views

    def tensor_record(key, storage_key, sizes, strides, offset) -> bytes:
        head = _pickled((key, storage_key, torch.FloatTensor))
        dims = struct.pack("<i", len(sizes)) + b"\x00" * 4
        geometry = struct.pack(f"<{len(sizes)}q", *sizes) + struct.pack(
            f"<{len(strides)}q", *strides
        )
        return head + dims + geometry + struct.pack("<q", offset)

    tensors = io.BytesIO()
    tensors.write(_pickled(3))
    tensors.write(tensor_record(201, 101, (2, 3), (3, 1), 0))
    tensors.write(tensor_record(202, 101, (3, 2), (1, 3), 0))
    tensors.write(tensor_record(203, 102, (2,), (1,), 1))

    class Key:  # pickled as a persistent id by key
        def __init__(self, key):
            self.key = key

    class GraphPickler(pickle.Pickler):
        def persistent_id(self, obj):
            return str(obj.key) if isinstance(obj, Key) else None

    graph = io.BytesIO()
    GraphPickler(graph, protocol=2).dump(
        {"matrix": Key(201), "transposed": Key(202), "longs": Key(203), "note": "tar"}
    )
    members = {
        "sys_info": _pickled({"protocol_version": 1000, "little_endian": True}),
        "pickle": graph.getvalue(),
        "tensors": tensors.getvalue(),
        "storages": storages.getvalue(),
    }
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w:", format=tarfile.PAX_FORMAT) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    data = archive.getvalue()
    # PyTorch looks for the tar format only in real files
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "tar_format.pt"
        path.write_bytes(data)
        return data, torch.load(path, weights_only=False)


# ---------------------------------------------------------------------- corpus helpers


def op_global(module: str, name: str) -> bytes:
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def op_str(text: str) -> bytes:
    data = text.encode()
    return b"X" + struct.pack("<I", len(data)) + data


def op_int(value: int) -> bytes:
    if 0 <= value < 256:
        return b"K" + bytes([value])
    if -(2**31) <= value < 2**31:
        return b"J" + struct.pack("<i", value)
    raw = value.to_bytes((value.bit_length() + 8) // 8, "little", signed=True)
    return b"\x8a" + bytes([len(raw)]) + raw


def call(module: str, name: str, *args: bytes) -> bytes:
    """Pickle opcodes calling ``module.name(*args)`` (each arg already opcodes)."""
    return op_global(module, name) + b"(" + b"".join(args) + b"tR"


def program(body: bytes) -> bytes:
    return b"\x80\x02" + body + b"."


PAYLOAD = f"echo pwned > {SIDE_EFFECT_FILE}"


def storage_pid(key: str, numel: int, storage_type: str = "FloatStorage") -> bytes:
    return (
        b"("
        + op_str("storage")
        + op_global("torch", storage_type)
        + op_str(key)
        + op_str("cpu")
        + op_int(numel)
        + b"tQ"
    )


def tensor_call(key: str, numel: int, offset: int, size: tuple, stride: tuple) -> bytes:
    def tup(values):
        return b"(" + b"".join(op_int(v) for v in values) + b"t"

    hooks = op_global("collections", "OrderedDict") + b")R"
    return (
        op_global("torch._utils", "_rebuild_tensor_v2")
        + b"("
        + storage_pid(key, numel)
        + op_int(offset)
        + tup(size)
        + tup(stride)
        + b"\x89"
        + hooks
        + b"tR"
    )


def zip_checkpoint(
    data_pkl: bytes, records: dict[str, bytes] | None = None, deflate: set | None = None
) -> bytes:
    """A zip checkpoint with the given data.pkl and storage records (stored, unaligned)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        entries = {
            "data.pkl": data_pkl,
            "byteorder": b"little",
            **(records or {}),
            "version": b"3\n",
        }
        for name, data in entries.items():
            method = zipfile.ZIP_DEFLATED if deflate and name in deflate else zipfile.ZIP_STORED
            info = zipfile.ZipInfo(f"archive/{name}", date_time=(2020, 1, 1, 0, 0, 0))
            archive.writestr(info, data, compress_type=method)
    return out.getvalue()


def float_record(count: int) -> bytes:
    return struct.pack(f"<{count}f", *range(count))


def legacy_stream(main_pickle: bytes) -> bytes:
    return (
        _pickled(0x1950A86A20F9469CFC6C)
        + _pickled(1001)
        + _pickled(
            {
                "protocol_version": 1001,
                "little_endian": True,
                "type_sizes": {"short": 2, "int": 4, "long": 4},
            }
        )
        + main_pickle
        + _pickled([])
    )


def patch_size(archive: bytes, name: str, claimed: int) -> bytes:
    """``archive`` with the uncompressed size of record ``name`` rewritten in its central
    directory and local header (CRC unchanged)."""
    data = bytearray(archive)
    full = f"archive/{name}".encode()
    central = data.find(b"PK\x01\x02" + b"", 0)
    while central >= 0:
        name_length = struct.unpack_from("<H", data, central + 28)[0]
        if bytes(data[central + 46 : central + 46 + name_length]) == full:
            struct.pack_into("<I", data, central + 24, claimed)
            local = struct.unpack_from("<I", data, central + 42)[0]
            struct.pack_into("<I", data, local + 22, claimed)
        central = data.find(b"PK\x01\x02", central + 4)
    return bytes(data)


def corpus() -> dict[str, tuple[bytes, str]]:
    """name -> (file bytes, what it attacks or breaks)."""
    valid = io.BytesIO()
    torch.save({"x": torch.arange(64.0), "y": torch.ones(3, 3)}, valid)
    valid = valid.getvalue()
    good_tensor = program(tensor_call("0", 4, 0, (2, 2), (2, 1)))
    four = {"data/0": float_record(4)}
    files = {
        "os_system": (program(call("os", "system", op_str(PAYLOAD))), "os.system call"),
        "posix_system": (program(call("posix", "system", op_str(PAYLOAD))), "posix.system call"),
        "builtins_eval": (
            program(call("builtins", "eval", op_str(f"__import__('os').system({PAYLOAD!r})"))),
            "eval",
        ),
        "builtins_exec": (
            program(call("builtins", "exec", op_str(f"import os; os.system({PAYLOAD!r})"))),
            "exec",
        ),
        "subprocess_popen": (
            program(
                op_global("subprocess", "Popen")
                + b"(("
                + op_str("sh")
                + op_str("-c")
                + op_str(PAYLOAD)
                + b"ltR"
            ),
            "subprocess.Popen",
        ),
        "builtins_open": (
            program(call("builtins", "open", op_str(SIDE_EFFECT_FILE), op_str("w"))),
            "__reduce__ to open(): writes a file",
        ),
        "builtins_getattr": (
            program(call("builtins", "getattr", op_global("os", "path"), op_str("join"))),
            "getattr gadget",
        ),
        "stack_global_system": (
            b"\x80\x04" + op_str("os") + op_str("system") + b"\x93(" + op_str(PAYLOAD) + b"tR.",
            "os.system through STACK_GLOBAL",
        ),
        "inst_opcode": (b"(" + op_str(PAYLOAD) + b"ios\nsystem\n.", "INST opcode"),
        "obj_opcode": (
            b"\x80\x02(" + op_global("os", "system") + op_str(PAYLOAD) + b"o.",
            "OBJ opcode",
        ),
        "ext_opcode": (b"\x80\x02\x82\x01.", "EXT1 opcode (extension registry)"),
        "next_buffer": (b"\x80\x05\x97.", "protocol 5 out-of-band buffer"),
        "storage_class_call": (
            program(call("torch", "FloatStorage", op_int(2**40))),
            "calls a storage class with a huge size",
        ),
        "bytearray_bomb": (
            program(call("builtins", "bytearray", op_int(2**40))),
            "bytearray(2**40)",
        ),
        "torch_load_gadget": (
            program(call("torch", "load", op_str("other.pt"))),
            "calls torch.load",
        ),
        "zip_os_system": (
            zip_checkpoint(program(call("os", "system", op_str(PAYLOAD)))),
            "os.system inside a zip checkpoint",
        ),
        "legacy_os_system": (
            legacy_stream(program(call("os", "system", op_str(PAYLOAD)))),
            "os.system in the legacy format",
        ),
        "tar_format": (tar_checkpoint()[0], "tar format (never loaded with weights_only=True)"),
        "truncated_half": (valid[: len(valid) // 2], "zip cut in half"),
        "truncated_tail": (valid[:-7], "end of central directory cut"),
        "wrong_magic": (b"NOTAPICKLE" + valid[10:200], "garbage bytes"),
        "empty": (b"", "empty file"),
        "bad_offset": (
            zip_checkpoint(program(tensor_call("0", 4, 10**6, (2, 2), (2, 1))), four),
            "storage offset past the storage",
        ),
        "negative_offset": (
            zip_checkpoint(program(tensor_call("0", 4, -1, (2, 2), (2, 1))), four),
            "negative storage offset",
        ),
        "negative_stride": (
            zip_checkpoint(program(tensor_call("0", 4, 3, (2, 2), (-1, 1))), four),
            "negative stride",
        ),
        "negative_size": (
            zip_checkpoint(program(tensor_call("0", 4, 0, (-2, 2), (2, 1))), four),
            "negative size",
        ),
        "huge_stride": (
            zip_checkpoint(program(tensor_call("0", 4, 0, (2, 2), (2**40, 1))), four),
            "stride far past the storage",
        ),
        "storage_past_record": (
            zip_checkpoint(program(tensor_call("0", 10**9, 0, (2, 2), (2, 1))), four),
            "storage claims more bytes than its record",
        ),
        "missing_record": (zip_checkpoint(good_tensor), "storage record missing"),
        "missing_data_pkl": (_without_data_pkl(), "no data.pkl"),
        "zip_bomb_storage": (
            patch_size(
                zip_checkpoint(good_tensor, {"data/0": bytes(1 << 20)}, deflate={"data/0"}),
                "data/0",
                0xFFFFFFF0,
            ),
            "deflated record claiming 4 GB",
        ),
        "zip_bomb_pickle": (
            patch_size(
                zip_checkpoint(program(b"N") + bytes(1 << 16), deflate={"data.pkl"}),
                "data.pkl",
                0xFFFFFFF0,
            ),
            "deflated data.pkl claiming 4 GB",
        ),
        "inflates_past_claim": (
            patch_size(
                zip_checkpoint(good_tensor, {"data/0": bytes(1 << 20)}, deflate={"data/0"}),
                "data/0",
                1024,
            ),
            "record inflating past its stated size",
        ),
        "crc_mismatch": (
            _flip(valid, valid.find(b"_rebuild_tensor_v2") + 3),
            "a byte of data.pkl changed after saving",
        ),
        "bad_central_directory": (
            _break_directory(valid),
            "central directory offset points outside the file",
        ),
        "stack_underflow": (zip_checkpoint(b"\x80\x02a."), "APPEND on an empty stack"),
        "memo_miss": (zip_checkpoint(b"\x80\x02h\x07."), "BINGET of an unset memo slot"),
        "no_stop": (zip_checkpoint(b"\x80\x02]q\x00"), "pickle without STOP"),
        "huge_string_length": (
            zip_checkpoint(b"\x80\x02X\xff\xff\xff\x7f."),
            "string length past the data",
        ),
        "bad_persistent_id": (
            zip_checkpoint(
                program(
                    b"("
                    + op_str("storage")
                    + op_global("collections", "OrderedDict")
                    + op_str("0")
                    + op_str("cpu")
                    + op_int(4)
                    + b"tQ"
                )
            ),
            "persistent id naming a non-storage class",
        ),
        "not_a_zip_or_pickle": (bytes(range(256)) * 4, "random bytes"),
        "rebuild_from_type_gadget": (
            program(
                call(
                    "torch._tensor",
                    "_rebuild_from_type_v2",
                    op_global("builtins", "bytearray"),
                    op_global("torch", "Tensor"),
                    b"(" + op_int(2**40) + b"t",
                    b"N",
                )
            ),
            "an allowed rebuilder made to call bytearray(2**40)",
        ),
        "state_sets_class": (
            zip_checkpoint(
                program(
                    call(
                        "torch._utils",
                        "_rebuild_parameter_with_state",
                        tensor_call("0", 4, 0, (4,), (1,)),
                        b"\x89",
                        op_global("collections", "OrderedDict") + b")R",
                        b"}" + op_str("__class__") + op_global("collections", "OrderedDict") + b"s",
                    )
                ),
                four,
            ),
            "parameter state that would reassign __class__",
        ),
    }
    rng = random.Random(8)
    # mutations of data.pkl, re-zipped with a valid CRC so the unpickler sees them
    pickle_bytes = zipfile.ZipFile(io.BytesIO(valid)).read("archive/data.pkl")
    for index in range(4):
        mutated = bytearray(pickle_bytes)
        for _ in range(3):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        files[f"mutated_pickle_{index}"] = (
            zip_checkpoint(bytes(mutated), {"data/0": float_record(64), "data/1": float_record(9)}),
            "random byte changes in data.pkl",
        )
    # bit flips where a reader must notice them: the bytes of data.pkl (CRC-protected)
    # and the fields of the end-of-directory record; flips anywhere else are fuzzed by
    # the tests themselves (they may land in padding or tensor data, which no reader
    # checks unless asked to)
    pickle_start = valid.find(b"\x80\x02")
    eocd = valid.rfind(b"PK\x05\x06")
    for index in range(4):
        mutated = bytearray(valid)
        for _ in range(4):
            if index < 2:
                position = pickle_start + rng.randrange(len(pickle_bytes))
            else:
                position = eocd + 8 + rng.randrange(12)
            mutated[position] ^= 1 << rng.randrange(8)
        files[f"mutated_archive_{index}"] = (
            bytes(mutated),
            "random bit flips in data.pkl or the zip directory",
        )
    return files


def _without_data_pkl() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in (("byteorder", b"little"), ("data/0", float_record(4))):
            archive.writestr(zipfile.ZipInfo(f"archive/{name}", (2020, 1, 1, 0, 0, 0)), data)
    return out.getvalue()


def _flip(data: bytes, position: int) -> bytes:
    mutated = bytearray(data)
    mutated[position] ^= 0x40
    return bytes(mutated)


def _break_directory(data: bytes) -> bytes:
    mutated = bytearray(data)
    end = mutated.rfind(b"PK\x05\x06")
    struct.pack_into("<I", mutated, end + 16, len(mutated) * 4)
    return bytes(mutated)


def pytorch_outcome(data: bytes, name: str) -> str:
    """The exception type real PyTorch raises loading ``data`` (weights_only=True)."""
    if name.startswith("zip_bomb"):
        return "skipped"  # not handed to miniz: it might try to allocate the claim
    path = CORPUS / f"{name}.pt"
    try:
        torch.load(path)
    except Exception as error:  # noqa: BLE001 (recording whatever it is)
        return type(error).__name__
    return "loaded"


# ------------------------------------------------------------------------------- main


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    CORPUS.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for name, build in CASES.items():
        obj = build()
        torch.save(obj, OUT / f"{name}.pt")
        manifest[name] = describe(torch.load(OUT / f"{name}.pt", weights_only=True))
    legacy = view_cases()
    torch.save(legacy, OUT / "legacy_views.pt", _use_new_zipfile_serialization=False)
    manifest["legacy_views"] = describe(torch.load(OUT / "legacy_views.pt"))
    for name in ("dtypes", "special", "nested", "parameters"):
        torch.save(CASES[name](), OUT / f"legacy_{name}.pt", _use_new_zipfile_serialization=False)
        manifest[f"legacy_{name}"] = describe(torch.load(OUT / f"legacy_{name}.pt"))
    torch.save(dtype_cases(), OUT / "protocol4.pt", pickle_protocol=4)
    manifest["protocol4"] = describe(torch.load(OUT / "protocol4.pt", weights_only=False))
    model, io_values = whole_module()
    torch.save(model, OUT / "whole_module.pt")
    io_values["state"] = describe(model.state_dict())
    (OUT / "whole_module.json").write_text(json.dumps(io_values, indent=1, sort_keys=True) + "\n")
    data, loaded = tar_checkpoint()
    (OUT / "tar_format.pt").write_bytes(data)
    manifest["tar_format"] = describe(loaded)
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")

    records = {}
    for name, (data, what) in corpus().items():
        (CORPUS / f"{name}.pt").write_bytes(data)
        records[name] = {"what": what, "pytorch": pytorch_outcome(data, name)}
    (OUT / "corpus.json").write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(manifest)} golden checkpoints, {len(records)} corpus files in {OUT}")


if __name__ == "__main__":
    main()
