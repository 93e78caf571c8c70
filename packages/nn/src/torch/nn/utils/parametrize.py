"""Parametrizations: a module attribute (``weight``) computed on every access by a chain
of modules from stored tensors (``parametrizations.weight.original``).

:func:`register_parametrization` moves the tensor into a :class:`ParametrizationList`
under ``module.parametrizations[name]``, gives the module a subclass whose ``name``
property runs the chain, and (for parametrizations with ``right_inverse``) lets
assignments to ``module.<name>`` store the preimage. :func:`remove_parametrizations`
undoes it. The state_dict layout is PyTorch's: ``parametrizations.<name>.original``, or
``original0``, ``original1``, ... when ``right_inverse`` returns several tensors.
"""

from __future__ import annotations

import collections.abc
import copy
import copyreg
from contextlib import contextmanager

import torch

from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter

__all__ = [
    "cached",
    "ParametrizationList",
    "register_parametrization",
    "is_parametrized",
    "remove_parametrizations",
    "type_before_parametrizations",
    "transfer_parametrizations_and_params",
]

# -------------------------------------------------------------------- the cache

_cache_depth = 0
_cache: dict = {}


@contextmanager
def cached():
    """Within this context, each parametrized tensor is computed once (on first access)
    and reused; the cache is dropped when the outermost context exits.

    Examples::

        >>> from torch.nn.utils import parametrize
        >>> class Double(nn.Module):
        ...     def forward(self, X):
        ...         return 2 * X
        >>> m = parametrize.register_parametrization(nn.Linear(2, 2), "weight", Double())
        >>> with parametrize.cached():
        ...     m.weight is m.weight
        True
    """
    global _cache_depth
    _cache_depth += 1
    try:
        yield
    finally:
        _cache_depth -= 1
        if not _cache_depth:
            _cache.clear()


# ------------------------------------------------------------------- helpers


def _store(module: Module, name: str, tensor) -> None:
    """Register ``tensor`` on ``module`` as a parameter if it is one, else a buffer."""
    if isinstance(tensor, Parameter):
        module.register_parameter(name, tensor)
    else:
        module.register_buffer(name, tensor)


def _assign_in_place(target: torch.Tensor, value: torch.Tensor) -> None:
    """Make ``target`` hold ``value``'s data, keeping the object (and its identity for
    optimizers), as ``Tensor.set_`` does."""
    with torch.no_grad():
        target.set_(value.detach() if value is not target else value)


def _check_output(result, shape, dtype, unsafe: bool) -> None:
    if unsafe:
        return
    if not isinstance(result, torch.Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(result).__name__}.")
    if result.dtype != dtype:
        raise ValueError(
            "Registering a parametrization may not change the dtype of the tensor, unless "
            f"`unsafe` flag is enabled.\nunparametrized dtype: {dtype}\n"
            f"parametrized dtype: {result.dtype}"
        )
    if result.shape != shape:
        raise ValueError(
            "Registering a parametrization may not change the shape of the tensor, unless "
            f"`unsafe` flag is enabled.\nunparametrized shape: {shape}\n"
            f"parametrized shape: {result.shape}"
        )


# -------------------------------------------------------- the parametrization chain


