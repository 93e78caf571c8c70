"""torch.nn: neural-network building blocks.

This release provides :class:`Parameter`; modules, ``nn.functional`` and ``nn.init``
arrive in the following releases.
"""

from torch._interface import require_core_api

from ._version import __version__
from .parameter import Parameter

require_core_api(0, 1, "torch-nn")

__all__ = ["Parameter", "__version__"]
