"""torch.legacy: Lua-Torch style ``nn`` (modules with explicit ``forward``/``backward``
and ``updateOutput``/``updateGradInput``) and ``optim`` (functional optimizers over a
flat parameter vector). Its modules arrive in the following releases.
"""

from torch._interface import require_core_api

from ._version import __version__

require_core_api(0, 7, "torch-legacy")

__all__ = ["__version__"]
