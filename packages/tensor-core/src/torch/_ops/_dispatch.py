"""What every op shares: result dtypes, operand conversion and handing ops to the grad
engine."""

from __future__ import annotations

import functools
import warnings

import numpy as np

from .. import _dtype, _grad_mode, _interface
from .._interface import OpDef, get_grad_engine, ops
from .._tensor import Tensor

_ndarray = np.ndarray
_PY_SCALAR_DTYPE = {bool: _dtype.bool_, int: _dtype.int64}
_grad_state = _grad_mode._state


def _combine_categories(higher, lower):
    # PyTorch's rule for mixing operands of different priority (tensor, 0-dim tensor,
    # Python scalar): a lower-priority operand matters only if it is of a higher category.
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.is_complex:
        return higher
    if lower.is_complex:
        return higher.to_complex() if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is _dtype.bool_ or lower.is_floating_point:
        return _dtype.promote_types(higher, lower)
    return higher


def _scalar_dtype(value):
    kind = type(value)
    if kind in _PY_SCALAR_DTYPE:
        return _PY_SCALAR_DTYPE[kind]
    if kind is float:
        return _dtype.get_default_dtype()
    if kind is complex:
        return _dtype.get_default_dtype().to_complex()
    if isinstance(value, (bool, np.bool_)):
        return _dtype.bool_
    if isinstance(value, (int, np.integer)):
        return _dtype.int64
    if isinstance(value, (float, np.floating)):
        return _dtype.get_default_dtype()
    if isinstance(value, (complex, np.complexfloating)):
        return _dtype.get_default_dtype().to_complex()
    raise TypeError(f"expected a Tensor or a number, got {type(value).__name__}")


def result_type(*operands):
    """The dtype PyTorch gives an op over ``operands`` (tensors and Python scalars)."""
    dim_result = zero_result = scalar_result = None
    for x in operands:
        if isinstance(x, Tensor):
            if x._np.ndim:
                dim_result = (
                    x._dtype if dim_result is None else _dtype.promote_types(dim_result, x._dtype)
                )
            else:
                zero_result = (
                    x._dtype if zero_result is None else _dtype.promote_types(zero_result, x._dtype)
                )
        else:
            d = _scalar_dtype(x)
            scalar_result = d if scalar_result is None else _dtype.promote_types(scalar_result, d)
    return _combine_categories(dim_result, _combine_categories(zero_result, scalar_result))


@functools.cache
def tensor_pair_dtype(a, b):
    """Cached result dtype of two tensors with dim > 0 (the hot path)."""
    return _dtype.promote_types(a, b)


def operand(x, dtype) -> np.ndarray:
    """``x`` (tensor or scalar) as a NumPy operand of ``dtype``."""
    if isinstance(x, Tensor):
        array = x._np
        return array if array.dtype == dtype.np_dtype else array.astype(dtype.np_dtype)
    if type(x) is int and dtype._category == 1:
        # a weak Python int wraps into the tensor's integer type, as in PyTorch
        value = np.asarray(np.int64(x) if -(2**63) <= x < 2**63 else x).astype(dtype.np_dtype)
        return value if saved_on_device is None else value[()]
    if saved_on_device is None:  # only the CPU: a 0-dim array (the faster ufunc operand)
        return np.asarray(x, dtype=dtype.np_dtype)
    if hasattr(x, "__array_function__"):  # an array (a device array stays on its device)
        return as_array(x, dtype.np_dtype)
    # with a device backend, a NumPy scalar: device arrays (CuPy's) take scalars but
    # refuse host arrays, and NumPy promotes the two alike
    return dtype.np_dtype.type(x)


def scalar(value, np_dtype):
    """``value`` (a Python number) as a NumPy scalar of ``np_dtype``: a constant that mixes
    with device arrays (CuPy takes scalars, never host arrays, in its kernels); a 0-dim
    array while the CPU is the only device (NumPy's ufuncs take those faster)."""
    if saved_on_device is None:
        return np.asarray(value, dtype=np_dtype)
    return np.dtype(np_dtype).type(value)