class ParametrizationList(ModuleList):
    """The chain of parametrizations of one tensor, holding the stored tensor(s).

    Calling it evaluates ``self[-1](...self[1](self[0](original)))``. With a single
    stored tensor it is ``original``; when the first parametrization's ``right_inverse``
    returns a sequence, they are ``original0``, ``original1``, ... and the first
    parametrization takes them all as arguments. Made by
    :func:`register_parametrization`, not by hand.

    Args:
        modules (sequence of Module): the parametrizations, applied in order.
        original (Tensor): the parameter or buffer being parametrized. It keeps its
            identity: with a single stored tensor, ``original`` is this very object,
            set to the preimage given by the ``right_inverse`` methods.
        unsafe (bool): skip the checks that the chain keeps the shape and dtype.
            Default: ``False``.
    """

    def __init__(self, modules, original: torch.Tensor, unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        shape, dtype = original.shape, original.dtype
        # the stored value is the preimage of ``original`` through the chain (the
        # parametrizations without ``right_inverse`` count as the identity)
        with torch.no_grad():
            preimage = original
            for parametrization in reversed(self):
                inverse = getattr(parametrization, "right_inverse", None)
                if inverse is None:
                    continue
                try:
                    preimage = inverse(preimage)
                except NotImplementedError:
                    pass
        if not isinstance(preimage, (torch.Tensor, collections.abc.Sequence)):
            raise ValueError(
                "'right_inverse' must return a Tensor or a Sequence of tensors "
                f"(list, tuple...). Got {type(preimage).__name__}"
            )
        self.is_tensor = isinstance(preimage, torch.Tensor)
        self.ntensors = 1 if self.is_tensor else len(preimage)
        if self.is_tensor:
            if preimage.dtype != dtype:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {dtype}\nright_inverse(original).dtype: {preimage.dtype}"
                )
            if preimage.shape != shape:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the shape.\n"
                    f"original.shape: {shape}\nright_inverse(original).shape: {preimage.shape}"
                )
            _assign_in_place(original, preimage)
            _store(self, "original", original)
        else:
            for index, tensor in enumerate(preimage):
                if not isinstance(tensor, torch.Tensor):
                    raise ValueError(
                        "'right_inverse' must return a sequence of tensors. Got "
                        f"{type(tensor).__name__}."
                    )
                if isinstance(original, Parameter):
                    tensor = Parameter(tensor.detach(), original.requires_grad)
                else:
                    tensor = tensor.detach().requires_grad_(original.requires_grad)
                _store(self, f"original{index}", tensor)
        with torch.no_grad():
            _check_output(self(), shape, dtype, self.unsafe)

    def right_inverse(self, value: torch.Tensor) -> None:
        """Store the preimage of ``value`` through the chain (what assigning to the
        parametrized attribute does); every parametrization needs ``right_inverse``."""
        with torch.no_grad():
            for parametrization in reversed(self):
                inverse = getattr(parametrization, "right_inverse", None)
                if inverse is None:
                    raise RuntimeError(
                        f"parametrization {type(parametrization).__name__} does not "
                        "implement right_inverse."
                    )
                value = inverse(value)
            if self.is_tensor:
                if not isinstance(value, torch.Tensor):
                    raise ValueError(
                        f"`right_inverse` should return a tensor. Got {type(value).__name__}"
                    )
                original = self.original
                if value.dtype != original.dtype:
                    raise ValueError(
                        f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                        f"while `original` has dtype {original.dtype}"
                    )
                _assign_in_place(original, value)
            else:
                if not isinstance(value, collections.abc.Sequence):
                    raise ValueError(
                        "'right_inverse' must return a sequence of tensors. Got "
                        f"{type(value).__name__}."
                    )
                if len(value) != self.ntensors:
                    raise ValueError(
                        "'right_inverse' must return a sequence of tensors of length "
                        f"{self.ntensors}. Got a sequence of length {len(value)}."
                    )
                for index, tensor in enumerate(value):
                    _assign_in_place(getattr(self, f"original{index}"), tensor)

    def forward(self):
        if self.is_tensor:
            result = self[0](self.original)
        else:
            stored = [getattr(self, f"original{i}") for i in range(self.ntensors)]
            result = self[0](*stored)
        for parametrization in list(self)[1:]:
            result = parametrization(result)
        return result


# ------------------------------------------------------- the module-side plumbing


def _serialization_refused(self):
    raise RuntimeError(
        "Serialization of parametrized modules is only supported through state_dict(). "
        "See:\nhttps://pytorch.org/tutorials/beginner/saving_loading_models.html"
        "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training"
    )


