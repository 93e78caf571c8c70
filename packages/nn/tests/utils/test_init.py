"""torch.nn.utils.skip_init and torch.nn.factory_kwargs, with PyTorch 2.13's results and
errors (checked side by side with tools/ptdiff)."""

import pytest

import torch
import torch.nn as nn


def test_skip_init_makes_the_module():
    m = nn.utils.skip_init(nn.Linear, 3, 2, bias=False)
    assert isinstance(m, nn.Linear) and m.weight.shape == (2, 3) and m.bias is None
    assert torch.nn.utils.init.skip_init is nn.utils.skip_init


def test_skip_init_needs_a_module_class_with_a_device_argument():
    with pytest.raises(RuntimeError, match="^Module must support a 'device' arg to skip init"):
        nn.utils.skip_init(nn.ReLU)
    with pytest.raises(TypeError, match="issubclass"):
        nn.utils.skip_init(3)


def test_factory_kwargs():
    assert nn.factory_kwargs(None) == {}
    assert nn.factory_kwargs({"device": "cpu"}) == {"device": "cpu"}
    merged = nn.factory_kwargs({"factory_kwargs": {"dtype": torch.float64}, "device": "cpu"})
    assert list(merged.items()) == [("dtype", torch.float64), ("device", "cpu")]
    assert nn.factory_kwargs({"factory_kwargs": {"foo": 1}}) == {"foo": 1}  # not checked
    with pytest.raises(TypeError, match=r"^unexpected kwargs \{'foo'\}$"):
        nn.factory_kwargs({"foo": 1})
    with pytest.raises(TypeError, match="^dtype specified twice, in \\*\\*kwargs and in factory"):
        nn.factory_kwargs({"dtype": torch.float32, "factory_kwargs": {"dtype": torch.float64}})
