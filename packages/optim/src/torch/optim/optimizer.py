"""The ``Optimizer`` base: parameter groups with per-group options, per-parameter state,
``state_dict``/``load_state_dict`` and step hooks."""

from __future__ import annotations

import copy
import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from itertools import chain
from typing import Any, TypeAlias

import torch
from torch._interface import optim as native_optim
from torch.utils.hooks import RemovableHandle

from . import _fused
from ._common import check_option, expand_doc

__all__ = [
    "Optimizer",
    "required",
    "register_optimizer_step_pre_hook",
    "register_optimizer_step_post_hook",
]


# The type aliases PyTorch's optimizers annotate with (libraries import them from here,
# e.g. ``ParamsT`` for an optimizer's ``params`` argument).
Args: TypeAlias = tuple[Any, ...]
Kwargs: TypeAlias = dict[str, Any]
StateDict: TypeAlias = dict[str, Any]
Indices: TypeAlias = list[int]
TensorListList: TypeAlias = list[list[torch.Tensor | None]]
DeviceDict: TypeAlias = dict[torch.device | None, torch.Tensor]
DeviceDtypeDict: TypeAlias = dict[tuple[torch.device, torch.dtype] | None, torch.Tensor]
ParamsT: TypeAlias = (
    Iterable[torch.Tensor] | Iterable[dict[str, Any]] | Iterable[tuple[str, torch.Tensor]]
)
GlobalOptimizerPreHook: TypeAlias = Callable[
    ["Optimizer", Args, Kwargs], tuple[Args, Kwargs] | None
]
GlobalOptimizerPostHook: TypeAlias = Callable[["Optimizer", Args, Kwargs], None]


class _Required:
    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()

_global_step_pre_hooks: OrderedDict = OrderedDict()
_global_step_post_hooks: OrderedDict = OrderedDict()


def _add_hook(hooks: OrderedDict, hook, prepend: bool = False) -> RemovableHandle:
    """Put ``hook`` in ``hooks`` (first when ``prepend``); its handle removes it."""
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def register_optimizer_step_pre_hook(hook) -> RemovableHandle:
    """Register ``hook(optimizer, args, kwargs)`` to run before every optimizer's ``step``.

    It may return ``None`` or a new ``(args, kwargs)`` pair for ``step``.

    Examples::

        >>> from torch.optim.optimizer import register_optimizer_step_pre_hook
        >>> handle = register_optimizer_step_pre_hook(lambda opt, args, kwargs: None)
        >>> handle.remove()
    """
    return _add_hook(_global_step_pre_hooks, hook)


def register_optimizer_step_post_hook(hook) -> RemovableHandle:
    """Register ``hook(optimizer, args, kwargs)`` to run after every optimizer's ``step``.

    Examples::

        >>> from torch.optim.optimizer import register_optimizer_step_post_hook
        >>> handle = register_optimizer_step_post_hook(lambda opt, args, kwargs: None)
        >>> handle.remove()
    """
    return _add_hook(_global_step_post_hooks, hook)


def _with_step_hooks(step):
    """Wrap a subclass's ``step`` so that the global and per-instance hooks run around it."""

    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        for hook in chain(_global_step_pre_hooks.values(), self._optimizer_step_pre_hooks.values()):
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(
                        f"{step} must return None or a tuple of (new_args, new_kwargs), "
                        f"but got {result}."
                    )
                args, kwargs = result
        out = step(self, *args, **kwargs)
        for hook in chain(
            self._optimizer_step_post_hooks.values(), _global_step_post_hooks.values()
        ):
            hook(self, args, kwargs)
        return out

    wrapper._hooked = True
    return wrapper


def _typename(value) -> str:
    if isinstance(value, torch.Tensor):
        return value.type()
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"