def array_module(array):
    """The module whose functions compute on ``array``: NumPy for host arrays, the array
    module of a device's backend (CuPy) for device arrays."""
    if isinstance(array, np.ndarray):
        return np
    from .._interface.backends import backend_of_array

    return backend_of_array(array).array_module


def window_view(array, shape, strides):
    """A read-only strided view of ``array`` (``as_strided``), on its own device."""
    if isinstance(array, np.ndarray):
        return np.lib.stride_tricks.as_strided(array, shape, strides, writeable=False)
    return array_module(array).lib.stride_tricks.as_strided(array, shape, strides)


def contiguous(value, np_dtype=None):
    """``np.ascontiguousarray(value, np_dtype)`` (at least 1-dim, as NumPy's) that keeps a
    device array on its device."""
    if isinstance(value, np.ndarray) or not hasattr(value, "__array_function__"):
        return np.ascontiguousarray(value, dtype=np_dtype)
    value = as_array(value, np_dtype, "C")
    return value.reshape(1) if value.ndim == 0 else value


def as_array(value, np_dtype=None, order=None):
    """``np.asarray(value, np_dtype, order)`` that keeps a device array on its device:
    CuPy's arrays refuse ``np.asarray``, so they are cast with their own ``astype``."""
    if type(value) is _ndarray:  # the hot path: a host result
        if order is None:
            return value if np_dtype is None or value.dtype == np_dtype else value.astype(np_dtype)
        return np.asarray(value, dtype=np_dtype, order=order)
    if isinstance(value, (np.ndarray, np.generic)) or not hasattr(value, "__array_function__"):
        return np.asarray(value, dtype=np_dtype, order=order)
    if np_dtype is not None and value.dtype != np_dtype:
        value = value.astype(np_dtype)
    if order == "C" and not value.flags.c_contiguous:
        value = value.copy(order="C")
    return value


def dims_argument(name: str, dims: tuple, kwargs: dict) -> tuple:
    """The ``dims`` of an op PyTorch binds as ``torch.<name>(x, dims)`` and as the method
    ``x.<name>(*dims)``: the positional ``dims`` (varargs, or one sequence) or ``dims=`` by
    keyword, as a tuple; PyTorch's TypeErrors for it given twice or not at all."""
    if "dims" in kwargs:
        if dims:
            raise TypeError(f"{name}() got multiple values for argument 'dims'")
        dims = (kwargs.pop("dims"),)
    if kwargs:
        raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if not dims:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dims"')
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        return tuple(dims[0])
    return tuple(dims)


#: the keys of the warnings given once per process (see warn_once)
WARNED_ONCE: set = set()


def warn_once(key: str, message: str, stacklevel: int) -> None:
    """``warnings.warn(message)`` the first time ``key`` is seen in this process, as
    PyTorch's TORCH_WARN_ONCE; ``stacklevel`` as the caller would pass it to
    ``warnings.warn`` itself."""
    if key not in WARNED_ONCE:
        WARNED_ONCE.add(key)
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)


def refuse_grad_with_out(name: str, values) -> None:
    """PyTorch's error for ``out=`` when a value among ``values`` (the arguments and
    ``out`` itself; tuples and lists searched) requires grad: a write into a given tensor
    cannot be recorded. The caller checks that grad mode is on."""
    for value in values:
        if isinstance(value, (tuple, list)):
            refuse_grad_with_out(name, value)
        elif getattr(value, "_requires_grad", False):  # (numbers have none)
            raise RuntimeError(
                f"{name}(): functions with out=... arguments don't support automatic "
                "differentiation, but one of the arguments requires grad."
            )


def check_tensor(x, op: str, arg: str = "input") -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{arg}' must be Tensor, not {type(x).__name__}")


#: set by ``torch._dispatcher`` while a device backend is registered: puts the result and
#: the tensors a host kernel saved for backward on the device its op was dispatched for,
#: before the engine keeps their arrays
saved_on_device = None


