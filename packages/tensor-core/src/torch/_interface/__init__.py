"""The extension API of torch-core: everything a sibling package touches of the core.

Sibling wheels (autograd, nn, optim, multiprocessing, ...) import this module and
nothing else that is private to core. It holds:

- ``CORE_API``: the version of this interface as ``(major, minor)``. A sibling checks
  the major number it was written for; minor bumps only add.
- the op registry: one :class:`OpDef` per core op, from which ``torch.*`` functions and
  ``Tensor`` methods are bound.
- the grad-engine hook: :class:`GradEngine`, an ABC with a no-op default, whose real
  implementation torch-autograd advertises under the entry-point group
  ``torch.grad_engine`` and core loads lazily, the first time it is needed.
- submodules for the other contracts: :mod:`.sharing` (the shared-memory protocol of
  multiprocessing and data loading) and :mod:`.pickling` (how siblings' classes appear in
  checkpoints).
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from .._siblings import install_hint

__all__ = [
    "CORE_API",
    "OpDef",
    "OpRegistry",
    "ops",
    "GradEngine",
    "NoOpGradEngine",
    "GRAD_ENGINE_GROUP",
    "get_grad_engine",
    "set_grad_engine",
    "require_core_api",
    "array_kernels",
]

# 0.6: calls and tracing (op-call interception), native tensor readers, the cuda runtime
# 0.7: device storages between processes (sharing), post-accumulate-grad hooks
# (GradEngine.register_post_accumulate_grad_hook), the device kernels' backend hooks
CORE_API: tuple[int, int] = (0, 7)


def require_core_api(major: int, minor: int, who: str) -> None:
    """Raise ImportError when the installed core cannot serve a sibling written for
    interface version ``(major, minor)``."""
    if CORE_API[0] != major or CORE_API[1] < minor:
        raise ImportError(
            f"{who} needs torch-core's extension API {major}.{minor}, but the installed "
            f"torch-core provides {CORE_API[0]}.{CORE_API[1]}; install a torch-core "
            f"version within {who}'s declared range"
        )


# --------------------------------------------------------------------------- op registry


@dataclass(eq=False)
class OpDef:
    """One core op: its name, signature, kernels per device type, and flags.

    Args:
        name: the public name (``"add"``), also the key of its derivative entry.
        signature: PyTorch-style schema string, for documentation and error messages.
        kernels: device type (``"cpu"``, ``"cuda"``) -> kernel callable.
        family: op family (``"pointwise"``, ``"reduction"``, ...), shared with the
            derivative tables of torch-autograd.
        differentiable: whether torch-autograd must provide a formula.
        inplace: whether the op writes into its first argument.
        view: whether the result shares storage with the first argument.
    """

    name: str
    signature: str
    kernels: dict[str, Callable[..., Any]]
    family: str
    differentiable: bool = True
    inplace: bool = False
    view: bool = False
    doc: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: the public binding (``torch.<name>`` or the private function of a ``_`` op), set
    #: by the family module; derivative formulas call ops through it
    function: Callable[..., Any] | None = None
    #: the names of the entries of the ``saved`` tuple the op hands to
    #: :meth:`GradEngine.record` (``("alpha",)`` for ``add``): derivative formulas read
    #: them by name; an engine may still read the tuple by position
    saved: tuple[str, ...] = ()
    # How the op is bound (declared with ``torch._ops._dispatch.defop``); torch._bindings
    # generates ``torch.<name>``, ``Tensor`` methods, in-place forms and ``out=`` from these.
    #: the callable bound as ``torch.<name>`` (before ``out=``) and as the method
    binding: Callable[..., Any] | None = None
    #: bound as ``torch.<name>`` (and ``torch.<alias>``)
    public: bool = False
    #: other public names of the op (``subtract`` of ``sub``); method aliases too
    aliases: tuple[str, ...] = ()
    #: ``Tensor`` method names bound to :attr:`method` (default: :attr:`binding`)
    methods: tuple[str, ...] = ()
    method: Callable[..., Any] | None = None
    #: ``Tensor`` in-place method name -> callable (or the name of one, resolved at bind)
    inplace_forms: dict[str, Any] = field(default_factory=dict)
    #: ``torch.<name>_`` exists too (PyTorch's ``torch.sigmoid_(t)``)
    torch_inplace: bool = False
    #: ``torch.<name>`` takes ``out=`` (the result is copied into it)
    out: bool = False
    #: complex input raises: variant (``""``, ``"dim"``) -> (exception type, message with
    #: ``{type}`` for the scalar type name)
    complex_refusal: dict[str, tuple[type, str]] = field(default_factory=dict)
    #: hot paths (``torch._fastpath``) of its bindings: target (``"Tensor.__add__"``, or
    #: ``"binding"``: the function wherever it is bound) -> ``factory(op, general) ->
    #: callable``, which the binder installs in place of the general binding ``general``
    fast: dict[str, Callable[..., Any]] = field(default_factory=dict)

    def kernel(self, device_type: str) -> Callable[..., Any]:
        try:
            return self.kernels[device_type]
        except KeyError:
            raise NotImplementedError(
                f"torch.{self.name} has no kernel for device type '{device_type}' "
                f"(available: {', '.join(sorted(self.kernels))})"
            ) from None

    def __repr__(self) -> str:
        return f"OpDef({self.signature!r})"


_BINDING_FIELDS = (
    "binding",
    "public",
    "aliases",
    "methods",
    "method",
    "inplace_forms",
    "torch_inplace",
    "out",
    "complex_refusal",
    "fast",
)


class OpRegistry:
    """Name -> :class:`OpDef`. Registering a name twice is an error."""

    def __init__(self) -> None:
        self._ops: dict[str, OpDef] = {}
        self._declared: dict[str, OpDef] = {}

    def register(self, op: OpDef) -> OpDef:
        declared = self._declared.pop(op.name, None) or self._ops.get(op.name)
        if declared is not None:
            if not declared.extra.get("declared_first"):
                raise KeyError(f"op '{op.name}' is already registered")
            # declared (bindings) above the registration of its kernel: keep both
            for name in _BINDING_FIELDS:
                setattr(op, name, getattr(declared, name))
        self._ops[op.name] = op
        return op

    def declare(self, op: OpDef) -> OpDef:
        """Keep ``op``, a public composite without a kernel of its own (its parts record
        gradients), for the binder; it is not iterated with the registered ops."""
        if op.name in self._ops or op.name in self._declared:
            raise KeyError(f"op '{op.name}' is already registered")
        self._declared[op.name] = op
        return op

    def lookup(self, name: str) -> OpDef | None:
        """The registered or declared op ``name``, or None."""
        return self._ops.get(name) or self._declared.get(name)

    def everything(self) -> list[OpDef]:
        """Registered and declared ops: what the public names are bound from."""
        return [*self._ops.values(), *self._declared.values()]

    def __getitem__(self, name: str) -> OpDef:
        return self._ops[name]

    def __contains__(self, name: object) -> bool:
        return name in self._ops

    def __iter__(self):
        return iter(self._ops.values())

    def __len__(self) -> int:
        return len(self._ops)

    def differentiable(self) -> list[OpDef]:
        return [op for op in self._ops.values() if op.differentiable]


ops = OpRegistry()


# ------------------------------------------------------------------- grad-engine hook

GRAD_ENGINE_GROUP = "torch.grad_engine"


class GradEngine(abc.ABC):
    """What core asks of an autograd engine.

    Core calls :meth:`record` only when grad mode is on and an input requires grad, and
    calls :meth:`backward` from ``Tensor.backward``.
    """

    #: whether this engine can compute gradients at all
    available: bool = True

    @abc.abstractmethod
    def record(self, op: OpDef, inputs: tuple, output: Any, saved: tuple) -> None:
        """Attach to ``output`` (a tensor) the graph node of ``op`` applied to ``inputs``.

        ``inputs`` are the op's tensor arguments in order; ``saved`` holds the op's
        non-tensor arguments that its derivative formulas need.
        """

    @abc.abstractmethod
    def backward(self, tensors, grad_tensors, retain_graph, create_graph, inputs) -> None:
        """Accumulate gradients of ``tensors`` into the ``.grad`` of graph leaves."""

    # Tensor hooks and retained gradients (``Tensor.register_hook``, ``retain_grad``,
    # ``retains_grad``): the engine keeps them. These defaults serve engines without.

    def register_hook(self, tensor: Any, hook: Callable[..., Any]) -> Any:
        """Call ``hook(grad)`` with the gradient of ``tensor``; return a removable handle."""
        raise no_autograd_error()

    def retain_grad(self, tensor: Any) -> None:
        """Make backward fill ``tensor.grad`` although ``tensor`` is not a leaf."""
        raise no_autograd_error()

    def register_post_accumulate_grad_hook(self, tensor: Any, hook: Callable[..., Any]) -> Any:
        """Call ``hook(tensor)`` after backward accumulated a gradient into the ``.grad``
        of the leaf ``tensor`` (checked by the caller); return a removable handle."""
        raise no_autograd_error()

    def retains_grad(self, tensor: Any) -> bool:
        return False

    def inplace_on_view(self, view: Any) -> None:
        """Announce that the next :meth:`record` whose output is ``view`` records an
        in-place write into that view: the engine must then rebase the history of the
        view's base (``view._base``) as well."""
        raise NotImplementedError(
            "in-place operations on views of tensors that require grad need an engine that "
            "rebases view histories"
        )

    def view_rebased(self, view: Any) -> None:
        """Announce that an in-place write into ``view`` (announced by
        :meth:`inplace_on_view`) was recorded on another tensor whose ``grad_fn`` the view
        took: the engine must rebase the history of the view's base now."""
        raise NotImplementedError(
            "in-place operations on views of tensors that require grad need an engine that "
            "rebases view histories"
        )

    def refresh_view(self, view: Any) -> Any:
        """``view.grad_fn`` once the view's base was written in place after the view's
        node was made: the engine gives the view a node reading the base's current
        history. Returns the view's (new) node."""
        view._view_version = view._version_[0]
        return view._grad_fn