def _cast_state_value(param, value, key):
    """A loaded state value moved to the parameter's device, and to its dtype when the
    parameter is floating point (``step`` counters keep their own dtype)."""
    if isinstance(value, torch.Tensor):
        if key == "step":
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)
    if isinstance(value, dict):
        return {k: _cast_state_value(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_state_value(param, v, key) for v in value)
    return value


class Optimizer:
    """Base of all optimizers.

    Args:
        params (iterable): tensors to optimize, ``(name, tensor)`` pairs, or dicts
            defining parameter groups (``{"params": [...], "lr": 0.1}``) whose options
            override ``defaults``.
        defaults (dict): the default value of each option.

    Examples::

        >>> w, b = torch.zeros(2), torch.zeros(1)
        >>> opt = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1)
        >>> [group["lr"] for group in opt.param_groups]
        [0.1, 0.5]
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__doc__" in cls.__dict__:
            cls.__doc__ = expand_doc(cls.__doc__)
        step = cls.__dict__.get("step")
        if step is not None and not getattr(step, "_hooked", False):
            cls.step = _with_step_hooks(step)

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict = OrderedDict()
        self._state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._state_dict_post_hooks: OrderedDict = OrderedDict()
        self._load_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._load_state_dict_post_hooks: OrderedDict = OrderedDict()
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict] = []
        if isinstance(params, torch.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of "
                f"Tensors or dicts, but got {_typename(params)}"
            )
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    #: the options of a parameter group, in PyTorch's order of its keys
    _group_keys: str = ""
    #: options that pickles of older versions lack, and the value they get on loading
    _unpickled_defaults: dict = {}

    def _take_options(self, params, values: dict, checked: str) -> None:
        """The ``__init__`` of an algorithm: refuse bad values of the options ``checked``
        (space-separated, in PyTorch's order; see :func:`._common.check_option`), then take
        ``values`` (the ``__init__``'s locals) of the :attr:`_group_keys` as the defaults."""
        for name in checked.split():
            if values[name] is not required:
                check_option(name, values[name], values)
        Optimizer.__init__(self, params, {key: values[key] for key in self._group_keys.split()})

    # ------------------------------------------------------------------ groups

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own options (e.g. a layer fine-tuned with
        another learning rate); options it leaves out take the optimizer's defaults.

        Args:
            param_group (dict): ``{"params": tensors, option: value, ...}``.

        Examples::

            >>> opt = torch.optim.SGD([torch.zeros(2)], lr=0.1)
            >>> opt.add_param_group({"params": [torch.zeros(3)], "momentum": 0.9})
            >>> opt.param_groups[1]["lr"], opt.param_groups[1]["momentum"]
            (0.1, 0.9)
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        group = dict(param_group)
        group["params"], names = self._split_names(param_group["params"])
        if names:
            group["param_names"] = names
        self._check_params(group["params"])
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(
                    "parameter group didn't specify a value of required "
                    f"optimization parameter {name}"
                )
            group.setdefault(name, default)
        if len({id(p) for p in group["params"]}) != len(group["params"]):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, "
                "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for "
                "more information",
                UserWarning,
                stacklevel=3,
            )
        existing = {id(p) for g in self.param_groups for p in g["params"]}
        for g in self.param_groups:
            if ("param_names" in g) != ("param_names" in group):
                raise ValueError(
                    "all optimizer param groups should be with/without names. cannot add "
                    f"param group {'with' if names else 'without'} names to the optimizer"
                )
        if any(id(p) in existing for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    @staticmethod
    def _split_names(params):
        if isinstance(params, torch.Tensor):
            return [params], []
        if isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list "
                "instead."
            )
        params = list(params)
        named = [p for p in params if isinstance(p, tuple)]
        if not named:
            return params, []
        if len(named) != len(params):
            raise ValueError(
                "all optimizer params should be with/without names. Some param names are missing"
            )
        return [p for _, p in named], [n for n, _ in named]

    def _check_params(self, params) -> None:
        for p in params:
            if not isinstance(p, torch.Tensor):
                raise TypeError(
                    f"optimizer can only optimize Tensors, but one of the params is {_typename(p)}"
                )
            if not self.defaults.get("differentiable", False) and not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")

    # ------------------------------------------------------------------ gradients

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors.

        Args:
            set_to_none (bool): drop the gradients (``p.grad = None``) instead of filling
                them with zeros in place. Default: ``True``.

        Examples::

            >>> w = torch.zeros(2)
            >>> w.grad = torch.ones(2)
            >>> opt = torch.optim.SGD([w], lr=0.1)
            >>> opt.zero_grad(set_to_none=False); w.grad
            tensor([0., 0.])
            >>> opt.zero_grad(); w.grad is None
            True
        """
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    grad = p.grad
                    if grad.grad_fn is not None:
                        grad = p.grad = grad.detach()
                    if grad.is_sparse:  # no entries left, as PyTorch's sparse zero_()
                        grad.zero_()
                    else:
                        grad.copy_(torch.zeros((), dtype=grad.dtype))

    # ------------------------------------------------------------------ the driver
    # An algorithm declares what differs from one optimizer to the next; the loop below
    # (gather the parameters with gradients, create their state, count the step, batch
    # them for the native kernel or update them one by one with tensor ops, count the
    # kernels' writes on the version counters) is written once, here.

    #: per-parameter state (:class:`._common.State`), created at a parameter's first step
    _state_spec: tuple = ()
    #: whether ``state["step"]`` is counted for every parameter before the updates
    _counts_steps: bool = True
    #: the error for a sparse gradient (``{name}``: the class); None: sparse is fine
    _sparse_error: str | None = "{name} does not support sparse gradients"
    #: the struct of ``torch._interface.optim`` that :meth:`_native` builds; None: no kernel
    _kernel = None

    def _scalars(self, p, state, group):
        """The Python numbers of one parameter's update this step (shared by both
        implementations); called once per parameter and step, after the counting."""
        return None

    def _reference(self, p, state, group, scalars) -> None:
        """The update of one parameter in public tensor ops: the oracle of the native
        kernel, and the path of whatever the kernel cannot serve."""
        raise NotImplementedError

    #: the state keys the native kernel reads, after the parameters and gradients (an
    #: algorithm whose keys depend on the group's options overrides :meth:`_kernel_state`)
    _kernel_state_keys: tuple = ()

    def _kernel_state(self, group) -> tuple:
        """The state keys the native kernel reads, after the parameters and gradients."""
        return self._kernel_state_keys

    def _native(self, group, columns, scalars):
        """The :attr:`_kernel` struct updating ``columns`` (flat arrays of parameters,
        gradients, then each :meth:`_kernel_state` key) with the per-parameter
        ``scalars``."""
        raise NotImplementedError

    def _writes(self, group, scalars) -> tuple:
        """``(state key or None for the parameter, count)`` of the in-place writes
        PyTorch's update makes, which the kernel's writes are counted as; ``scalars`` is
        None (the same for every parameter of the group) unless
        :attr:`_writes_per_parameter`."""
        return ()

    #: whether :meth:`_writes` depends on each parameter's scalars
    _writes_per_parameter: bool = False

    def _finish(self, states, group) -> None:
        """Work after a group's update (e.g. the next step's scalar state)."""

    def _with_grads(self, group) -> list:
        params = [p for p in group["params"] if p.grad is not None]
        if self._sparse_error is not None:
            for p in params:
                if getattr(p.grad, "is_sparse", False):
                    raise RuntimeError(self._sparse_error.format(name=type(self).__name__))
        return params

    def _state_of(self, p, group) -> dict:
        state = self.state[p]
        if not state:
            for spec in self._state_spec:
                if spec.when is None or group[spec.when]:
                    state[spec.name] = spec.init(p, group)
        return state

    @torch.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient.

        Args:
            closure (callable, optional): re-evaluates the model and returns the loss,
                which ``step`` returns.
        """
        if type(self)._reference is Optimizer._reference:
            raise NotImplementedError
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            params = self._with_grads(group)
            state_of = self._state_of
            states = [state_of(p, group) for p in params]
            if self._counts_steps:
                for state in states:
                    state["step"] += 1
            if type(self)._scalars is Optimizer._scalars:
                scalars = [None] * len(params)
            else:
                scalars = [self._scalars(p, s, group) for p, s in zip(params, states)]
            self._update(group, params, states, scalars)
            self._finish(states, group)
        return loss

    def _update(self, group, params, states, scalars) -> None:
        rest = range(len(params))
        if self._kernel is not None:
            names = self._kernel_state(group)
            batches, rest = _fused.batches(params, states, names)
            writes = None if self._writes_per_parameter else self._writes(group, None)
            for chosen, columns in batches:
                chosen_scalars = [scalars[i] for i in chosen]
                written = [
                    (params[i] if name is None else states[i][name], times)
                    for i, s in zip(chosen, chosen_scalars)
                    for name, times in (writes or self._writes(group, s))
                ]
                native_optim.run(self._native(group, columns, chosen_scalars), written)
        for i in rest:
            self._reference(params[i], states[i], group, scalars[i])

    @staticmethod
    def _eval_closure(closure):
        """The closure's loss, evaluated with gradients enabled (``None`` without one)."""
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()

    # ------------------------------------------------------------------ hooks

    def register_step_pre_hook(self, hook) -> RemovableHandle:
        """Run ``hook(optimizer, args, kwargs)`` before each ``step`` of this optimizer;
        it may return a new ``(args, kwargs)``.

        Examples::

            >>> opt = torch.optim.SGD([torch.zeros(1)], lr=0.1)
            >>> calls = []
            >>> handle = opt.register_step_pre_hook(lambda o, a, k: calls.append("pre"))
            >>> opt.step(); calls
            ['pre']
            >>> handle.remove()
        """
        return _add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook) -> RemovableHandle:
        """Run ``hook(optimizer, args, kwargs)`` after each ``step`` of this optimizer.

        Examples::

            >>> opt = torch.optim.SGD([torch.zeros(1)], lr=0.1)
            >>> handle = opt.register_step_post_hook(lambda o, a, k: print("stepped"))
            >>> opt.step()
            stepped
        """
        return _add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Run ``hook(optimizer)`` before :meth:`state_dict` builds its result."""
        return _add_hook(self._state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Run ``hook(optimizer, state_dict)`` on :meth:`state_dict`'s result; a returned
        dict replaces it."""
        return _add_hook(self._state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Run ``hook(optimizer, state_dict)`` before loading; a returned dict is loaded
        instead."""
        return _add_hook(self._load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Run ``hook(optimizer)`` after :meth:`load_state_dict`."""
        return _add_hook(self._load_state_dict_post_hooks, hook, prepend)

    # ------------------------------------------------------------------ state dict

    def state_dict(self) -> dict:
        """The optimizer's state and options, parameters replaced by their index (in the
        order of the groups): ``{"state": {index: {...}}, "param_groups": [...]}``.

        Examples::

            >>> w = torch.zeros(2)
            >>> w.grad = torch.ones(2)
            >>> opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
            >>> opt.step()
            >>> sd = opt.state_dict()
            >>> sd["param_groups"][0]["params"], list(sd["state"][0])
            ([0], ['momentum_buffer'])
        """
        for hook in self._state_dict_pre_hooks.values():
            hook(self)
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: v for p, v in self.state.items() if id(p) in index}
        result = {"state": state, "param_groups": groups}
        for hook in self._state_dict_post_hooks.values():
            replaced = hook(self, result)
            if replaced is not None:
                result = replaced
        return result

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore options and state saved by :meth:`state_dict` onto this optimizer's
        parameters (matched by position); floating state follows each parameter's
        dtype and device.

        Args:
            state_dict (dict): a result of :meth:`state_dict`.

        Examples::

            >>> w = torch.zeros(2)
            >>> w.grad = torch.ones(2)
            >>> opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
            >>> opt.step()
            >>> fresh = torch.optim.SGD([torch.zeros(2, dtype=torch.float64)], lr=0.5)
            >>> fresh.load_state_dict(opt.state_dict())
            >>> fresh.param_groups[0]["lr"], fresh.state[fresh.param_groups[0]["params"][0]]
            (0.1, {'momentum_buffer': tensor([1., 1.], dtype=torch.float64)})
        """
        state_dict = state_dict.copy()
        for hook in self._load_state_dict_pre_hooks.values():
            replaced = hook(self, state_dict)
            if replaced is not None:
                state_dict = replaced
        groups = self.param_groups
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size "
                "of optimizer's group"
            )
        id_map = dict(
            zip(
                chain.from_iterable(s["params"] for s in saved_groups),
                chain.from_iterable(g["params"] for g in groups),
            )
        )
        state: defaultdict = defaultdict(dict)
        # as in PyTorch, tensors already of the parameter's dtype and device are taken
        # as they are (the loaded state shares them with ``state_dict``): not copied
        for key, value in state_dict["state"].items():
            if key in id_map:
                param = id_map[key]
                state[param] = _cast_state_value(param, value, None)
            else:
                state[key] = value
        new_groups = []
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
            new_groups.append(saved)
        self.state = state
        self.param_groups = new_groups
        for hook in self._load_state_dict_post_hooks.values():
            hook(self)

    def __getstate__(self) -> dict:
        return {
            "defaults": self.defaults,
            "state": self.state,
            "param_groups": self.param_groups,
        }

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        for name in (
            "_optimizer_step_pre_hooks",
            "_optimizer_step_post_hooks",
            "_state_dict_pre_hooks",
            "_state_dict_post_hooks",
            "_load_state_dict_pre_hooks",
            "_load_state_dict_post_hooks",
        ):
            self.__dict__.setdefault(name, OrderedDict())
        for group in self.param_groups:
            for key, value in self._unpickled_defaults.items():
                group.setdefault(key, value)

    def __repr__(self) -> str:
        # each group's block ends with a newline and the next begins with one (a blank line
        # between groups, none before the closing parenthesis), as PyTorch prints
        blocks = []
        for i, group in enumerate(self.param_groups):
            options = "".join(
                f"    {key}: {group[key]}\n" for key in sorted(k for k in group if k != "params")
            )
            blocks.append(f"\nParameter Group {i}\n{options}")
        return self.__class__.__name__ + " (" + "".join(blocks) + ")"


# the driver's step runs the global and per-instance hooks as subclasses' own steps do
Optimizer.step = _with_step_hooks(Optimizer.step)
