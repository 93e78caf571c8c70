"""``torch.nn.factory_kwargs``: the factory arguments (``device``, ``dtype``,
``memory_format``) a module passes on to ``torch.empty`` and friends."""

from __future__ import annotations

__all__ = ["factory_kwargs"]

_FACTORY_KEYS = {"device", "dtype", "memory_format"}


def factory_kwargs(kwargs):
    """The factory arguments in ``kwargs`` as one dict, checked: only ``device``,
    ``dtype``, ``memory_format`` and ``factory_kwargs`` (a dict of more such arguments,
    for names a signature already uses) may appear, and none twice.

    Examples::

        >>> torch.nn.factory_kwargs({"device": "cpu", "factory_kwargs": {"dtype": torch.float64}})
        {'dtype': torch.float64, 'device': 'cpu'}
    """
    if kwargs is None:
        return {}
    unexpected = kwargs.keys() - _FACTORY_KEYS - {"factory_kwargs"}
    if unexpected:
        raise TypeError(f"unexpected kwargs {unexpected}")
    result = dict(kwargs.get("factory_kwargs", {}))
    for key in _FACTORY_KEYS & kwargs.keys():
        if key in result:
            raise TypeError(f"{key} specified twice, in **kwargs and in factory_kwargs")
        result[key] = kwargs[key]
    return result
