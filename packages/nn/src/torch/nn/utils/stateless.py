"""``torch.nn.utils.stateless.functional_call``: deprecated since PyTorch 2.0 in favour of
``torch.func.functional_call``, which it calls."""

from __future__ import annotations

import warnings

__all__ = ["functional_call"]


def functional_call(
    module,
    parameters_and_buffers,
    args=None,
    kwargs=None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
):
    """Deprecated: use ``torch.func.functional_call`` (the same arguments). Calls
    ``module`` with its parameters and buffers replaced by ``parameters_and_buffers``
    for this call.

    Examples::

        >>> import warnings
        >>> from torch.nn.utils import stateless
        >>> lin = nn.Linear(2, 1)
        >>> values = {"weight": torch.ones(1, 2), "bias": torch.zeros(1)}
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     stateless.functional_call(lin, values, (torch.ones(1, 2),))
        tensor([[2.]])
    """
    warnings.warn(
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will "
        "be removed in a future version of PyTorch. Please use `torch.func.functional_call` "
        "instead which is a drop-in replacement.",
        FutureWarning,
        stacklevel=2,
    )
    from torch.func import functional_call as call

    return call(
        module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict
    )
