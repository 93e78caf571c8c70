"""Custom differentiable operations: subclass :class:`Function` with a static ``forward``
and ``backward`` and call ``apply``."""

from __future__ import annotations

import functools
import weakref

import torch
from torch._interface import tensors as _tensors

from . import _anomaly, _saved_hooks
from ._derivatives._entry import sum_to_shape
from ._nodes import _FREED, _NO_EDGE, _modified_message, _NodeBase, edge

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "once_differentiable"]

_Tensor = torch.Tensor
_requires_grad = _tensors.requires_grad


class FunctionCtx:
    """The ``ctx`` handed to ``forward`` and ``backward``: stash tensors and flags here.

    Any attribute may be set on it (``ctx.scale = 2``) for ``backward`` to read.
    """

    def save_for_backward(self, *tensors) -> None:
        """Keep ``tensors`` (or ``None``) for ``backward``, where ``ctx.saved_tensors``
        returns them; backward raises if one of them was modified in place meanwhile."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, _Tensor):
                raise TypeError(
                    f"save_for_backward can only save variables, but argument {i} is of "
                    f"type {type(t).__name__}"
                )
        self.to_save = tensors

    def mark_dirty(self, *tensors) -> None:
        """Declare the inputs that ``forward`` modified in place (and returns)."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Declare outputs that have no gradient (indices, masks): they do not require
        grad, and backward receives zeros for them."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With ``False``, backward receives ``None`` instead of a zero tensor for outputs
        that got no gradient. Default: ``True``."""
        self._materialize = bool(value)

    @property
    def saved_tensors(self) -> tuple:
        saved = self._saved
        if saved is None:
            raise RuntimeError(_FREED)
        if getattr(self, "_packed", False):  # saved through saved_tensors_hooks
            return tuple(None if t is None else _saved_hooks.unpack(t) for t, _ in saved)
        for t, expected in saved:
            if t is not None:
                current = _tensors.version(t)
                if current != expected:
                    raise RuntimeError(
                        _modified_message(t.type(), t.shape, t.grad_fn, current, expected)
                    )
        return tuple(t for t, _ in saved)

    saved_variables = saved_tensors


class BackwardCFunction(_NodeBase, FunctionCtx):
    """The graph node of one ``Function.apply`` call; it is also that call's ``ctx``."""

    _forward_cls: type = None  # set on the per-Function subclass

    def __init__(self) -> None:
        self._extra = None
        self._saved = ()
        self.to_save = ()
        self._dirty = ()
        self._non_differentiable = ()
        self._materialize = True
        self.needs_input_grad = ()
        self.next_functions = ()
        self._num_outputs = 1
        self._outputs: list = []  # weak references to the differentiable outputs
        self._output_meta: list = []  # (shape, dtype) of each output, None for non-tensors
        self._arg_meta: list = []  # (shape, dtype) of each tensor argument, else None

    def _output_nr(self, tensor) -> int:
        for nr, ref in enumerate(self._outputs):
            if ref is not None and ref() is tensor:
                return nr
        raise RuntimeError(f"tensor is not an output of {self.name()}")

    def apply(self, grads):
        grads = [grads] if self._num_outputs == 1 else list(grads)
        if self._materialize:
            grads = [
                torch.zeros(meta[0], dtype=meta[1]) if g is None and meta is not None else g
                for g, meta in zip(grads, self._output_meta)
            ]
        result = self._forward_cls.backward(self, *grads)
        return self._check_gradients(result if isinstance(result, tuple) else (result,))

    __call__ = apply

    def _check_gradients(self, result: tuple) -> tuple:
        expected = len(self._arg_meta)
        if len(result) != expected:
            if len(result) > expected and all(g is None for g in result[expected:]):
                result = result[:expected]
            else:
                raise RuntimeError(
                    f"function {self.name()} returned an incorrect number of gradients "
                    f"(expected {expected}, got {len(result)})"
                )
        grads = []
        for position, (g, meta) in enumerate(zip(result, self._arg_meta)):
            if meta is None:
                if g is not None:
                    raise RuntimeError(
                        f"function {self.name()} returned a gradient different than None at "
                        f"position {position + 1}, but the corresponding forward input was "
                        "not a Variable"
                    )
                continue
            grads.append(None if g is None else self._fit(g, position, meta))
        return tuple(grads)

    def _fit(self, grad, position: int, meta):
        shape, dtype = meta
        if tuple(grad.shape) != shape:
            if not _broadcasts_to(shape, tuple(grad.shape)):
                raise RuntimeError(
                    f"Function {self.name()} returned an invalid gradient at index {position} "
                    f"- got {list(grad.shape)} but expected shape compatible with {list(shape)}"
                )
            grad = sum_to_shape(grad, shape)
        return grad if grad.dtype == dtype else grad.to(dtype)

    def release(self) -> None:
        if self._saved:
            self._saved = None


