"""The ``weights_only`` unpickler: a pickle interpreter that can build tensors, storages,
dtypes, devices, sizes and plain containers, and nothing else unless allowed.

It never imports a module a file names and never calls anything outside its allowlist
(PyTorch's tensor names, a few builtins, and what ``add_safe_globals`` registered). The
opcodes it runs are listed in ``_OPCODES``; any other opcode (``INST``, ``OBJ``, the
extension registry, out-of-band buffers, ...) is refused. Malformed input of any kind
becomes ``pickle.UnpicklingError``; geometry that does not fit a storage stays the
``RuntimeError`` PyTorch raises.
"""

from __future__ import annotations

import _compat_pickle
import codecs
import collections
import pickle
import pickletools
import struct

from . import names
from .hash_guard import HashGuard
from .limits import bounded_repr
from .safe_globals import get_safe_globals, lookup_safe_global

__all__ = ["WeightsUnpickler", "weights_only_error"]

_MAX_LINE = 1 << 12  # a GLOBAL line: "module\nname\n"
_MAX_INT_BYTES = 1 << 16  # LONG4: a 500k-bit integer is no tensor size


def weights_only_error(detail: str) -> pickle.UnpicklingError:
    """The error for a refused or malformed pickle, with how to get past it."""
    return pickle.UnpicklingError(
        "Weights only load failed. torch.load(weights_only=True) (the default) runs only a "
        "restricted unpickler, and this file needs more than it allows:\n\n"
        f"{detail}\n\n"
        "If you trust the source of this file, torch.load(..., weights_only=False) will "
        "load it, but that can run arbitrary code the file contains."
    )


def _global_refused(module: str, name: str) -> pickle.UnpicklingError:
    return weights_only_error(
        f"Unsupported global: GLOBAL {module}.{name} was not an allowed global by default. "
        f"If you trust this class or function, allow it with "
        f"torch.serialization.add_safe_globals([{module}.{name}]) or within the "
        f"torch.serialization.safe_globals([{module}.{name}]) context manager."
    )


def _check_container_args(args, guard: HashGuard) -> None:
    if args and (len(args) > 1 or not isinstance(args[0], (list, tuple, dict, set))):
        raise TypeError("a container may be built only from another container")
    if args:
        guard.check_keys(args[0])


def _check_mapping_args(args, guard: HashGuard) -> None:
    # OrderedDict(), OrderedDict(a_dict) or OrderedDict([(key, value), ...])
    if not args:
        return
    source = args[0]
    if len(args) > 1 or not isinstance(source, (list, tuple, dict)):
        raise TypeError("a mapping may be built only from a dict or a list of pairs")
    if isinstance(source, dict):
        guard.check_keys(source)
        return
    if not all(type(pair) in (tuple, list) and len(pair) == 2 for pair in source):
        raise TypeError("a mapping may be built only from (key, value) pairs")
    guard.check_keys(pair[0] for pair in source)


def _check_bytearray_args(args, guard) -> None:
    if args and (len(args) > 1 or not isinstance(args[0], (bytes, bytearray))):
        raise TypeError("bytearray may be built only from bytes")


def _check_numbers(args, guard) -> None:
    if not all(type(a) in (int, float) for a in args):
        raise TypeError("complex may be built only from numbers")


def _check_slice(args, guard) -> None:
    if not all(a is None or type(a) is int for a in args):
        raise TypeError("slice may be built only from ints and None")


# arguments the callable builtins accept; a file gets no `bytearray(10**12)`
_ARGUMENT_CHECKS = {
    set: _check_container_args,
    collections.OrderedDict: _check_mapping_args,
    collections.Counter: _check_mapping_args,
    bytearray: _check_bytearray_args,
    complex: _check_numbers,
    slice: _check_slice,
}


# Opcode handlers made per argument format (used in WeightsUnpickler._OPS)


def _push(value):
    return lambda self: self._stack.append(value)


def _long(fmt):
    def op(self):
        count = self._read_size(fmt)
        if count > _MAX_INT_BYTES:
            raise ValueError(f"an integer of {count} bytes")
        self._stack.append(int.from_bytes(self._read_exact(count), "little", signed=True))

    return op


