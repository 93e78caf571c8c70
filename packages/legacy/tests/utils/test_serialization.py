"""torch.utils.serialization: .t7 files written and read back (binary and ascii, every
Lua type), files laid out by hand as Lua Torch writes them, and the errors."""

import io
import math
import struct

import pytest

import torch
from torch.legacy import nn
from torch.utils.serialization import LuaFunction, TorchObject, load_lua, save_lua

FORMATS = [("binary", 8), ("binary", 4), ("ascii", 8)]
DTYPES = [
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.float32,
    torch.float64,
]


def round_trip(obj, format="binary", long_size=8):
    buffer = io.BytesIO()
    save_lua(obj, buffer, format=format, long_size=long_size)
    buffer.seek(0)
    return load_lua(buffer, format=format, long_size=long_size)


@pytest.mark.parametrize("format, long_size", FORMATS)
def test_plain_values(format, long_size):
    values = {
        "nil": None,
        "yes": True,
        "no": False,
        "int": -7,
        "big": 2**40,
        "float": 0.1,
        "tiny": 5e-324,
        "inf": -math.inf,
        "text": "héllo wörld",
        "bytes": b"\xff\x00\n raw",
        "empty": "",
        "list": [1, "two", [3.5, False]],
        "dict": {"a": 1, 2.5: "b", 7: [1]},
    }
    back = round_trip(values, format, long_size)
    assert back == values  # (Lua itself would drop the nil entry when it reads the file)
    assert isinstance(back["int"], int) and isinstance(back["float"], float)
    nan = round_trip(math.nan, format, long_size)
    assert math.isnan(nan)


