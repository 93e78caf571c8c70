"""torch.nn.parameter: Buffer and UninitializedParameter, and the Lazy modules that use
them (modules/lazy.py)."""

import torch
from torch import nn


def test_uninitialized_parameter_materializes_into_a_parameter():
    p = nn.UninitializedParameter()
    assert repr(p) == "<UninitializedParameter>"
    p.materialize((2, 3))
    assert type(p) is nn.Parameter and tuple(p.shape) == (2, 3) and p.requires_grad


def test_lazy_linear_becomes_linear_on_first_call():
    torch.manual_seed(0)
    m = nn.LazyLinear(3)
    assert m.has_uninitialized_params()
    out = m(torch.ones(2, 5))
    assert type(m) is nn.Linear and tuple(m.weight.shape) == (3, 5) and out.shape == (2, 3)
    assert repr(m) == "Linear(in_features=5, out_features=3, bias=True)"


def test_lazy_conv_infers_in_channels():
    m = nn.LazyConv2d(4, 3, padding=1)
    out = m(torch.ones(1, 2, 5, 5))
    assert (
        type(m) is nn.Conv2d and tuple(m.weight.shape) == (4, 2, 3, 3) and out.shape == (1, 4, 5, 5)
    )


def test_parameter_survives_to_deepcopy_and_module_conversion():
    m = nn.Linear(2, 2)
    m.double()
    assert isinstance(m.weight, nn.Parameter) and m.weight.dtype == torch.float64


def test_lazy_batch_norm_infers_num_features():
    m = nn.LazyBatchNorm2d()
    m(torch.randn(2, 3, 4, 4))
    assert type(m) is nn.BatchNorm2d and m.num_features == 3
    assert list(m.state_dict()) == [
        "weight", "bias", "running_mean", "running_var", "num_batches_tracked",
    ]  # fmt: skip
    assert m.num_batches_tracked.item() == 1


def test_uninitialized_buffer_materializes():
    b = nn.UninitializedBuffer()
    b.materialize((2,))
    assert type(b) is torch.Tensor and tuple(b.shape) == (2,)


def test_lazy_module_loads_a_state_dict_before_its_first_call():
    # as PyTorch: the uninitialized parameters take the loaded shapes, the module keeps
    # its lazy class until the first forward
    source = nn.Conv2d(2, 4, 3)
    lazy = nn.LazyConv2d(4, 3)
    lazy.load_state_dict(source.state_dict())
    assert type(lazy).__name__ == "LazyConv2d"
    assert tuple(lazy.weight.shape) == (4, 2, 3, 3)
    assert torch.equal(lazy.weight, source.weight)
    x = torch.ones(1, 2, 5, 5)
    assert torch.equal(lazy(x), source(x))
    assert type(lazy) is nn.Conv2d
    norm = nn.LazyBatchNorm1d()
    norm.load_state_dict(nn.BatchNorm1d(3).state_dict())
    assert tuple(norm.running_mean.shape) == (3,)


# ---- using a placeholder before it has a shape (messages as PyTorch 2.13's)

_SHAPE_ERROR = "Can't access the shape of an uninitialized parameter or buffer"
_USE_ERROR = "Attempted to use an uninitialized parameter in"


def test_uninitialized_placeholders_refuse_shape_and_computation():
    import pytest

    for placeholder in (nn.UninitializedParameter(), nn.UninitializedBuffer()):
        with pytest.raises(RuntimeError, match=_SHAPE_ERROR):
            placeholder.shape
        kind = type(placeholder).__name__
        uses = [
            lambda p: p.numel(),
            lambda p: p.dim(),
            lambda p: len(p),
            lambda p: p + 1,
            lambda p: 1 + p,
            lambda p: p * torch.ones(2),
            lambda p: torch.add(p, 1),
            lambda p: p.sum(),
            lambda p: p.view(-1),
            lambda p: p.item(),
            lambda p: float(p),
            lambda p: p.tolist(),
            lambda p: p.numpy(),
            lambda p: p.stride(),
            lambda p: p.fill_(1.0),
            lambda p: p.zero_(),
            lambda p: p.detach(),
            lambda p: p.clone(),
            lambda p: p == p,
            lambda p: bool(p),
        ]
        for use in uses:
            with pytest.raises(ValueError, match=_USE_ERROR) as info:
                use(placeholder)
            assert f"`torch.nn.parameter.{kind}` objects" in str(info.value)
        # metadata stays readable, as in PyTorch
        assert placeholder.size() == torch.Size([0]) and placeholder.ndim == 1
        assert placeholder.dtype is torch.float32 and placeholder.grad is None
        assert placeholder.is_leaf and placeholder.is_floating_point()
        assert placeholder.float() is placeholder and placeholder.cpu() is placeholder
    assert nn.UninitializedParameter().numel.__name__ == "numel"
    with pytest.raises(ValueError, match=r"uninitialized parameter in numel\."):
        nn.UninitializedParameter().numel()


def test_uninitialized_placeholders_flags_and_helpers():
    assert nn.UninitializedParameter().requires_grad
    assert not nn.UninitializedParameter(requires_grad=False).requires_grad
    assert nn.UninitializedBuffer(requires_grad=True).requires_grad
    assert not nn.UninitializedBuffer().requires_grad
    assert isinstance(nn.UninitializedParameter(), nn.Parameter)
    assert not isinstance(nn.UninitializedBuffer(), nn.Parameter)
    assert nn.UninitializedBuffer.cls_to_become is torch.Tensor
    assert nn.parameter.is_lazy(nn.UninitializedParameter())
    assert not nn.parameter.is_lazy(torch.ones(1))
    assert type(nn.UninitializedParameter().data) is torch.Tensor
    buffer = nn.UninitializedBuffer()
    assert buffer.data is buffer
    import copy

    assert type(copy.deepcopy(nn.UninitializedParameter())) is nn.UninitializedParameter


def test_lazy_module_state_dict_keeps_placeholders_and_converts_dtype():
    m = nn.LazyLinear(3)
    kinds = {key: type(value).__name__ for key, value in m.state_dict().items()}
    assert kinds == {"weight": "UninitializedParameter", "bias": "UninitializedParameter"}
    norm = nn.LazyBatchNorm1d()
    kinds = {key: type(value).__name__ for key, value in norm.state_dict().items()}
    assert kinds == {
        "weight": "UninitializedParameter", "bias": "UninitializedParameter",
        "running_mean": "UninitializedBuffer", "running_var": "UninitializedBuffer",
        "num_batches_tracked": "Tensor",
    }  # fmt: skip
    m.double()
    assert type(m.weight) is nn.UninitializedParameter and m.weight.dtype is torch.float64
    m(torch.ones(2, 4, dtype=torch.float64))
    assert type(m.weight) is nn.Parameter and m.weight.dtype is torch.float64
    assert tuple(m.weight.shape) == (3, 4)