def _text(fmt):
    def op(self):
        self._stack.append(self._read_exact(self._read_size(fmt)).decode("utf-8"))

    return op


def _bytes(fmt, kind=bytes):
    def op(self):
        self._stack.append(kind(self._read_exact(self._read_size(fmt))))

    return op


def _binstring(fmt):
    # Python 2 `str`: decoded with the load's encoding (PyTorch passes utf-8)
    def op(self):
        data = self._read_exact(self._read_size(fmt))
        if self._encoding == "bytes":
            self._stack.append(data)
        else:
            self._stack.append(codecs.decode(data, self._encoding))

    return op


def _tuple_n(count):
    def op(self):
        if len(self._stack) < count:
            raise IndexError("stack underflow")
        items = tuple(self._stack[-count:])
        del self._stack[-count:]
        self._stack.append(items)

    return op


def _put(fmt):
    def op(self):
        self._memo[self._read_size(fmt)] = self._stack[-1]

    return op


def _get(fmt):
    def op(self):
        self._stack.append(self._memo[self._read_size(fmt)])

    return op


class WeightsUnpickler:
    """Unpickle one object from ``stream`` (``read(n)`` returning exactly ``n`` bytes or
    raising, and ``readline()``), sending persistent ids to ``persistent_load``."""

    def __init__(self, stream, persistent_load=None, encoding: str = "utf-8"):
        self._read = stream.read
        self._readline = stream.readline
        self._persistent_load = persistent_load
        self._encoding = encoding
        self._stack: list = []
        self._metastack: list = []
        self._memo: dict = {}
        self._allowed_calls: set[int] = set()
        # classes the user allowed may be instantiated and given state even when the
        # pickle never names them (np.dtype(...) returns a Float64DType, for instance)
        self._user_types: set[int] = {
            id(obj) for obj in map(_registered_object, get_safe_globals()) if isinstance(obj, type)
        }
        self._guard = HashGuard(self._user_types)

    # ------------------------------------------------------------------ driver

    def load(self):
        try:
            return self._run()
        finally:
            self._guard.release()

    def _run(self):
        handlers = _OPCODES
        try:
            while True:
                code = self._read(1)
                if not code:
                    raise EOFError("pickle data ended before STOP")
                handler = handlers.get(code[0])
                if handler is None:
                    name = _OPCODE_NAMES.get(code[0], f"byte {code[0]:#04x}")
                    raise weights_only_error(
                        f"Unsupported operand {code[0]} ({name}): this opcode is not allowed "
                        f"in a weights-only load."
                    )
                if handler(self) is _STOP:
                    return self._finish()
        except (pickle.UnpicklingError, RuntimeError):
            raise
        except (
            EOFError,
            IndexError,
            KeyError,
            TypeError,
            ValueError,
            AttributeError,
            struct.error,
            OverflowError,
            RecursionError,
            UnicodeDecodeError,
        ) as error:
            raise weights_only_error(
                f"Malformed pickle data: {type(error).__name__}: {error}"
            ) from None
        except MemoryError as error:
            # not malformed: the objects the pickle builds do not fit in memory
            raise pickle.UnpicklingError(
                f"torch.load ran out of memory while unpickling the checkpoint's object "
                f"graph (MemoryError: {error}). It needs more memory than this process may "
                f"use, or it is built to exhaust memory."
            ) from None

    def _finish(self):
        if len(self._stack) != 1 or self._metastack:
            raise ValueError("STOP with a stack that does not hold exactly one object")
        return self._stack.pop()

    # ---------------------------------------------------------------- helpers

    def _pop_mark(self) -> list:
        items = self._stack
        self._stack = self._metastack.pop()
        return items

    def _read_exact(self, count: int) -> bytes:
        if count < 0:
            raise ValueError("negative length")
        data = self._read(count)
        if len(data) != count:
            raise EOFError("pickle data ended early")
        return data

    def _read_size(self, fmt: str) -> int:
        return struct.unpack(fmt, self._read_exact(struct.calcsize(fmt)))[0]

    def _read_line(self) -> str:
        line = self._readline()
        if not line.endswith(b"\n") or len(line) > _MAX_LINE:
            raise ValueError("bad GLOBAL line")
        return line[:-1].decode("utf-8")

    def _resolve(self, module: str, name: str):
        # Python 2 names that protocol-2 pickles use for builtins (`__builtin__.set`)
        if (module, name) in _compat_pickle.NAME_MAPPING:
            module, name = _compat_pickle.NAME_MAPPING[(module, name)]
        elif module in _compat_pickle.IMPORT_MAPPING:
            module = _compat_pickle.IMPORT_MAPPING[module]
        obj = names.torch_global(module, name)
        if obj is None:
            obj = names.SAFE_BUILTINS.get((module, name))
        if obj is None:
            obj = lookup_safe_global(f"{module}.{name}")
            if obj is None:
                obj = self._relocated_user_global(module, name)
            if obj is None:
                raise _global_refused(module, name)
            if isinstance(obj, type):
                self._user_types.add(id(obj))
        if not names.is_storage_class(obj) and obj is not names.Tensor:
            self._allowed_calls.add(id(obj))
        return obj

    def allows(self, module: str, name: str) -> bool:
        """Whether a weights-only load may use the global ``module.name``."""
        try:
            self._resolve(module, name)
        except pickle.UnpicklingError:
            return False
        return True

    def _relocated_user_global(self, module: str, name: str):
        # a class the user allowed, named by PyTorch's module path for it (which may
        # differ from this project's: torch.nn.modules.batchnorm.BatchNorm2d)
        if not module.startswith("torch."):
            return None
        allowed = {id(obj) for obj in map(_registered_object, get_safe_globals())}
        if not allowed:
            return None
        obj = names.relocated_global(module, name)
        return obj if id(obj) in allowed else None

    def _call(self, func, args):
        if id(func) not in self._allowed_calls:
            raise weights_only_error(
                f"Calling {bounded_repr(func)} is not allowed in a weights-only load."
            )
        if not isinstance(args, tuple):
            raise TypeError("REDUCE arguments must be a tuple")
        check = _ARGUMENT_CHECKS.get(func) if isinstance(func, type) else None
        if check is not None:
            check(args, self._guard)
        return func(*args)

    # ---------------------------------------------------------------- opcodes

    def _proto(self):
        if self._read_exact(1)[0] > pickle.HIGHEST_PROTOCOL:
            raise ValueError("unsupported pickle protocol")

    def _frame(self):
        self._read_size("<Q")  # frames only group reads; the stream reads exactly anyway

    def _stop(self):
        return _STOP

    def _mark(self):
        self._metastack.append(self._stack)
        self._stack = []

    def _pop(self):
        if self._stack:
            self._stack.pop()
        else:
            self._pop_mark()

    def _pop_mark_op(self):
        self._pop_mark()

    def _dup(self):
        self._stack.append(self._stack[-1])

    def _binint(self):
        self._stack.append(self._read_size("<i"))

    def _binint1(self):
        self._stack.append(self._read_exact(1)[0])

    def _binint2(self):
        self._stack.append(self._read_size("<H"))

    def _binfloat(self):
        self._stack.append(self._read_size(">d"))

    def _empty_tuple(self):
        self._stack.append(())

    def _tuple(self):
        items = self._pop_mark()  # before naming self._stack: it changes
        self._stack.append(tuple(items))

    def _empty_list(self):
        self._stack.append([])

    def _list(self):
        items = self._pop_mark()  # before naming self._stack: it changes
        self._stack.append(items)

    def _append(self):
        value = self._stack.pop()
        _as_list(self._stack[-1]).append(value)

    def _appends(self):
        items = self._pop_mark()
        _as_list(self._stack[-1]).extend(items)

    def _empty_dict(self):
        self._stack.append({})

    def _dict(self):
        items = self._pop_mark()
        if len(items) % 2:
            raise ValueError("odd number of items for DICT")
        target: dict = {}
        self._guard.set_items(target, items)
        self._stack.append(target)

    def _setitem(self):
        value = self._stack.pop()
        key = self._stack.pop()
        self._guard.set_item(_as_dict(self._stack[-1]), key, value)

    def _setitems(self):
        items = self._pop_mark()
        if len(items) % 2:
            raise ValueError("odd number of items for SETITEMS")
        self._guard.set_items(_as_dict(self._stack[-1]), items)

    def _global(self):
        module = self._read_line()
        name = self._read_line()
        self._stack.append(self._resolve(module, name))

    def _stack_global(self):
        name = self._stack.pop()
        module = self._stack.pop()
        if type(module) is not str or type(name) is not str:
            raise TypeError("STACK_GLOBAL needs two strings")
        self._stack.append(self._resolve(module, name))

    def _reduce(self):
        args = self._stack.pop()
        func = self._stack[-1]
        self._stack[-1] = self._call(func, args)

    def _newobj(self):
        args = self._stack.pop()
        cls = self._stack[-1]
        if not isinstance(cls, type) or id(cls) not in self._user_types:
            raise weights_only_error(
                f"Creating an instance of {bounded_repr(cls)} is not allowed here."
            )
        if not isinstance(args, tuple):
            raise TypeError("NEWOBJ arguments must be a tuple")
        self._stack[-1] = cls.__new__(cls, *args)

    def _build(self):
        state = self._stack.pop()
        obj = self._stack[-1]
        # a state_dict is an OrderedDict carrying `_metadata` as an attribute
        plain_attributes = type(obj) is collections.OrderedDict
        if id(type(obj)) not in self._user_types and not plain_attributes:
            raise weights_only_error(
                f"Setting the state of a {type(obj).__module__}.{type(obj).__qualname__} is "
                f"not allowed in a weights-only load."
            )
        setstate = None if plain_attributes else getattr(obj, "__setstate__", None)
        if setstate is not None and type(obj).__setstate__ is not _object_setstate():
            setstate(state)
            return
        slots = None
        if isinstance(state, tuple) and len(state) == 2:
            state, slots = state
        if state:
            if not isinstance(state, dict) or not all(type(k) is str for k in state):
                raise TypeError("object state must be a dict with str keys")
            obj.__dict__.update(state)
        if slots:
            if not isinstance(slots, dict):
                raise TypeError("slot state must be a dict")
            for key, value in slots.items():
                setattr(obj, key, value)

    def _binpersid(self):
        if self._persistent_load is None:
            raise weights_only_error("A persistent id appears where none is expected.")
        pid = self._stack.pop()
        self._stack.append(self._persistent_load(pid))

    def _memoize(self):
        self._memo[len(self._memo)] = self._stack[-1]

    _OPS = {
        pickle.PROTO: _proto,
        pickle.FRAME: _frame,
        pickle.STOP: _stop,
        pickle.MARK: _mark,
        pickle.POP: _pop,
        pickle.POP_MARK: _pop_mark_op,
        pickle.DUP: _dup,
        pickle.NONE: _push(None),
        pickle.NEWTRUE: _push(True),
        pickle.NEWFALSE: _push(False),
        pickle.BININT: _binint,
        pickle.BININT1: _binint1,
        pickle.BININT2: _binint2,
        pickle.LONG1: _long("<B"),
        pickle.LONG4: _long("<i"),
        pickle.BINFLOAT: _binfloat,
        pickle.BINUNICODE: _text("<I"),
        pickle.SHORT_BINUNICODE: _text("<B"),
        pickle.BINUNICODE8: _text("<Q"),
        pickle.BINBYTES: _bytes("<I"),
        pickle.SHORT_BINBYTES: _bytes("<B"),
        pickle.BINBYTES8: _bytes("<Q"),
        pickle.BYTEARRAY8: _bytes("<Q", bytearray),
        pickle.BINSTRING: _binstring("<i"),
        pickle.SHORT_BINSTRING: _binstring("<B"),
        pickle.EMPTY_TUPLE: _empty_tuple,
        pickle.TUPLE: _tuple,
        pickle.TUPLE1: _tuple_n(1),
        pickle.TUPLE2: _tuple_n(2),
        pickle.TUPLE3: _tuple_n(3),
        pickle.EMPTY_LIST: _empty_list,
        pickle.LIST: _list,
        pickle.APPEND: _append,
        pickle.APPENDS: _appends,
        pickle.EMPTY_DICT: _empty_dict,
        pickle.DICT: _dict,
        pickle.SETITEM: _setitem,
        pickle.SETITEMS: _setitems,
        # no EMPTY_SET/ADDITEMS: PyTorch refuses protocol 4's set opcodes (a set pickled
        # with protocol 2, builtins.set over a list, loads in both)
        pickle.GLOBAL: _global,
        pickle.STACK_GLOBAL: _stack_global,
        pickle.REDUCE: _reduce,
        pickle.NEWOBJ: _newobj,
        pickle.BUILD: _build,
        pickle.BINPERSID: _binpersid,
        pickle.BINPUT: _put("<B"),
        pickle.LONG_BINPUT: _put("<I"),
        pickle.MEMOIZE: _memoize,
        pickle.BINGET: _get("<B"),
        pickle.LONG_BINGET: _get("<I"),
    }


