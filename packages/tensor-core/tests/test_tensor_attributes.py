"""Attributes set on a tensor, as PyTorch allows (pyro tags constrained values with their
unconstrained ones); outputs printed by PyTorch 2.13 for the same script. Not carried by
copy.deepcopy, pickle or torch.save here (PyTorch carries them): a known difference."""

import torch


def test_set_and_read_back():
    t = torch.ones(2)
    assert t.__dict__ == {}
    t.tag = "x"
    assert t.tag == "x" and t.__dict__ == {"tag": "x"}
    assert not hasattr(t[0:1], "tag")  # a view is a new tensor object
    assert not hasattr(t.clone(), "tag")
    del t.tag
    assert not hasattr(t, "tag")


def test_pyro_style_weakref_tag():
    import weakref

    constrained, unconstrained = torch.ones(1), torch.zeros(1)
    constrained.unconstrained = weakref.ref(unconstrained)
    assert constrained.unconstrained() is unconstrained
