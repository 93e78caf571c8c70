"""torch.utils.data: datasets, samplers and the DataLoader.

* datasets: :class:`Dataset`, :class:`IterableDataset`, :class:`TensorDataset`,
  :class:`ConcatDataset`, :class:`ChainDataset`, :class:`Subset`,
  :class:`StackDataset`, :func:`random_split`;
* samplers: :class:`SequentialSampler`, :class:`RandomSampler`,
  :class:`SubsetRandomSampler`, :class:`WeightedRandomSampler`, :class:`BatchSampler`,
  :class:`DistributedSampler`;
* loading: :class:`DataLoader` (worker processes), :func:`default_collate`,
  :func:`default_convert`, :func:`get_worker_info`;
* training loop of early PyTorch: :class:`Trainer` and the plugins of
  :mod:`torch.utils.data.trainer.plugins`.
"""

from torch._interface import require_core_api

# checked first: the modules below use the shared-memory protocol of extension API 0.5
require_core_api(0, 7, "torch-utils-data")

from ._version import __version__  # noqa: E402
from .dataloader import DataLoader, default_collate, default_convert, get_worker_info  # noqa: E402
from .dataset import (  # noqa: E402
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .distributed import DistributedSampler  # noqa: E402
from .sampler import (  # noqa: E402
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from .trainer import Trainer  # noqa: E402

__all__ = [
    "BatchSampler",
    "ChainDataset",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "DistributedSampler",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "StackDataset",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "Trainer",
    "WeightedRandomSampler",
    "__version__",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "random_split",
]