def _copy_parametrized(self, memo):
    # a deep copy keeps the per-instance class (its properties) and copies the state
    if id(self) in memo:
        return memo[id(self)]
    replica = self.__new__(type(self))
    memo[id(self)] = replica
    replica.__dict__ = copy.deepcopy(self.__dict__, memo)
    for slot in copyreg._slotnames(type(self)):
        if hasattr(self, slot):
            setattr(replica, slot, copy.deepcopy(getattr(self, slot), memo))
    return replica


def _give_parametrized_class(module: Module) -> None:
    """Swap the module's class for a subclass of its own, which will hold the
    properties of the parametrized tensors (one such class per module)."""
    cls = type(module)
    namespace = {"__getstate__": _serialization_refused}
    if not hasattr(cls, "__deepcopy__"):
        namespace["__deepcopy__"] = _copy_parametrized
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), namespace)


def _add_property(module: Module, name: str) -> None:
    def compute(self):
        chain = self.parametrizations[name]
        if not _cache_depth:
            return chain()
        key = (id(self), name)
        value = _cache.get(key)
        if value is None:
            value = _cache[key] = chain()
        return value

    def assign(self, value) -> None:
        self.parametrizations[name].right_inverse(value)

    setattr(type(module), name, property(compute, assign))


# ------------------------------------------------------------------ public API


def register_parametrization(
    module: Module, tensor_name: str, parametrization: Module, *, unsafe: bool = False
) -> Module:
    """Make ``module.<tensor_name>`` be ``parametrization(original)``, recomputed on each
    access; registering again on the same name chains the new parametrization after the
    previous ones.

    If ``parametrization`` has a ``right_inverse(X)`` method, the stored tensor is
    initialised to ``right_inverse(current value)`` (so the attribute keeps its value
    when the parametrization is surjective), and assigning to ``module.<tensor_name>``
    stores ``right_inverse(value)``. ``right_inverse`` may return several tensors; they
    are stored as ``original0``, ``original1``, ... and passed to ``forward`` in order.

    Args:
        module (Module): the module owning the tensor.
        tensor_name (str): the name of a parameter or buffer of ``module`` (or of an
            already parametrized tensor).
        parametrization (Module): maps the stored tensor(s) to the attribute's value.
        unsafe (bool): allow the parametrization to change the shape or dtype (the
            consistency checks are skipped). Default: ``False``.

    Returns:
        Module: ``module``, now of class ``Parametrized<ClassName>``.

    Raises:
        ValueError: ``module`` has no parameter, buffer or parametrized tensor of that
            name, or the parametrization changes its shape or dtype without ``unsafe``.

    Examples::

        >>> from torch.nn.utils import parametrize
        >>> class Symmetric(nn.Module):
        ...     def forward(self, X):
        ...         return X.triu() + X.triu(1).mT
        >>> m = parametrize.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
        >>> torch.equal(m.weight, m.weight.mT)
        True
        >>> list(m.state_dict())
        ['bias', 'parametrizations.weight.original']
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            current = getattr(module, tensor_name)
            result = parametrization(current)
            _check_chained(tensor_name, current, result)
            inverse = getattr(parametrization, "right_inverse", None)
            if inverse is not None:
                preimage = inverse(result)
                _check_chained_inverse(tensor_name, current, preimage)
        chain = module.parametrizations[tensor_name]
        chain.append(parametrization)
        chain.unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        chain = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _give_parametrized_class(module)
            module.parametrizations = ModuleDict()
        module.parametrizations[tensor_name] = chain
        _add_property(module, tensor_name)
    else:
        raise ValueError(
            f"Module '{module}' does not have a parameter, a buffer, or a parametrized "
            f"element with name '{tensor_name}'"
        )
    return module


def _check_dtype_and_shape(current, other, message) -> None:
    """Raise ``ValueError(message(attribute, current's, other's))`` for the first of dtype
    and shape in which the tensor ``other`` differs from ``current``."""
    for attribute in ("dtype", "shape"):
        expected, got = getattr(current, attribute), getattr(other, attribute)
        if got != expected:
            raise ValueError(message(attribute, expected, got))


def _check_chained(name: str, current, result) -> None:
    if not isinstance(result, torch.Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(result).__name__}.")
    _check_dtype_and_shape(
        current,
        result,
        lambda attribute, expected, got: (
            f"Registering a parametrization may not change the {attribute} of the tensor, "
            f"unless the `unsafe` flag is enabled.\nmodule.{name}.{attribute}: {expected}\n"
            f"parametrization(module.{name}).{attribute}: {got}"
        ),
    )


def _check_chained_inverse(name: str, current, preimage) -> None:
    if not isinstance(preimage, torch.Tensor):
        raise ValueError(
            f"parametrization.right_inverse must return a tensor. Got: {type(preimage).__name__}"
        )
    _check_dtype_and_shape(
        current,
        preimage,
        lambda attribute, expected, got: (
            "The tensor returned by parametrization.right_inverse must have the same "
            f"{attribute} as module.{name}, unless the `unsafe` flag is enabled.\n"
            f"module.{name}.{attribute}: {expected}\nreturned {attribute}: {got}"
        ),
    )


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has any parametrization, or one on ``tensor_name``.

    Args:
        module (Module): the module to look at.
        tensor_name (str, optional): a tensor name. Default: ``None`` (any).
    """
    chains = getattr(module, "parametrizations", None)
    if chains is None or not isinstance(chains, ModuleDict):
        return False
    if tensor_name is None:
        return len(chains) > 0
    return tensor_name in chains


