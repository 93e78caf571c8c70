"""The layer families of ``torch.nn``, one file each."""

from .activation import *  # noqa: F403
from .activation import __all__ as _activation
from .adaptive import *  # noqa: F403
from .adaptive import __all__ as _adaptive
from .container import *  # noqa: F403
from .container import __all__ as _container
from .conv import *  # noqa: F403
from .conv import __all__ as _conv
from .dropout import *  # noqa: F403
from .dropout import __all__ as _dropout
from .flatten import *  # noqa: F403
from .flatten import __all__ as _flatten
from .lazy import LazyModuleMixin
from .linear import *  # noqa: F403
from .linear import __all__ as _linear
from .loss import *  # noqa: F403
from .loss import __all__ as _loss
from .misc import *  # noqa: F403
from .misc import __all__ as _misc
from .module import Module
from .normalization import *  # noqa: F403
from .normalization import __all__ as _normalization
from .padding import *  # noqa: F403
from .padding import __all__ as _padding
from .pooling import *  # noqa: F403
from .pooling import __all__ as _pooling
from .rnn import *  # noqa: F403
from .rnn import __all__ as _rnn
from .sparse import *  # noqa: F403
from .sparse import __all__ as _sparse
from .transformer import *  # noqa: F403
from .transformer import __all__ as _transformer

__all__ = (
    ["Module", "LazyModuleMixin"]
    + _activation + _adaptive + _container + _conv + _dropout + _flatten + _linear + _loss + _misc
    + _normalization + _padding + _pooling + _rnn + _sparse + _transformer
)  # fmt: skip
