"""``torch.save`` and ``torch.load``: checkpoints that real PyTorch reads and writes.

``save`` writes PyTorch's zip format (or, on request, the older pickle-sequence format);
``load`` reads both, plus the tar format of PyTorch 0.1. By default ``load`` runs a
restricted unpickler (``weights_only=True``) that builds tensors, storages and plain
containers only, so a checkpoint from an untrusted source cannot run code; more types
can be allowed with :func:`add_safe_globals` or :class:`safe_globals`.
"""

from __future__ import annotations

import io
import os
import pickle
import typing
from typing import Any

from ._device import device as _device
from ._serialization import names as _names
from ._serialization import options as _options
from ._serialization import safe_globals as _registry
from ._serialization.atomic_file import save_atomically
from ._serialization.compat import (
    SourceChangeWarning,
    StorageType,
    check_module_version_greater_or_equal,
    mkdtemp,
    normalize_storage_type,
    storage_to_tensor_type,
)
from ._serialization.legacy_format import load_legacy, save_legacy
from ._serialization.location import (
    check_map_location,
    default_restore_location,
    location_tag,
    register_package,
    validate_cuda_device,
    validate_hpu_device,
)
from ._serialization.options import (
    LoadEndianness,
    get_crc32_options,
    get_default_load_endianness,
    get_default_mmap_options,
    set_crc32_options,
    set_default_load_endianness,
    set_default_mmap_options,
    skip_data,
)
from ._serialization.sources import Cursor, open_source
from ._serialization.tar_format import is_tar_checkpoint, load_tar
from ._serialization.unpickler import WeightsUnpickler, globals_in_pickle
from ._serialization.zip_format import load_zip, read_pickle, save_zip
from ._serialization.zip_reader import ZIP_MAGIC, ZipReader

# The types of torch.load's arguments, as PyTorch names them (libraries annotate with
# them: pyro's parameter store imports MAP_LOCATION).
FILE_LIKE = str | os.PathLike | typing.IO[bytes]
MAP_LOCATION = typing.Callable[[Any, str], Any] | _device | str | dict[str, str] | None

__all__ = [
    "save",
    "load",
    "add_safe_globals",
    "clear_safe_globals",
    "get_safe_globals",
    "safe_globals",
    "get_unsafe_globals_in_checkpoint",
    "DEFAULT_PROTOCOL",
    "skip_data",
    "get_crc32_options",
    "set_crc32_options",
    "LoadEndianness",
    "get_default_load_endianness",
    "set_default_load_endianness",
    "get_default_mmap_options",
    "set_default_mmap_options",
    "register_package",
    "location_tag",
    "default_restore_location",
    "validate_cuda_device",
    "validate_hpu_device",
    "normalize_storage_type",
    "storage_to_tensor_type",
    "check_module_version_greater_or_equal",
    "SourceChangeWarning",
    "StorageType",
    "mkdtemp",
]

DEFAULT_PROTOCOL = 2

add_safe_globals = _registry.add_safe_globals
clear_safe_globals = _registry.clear_safe_globals
get_safe_globals = _registry.get_safe_globals


class safe_globals:
    """Context manager: allow ``safe_globals`` in ``weights_only`` loads inside the block.

    Args:
        safe_globals (list): classes and functions (or ``(object, "module.name")`` pairs)
            to allow; the registry is restored on exit.

    Examples::

        >>> import fractions, io
        >>> buffer = io.BytesIO()
        >>> torch.save({"ratio": fractions.Fraction(1, 3)}, buffer)
        >>> with torch.serialization.safe_globals([fractions.Fraction]):
        ...     _ = buffer.seek(0)
        ...     torch.load(buffer)
        {'ratio': Fraction(1, 3)}
    """

    def __init__(self, safe_globals: list):
        self._entries = list(safe_globals)
        self._previous: list | None = None

    def __enter__(self):
        self._previous = _registry.get_safe_globals()
        _registry.add_safe_globals(self._entries)
        return self

    def __exit__(self, *exc_info):
        _registry.set_safe_globals(self._previous)
        return False


# ----------------------------------------------------------------------------- save


def _archive_prefix(f) -> str:
    # PyTorch names the archive's folder after the file, without its last extension
    if isinstance(f, (str, os.PathLike)):
        return os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
    return "archive"


