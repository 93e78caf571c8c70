"""``torch.fx``: PyTorch's Python-level graph capture. **Not implemented in this
project** (torch-jit's ``torch.jit.trace`` / ``script`` capture graphs instead).

What is here is what libraries touch without capturing anything: the name
``GraphModule`` (lightning annotates a method's return with it),
``torch.fx.experimental.proxy_tensor.get_proxy_mode`` (kornia asks whether a trace is
running: never, here). ``symbolic_trace`` and making a ``GraphModule`` raise
``NotImplementedError``.
"""

from __future__ import annotations

__all__ = ["GraphModule", "symbolic_trace"]

_NOT_BUILT = (
    "torch.fx graph capture is not implemented in this project; torch.jit.trace and "
    "torch.jit.script (torch-jit) capture graphs"
)


class GraphModule:
    """A module generated from an FX graph. Not implemented here: making one raises
    ``NotImplementedError``."""

    def __init__(self, *args, **kwargs) -> None:
        raise NotImplementedError(_NOT_BUILT)


def symbolic_trace(root, concrete_args=None):
    """Capture ``root``'s graph with FX. Not implemented here: raises
    ``NotImplementedError``."""
    raise NotImplementedError(_NOT_BUILT)