@pytest.mark.parametrize("format, long_size", FORMATS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_tensors_and_storages_of_every_type(dtype, format, long_size):
    base = (torch.arange(24) % 100).to(dtype).view(2, 3, 4)
    if dtype.is_floating_point:
        base = base / 4 - 2
    obj = {
        "tensor": base,
        "transposed": base.transpose(0, 2),
        "slice": base[1, :, 1:3],
        "storage": base.storage(),
        "empty": torch.empty(0, dtype=dtype),
    }
    back = round_trip(obj, format, long_size)
    for key in ("tensor", "transposed", "slice"):
        assert back[key].dtype == dtype
        assert back[key].shape == obj[key].shape
        assert back[key].stride() == obj[key].stride()
        torch.testing.assert_close(back[key], obj[key], rtol=0, atol=0)
    assert back["storage"].dtype == dtype and back["storage"].tolist() == base.storage().tolist()
    assert back["empty"].numel() == 0 and back["empty"].dtype == dtype
    # the views still share one storage, as in the file
    back["tensor"][1, 0, 1] = 3
    assert back["slice"][0, 0] == 3


def test_shared_and_recursive_objects():
    inner = [1, 2]
    table = {"a": inner, "b": inner}
    table["self"] = table
    back = round_trip(table)
    assert back["a"] is back["b"] and back["self"] is back
    t = torch.ones(3)
    back = round_trip([t, t])
    assert back[0] is back[1]


@pytest.mark.parametrize("format", ["binary", "ascii"])
def test_legacy_modules_round_trip(format):
    torch.manual_seed(0)
    net = (
        nn.Sequential()
        .add(nn.SpatialConvolution(1, 4, 3, 3, 1, 1, 1))
        .add(nn.SpatialBatchNormalization(4))
        .add(nn.ReLU())
        .add(nn.SpatialMaxPooling(2, 2).ceil())
        .add(nn.View(4 * 3 * 3).setNumInputDims(3))
        .add(nn.Narrow(1, 2, -1))
        .add(nn.Linear(34, 5))
        .add(nn.LogSoftMax())
    )
    x = torch.randn(2, 1, 5, 5)
    net.forward(x)
    net.evaluate()
    back = round_trip({"model": net, "criterion": nn.ClassNLLCriterion()}, format)
    model = back["model"]
    assert isinstance(model, nn.Sequential) and isinstance(model.get(6), nn.Linear)
    assert isinstance(back["criterion"], nn.ClassNLLCriterion)
    assert model.get(5).dimension == 1 and model.get(5).index == 2  # 0-based again
    assert model.get(3).ceil_mode and model.train is False
    torch.testing.assert_close(model.forward(x), net.forward(x))
    grad = torch.randn(2, 5)
    torch.testing.assert_close(model.backward(x, grad), net.backward(x, grad))


def test_other_torch_classes_and_functions():
    obj = TorchObject("nn.SpatialFullConvolution", {"kW": 3, "weight": torch.ones(2)})
    function = LuaFunction(b"\x1bLua bytecode", [1, 2])
    back = round_trip([obj, function])
    assert back[0].torch_typename() == "nn.SpatialFullConvolution" and back[0].kW == 3
    assert back[1].bytecode == function.bytecode and back[1].upvalues == [1, 2]
    with pytest.raises(RuntimeError, match="cannot be called"):
        back[1]()
    buffer = io.BytesIO()
    save_lua(obj, buffer)
    buffer.seek(0)
    with pytest.raises(TypeError, match="nn.SpatialFullConvolution"):
        load_lua(buffer, unknown_classes=False)


def test_file_paths(tmp_path):
    path = tmp_path / "model.t7"
    save_lua(nn.Linear(3, 2), path)
    assert isinstance(load_lua(path), nn.Linear)
    save_lua([1], str(path), format="ascii")
    assert load_lua(str(path), format="ascii") == [1]


# -- files laid out by hand, as Lua Torch 7 writes them --------------------------------

ASCII_TABLE = (
    b"3\n1\n3\n"  # a table, reference 1, three pairs
    b"1\n1\n1\n3.5\n"  # [1] = 3.5
    b"2\n3\nfoo\n2\n3\nbar\n"  # foo = "bar"
    b"2\n1\nt\n"  # t = ...
    b"4\n2\n3\nV 1\n18\ntorch.DoubleTensor\n"  # a torch object, reference 2
    b"1\n2\n1\n1\n"  # one dimension: size 2, stride 1, offset 1
    b"4\n3\n3\nV 1\n19\ntorch.DoubleStorage\n2\n1.5 -2\n"
)


def test_reads_an_ascii_file_as_lua_writes_it():
    back = load_lua(io.BytesIO(ASCII_TABLE), format="ascii")
    assert back.keys() == {1, "foo", "t"} and back[1] == 3.5 and back["foo"] == "bar"
    torch.testing.assert_close(back["t"], torch.tensor([1.5, -2.0], dtype=torch.float64))


def _int(v):
    return struct.pack("<i", v)


def _long(v):
    return struct.pack("<q", v)


def _string(text):
    data = text.encode()
    return _int(len(data)) + data


def _number(v):
    return _int(1) + struct.pack("<d", v)


def test_reads_a_binary_file_as_lua_writes_it():
    # {nn.Narrow(dimension 2, index 3, length 2) written by a versionless (old) writer,
    #  a torch.CudaTensor of 3 elements}: Lua's 1-based fields become 0-based
    narrow_fields = (
        _int(3) + _int(3) + _int(3)
        + _int(2) + _string("dimension") + _number(2)
        + _int(2) + _string("index") + _number(3)
        + _int(2) + _string("length") + _number(2)
    )  # fmt: skip
    narrow = _int(4) + _int(2) + _string("nn.Narrow") + narrow_fields
    cuda = (
        _int(4) + _int(4) + _string("V 1") + _string("torch.CudaTensor")
        + _int(1) + _long(3) + _long(1) + _long(1)
        + _int(4) + _int(5) + _string("V 1") + _string("torch.CudaStorage")
        + _long(3) + struct.pack("<3f", 1.0, 2.0, 3.0)
    )  # fmt: skip
    data = _int(3) + _int(1) + _int(2) + _number(1) + narrow + _number(2) + cuda
    back = load_lua(io.BytesIO(data))
    assert isinstance(back, list) and isinstance(back[0], nn.Narrow)
    assert (back[0].dimension, back[0].index, back[0].length) == (1, 2, 2)
    torch.testing.assert_close(back[0].forward(torch.arange(8.0).view(2, 4)),
                               torch.tensor([[2.0, 3.0], [6.0, 7.0]]))  # fmt: skip
    torch.testing.assert_close(back[1], torch.tensor([1.0, 2.0, 3.0]))


def test_errors():
    with pytest.raises(ValueError, match="format must be 'binary' or 'ascii'"):
        save_lua(1, io.BytesIO(), format="json")
    with pytest.raises(ValueError, match="long_size must be 4 or 8"):
        load_lua(io.BytesIO(b""), long_size=2)
    with pytest.raises(EOFError, match="ended early"):
        load_lua(io.BytesIO(_int(2) + _int(10) + b"abc"))
    with pytest.raises(RuntimeError, match="unknown type tag 42"):
        load_lua(io.BytesIO(_int(42)))
    with pytest.raises(TypeError, match="Lua Torch has no tensor type for torch.bool"):
        save_lua(torch.ones(2, dtype=torch.bool), io.BytesIO())
    with pytest.raises(TypeError, match="cannot write an object of type set"):
        save_lua({1, 2}, io.BytesIO())