_STOP = object()
_OPCODES = {code[0]: handler for code, handler in WeightsUnpickler._OPS.items()}
_OPCODE_NAMES = {
    getattr(pickle, name)[0]: name
    for name in dir(pickle)
    if name.isupper()
    and isinstance(getattr(pickle, name), bytes)
    and len(getattr(pickle, name)) == 1
}


def _registered_object(entry):
    return entry[0] if isinstance(entry, tuple) else entry


def _as_list(target) -> list:
    if not isinstance(target, list):
        raise TypeError(f"APPEND to a {type(target).__name__}")
    return target


def _as_dict(target) -> dict:
    if not isinstance(target, dict):
        raise TypeError(f"SETITEM on a {type(target).__name__}")
    return target


def _object_setstate():
    return getattr(object, "__setstate__", None)


_STRING_OPCODES = frozenset(
    {"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "SHORT_BINSTRING",
     "BINSTRING", "STRING"}
)  # fmt: skip


def globals_in_pickle(data: bytes) -> list[tuple[str, str]]:
    """Every ``(module, name)`` the pickle ``data`` names through GLOBAL, INST or
    STACK_GLOBAL, in order of first use, found by reading its opcodes without running
    any. A STACK_GLOBAL whose operands are not strings pushed (or memoized) by the pickle
    itself cannot be named statically and is left out."""
    found: dict[tuple[str, str], None] = {}
    pushed: list = []  # the last values pushed: strings, or None for anything else
    memo: dict = {}
    try:
        for opcode, arg, _ in pickletools.genops(data):
            kind = opcode.name
            if kind in ("GLOBAL", "INST"):
                module, _, name = arg.partition(" ")
                found.setdefault((module, name), None)
                pushed.append(None)
            elif kind == "STACK_GLOBAL":
                if len(pushed) >= 2 and all(isinstance(v, str) for v in pushed[-2:]):
                    found.setdefault((pushed[-2], pushed[-1]), None)
                pushed.append(None)
            elif kind in _STRING_OPCODES:
                pushed.append(arg if isinstance(arg, str) else None)
            elif kind == "MEMOIZE":
                memo[len(memo)] = pushed[-1] if pushed else None
            elif kind in ("PUT", "BINPUT", "LONG_BINPUT"):
                memo[arg] = pushed[-1] if pushed else None
            elif kind in ("GET", "BINGET", "LONG_BINGET"):
                pushed.append(memo.get(arg))
            else:
                pushed.append(None)
            del pushed[:-2]
    except (ValueError, TypeError, EOFError, UnicodeDecodeError, struct.error) as error:
        raise weights_only_error(
            f"Malformed pickle data: {type(error).__name__}: {error}"
        ) from None
    return list(found)
