"""``torch._subclasses.fake_tensor``: fake tensors (shapes without data, made while
``torch.compile`` traces) do not exist here, so no tensor is one. kornia imports
:func:`is_fake` at import time."""

__all__ = ["is_fake"]


def is_fake(x) -> bool:
    """Whether ``x`` is a fake tensor: never, here."""
    return False
