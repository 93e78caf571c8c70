"""torch.cuda.green_contexts: CUDA green contexts (a share of a GPU's SMs). Not built here,
as in PyTorch builds without green context support."""

from __future__ import annotations

__all__ = ["GreenContext", "SUPPORTED"]

SUPPORTED = False
_NOT_BUILT = "PyTorch was not built with Green Context support!"


class GreenContext:
    """A CUDA green context; :meth:`create` needs green context support."""

    @staticmethod
    def create(
        *,
        num_sms: int | None = None,
        workqueue_scope: str | None = None,
        workqueue_concurrency_limit: int | None = None,
        device_id: int | None = None,
    ):
        """Make a green context limited to ``num_sms`` SMs of ``device_id``."""
        raise RuntimeError(_NOT_BUILT)

    def max_workqueue_concurrency(self) -> int:
        """The largest workqueue concurrency of this context."""
        raise RuntimeError(_NOT_BUILT)

    def set_context(self) -> None:
        """Make this green context current."""
        raise RuntimeError(_NOT_BUILT)

    def pop_context(self) -> None:
        """Restore the context that was current before :meth:`set_context`."""
        raise RuntimeError(_NOT_BUILT)

    def Stream(self):  # noqa: N802 - PyTorch's name
        """A stream running on this green context."""
        raise RuntimeError(_NOT_BUILT)
