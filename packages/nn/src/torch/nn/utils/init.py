"""``torch.nn.utils.init``: :func:`skip_init`, making a module without running its
parameter initialisation."""

from __future__ import annotations

import inspect

import torch

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """Make ``module_cls(*args, **kwargs)`` whose parameters and buffers need not be
    initialised (their values are unspecified: set them before use). The class must take
    a ``device`` argument, as PyTorch requires; ``device`` in ``kwargs`` says where the
    module's tensors go (default the CPU).

    Args:
        module_cls: a subclass of :class:`torch.nn.Module`.
        *args, **kwargs: the arguments of ``module_cls``.

    Examples::

        >>> m = torch.nn.utils.skip_init(torch.nn.Linear, 3, 2)
        >>> m.weight.shape
        torch.Size([2, 3])
    """
    if not issubclass(module_cls, torch.nn.Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    # NOTE: no meta device exists here to build the module without touching memory, so the
    # module is built and initialised normally: its values are merely not to be relied on
    return module_cls(*args, **kwargs)
