"""torch.utils.serialization: reading (and writing) Lua Torch 7 ``.t7`` files.

:func:`load_lua` reads what Lua Torch's ``torch.save`` wrote, in binary or ascii
format: numbers, strings, booleans, ``nil``, tables (a table with keys 1..n becomes a
list), tensors and storages of every element type (CUDA ones load on the CPU), ``nn``
modules and criterions (as their :mod:`torch.legacy.nn` counterparts, indices moved to
count from 0), and objects of other classes as :class:`TorchObject`. :func:`save_lua`
writes the same format.

Shipped by the torch-legacy distribution.
"""

from __future__ import annotations

import io
import os

from ._format import LuaFunction, TorchObject
from ._reader import T7Reader
from ._writer import T7Writer

__all__ = ["load_lua", "save_lua", "T7Reader", "T7Writer", "TorchObject", "LuaFunction"]


def _open(target, mode):
    if isinstance(target, (str, bytes, os.PathLike)):
        return open(target, mode), True
    return target, False


def load_lua(filename, format="binary", long_size=8, unknown_classes=True):
    """Read the object a Lua Torch 7 file holds.

    Args:
        filename (str, path or file): the ``.t7`` file, or a binary file object.
        format (str): ``"binary"`` (Lua's default) or ``"ascii"``. Default: ``"binary"``.
        long_size (int): bytes per long in a binary file: 8, or 4 for files written by
            32-bit builds. Default: ``8``.
        unknown_classes (bool): read objects of classes with no Python counterpart as
            :class:`TorchObject`; with ``False`` they raise ``TypeError``. Default:
            ``True``.

    Returns:
        The object: a number, string, bool, ``None``, list, dict, tensor, storage,
        ``torch.legacy.nn`` module or :class:`TorchObject`. Lua has a single number
        type: integral values come back as ``int``.

    Examples::

        >>> import io
        >>> from torch.utils.serialization import load_lua, save_lua
        >>> buffer = io.BytesIO()
        >>> save_lua({"w": torch.arange(3.0), "n": 2}, buffer)
        >>> _ = buffer.seek(0)
        >>> load_lua(buffer)
        {'w': tensor([0., 1., 2.]), 'n': 2}
    """
    file, owned = _open(filename, "rb")
    try:
        if format == "ascii" and not isinstance(file, io.IOBase):
            file = io.BytesIO(file.read())
        return T7Reader(file, format, long_size, unknown_classes).read_object()
    finally:
        if owned:
            file.close()


def save_lua(obj, filename, format="binary", long_size=8):
    """Write ``obj`` as a Lua Torch 7 file that Lua's ``torch.load`` (and
    :func:`load_lua`) reads.

    Args:
        obj: what to write (see :class:`T7Writer` for the types).
        filename (str, path or file): where, or a binary file object.
        format (str): ``"binary"`` or ``"ascii"``. Default: ``"binary"``.
        long_size (int): bytes per long in binary files, 8 or 4. Default: ``8``.

    Examples::

        >>> import io
        >>> from torch.utils.serialization import load_lua, save_lua
        >>> buffer = io.BytesIO()
        >>> save_lua([1, "two", True], buffer, format="ascii")
        >>> _ = buffer.seek(0)
        >>> load_lua(buffer, format="ascii")
        [1, 'two', True]
    """
    file, owned = _open(filename, "wb")
    try:
        T7Writer(file, format, long_size).write_object(obj)
    finally:
        if owned:
            file.close()
