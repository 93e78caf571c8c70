"""torch.nn: neural-network building blocks.

Modules (:class:`Module` and its layers and containers) hold parameters and state and
call :mod:`torch.nn.functional`, whose math is torch-core's; :mod:`torch.nn.init`
draws initial weights; :mod:`torch.nn.utils` holds gradient clipping, parameter
vectors and the packed-sequence helpers.
"""

from torch._interface import require_core_api

# _pickling registers nn's classes with core's serialization (torch._interface.pickling)
from . import _pickling, functional, grad, init, parallel, utils  # noqa: F401
from ._factory import factory_kwargs
from ._version import __version__
from .modules import *  # noqa: F403
from .modules import __all__ as _modules_all
from .modules.module import *  # noqa: F403  (the global hook registrations)
from .modules.module import __all__ as _module_all
from .parallel import DataParallel
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

# 0.5: the fused ops and torch._interface.tensors, called without fallbacks
require_core_api(0, 7, "torch-nn")

__all__ = [
    "Parameter",
    "Buffer",
    "UninitializedParameter",
    "UninitializedBuffer",
    "functional",
    "init",
    "grad",
    "parallel",
    "utils",
    "DataParallel",
    "factory_kwargs",
    # the global hook registrations, in the order module.py lists them
    *(name for name in _module_all if name.startswith("register_module_")),
    "__version__",
] + _modules_all