class NoOpGradEngine(GradEngine):
    """The default when torch-autograd is not installed: records nothing."""

    available = False

    def record(self, op, inputs, output, saved) -> None:
        return None

    def backward(self, tensors, grad_tensors, retain_graph, create_graph, inputs) -> None:
        raise ModuleNotFoundError(_NO_AUTOGRAD_MESSAGE, name="torch.autograd")


_NO_AUTOGRAD_MESSAGE = (
    "computing gradients needs the 'torch-autograd' distribution, which is not "
    f"installed. {install_hint('torch-autograd')}"
)

_engine: GradEngine | None = None


def _load_engine() -> GradEngine:
    entry_points = metadata.entry_points(group=GRAD_ENGINE_GROUP)
    for entry_point in sorted(entry_points, key=lambda ep: ep.name):
        engine_cls = entry_point.load()
        engine = engine_cls()
        if not isinstance(engine, GradEngine):
            raise TypeError(
                f"entry point {entry_point.value} in group {GRAD_ENGINE_GROUP} must give "
                f"a torch._interface.GradEngine subclass, got {type(engine).__name__}"
            )
        return engine
    return NoOpGradEngine()


def get_grad_engine() -> GradEngine:
    """The active engine, loaded from the ``torch.grad_engine`` entry point on first use."""
    global _engine
    if _engine is None:
        _engine = _load_engine()
    return _engine


