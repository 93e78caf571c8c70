"""torch.nn.modules.container: Sequential, ModuleList, ModuleDict, ParameterList,
ParameterDict (reprs against real PyTorch, list/dict behaviour)."""

from collections import OrderedDict

import pytest

import torch
from torch import nn


def test_sequential_indexing_slicing_and_editing():
    a, b, c = nn.ReLU(), nn.Tanh(), nn.Sigmoid()
    seq = nn.Sequential(a, b)
    assert seq[0] is a and seq[-1] is b and len(seq) == 2
    assert isinstance(seq[1:], nn.Sequential) and seq[1:][0] is b
    seq.append(c)
    assert list(seq) == [a, b, c]
    seq.insert(0, nn.Identity())
    assert [type(m).__name__ for m in seq] == ["Identity", "ReLU", "Tanh", "Sigmoid"]
    del seq[0]
    assert list(seq._modules) == ["0", "1", "2"] and seq[0] is a
    seq.extend([nn.Identity()])
    assert len(seq) == 4 and seq.pop(3).__class__ is nn.Identity
    seq[0] = nn.ELU()
    assert isinstance(seq[0], nn.ELU)
    with pytest.raises(IndexError):
        seq[5]


def test_sequential_from_ordered_dict_keeps_names_and_runs_in_order():
    seq = nn.Sequential(OrderedDict([("affine", nn.Linear(1, 1)), ("act", nn.ReLU())]))
    nn.init.constant_(seq.affine.weight, 2.0)
    nn.init.constant_(seq.affine.bias, -3.0)
    assert seq(torch.tensor([[1.0], [2.0]])).tolist() == [[0.0], [1.0]]
    assert list(seq.state_dict()) == ["affine.weight", "affine.bias"]


def test_module_list_registers_its_modules():
    layers = nn.ModuleList([nn.Linear(2, 2)])
    layers.append(nn.Linear(2, 3))
    layers.extend([nn.ReLU()])
    layers.insert(1, nn.Tanh())
    assert [type(m).__name__ for m in layers] == ["Linear", "Tanh", "Linear", "ReLU"]
    assert len(list(layers.parameters())) == 4
    assert isinstance(layers[1:3], nn.ModuleList) and len(layers[1:3]) == 2
    layers += [nn.ReLU()]
    assert len(layers) == 5
    del layers[1]
    assert list(layers._modules) == ["0", "1", "2", "3"]
    with pytest.raises(TypeError, match="should be called with an iterable"):
        layers.extend(3)


def test_module_dict():
    d = nn.ModuleDict([("a", nn.ReLU())])
    d["b"] = nn.Linear(1, 1)
    d.update({"c": nn.Tanh()})
    assert list(d.keys()) == ["a", "b", "c"] and "b" in d and len(d) == 3
    assert isinstance(d.pop("a"), nn.ReLU) and list(d) == ["b", "c"]
    with pytest.raises(KeyError):
        d["zzz"]
    with pytest.raises(ValueError, match="has length 3; 2 is required"):
        d.update([("x", nn.ReLU(), 1)])


def test_parameter_list_and_dict_wrap_tensors_as_parameters():
    plist = nn.ParameterList([torch.zeros(2)])
    plist.append(torch.ones(1))
    assert all(isinstance(p, nn.Parameter) for p in plist) and len(plist) == 2
    assert [n for n, _ in plist.named_parameters()] == ["0", "1"]
    pdict = nn.ParameterDict({"b": torch.zeros(1), "a": torch.ones(1)})
    assert list(pdict) == ["a", "b"]  # a plain dict's items are sorted, as in PyTorch
    pdict["c"] = torch.zeros(3)
    assert isinstance(pdict["c"], nn.Parameter) and len(list(pdict.parameters())) == 3
    assert pdict.get("zzz") is None and pdict.pop("c").shape == (3,)
    with pytest.raises(RuntimeError, match="should not be called"):
        plist()


def test_container_is_deprecated_but_registers():
    with pytest.warns(UserWarning, match="nn.Container is deprecated"):
        c = nn.Container(a=nn.ReLU())
    assert isinstance(c.a, nn.ReLU)
