"""torch.utils.data: datasets and loading.

This release provides :class:`Dataset` and :class:`TensorDataset`; samplers and the
DataLoader with worker processes arrive in the following releases.
"""

from torch._interface import require_core_api

from ._version import __version__
from .dataset import Dataset, TensorDataset

require_core_api(0, 1, "torch-utils-data")

__all__ = ["Dataset", "TensorDataset", "__version__"]