def set_grad_engine(engine: GradEngine | None) -> GradEngine | None:
    """Install ``engine`` (``None`` = load from entry points again); returns the previous."""
    global _engine
    previous, _engine = _engine, engine
    return previous


def no_autograd_error() -> ModuleNotFoundError:
    return ModuleNotFoundError(_NO_AUTOGRAD_MESSAGE, name="torch.autograd")


# ------------------------------------------------------------------------ hook tables


class _HookTable:
    """A named table of callables that sibling packages fill in."""

    def __init__(self, what: str) -> None:
        self._what = what
        self._hooks: dict[str, Callable[..., Any]] = {}

    def register(self, name: str, hook: Callable[..., Any]) -> None:
        self._hooks[name] = hook

    def get(self, name: str) -> Callable[..., Any] | None:
        return self._hooks.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._hooks

    def __repr__(self) -> str:
        return f"<{self._what} hooks: {sorted(self._hooks)}>"


#: NumPy-level kernels of a few hot ops, filled by core, for an engine that computes
#: gradients on arrays with the same kernels as the ops use: ``"matmul"``
#: (``f(a, b) -> ndarray``), and after torch-core 0.7.0 ``"fill"`` (``f(out, value)``: every
#: element of ``out`` set to ``value``) and ``"add_"`` (``f(into, other)``: ``into +=
#: other``), threaded for big float arrays. A name may be absent (an older core): the
#: engine then uses NumPy.
array_kernels = _HookTable("array-kernel")