def record(op, inputs, result, saved=()) -> Tensor:
    """Hand a finished op to the grad engine when grad mode is on and an input requires
    grad; return ``result``."""
    if not _grad_state.enabled or not op.differentiable:
        return result
    for x in inputs:
        if isinstance(x, Tensor) and x._requires_grad:
            if saved_on_device is not None:
                saved_on_device(result, saved)
            get_grad_engine().record(op, inputs, result, saved)
            break
    return result


def record_checked(op, inputs, result, saved=()) -> Tensor:
    """:func:`record` for a caller that has checked that grad mode is on and an input
    requires grad (the fast paths of ``torch._fastpath``); return ``result``."""
    if saved_on_device is not None:
        saved_on_device(result, saved)
    # the engine as _interface holds it, without get_grad_engine's frame once it is loaded
    (_interface._engine or get_grad_engine()).record(op, inputs, result, saved)
    return result


_OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location. Please clone() the tensor before performing the operation."
)


def check_internal_overlap(self: Tensor) -> None:
    """Refuse a write into a tensor whose elements share memory (an ``expand``-ed dim: a
    stride 0 over more than one element), as PyTorch does: the result would depend on
    the order of the writes. Like PyTorch, other ``as_strided`` overlaps are let through
    (deciding them in general is too costly)."""
    check_array_overlap(self._np)


def check_array_overlap(array: np.ndarray) -> None:
    """:func:`check_internal_overlap` of the strided NumPy view ``array``."""
    # the hot path: a C-contiguous tensor never overlaps itself, one flag read decides
    if array.flags.c_contiguous or 0 not in array.strides:
        return
    if array.size > 1 and any(n > 1 and s == 0 for n, s in zip(array.shape, array.strides)):
        raise RuntimeError(_OVERLAP_MESSAGE)


def check_inplace(self: Tensor, *others, overlapping_ok: bool = False) -> bool:
    """Errors of an in-place write into ``self``; returns whether it must be recorded for
    autograd. ``overlapping_ok``: see :func:`check_inplace_fill`."""
    # NOTE: one function with a flag rather than one calling the other: every in-place op
    # runs this, and a second call would cost more than the checks themselves
    if not overlapping_ok and not self._np.flags.c_contiguous:  # one flag read, hot path
        check_internal_overlap(self)
    if not _grad_mode._state.enabled:
        return False
    if not self._requires_grad and not any(
        isinstance(o, Tensor) and o._requires_grad for o in others
    ):
        return False
    return _check_recorded_write(self)


def check_inplace_fill(self: Tensor, *others) -> bool:
    """:func:`check_inplace` for the writes PyTorch allows into an overlapping tensor
    (``fill_``, ``zero_``, ``masked_fill_``, ``index_fill_``, in-place view changes):
    every element that shares memory receives the same value."""
    return check_inplace(self, *others, overlapping_ok=True)


def _check_recorded_write(self: Tensor) -> bool:
    """The autograd errors of an in-place write that is recorded; returns True."""
    base = self._base
    if base is not None:
        # the engine rebases the history of the view's base when the write is recorded
        # (it raises first for an output of an op returning several views, as PyTorch)
        get_grad_engine().inplace_on_view(self)
    if self._requires_grad and self.grad_fn is None and self._base is None:
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    if base is not None and base._requires_grad and base.grad_fn is None:
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation."
        )
    return True


def adopt_history(self: Tensor, redo: Tensor) -> None:
    """Give ``self`` the history of ``redo``, the out-of-place form of an in-place write
    into ``self`` recomputed on its snapshot; a view's base is rebased on it."""
    self.grad_fn, self._requires_grad = redo.grad_fn, redo._requires_grad
    if self._base is not None:
        get_grad_engine().view_rebased(self)


