"""How torch-nn's classes appear in checkpoints, registered with core's serialization
(``torch._interface.pickling``) when ``torch.nn`` is imported.

- ``torch.nn.parameter.Parameter`` resolves to :class:`Parameter` in every load
  (``weights_only`` included): core's ``_rebuild_parameter`` builds one.
- Classes that PyTorch defines in another file of ``torch.nn.modules`` than this package
  does are saved under PyTorch's path (``torch.nn.modules.batchnorm.BatchNorm2d``), so
  PyTorch can load whole modules saved here; loading finds them back through
  ``torch.nn``, which exports them.
"""

from __future__ import annotations

from torch._interface import pickling

from . import modules
from .parameter import Parameter

# file of torch.nn.modules in PyTorch -> the classes it defines there
_PYTORCH_FILES = {
    "batchnorm": "BatchNorm1d BatchNorm2d BatchNorm3d LazyBatchNorm1d LazyBatchNorm2d "
    "LazyBatchNorm3d SyncBatchNorm",
    "instancenorm": "InstanceNorm1d InstanceNorm2d InstanceNorm3d LazyInstanceNorm1d "
    "LazyInstanceNorm2d LazyInstanceNorm3d",
    "channelshuffle": "ChannelShuffle",
    "distance": "CosineSimilarity PairwiseDistance",
    "fold": "Fold Unfold",
    "pixelshuffle": "PixelShuffle PixelUnshuffle",
    "upsampling": "Upsample UpsamplingBilinear2d UpsamplingNearest2d",
}


def register() -> None:
    pickling.register_global("torch.nn.parameter", "Parameter", Parameter)
    for file, class_names in _PYTORCH_FILES.items():
        theirs = f"torch.nn.modules.{file}"
        for name in class_names.split():
            cls = getattr(modules, name, None)
            if cls is not None and cls.__module__ != theirs:
                pickling.register_pickled_name(cls, theirs)


register()
