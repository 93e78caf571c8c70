"""How ``nn.*`` objects of a .t7 file become ``torch.legacy.nn`` modules and back: the
fields are the same, except the ones that count from 1 in Lua and from 0 here, the
sizes Lua keeps in a LongStorage, and what older Lua versions stored differently."""

from __future__ import annotations

import torch

# fields holding a 1-based dimension or index; negative values count from the end in
# both conventions and stay as they are
ONE_BASED_FIELDS = {
    "Narrow": ("dimension", "index"),
    "JoinTable": ("dimension",),
    "SelectTable": ("index",),
    "Concat": ("dimension",),
    "Sum": ("dimension",),
    "Mean": ("dimension",),
    "Max": ("dimension",),
    "ClassNLLCriterion": ("ignoreIndex",),
}
SIZE_FIELDS = ("size",)  # View, Reshape, CMul: a LongStorage in Lua, a torch.Size here
# buffers only this implementation keeps: recomputed by the next forward, never written
PRIVATE_BUFFERS = ("_columns", "_normalized", "indices")


def legacy_class(typename):
    """The ``torch.legacy.nn`` class of a Lua class name such as ``"nn.Linear"``."""
    if not typename.startswith("nn."):
        return None
    from torch.legacy import nn

    cls = getattr(nn, typename[3:], None)
    is_module = isinstance(cls, type) and issubclass(cls, (nn.Module, nn.Criterion))
    return cls if is_module else None


def _as_list(value):
    if isinstance(value, dict):  # an empty Lua table
        return [value[k] for k in sorted(value)] if value else []
    return value


def module_from_fields(cls, fields):
    """An instance of ``cls`` whose attributes are the Lua object's fields, converted."""
    module = cls.__new__(cls)
    fields = {k: v for k, v in fields.items() if isinstance(k, str)}
    name = cls.__name__
    for key in ONE_BASED_FIELDS.get(name, ()):
        value = fields.get(key)
        if isinstance(value, int) and value > 0:
            fields[key] = value - 1
    for key in SIZE_FIELDS:
        value = fields.get(key)
        if isinstance(value, torch.TypedStorage):
            fields[key] = torch.Size(value.tolist())
    if name == "Transpose" and "permutations" in fields:
        fields["permutations"] = [
            tuple(d - 1 for d in _as_list(pair)) for pair in _as_list(fields["permutations"])
        ]
    if name == "LookupTable" and isinstance(fields.get("paddingValue"), int):
        fields["paddingValue"] -= 1  # Lua's 0 (none) becomes -1
    if "modules" in fields:
        fields["modules"] = _as_list(fields["modules"])
    if name == "SpatialConvolution":
        _conv_weights_4d(fields)
    if name in ("BatchNormalization", "SpatialBatchNormalization"):
        _batchnorm_fields(fields)
    if "gradInput" in fields and isinstance(fields["gradInput"], dict):
        fields["gradInput"] = _as_list(fields["gradInput"])
    module.__dict__.update(fields)
    _fill_defaults(module)
    return module


def _conv_weights_4d(fields):
    """Older Lua versions kept the weight as (nOutputPlane, nInputPlane * kH * kW)."""
    shape = (fields["nOutputPlane"], fields["nInputPlane"], fields["kH"], fields["kW"])
    for key in ("weight", "gradWeight"):
        value = fields.get(key)
        if torch.is_tensor(value) and value.dim() == 2:
            fields[key] = value.reshape(shape)
    fields.setdefault("padW", 0)
    fields.setdefault("padH", fields["padW"])


def _batchnorm_fields(fields):
    """Older Lua versions kept ``running_std`` (an inverse standard deviation)."""
    if "running_var" not in fields and torch.is_tensor(fields.get("running_std")):
        eps = fields.get("eps", 1e-5)
        fields["running_var"] = fields.pop("running_std").pow(-2) - eps
    fields.setdefault("nOutput", fields["running_mean"].numel())
    fields.setdefault("affine", fields.get("weight") is not None)
    for key in ("weight", "bias", "gradWeight", "gradBias"):
        fields.setdefault(key, None)


def _fill_defaults(module):
    """Attributes this implementation has that a Lua object may lack."""
    defaults = {
        "output": torch.empty(0),
        "gradInput": torch.empty(0),
        "train": True,
        "_type": "torch.FloatTensor",
    }
    for key, value in defaults.items():
        if key not in module.__dict__ and not hasattr(type(module), key):
            setattr(module, key, value)
    for key in PRIVATE_BUFFERS:
        module.__dict__.setdefault(key, None)


def fields_for_lua(module):
    """The fields to write for a ``torch.legacy.nn`` module, in Lua's conventions."""
    fields = {}
    for key, value in module.__dict__.items():
        if value is None or key in PRIVATE_BUFFERS:
            continue
        fields[key] = value
    name = type(module).__name__
    for key in ONE_BASED_FIELDS.get(name, ()):
        value = fields.get(key)
        if isinstance(value, int) and value >= 0 and not isinstance(value, bool):
            fields[key] = value + 1
    for key in SIZE_FIELDS:
        if isinstance(fields.get(key), torch.Size):
            fields[key] = torch.tensor(list(fields[key]), dtype=torch.int64).storage()
    if name == "Transpose":
        fields["permutations"] = [[a + 1, b + 1] for a, b in module.permutations]
    if name == "LookupTable":
        fields["paddingValue"] = module.paddingValue + 1
    return fields
