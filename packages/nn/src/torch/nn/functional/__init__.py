"""``torch.nn.functional``: the stateless counterparts of the ``nn`` modules, with
PyTorch's signatures (legacy ``size_average``/``reduce`` included). The math is
torch-core's; this package fixes the arguments and error messages.

Examples::

    >>> F.relu(torch.tensor([-1.0, 1.0]))
    tensor([0., 1.])
"""

from .activation import *  # noqa: F403
from .activation import __all__ as _activation_all
from .attention import *  # noqa: F403
from .attention import __all__ as _attention_all
from .conv import *  # noqa: F403
from .conv import __all__ as _conv_all
from .fractional_pool import *  # noqa: F403
from .fractional_pool import __all__ as _fractional_pool_all
from .linear import *  # noqa: F403
from .linear import __all__ as _linear_all
from .loss import *  # noqa: F403
from .loss import __all__ as _loss_all
from .normalization import *  # noqa: F403
from .normalization import __all__ as _normalization_all

__all__ = (
    _activation_all
    + _attention_all
    + _conv_all
    + _fractional_pool_all
    + _linear_all
    + _loss_all
    + _normalization_all
)