def register_op(
    name,
    function,
    signature,
    family,
    *,
    differentiable=True,
    inplace=False,
    out_of_place=None,
    view=False,
    saved=(),
    kernel=None,
    fast=None,
    **extra,
):
    """Register one core op (its binding is ``function``); an in-place op with an
    out-of-place form names it, and that form's derivative entry covers both. An op
    declared with :func:`defop` above its kernel's registration keeps its declaration.
    ``kernel``: the CPU kernel where it is not ``function`` itself (an array-level one,
    as ``matmul``'s); ``fast``: the op's hot paths (``OpDef.fast``)."""
    op = ops.register(
        OpDef(
            name=name,
            signature=signature,
            kernels={"cpu": function if kernel is None else kernel},
            family=family,
            differentiable=differentiable,
            inplace=inplace,
            view=view,
            saved=saved,
            fast=fast or {},
        )
    )
    op.function = function
    if out_of_place is not None:
        op.extra["out_of_place"] = out_of_place
    op.extra.update(extra)
    return op


def defop(
    name,
    function=None,
    *,
    method=False,
    inplace=(),
    out=False,
    aliases=(),
    torch_inplace=False,
    public=True,
    refuses_complex=None,
    complex_operands=1,
    family=None,
    signature=None,
    registered=False,
    fast=None,
):
    """Declare ``function`` as op ``name``: the one place its public forms come from.

    ``torch._bindings`` generates from the declaration ``torch.<name>`` (with ``out=``
    when ``out``; ``public=False`` for Tensor-only ops), ``torch.<alias>`` for each of
    ``aliases``, the ``Tensor`` methods (``method=True``: the name and the aliases; a
    tuple: those names; a callable: the name bound to it), the in-place methods
    (``inplace=True``: ``<name>_``; or a tuple of names; each resolved by name at bind
    time, so it may be defined further down; the aliases get ``<alias>_``) and, with
    ``torch_inplace``, ``torch.<name>_``. ``refuses_complex=(exception type, message)``
    makes ``function`` raise PyTorch's error for complex operands (the first
    ``complex_operands`` arguments decide); a dict maps variants (``"dim"``) to errors.
    ``fast`` maps binding targets (``"Tensor.__add__"``, or ``"binding"`` for the function
    wherever it is bound) to hot-path factories of ``torch._fastpath``, which the binder
    installs over the general binding.

    An op registered before or after (with its kernel, by :func:`register_op`) gets the
    binding; any other is a composite that autograd differentiates through its parts,
    declared beside the registry (``registered=True`` registers it, as an op-database op).
    Used as ``name = defop("name", name, ...)`` or as a decorator ``@defop("name", ...)``.
    """
    if function is None:
        return lambda f: defop(
            name,
            f,
            method=method,
            inplace=inplace,
            out=out,
            aliases=aliases,
            torch_inplace=torch_inplace,
            public=public,
            refuses_complex=refuses_complex,
            complex_operands=complex_operands,
            family=family,
            signature=signature,
            registered=registered,
            fast=fast,
        )
    refusals = _refusal_table(refuses_complex)
    if isinstance(refuses_complex, tuple):  # a dict: the function checks by itself
        function = _checking_complex(function, name, refusals[""], complex_operands)
    op = ops.lookup(name)
    if op is None:
        module = getattr(function, "__module__", "") or ""
        op = OpDef(
            name=name,
            signature=signature or f"{name}(...)",
            kernels={"cpu": function},
            family=family or module.rpartition(".")[2].lstrip("_"),
            differentiable=False,
            extra={"composite": True, "declared_first": True},
            function=function,
        )
        op = ops.register(op) if registered else ops.declare(op)
    op.binding, op.public, op.out, op.torch_inplace = function, public, out, torch_inplace
    op.aliases = (aliases,) if isinstance(aliases, str) else tuple(aliases)
    op.complex_refusal.update(refusals)
    op.fast.update(fast or {})
    if callable(method):
        op.methods, op.method = (name,), method
    elif method is True:
        op.methods = (name, *op.aliases)
    elif method:
        op.methods = (method,) if isinstance(method, str) else tuple(method)
    if inplace is True:
        inplace = name + "_"
    for form in (inplace,) if isinstance(inplace, str) else inplace or ():
        op.inplace_forms[form] = form
    return function


