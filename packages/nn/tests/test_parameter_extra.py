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