def save(
    obj,
    f,
    pickle_module=pickle,
    pickle_protocol: int = DEFAULT_PROTOCOL,
    _use_new_zipfile_serialization: bool = True,
    _disable_byteorder_record: bool = False,
) -> None:
    """Save ``obj`` (tensors, containers of them, a module's ``state_dict``, any
    picklable object) to ``f`` in PyTorch's checkpoint format.

    Tensors that share a storage are saved with one copy of it and share it again when
    loaded. Saving to a path is atomic: the data goes to a temporary file in the same
    folder, which replaces ``path`` only once it is complete and on disk.

    Args:
        obj (object): what to save.
        f (str or os.PathLike or file): a path, or a binary file object opened for
            writing.
        pickle_module (module): accepted for compatibility; the pickle is always written
            by torch's own pickler. Default: ``pickle``.
        pickle_protocol (int): pickle protocol of the object graph. Default: 2.
        _use_new_zipfile_serialization (bool): ``False`` writes the pre-1.6 pickle
            sequence instead of the zip format. Default: ``True``.
        _disable_byteorder_record (bool): accepted for compatibility. Default: ``False``.

    Examples::

        >>> import io
        >>> x = torch.arange(6.0)
        >>> buffer = io.BytesIO()
        >>> torch.save({"x": x, "head": x[:2]}, buffer)
        >>> _ = buffer.seek(0)
        >>> loaded = torch.load(buffer)
        >>> loaded["head"].untyped_storage().data_ptr() == loaded["x"].data_ptr()
        True
    """
    if not isinstance(pickle_protocol, int) or not 2 <= pickle_protocol <= 5:
        raise ValueError(f"torch.save: pickle_protocol must be 2..5, got {pickle_protocol!r}")
    prefix = _archive_prefix(f)

    def write(file) -> None:
        if _use_new_zipfile_serialization:
            save_zip(obj, file, prefix, pickle_protocol)
        else:
            save_legacy(obj, file, pickle_protocol)

    if _options.skipping_data() and not _use_new_zipfile_serialization:
        raise RuntimeError("Cannot use skip_data=True with _use_new_zipfile_serialization=False")

    if isinstance(f, (str, os.PathLike)):
        save_atomically(f, write)
    elif hasattr(f, "write"):
        write(f)
    else:
        raise TypeError(
            f"torch.save: expected a path or a binary file object, got {type(f).__name__}"
        )


# ----------------------------------------------------------------------------- load


def _full_unpickler_class(pickle_module):
    """The unrestricted unpickler: PyTorch's names resolve to this project's objects,
    any other global is imported as plain pickle would."""

    class FullUnpickler(pickle_module.Unpickler):
        def find_class(self, module, name):
            found = _names.torch_global(module, name)
            if found is not None:
                return found
            try:
                return super().find_class(module, name)
            except (ImportError, AttributeError):
                found = _names.relocated_global(module, name)
                if found is None:
                    raise
                return found

    return FullUnpickler


def _unpicklers(weights_only: bool, pickle_module, encoding: str):
    """``(unpickle_bytes, unpickle_stream)`` for the chosen strictness."""
    if weights_only:

        def unpickle_stream(stream, persistent_load):
            return WeightsUnpickler(stream, persistent_load, encoding).load()

    else:
        unpickler_class = _full_unpickler_class(pickle_module)

        def unpickle_stream(stream, persistent_load):
            unpickler = unpickler_class(stream, encoding=encoding)
            if persistent_load is not None:
                unpickler.persistent_load = persistent_load
            return unpickler.load()

    def unpickle_bytes(data, persistent_load):
        return unpickle_stream(io.BytesIO(data), persistent_load)

    return unpickle_bytes, unpickle_stream


_TRUE_VALUES = ("1", "y", "yes", "true")


def _weights_only_from_environment(weights_only: bool | None, pickle_module) -> bool:
    """``weights_only`` after the default and the environment variables: with
    ``TORCH_FORCE_WEIGHTS_ONLY_LOAD`` set, always True; with
    ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD`` set, False unless the caller passed it (a
    warning says so); both set is an error. "1", "y", "yes" and "true" (any case) count
    as set, as in PyTorch."""
    not_given = weights_only is None
    if not_given:
        weights_only = pickle_module is None
    force = os.getenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in _TRUE_VALUES
    force_no = os.getenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0").lower() in _TRUE_VALUES
    if force and force_no:
        raise RuntimeError(
            "Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` "
            "should be set, but both were set."
        )
    if force:
        return True
    if force_no and not_given:
        import warnings

        warnings.warn(
            "Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since the"
            "`weights_only` argument was not explicitly passed to `torch.load`, forcing "
            "weights_only=False.",
            UserWarning,
            stacklevel=3,
        )
        return False
    return weights_only