def remove_parametrizations(
    module: Module, tensor_name: str, leave_parametrized: bool = True
) -> Module:
    """Undo :func:`register_parametrization` on ``tensor_name``: it becomes a plain
    parameter (or buffer) again, holding the current parametrized value
    (``leave_parametrized=True``) or the stored ``original``. With a single stored
    tensor, that tensor object is kept (optimizers holding it keep working). When no
    parametrization is left, the module gets its original class back.

    Args:
        module (Module): the parametrized module.
        tensor_name (str): the parametrized tensor.
        leave_parametrized (bool): keep the parametrized value rather than the stored
            one. Default: ``True``.

    Returns:
        Module: ``module``.

    Raises:
        ValueError: ``tensor_name`` is not parametrized, or ``leave_parametrized=False``
            for a tensor stored as several tensors.
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    chain = module.parametrizations[tensor_name]
    if chain.is_tensor:
        original = chain.original
        if leave_parametrized:
            with torch.no_grad():
                value = getattr(module, tensor_name)
            _assign_in_place(original, value)
    else:
        if not leave_parametrized:
            raise ValueError(
                "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                "parametrized in terms of a sequence of tensors."
            )
        value = getattr(module, tensor_name)
        if value.requires_grad:
            original = Parameter(value.detach(), True)
        else:
            original = value.detach()
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    _store(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = type(module).__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class as it was before any parametrization was registered."""
    if is_parametrized(module):
        return type(module).__bases__[0]
    return type(module)


def transfer_parametrizations_and_params(
    from_module: Module, to_module: Module, tensor_name: str | None = None
) -> Module:
    """Copy the parametrizations of ``from_module`` (all, or those of ``tensor_name``)
    onto ``to_module``, together with the stored tensors.

    Args:
        from_module (Module): the parametrized module.
        to_module (Module): the module receiving them.
        tensor_name (str, optional): only this tensor. Default: ``None`` (all).

    Returns:
        Module: ``to_module``.
    """
    if not is_parametrized(from_module):
        return to_module
    names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
    for name in names:
        source = from_module.parametrizations[name]
        if not hasattr(to_module, name):
            stored = source.original if source.is_tensor else getattr(from_module, name)
            to_module.register_parameter(name, Parameter(stored.detach().clone()))
        for parametrization in source:
            register_parametrization(to_module, name, parametrization, unsafe=source.unsafe)
        target = to_module.parametrizations[name]
        with torch.no_grad():
            if source.is_tensor:
                _assign_in_place(target.original, source.original.clone())
            else:
                for i in range(source.ntensors):
                    stored = getattr(source, f"original{i}")
                    _assign_in_place(getattr(target, f"original{i}"), stored.clone())
    return to_module