def _broadcasts_to(shape: tuple, target: tuple) -> bool:
    if len(shape) > len(target):
        return False
    return all(s == 1 or s == t for s, t in zip(reversed(shape), reversed(target)))


class FunctionMeta(type):
    """Gives every ``Function`` subclass its own node class, named ``<Name>Backward``."""

    def __init__(cls, name, bases, namespace):
        backward_cls = type(f"{name}Backward", (BackwardCFunction,), {"_forward_cls": cls})
        backward_cls.__module__ = __name__
        cls._backward_cls = backward_cls
        super().__init__(name, bases, namespace)


class Function(metaclass=FunctionMeta):
    """Base class of custom differentiable operations.

    Subclasses define two static methods: ``forward(ctx, *args)`` computes the outputs
    from the inputs (tensors or anything else), ``backward(ctx, *grad_outputs)`` returns
    one gradient per forward argument (``None`` for non-tensors and for inputs that need
    no gradient). Call the operation as ``MyFunction.apply(*args)``.

    Examples::

        >>> class Cube(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x, scale):
        ...         ctx.save_for_backward(x)
        ...         ctx.scale = scale
        ...         return scale * x ** 3
        ...     @staticmethod
        ...     def backward(ctx, grad):
        ...         (x,) = ctx.saved_tensors
        ...         return grad * ctx.scale * 3 * x ** 2, None
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> y = Cube.apply(x, 2.0)
        >>> y.grad_fn.name()
        'CubeBackward'
        >>> y.sum().backward()
        >>> x.grad
        tensor([ 6., 24.])
    """

    def __init__(self, *args, **kwargs) -> None:
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please "
            "use new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` on ``args`` and, when an input requires grad, record the call
        so that backward reaches ``backward``."""
        ctx = cls._backward_cls()
        needs = tuple(isinstance(a, _Tensor) and _requires_grad(a) for a in args)
        ctx.needs_input_grad = needs
        recording = torch.is_grad_enabled() and any(needs)
        if recording:
            ctx.next_functions = tuple(
                edge(a) if n else _NO_EDGE for a, n in zip(args, needs) if isinstance(a, _Tensor)
            )
        with torch.no_grad():
            output = _run_forward(cls, ctx, args, kwargs)
        is_tuple = isinstance(output, tuple)
        outputs = _wrap_outputs(ctx, args, output if is_tuple else (output,), recording)
        ctx._saved = tuple((t, _version_of(t)) for t in ctx.to_save)
        hooks = _saved_hooks.current() if recording and _saved_hooks.active() else None
        if hooks is not None and ctx._saved:
            ctx._saved = tuple(
                (None if t is None else _saved_hooks.pack(t, hooks), 0) for t in ctx.to_save
            )
            ctx._packed = True
        if recording and _anomaly.state.enabled:
            _anomaly.attach_trace(ctx)
        return outputs if is_tuple else outputs[0]


def _run_forward(cls, ctx, args, kwargs):
    if cls.setup_context is not Function.setup_context:
        output = cls.forward(*args, **kwargs)
        cls.setup_context(ctx, args, output)
        return output
    return cls.forward(ctx, *args, **kwargs)


def _version_of(t) -> int:
    if t is None:
        return 0
    return _tensors.version(t)


def _wrap_outputs(ctx, args, outputs: tuple, recording: bool) -> tuple:
    dirty = {id(t) for t in ctx._dirty}
    inputs = {id(a) for a in args if isinstance(a, _Tensor)}
    for t in ctx._dirty:
        if id(t) not in inputs:
            raise RuntimeError("mark_dirty only accepts input tensors, but argument 0 isn't one.")
        if recording and _requires_grad(t) and t.grad_fn is None:
            raise RuntimeError(
                "a leaf Variable that requires grad has been used in an in-place operation."
            )
    ctx._arg_meta = [(tuple(a.shape), a.dtype) if isinstance(a, _Tensor) else None for a in args]
    if not recording:
        return outputs
    non_differentiable = {id(t) for t in ctx._non_differentiable}
    ctx._num_outputs = len(outputs)
    wrapped = []
    for out in outputs:
        if not isinstance(out, _Tensor):
            ctx._outputs.append(None)
            ctx._output_meta.append(None)
            wrapped.append(out)
            continue
        if id(out) in inputs and id(out) not in dirty:
            out = out.detach()  # an input returned as is: a new tensor with its own history
        ctx._output_meta.append((tuple(out.shape), out.dtype))
        differentiable = id(out) not in non_differentiable and (
            out.dtype.is_floating_point or out.dtype.is_complex
        )
        if differentiable:
            _tensors.set_history(out, ctx)
            ctx._outputs.append(weakref.ref(out))
        else:
            if id(out) in dirty:
                out.grad_fn = None
            _tensors.set_requires_grad(out, False)
            ctx._outputs.append(None)
        wrapped.append(out)
    return tuple(wrapped)


class Error(_NodeBase):
    """The node given to the results of a once-differentiable backward under
    ``create_graph``: differentiating through it raises."""

    __slots__ = ("next_functions", "_extra", "__weakref__")

    def __init__(self, edges) -> None:
        self.next_functions = edges
        self._extra = None

    def apply(self, grad):
        raise RuntimeError(
            "trying to differentiate twice a function that was marked with @once_differentiable"
        )

    def name(self) -> str:
        return "torch::autograd::Error"

    def release(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"<Error object at {id(self):#x}>"


def once_differentiable(fn):
    """Decorate a ``backward`` whose own operations need not be differentiable: it runs
    with grad mode off, and differentiating its results again raises.

    Examples::

        >>> from torch.autograd.function import once_differentiable
        >>> class Double(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         return x * 2
        ...     @staticmethod
        ...     @once_differentiable
        ...     def backward(ctx, grad):
        ...         return grad * 2
        >>> x = torch.ones(2, requires_grad=True)
        >>> v = torch.ones(2, requires_grad=True)
        >>> (g,) = torch.autograd.grad(Double.apply(x), x, v, create_graph=True)
        >>> g
        tensor([2., 2.], grad_fn=<Error>)
        >>> try:
        ...     g.sum().backward()
        ... except RuntimeError as error:
        ...     print(error)
        trying to differentiate twice a function that was marked with @once_differentiable
    """

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with torch.no_grad():
            outputs = fn(ctx, *args)
        if not torch.is_grad_enabled():
            return outputs
        needing = [a for a in args if isinstance(a, _Tensor) and _requires_grad(a)]
        if not needing:
            return outputs
        node = Error(tuple(edge(a) for a in needing))
        is_tuple = isinstance(outputs, tuple)
        wrapped = []
        for out in outputs if is_tuple else (outputs,):
            if isinstance(out, _Tensor) and (out.dtype.is_floating_point or out.dtype.is_complex):
                out = out.detach()
                _tensors.set_history(out, node)
            wrapped.append(out)
        return tuple(wrapped) if is_tuple else wrapped[0]

    return wrapper
