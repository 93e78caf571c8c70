"""Contract: derivative formulas read an op's saved arguments by name (``saved.alpha``),
so every op that hands saved arguments to the engine names them in its OpDef."""

import pytest

import torch
from torch._interface import get_grad_engine, ops
from torch.testing._opinfo import op_db

#: the op families whose OpDefs name what they save: every family of the registry (none
#: is exempt, so a new or renamed family is checked from its first op). Ops that hand the
#: engine one object rather than a tuple (the fused recurrent layers' ``LSTMSaved``,
#: ``GRUSaved``, ``RNNSaved``) need no names: their formulas read the object's attributes.
NAMED_FAMILIES = frozenset(op.family for op in ops)

CASES = [info for info in op_db if info.differentiable]


def _recorded(info, monkeypatch) -> dict:
    """OpDef -> the saved tuples recorded while the op's samples run with grad."""
    engine = get_grad_engine()
    seen: dict = {}
    original = type(engine).record

    def spy(self, op, inputs, output, saved):
        seen.setdefault(op, []).append(saved)
        return original(self, op, inputs, output, saved)

    monkeypatch.setattr(type(engine), "record", spy)
    for sample in info.sample_inputs(torch.float64):
        inputs = [
            t.detach().clone().requires_grad_() if t.is_floating_point() else t
            for t in sample.tensors
        ]
        info.op(*inputs, *sample.args, **sample.kwargs)
    return seen


@pytest.mark.parametrize("info", CASES, ids=[i.name for i in CASES])
def test_saved_arguments_are_named(info, monkeypatch):
    for op, saves in _recorded(info, monkeypatch).items():
        name = op.name
        if op.family not in NAMED_FAMILIES:
            continue
        for saved in saves:
            if type(saved) is tuple and saved:
                assert op.saved, f"{name} saves {len(saved)} arguments but names none"
                assert len(op.saved) == len(saved), f"{name}: {op.saved} for {saved!r}"


def test_declared_names_are_identifiers():
    for op in ops:
        assert all(n.isidentifier() for n in op.saved), op.name
        assert len(set(op.saved)) == len(op.saved), op.name


def test_formulas_get_the_saved_arguments_by_name():
    x = torch.ones(3, requires_grad=True)
    y = torch.add(torch.zeros(3), x, alpha=2.5)
    assert type(y.grad_fn)._saved_type._fields == ("alpha",)
    y.sum().backward()
    assert x.grad.tolist() == [2.5, 2.5, 2.5]


def test_composite_views_name_what_they_save():
    # recorded under an unregistered OpDef (select's geometry, unbind's output number)
    x = torch.ones(2, 3, requires_grad=True)
    assert type(x[0].grad_fn)._saved_type._fields == ("input_geometry", "view_geometry")
    first, _ = x.unbind()
    assert type(first.grad_fn)._saved_type._fields[-1] == "output_nr"
    assert type(x.t().grad_fn)._saved_type._fields == ("dims",)


def test_objects_pass_as_they_are():
    # a fused recurrent layer saves one object: its formulas get it unnamed
    from torch.autograd._nodes import _node_class

    assert _node_class("_lstm_layer")._saved_type is None