#: ``torch.<name>`` functions PyTorch removed -> a function raising its message. They are
#: not ops: a removed name may be an op's (``solve`` is ``torch.linalg.solve``'s op), whose
#: declaration stays its own; ``torch._bindings`` binds these apart.
REMOVED: dict = {}


def defremoved(name: str, message: str):
    """Declare ``torch.<name>``, a function PyTorch removed: calling it raises
    ``RuntimeError(message)``, as PyTorch does."""

    def function(*args, **kwargs):
        raise RuntimeError(message)

    function.__name__ = name
    REMOVED[name] = function
    return function


def _refusal_table(refusal) -> dict:
    if refusal is None:
        return {}
    return dict(refusal) if isinstance(refusal, dict) else {"": refusal}


def kernel_refusal(kernel_name: str) -> tuple:
    """PyTorch's error for a CPU kernel that has no complex form."""
    return NotImplementedError, f'"{kernel_name}" not implemented for ' + "'{type}'"


class SparseLayoutError(NotImplementedError):
    """Raised when an op reads the dense data of a sparse COO tensor (``torch._sparse``).
    The few functions that take sparse operands catch it and call :func:`sparse_kernel`;
    a ``try`` costs the dense path nothing until it fires."""


#: function name -> its kernel for sparse operands (filled by ``torch._sparse_ops``)
SPARSE_KERNELS: dict = {}


def sparse_kernel(name: str, error: SparseLayoutError):
    """The sparse kernel of function ``name``; re-raises ``error`` when it has none."""
    kernel = SPARSE_KERNELS.get(name)
    if kernel is None:
        raise error
    return kernel


def wrap_array(array, dtype) -> Tensor:
    """A new tensor of ``dtype`` from a computed array, C-contiguous (0-dim stays 0-dim)."""
    return Tensor._from_array(as_array(array, dtype.np_dtype, "C"), dtype)


# ------------------------------------------------------------- ops refusing complex input


def complex_refusal(name: str):
    """The refusal of op ``name`` (``"max"``) or of one of its variants (``"max.dim"``):
    (exception type, message), or None when the op accepts complex input."""
    op_name, _, variant = name.partition(".")
    op = ops.lookup(op_name)
    if op is not None:
        return op.complex_refusal.get(variant)
    return None


def refuse_complex(name: str, dtype) -> None:
    """Raise PyTorch's error of op ``name`` (see :func:`complex_refusal`) for input of
    complex ``dtype``; does nothing for other dtypes (call it once the input is known to
    be complex: the test below is then the only cost)."""
    if dtype._category == 3:
        _raise_refusal(complex_refusal(name), dtype)


def _raise_refusal(refusal, dtype):
    kind, message = refusal
    raise kind(message.format(type=dtype._legacy[:-6]))


def complex_refusing(refusal, rule):
    """``rule`` (a dtype rule of an op family's builder: dtype, *extra -> ...) raising
    ``refusal`` (exception type, message) for complex dtypes; ``rule`` itself when
    ``refusal`` is None. Builders wrap their rule once, when the op is made."""
    if refusal is None:
        return rule

    def checked(dtype, *extra):
        if dtype._category == 3:
            _raise_refusal(refusal, dtype)
        return rule(dtype, *extra) if rule is not None else dtype

    return checked


def _checking_complex(function, name: str, refusal, operands: int):
    """``function`` (an op binding taking its tensors first) raising ``refusal`` for
    complex operands, as op ``name`` does in PyTorch: the result dtype of its first
    ``operands`` arguments decides."""

    @functools.wraps(function)
    def checked(*args, **kwargs):
        for x in args[:operands]:
            if (isinstance(x, Tensor) and x._dtype._category == 3) or type(x) is complex:
                dtype = result_type(*(y for y in args[:operands] if y is not None))
                if dtype._category == 3:
                    _raise_refusal(refusal, dtype)
        return function(*args, **kwargs)

    return checked
