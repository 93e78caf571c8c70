"""``torch.utils.swap_tensors``: exchange the contents of two tensor objects in place."""

from __future__ import annotations

__all__ = ["swap_tensors"]


def swap_tensors(t1, t2) -> None:
    """Swap everything two tensors hold (data, dtype, autograd fields, Python attributes
    and class, e.g. ``nn.Parameter``), keeping each object's identity: references to
    ``t1`` then see what ``t2`` held and the other way round (``nn.Module`` uses it to
    replace parameters that others still hold).

    Unlike PyTorch, no check is made that no autograd graph or weak reference holds
    either tensor: swapping a tensor an unfinished graph has saved changes what its
    backward reads.

    Examples::

        >>> a, b = torch.ones(2), torch.zeros(3, dtype=torch.int64)
        >>> torch.utils.swap_tensors(a, b)
        >>> a, b
        (tensor([0, 0, 0]), tensor([1., 1.]))
    """
    from .._tensor import Tensor

    for t in (t1, t2):
        if not isinstance(t, Tensor):
            raise AttributeError(f"'{type(t).__name__}' object has no attribute '_use_count'")
    slots = [name for name in Tensor.__slots__ if name not in ("__weakref__", "__dict__")]
    for name in slots:
        descriptor = Tensor.__dict__[name]
        first, second = _read(descriptor, t1), _read(descriptor, t2)
        _write(descriptor, t1, second)
        _write(descriptor, t2, first)
    attributes1, attributes2 = dict(t1.__dict__), dict(t2.__dict__)
    t1.__dict__.clear(), t1.__dict__.update(attributes2)
    t2.__dict__.clear(), t2.__dict__.update(attributes1)
    t1.__class__, t2.__class__ = type(t2), type(t1)


_UNSET = object()


def _read(descriptor, t):
    try:
        return descriptor.__get__(t)
    except AttributeError:
        return _UNSET


def _write(descriptor, t, value) -> None:
    if value is _UNSET:
        try:
            descriptor.__delete__(t)
        except AttributeError:
            pass
    else:
        descriptor.__set__(t, value)
