"""Pruning: zeroing parts of a module's tensor through a mask.

Pruning ``module.<name>`` moves the original parameter to ``<name>_orig``, stores the mask
as the buffer ``<name>_mask`` and registers a forward pre-hook (the pruning method itself)
that recomputes ``<name> = <name>_orig * <name>_mask`` before every forward. Pruning the
same tensor again wraps the methods in a :class:`PruningContainer`, which prunes only what
the earlier masks kept. :func:`remove` makes the pruning permanent.
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable

import torch

from ..modules.module import _assign_data

__all__ = [
    "BasePruningMethod",
    "PruningContainer",
    "Identity",
    "RandomUnstructured",
    "L1Unstructured",
    "RandomStructured",
    "LnStructured",
    "CustomFromMask",
    "identity",
    "random_unstructured",
    "l1_unstructured",
    "random_structured",
    "ln_structured",
    "global_unstructured",
    "custom_from_mask",
    "remove",
    "is_pruned",
]


class BasePruningMethod(ABC):
    """Base of the pruning methods: subclasses define :meth:`compute_mask` and the class
    attribute ``PRUNING_TYPE`` (``"unstructured"``, ``"structured"`` or ``"global"``),
    which tells a :class:`PruningContainer` how to combine them with earlier masks."""

    _tensor_name: str  # set by apply()

    def __call__(self, module, inputs) -> None:
        # forward pre-hook: refresh the pruned tensor from its original and mask
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        """The mask (same shape as ``t``) for tensor ``t``, given the mask
        ``default_mask`` left by earlier pruning."""

    def apply_mask(self, module):
        """``<name>_orig * <name>_mask`` of ``module``."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        """Prune ``module.<name>`` with ``cls(*args, **kwargs)`` (chained after any earlier
        pruning of that tensor) and return the method registered as the hook."""
        method = _chain_with_earlier(cls, module, name, *args, **kwargs)
        orig = getattr(module, name)
        importance_scores = _scores_for(
            orig, importance_scores, lambda: f"parameter {name} of {module}"
        )
        first_time = not isinstance(method, PruningContainer)
        if first_time:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = torch.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first_time:  # put the parameter back where it was
                module.register_parameter(name, getattr(module, name + "_orig"))
                del module._parameters[name + "_orig"]
            raise
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        """``t`` times its mask (computed from ``importance_scores`` when given)."""
        importance_scores = _scores_for(t, importance_scores, lambda: "tensor t")
        default_mask = default_mask if default_mask is not None else torch.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module) -> None:
        """Make the pruning permanent: ``<name>`` becomes a plain parameter holding the
        pruned values; ``<name>_orig`` and ``<name>_mask`` go away."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be removed")
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        _assign_data(orig, weight.detach())  # param.data = ...: the Parameter object stays
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


def _scores_for(tensor, importance_scores, describe_tensor):
    """``importance_scores``, checked to have ``tensor``'s shape, or ``tensor`` itself when
    none are given; ``describe_tensor()`` names the tensor in the error."""
    if importance_scores is None:
        return tensor
    if importance_scores.shape != tensor.shape:
        raise AssertionError(
            f"importance_scores should have the same shape as {describe_tensor()}, "
            f"got {importance_scores.shape} vs {tensor.shape}"
        )
    return importance_scores


def _chain_with_earlier(cls, module, name, *args, **kwargs):
    """A new ``cls`` method for ``name``; when ``name`` is already pruned, its hook is
    taken off and the new method is appended to a container of the earlier ones."""
    earlier = [
        (key, hook)
        for key, hook in module._forward_pre_hooks.items()
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name
    ]
    if len(earlier) > 1:
        raise AssertionError(
            f"Avoid adding multiple pruning hooks to the same tensor {name} of module "
            f"{module}. Use a PruningContainer."
        )
    for key, _ in earlier:
        del module._forward_pre_hooks[key]
    method = cls(*args, **kwargs)
    method._tensor_name = name
    if earlier:
        container = PruningContainer(earlier[0][1])
        container.add_pruning_method(method)
        method = container
    return method


class PruningContainer(BasePruningMethod):
    """The pruning methods applied one after the other to one tensor: each later method
    only prunes among the entries (or channels) that the earlier ones kept."""

    def __init__(self, *args) -> None:
        self._pruning_methods: tuple = ()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method) -> None:
        """Append ``method`` (which must prune the same tensor)."""
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError(
                "Can only add pruning methods acting on "
                f"the parameter named '{self._tensor_name}' to PruningContainer {self}."
                f" Found '{method._tensor_name}'"
            )
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        """The earlier mask with the newest method applied to what it still keeps."""
        method = self._pruning_methods[-1]
        new_mask = default_mask.to(dtype=t.dtype)
        region = _unpruned_region(method, t, default_mask)
        partial = method.compute_mask(t[region], default_mask=default_mask[region])
        new_mask[region] = partial.to(dtype=new_mask.dtype)
        return new_mask


