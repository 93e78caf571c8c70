"""``torch.sparse.check_sparse_tensor_invariants``: the switch of PyTorch's checks of
sparse constructors' indices.

This project's ``torch.sparse_coo_tensor`` always checks that indices are in range (a
bad tensor is an error, never a crash), so the switch changes nothing here; it keeps its
state and its three spellings (context manager, decorator, ``enable``/``disable``) so
code written for PyTorch runs unchanged.
"""

from __future__ import annotations

import functools

__all__ = ["check_sparse_tensor_invariants"]

_ENABLED = [False]


class check_sparse_tensor_invariants:  # noqa: N801 - PyTorch's name
    """Turn the sparse invariant checks on (default) or off inside a ``with`` block or a
    decorated function; ``enable()``/``disable()``/``is_enabled()`` set and read the
    switch for the whole process (default off, as in PyTorch).

    Args:
        enable (bool): the state inside the block. Default: ``True``.

    Examples::

        >>> with torch.sparse.check_sparse_tensor_invariants():
        ...     torch.sparse.check_sparse_tensor_invariants.is_enabled()
        True
        >>> torch.sparse.check_sparse_tensor_invariants.is_enabled()
        False
    """

    @staticmethod
    def is_enabled() -> bool:
        return _ENABLED[0]

    @staticmethod
    def enable() -> None:
        _ENABLED[0] = True

    @staticmethod
    def disable() -> None:
        _ENABLED[0] = False

    def __init__(self, enable: bool = True):
        self.state = enable
        self.saved_state = None

    def __enter__(self):
        if self.saved_state is not None:
            raise RuntimeError(
                "This context manager instance is already activated. Use a different context "
                "manager instance for context nesting."
            )
        self.saved_state = _ENABLED[0]
        _ENABLED[0] = self.state
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        _ENABLED[0] = self.saved_state
        self.saved_state = None

    def __call__(self, function):
        @functools.wraps(function)
        def checked(*args, **kwargs):
            with check_sparse_tensor_invariants(self.state):
                return function(*args, **kwargs)

        return checked