def load(
    f,
    map_location=None,
    pickle_module=None,
    *,
    weights_only: bool | None = None,
    mmap: bool | None = None,
    **pickle_load_args,
) -> Any:
    """Load an object saved with :func:`torch.save` (here or by real PyTorch).

    Args:
        f (str or os.PathLike or file): a path, or a binary file object to read from.
        map_location (str or torch.device or dict or callable): where storages go: a
            device for all of them, a dict mapping saved locations to new ones, or a
            function ``(storage, location)`` returning a storage (or None for the
            default). Default: ``None`` (where they were saved).
        pickle_module (module): the module whose ``Unpickler`` runs when
            ``weights_only=False``. Default: ``None`` (``pickle``).
        weights_only (bool): load only tensors, storages, dtypes, devices, sizes, plain
            containers and scalars, plus what :func:`add_safe_globals` allowed; anything
            else raises ``pickle.UnpicklingError``. Default: ``True`` (``False`` when a
            ``pickle_module`` is given). The environment variable
            ``TORCH_FORCE_WEIGHTS_ONLY_LOAD=1`` makes every load weights-only;
            ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1`` makes loads that leave
            ``weights_only`` unset full unpickling loads (with a warning).
        mmap (bool): map storages from the file instead of reading them (``f`` must be
            a path to a zip checkpoint); pages are read when first used. Default:
            ``False``.
        **pickle_load_args: ``encoding`` (str) for strings pickled by Python 2, and
            ``max_pickle_bytes`` (int), the largest object graph (``data.pkl``) a zip
            checkpoint may hold. Unpickling can need about 100 bytes of memory per byte
            of pickle, so a compressed ``data.pkl`` (PyTorch never writes one) may inflate
            to 16 MiB by default; a stored one may be as large as the file. Giving
            ``max_pickle_bytes`` sets the cap for both.

    Returns:
        The saved object.

    Examples::

        >>> import io
        >>> buffer = io.BytesIO()
        >>> torch.save([torch.ones(2), 3], buffer)
        >>> _ = buffer.seek(0)
        >>> torch.load(buffer)
        [tensor([1., 1.]), 3]
    """
    weights_only = _weights_only_from_environment(weights_only, pickle_module)
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    check_map_location(map_location)
    unknown = set(pickle_load_args) - {"encoding", "max_pickle_bytes"}
    if unknown:
        raise TypeError(f"torch.load: unexpected arguments {sorted(unknown)}")
    encoding = pickle_load_args.get("encoding", "utf-8")
    max_pickle_bytes = pickle_load_args.get("max_pickle_bytes")
    if max_pickle_bytes is not None and (type(max_pickle_bytes) is not int or max_pickle_bytes < 0):
        raise ValueError(
            f"torch.load: max_pickle_bytes must be a non-negative int, got {max_pickle_bytes!r}"
        )
    if mmap and not isinstance(f, (str, os.PathLike)):
        raise ValueError("f must be a file path in order to use the mmap argument")
    unpickle_bytes, unpickle_stream = _unpicklers(weights_only, pickle_module or pickle, encoding)
    source, owned = open_source(f, bool(mmap))
    try:
        return _load_from(source, f, map_location, bool(mmap), weights_only, unpickle_bytes,
                          unpickle_stream, max_pickle_bytes)  # fmt: skip
    finally:
        source.close()
        if owned is not None:
            owned.close()


def _load_from(
    source, f, map_location, mmap, weights_only, unpickle_bytes, unpickle_stream, max_pickle_bytes
):
    if source.size == 0:
        raise EOFError("Ran out of input")
    if source.read(0, min(4, source.size)) == ZIP_MAGIC:
        reader = ZipReader(source)
        return load_zip(reader, unpickle_bytes, map_location, mmap, max_pickle_bytes)
    if mmap:
        raise RuntimeError(
            f"mmap can only be used with files saved with the zip format (the default of "
            f"torch.save); {os.fspath(f)} is in an older format: load it without mmap and "
            f"save it again to use mmap."
        )
    cursor = Cursor(source)
    if is_tar_checkpoint(cursor):
        if weights_only:  # a RuntimeError, as in PyTorch
            raise RuntimeError(
                "Cannot use ``weights_only=True`` with files saved in the legacy .tar "
                "format of PyTorch 0.1: its pickles cannot be checked. Load it with "
                "weights_only=False only if you trust its source, then save it again."
            )
        return load_tar(cursor, unpickle_stream, map_location)
    return load_legacy(cursor, unpickle_stream, map_location)


def get_unsafe_globals_in_checkpoint(f) -> list[str]:
    """The ``module.name`` of every class or function a zip checkpoint names that a
    ``weights_only`` load would refuse (neither allowed by default nor by
    :func:`add_safe_globals` / :class:`safe_globals`), found by reading its pickle's
    opcodes without running them.

    Args:
        f (str or os.PathLike or file): the checkpoint, saved by :func:`torch.save` in the
            zip format.

    Returns:
        list[str]: the refused names, each once, in the order the pickle first uses them.

    Examples::

        >>> import collections, io
        >>> buffer = io.BytesIO()
        >>> torch.save({"n": collections.Counter("aab"), "t": torch.ones(1)}, buffer)
        >>> _ = buffer.seek(0)
        >>> torch.serialization.get_unsafe_globals_in_checkpoint(buffer)
        []
    """
    source, owned = open_source(f, False)
    try:
        if source.size < 4 or source.read(0, 4) != ZIP_MAGIC:
            raise ValueError("Expected input to be a checkpoint returned by torch.save")
        data = read_pickle(ZipReader(source))
    finally:
        source.close()
        if owned is not None:
            owned.close()
    checker = WeightsUnpickler(io.BytesIO(b""))
    return [f"{module}.{name}" for module, name in globals_in_pickle(data)
            if not checker.allows(module, name)]  # fmt: skip