def _unpruned_region(method, t, mask):
    """The index of ``t`` that ``method`` may still prune: the kept entries (unstructured),
    the channels with a kept entry (structured), or everything (global)."""
    if method.PRUNING_TYPE == "unstructured":
        return mask == 1
    if method.PRUNING_TYPE == "structured":
        if not hasattr(method, "dim"):
            raise AttributeError(
                'Pruning methods of PRUNING_TYPE "structured" need to have the attribute '
                "`dim` defined."
            )
        n_dims = t.dim()
        dim = method.dim + n_dims if method.dim < 0 else method.dim
        if dim < 0:
            raise IndexError(f"Index is out of bounds for tensor with dimensions {n_dims}")
        keep_channel = mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
        region = [slice(None)] * n_dims
        region[dim] = keep_channel
        return tuple(region)
    if method.PRUNING_TYPE == "global":
        return tuple([slice(None)] * len(t.shape))
    raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")


class Identity(BasePruningMethod):
    """Prunes nothing: the mask is all ones."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):  # type: ignore[override]
        """Reparametrise ``module.<name>`` with an all-ones mask."""
        return super().apply(module, name)


class _PrunesEntries:
    """``compute_mask`` of the unstructured methods: zero the ``amount`` entries that
    ``_entries_to_prune`` picks (flat indices)."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        n_prune = _count_to_prune(self.amount, t.nelement())
        mask = default_mask.clone()
        if n_prune != 0:
            mask.view(-1)[self._entries_to_prune(t, n_prune)] = 0
        return mask


class RandomUnstructured(_PrunesEntries, BasePruningMethod):
    """Prunes ``amount`` entries (a count, or a fraction of the tensor) chosen at random."""

    def _entries_to_prune(self, t, n_prune):
        scores = torch.rand_like(t)
        return torch.topk(scores.view(-1), k=n_prune).indices

    @classmethod
    def apply(cls, module, name, amount):  # type: ignore[override]
        """Prune ``amount`` random entries of ``module.<name>``."""
        return super().apply(module, name, amount=amount)


class L1Unstructured(_PrunesEntries, BasePruningMethod):
    """Prunes the ``amount`` entries of smallest absolute value."""

    def _entries_to_prune(self, t, n_prune):
        return torch.topk(torch.abs(t).view(-1), k=n_prune, largest=False).indices

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):  # type: ignore[override]
        """Prune the ``amount`` smallest-magnitude entries of ``module.<name>`` (or of
        ``importance_scores``)."""
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class _PrunesChannels:
    """``compute_mask`` of the structured methods: keep the channels along ``self.dim``
    that ``_channels_kept`` picks (indices or a boolean selector), zero the others."""

    PRUNING_TYPE = "structured"

    def compute_mask(self, t, default_mask):
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        n_channels = t.shape[self.dim]
        n_prune = _count_to_prune(self.amount, n_channels)
        kept = self._channels_kept(t, n_channels, n_prune)
        if n_prune == 0:
            return default_mask
        mask = _channel_mask(t, self.dim, kept)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask


class RandomStructured(_PrunesChannels, BasePruningMethod):
    """Prunes ``amount`` whole channels along ``dim``, chosen at random."""

    def __init__(self, amount, dim=-1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def _channels_kept(self, t, n_channels, n_prune):
        if n_prune == 0:  # nothing to choose: the random stream is left untouched
            return None
        scores = torch.rand(n_channels)
        threshold = torch.kthvalue(scores, k=n_prune).values
        return scores > threshold

    @classmethod
    def apply(cls, module, name, amount, dim=-1):  # type: ignore[override]
        """Prune ``amount`` random channels of ``module.<name>`` along ``dim``."""
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(_PrunesChannels, BasePruningMethod):
    """Prunes the ``amount`` channels along ``dim`` of smallest ``n``-norm (``n`` as
    ``p`` of :func:`torch.norm`)."""

    def __init__(self, amount, n, dim=-1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def _channels_kept(self, t, n_channels, n_prune):
        norm = _norm_per_channel(t, self.n, self.dim)
        return torch.topk(norm, k=n_channels - n_prune, largest=True).indices

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):  # type: ignore[override]
        """Prune the ``amount`` lowest-norm channels of ``module.<name>`` along ``dim``."""
        return super().apply(
            module, name, amount=amount, n=n, dim=dim, importance_scores=importance_scores
        )


class CustomFromMask(BasePruningMethod):
    """Prunes where a given mask is zero."""

    PRUNING_TYPE = "global"

    def __init__(self, mask) -> None:
        self.mask = mask

    def compute_mask(self, t, default_mask):
        if default_mask.shape != self.mask.shape:
            raise AssertionError(
                f"default_mask shape {default_mask.shape} must match "
                f"self.mask shape {self.mask.shape}"
            )
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):  # type: ignore[override]
        """Prune ``module.<name>`` where ``mask`` is zero."""
        return super().apply(module, name, mask=mask)


