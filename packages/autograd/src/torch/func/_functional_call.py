"""``functional_call`` (a module's forward with other parameters and buffers) and
``stack_module_state`` (the parameters of several copies of a model stacked, for
``vmap`` over models).

torch-autograd does not depend on torch-nn: the module is used through what every
``nn.Module`` offers (``named_parameters``, ``named_buffers``, ``get_submodule`` and
the ``_parameters``/``_buffers`` dicts its attributes live in).
"""

from __future__ import annotations

import torch

__all__ = ["functional_call", "stack_module_state"]


def _merge(dicts) -> dict:
    if isinstance(dicts, dict):
        return dicts
    merged: dict = {}
    repeated = []
    for d in dicts:
        for key, value in d.items():
            if key in merged:
                repeated.append(key)
            merged[key] = value
    if repeated:
        raise ValueError(
            f"{sorted(set(repeated))} appeared in multiple dictionaries; behavior of "
            "functional call is ambiguous"
        )
    return merged


def _state_names(module) -> tuple[list[str], dict[int, list[str]]]:
    """Every parameter and buffer name (tied ones too) and the names of each tensor."""
    names, groups = [], {}
    for name, tensor in [
        *module.named_parameters(remove_duplicate=False),
        *module.named_buffers(remove_duplicate=False),
    ]:
        names.append(name)
        groups.setdefault(id(tensor), []).append(name)
    return names, groups


def _tie(values: dict, groups: dict[int, list[str]]) -> dict:
    values = dict(values)
    for names in groups.values():
        if len(names) < 2:
            continue
        given = [n for n in names if n in values]
        if len(given) > 1 and any(values[n] is not values[given[0]] for n in given[1:]):
            raise ValueError(
                f"functional_call got multiple values for keys {sorted(given)}, which are "
                "tied. Consider using tie_weights=False"
            )
        if given:
            for n in names:
                values[n] = values[given[0]]
    return values


def _check_strict(module, names, values) -> None:
    missing = sorted(set(names) - set(values))
    unexpected = sorted(set(values) - set(names))
    if not (missing or unexpected):
        return
    lines = [f"Error(s) in reparametrizing for {type(module).__name__}:"]
    if unexpected:
        lines.append("\tUnexpected key(s): " + ", ".join(f"'{k}'" for k in unexpected) + ".")
    if missing:
        lines.append("\tMissing key(s): " + ", ".join(f"'{k}'" for k in missing) + ".")
    raise RuntimeError("\n".join(lines))


def _swap(module, name: str, value):
    """Put ``value`` in place of the tensor called ``name``; returns how to undo it."""
    path, _, attribute = name.rpartition(".")
    owner = module.get_submodule(path) if path else module
    for store in (owner.__dict__.get("_parameters"), owner.__dict__.get("_buffers")):
        if store is not None and attribute in store:
            old = store[attribute]
            store[attribute] = value
            return lambda: store.__setitem__(attribute, old)
    had = attribute in owner.__dict__
    old = owner.__dict__.get(attribute)
    object.__setattr__(owner, attribute, value)
    if had:
        return lambda: object.__setattr__(owner, attribute, old)
    return lambda: object.__delattr__(owner, attribute)


def functional_call(
    module,
    parameter_and_buffer_dicts,
    args=None,
    kwargs=None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
):
    """Call ``module`` with the parameters and buffers named in
    ``parameter_and_buffer_dicts`` in place of its own (the module is unchanged after).

    Args:
        module (nn.Module): the module.
        parameter_and_buffer_dicts (dict or sequence of dicts): tensors by their names in
            ``module.state_dict()`` (``"0.weight"``); several dicts must not share a name.
        args (tuple or a single value, optional): positional arguments of the forward.
        kwargs (dict, optional): keyword arguments of the forward.
        tie_weights (bool): a value given for one of several names of one tensor (tied
            weights) is used for all of them. Default: True.
        strict (bool): every parameter and buffer must be given, and nothing else.
            Default: False.

    Examples::

        >>> from torch.func import functional_call
        >>> class Scale(torch.nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.w = torch.nn.Parameter(torch.ones(1))
        ...     def forward(self, x):
        ...         return self.w * x
        >>> functional_call(Scale(), {"w": torch.tensor([3.0])}, (torch.tensor([2.0]),))
        tensor([6.])
    """
    values = _merge(parameter_and_buffer_dicts)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    kwargs = {} if kwargs is None else kwargs
    names, groups = _state_names(module)
    if tie_weights:
        values = _tie(values, groups)
    if strict:
        _check_strict(module, names, values)
    undo = []
    try:
        for name, value in values.items():
            undo.append(_swap(module, name, value))
        return module(*args, **kwargs)
    finally:
        for restore in reversed(undo):
            restore()


def stack_module_state(models) -> tuple[dict, dict]:
    """The parameters and buffers of ``models`` (copies of one architecture) stacked
    along a new first dim: ``(params, buffers)``, for ``vmap`` over
    :func:`functional_call`. The stacked parameters are new leaves (they require grad
    where the models' do).

    Examples::

        >>> from torch.func import stack_module_state
        >>> params, buffers = stack_module_state([torch.nn.Linear(2, 3) for _ in range(4)])
        >>> params["weight"].shape
        torch.Size([4, 3, 2])
    """
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode."
        )
    first = type(models[0])
    if not all(type(m) is first for m in models):
        raise RuntimeError(
            "stack_module_state: Expected all models to be of the same class, got: "
            f"{sorted({type(m).__name__ for m in models})}"
        )

    def stacked(named):
        by_name: dict = {}
        for model in models:
            for name, tensor in named(model):
                by_name.setdefault(name, []).append(tensor)
        return by_name

    params = {
        name: _stack_leaf(tensors)
        for name, tensors in stacked(lambda m: m.named_parameters()).items()
    }
    buffers = {
        name: torch.stack(tensors) for name, tensors in stacked(lambda m: m.named_buffers()).items()
    }
    return params, buffers


def _stack_leaf(tensors):
    leaf = torch.stack([t.detach() for t in tensors])
    return leaf.requires_grad_(tensors[0].requires_grad)