def _channel_mask(t, dim, channels):
    """Zeros shaped as ``t`` with ones in the ``channels`` (indices or booleans) along
    ``dim``."""
    mask = torch.zeros_like(t)
    region = [slice(None)] * len(t.shape)
    region[dim] = channels
    mask[tuple(region)] = 1
    return mask


def _norm_per_channel(t, n, dim):
    """The ``n``-norm of each slice of ``t`` along ``dim`` (over all other dims)."""
    dims = list(range(t.dim()))
    dims.remove(dims[dim])
    return torch.norm(t, p=n, dim=dims)


def identity(module, name):
    """Reparametrise ``module.<name>`` as pruned by an all-ones mask; returns ``module``.

    Examples::

        >>> from torch.nn.utils import prune
        >>> m = prune.identity(torch.nn.Linear(2, 3), "weight")
        >>> m.weight_mask
        tensor([[1., 1.],
                [1., 1.],
                [1., 1.]])
    """
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    """Prune ``amount`` (count, or fraction in [0, 1]) entries of ``module.<name>`` chosen
    at random; returns ``module``."""
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    """Prune the ``amount`` entries of ``module.<name>`` of smallest absolute value (of
    ``importance_scores`` when given); returns ``module``.

    Examples::

        >>> from torch.nn.utils import prune
        >>> m = torch.nn.Linear(4, 2)
        >>> m = prune.l1_unstructured(m, "weight", amount=0.5)
        >>> int(m.weight_mask.sum())
        4
    """
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    """Prune ``amount`` random channels of ``module.<name>`` along ``dim``; returns
    ``module``."""
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    """Prune the ``amount`` channels of ``module.<name>`` along ``dim`` with the smallest
    ``n``-norm; returns ``module``."""
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    """Prune the ``(module, name)`` pairs of ``parameters`` together, as one flat tensor,
    with an unstructured ``pruning_method`` class (e.g. ``L1Unstructured``, with its
    arguments as ``kwargs``); ``importance_scores`` maps pairs to score tensors."""
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    parameters = list(parameters)
    flat = torch.nn.utils.parameters_to_vector
    scores = flat(
        [
            importance_scores.get((module, name), getattr(module, name))
            for module, name in parameters
        ]
    )
    earlier_masks = flat(
        [
            getattr(module, name + "_mask", torch.ones_like(getattr(module, name)))
            for module, name in parameters
        ]
    )
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError(
            'Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found '
            f"method {pruning_method} of type {method.PRUNING_TYPE}"
        )
    container.add_pruning_method(method)
    final_mask = container.compute_mask(scores, earlier_masks)
    start = 0
    for module, name in parameters:
        param = getattr(module, name)
        size = param.numel()
        custom_from_mask(module, name, mask=final_mask[start : start + size].view_as(param))
        start += size


def custom_from_mask(module, name, mask):
    """Prune ``module.<name>`` where ``mask`` is zero; returns ``module``."""
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module, name):
    """Make the pruning of ``module.<name>`` permanent (drop ``<name>_orig``,
    ``<name>_mask`` and the hook); returns ``module``."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(
        f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed"
    )


def is_pruned(module) -> bool:
    """Whether ``module`` or any submodule carries a pruning hook."""
    return any(
        isinstance(hook, BasePruningMethod)
        for _, sub in module.named_modules()
        for hook in sub._forward_pre_hooks.values()
    )


def _validate_pruning_amount_init(amount) -> None:
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    is_count = isinstance(amount, numbers.Integral)
    if (is_count and amount < 0) or (not is_count and not 0.0 <= float(amount) <= 1.0):
        raise ValueError(
            f"amount={amount} should either be a float in the range [0, 1] or a "
            "non-negative integer"
        )


def _count_to_prune(amount, size: int) -> int:
    """How many of ``size`` units ``amount`` prunes (checked against ``size``)."""
    if isinstance(amount, numbers.Integral):
        if amount > size:
            raise ValueError(
                f"amount={amount} should be smaller than the number of parameters to prune={size}"
            )
        return amount
    return round(amount * size)


def _validate_structured_pruning(t) -> None:
    if len(t.shape) <= 1:
        raise ValueError(
            "Structured pruning can only be applied to multidimensional tensors. Found "
            f"tensor of shape {t.shape} with {len(t.shape)} dims"
        )


def _validate_pruning_dim(t, dim) -> None:
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")
