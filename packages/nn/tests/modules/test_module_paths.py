"""PyTorch's module paths of layer files this project groups differently
(``torch.nn.modules.upsampling``, ``.instancenorm``, ...) import, with PyTorch 2.13's
``__all__``, and hold the layers of ``torch.nn``."""

import importlib

import pytest

from torch import nn

#: module -> its __all__ in PyTorch 2.13
PATHS = {
    "channelshuffle": ["ChannelShuffle"],
    "distance": ["PairwiseDistance", "CosineSimilarity"],
    "fold": ["Fold", "Unfold"],
    "instancenorm": [f"{lazy}InstanceNorm{n}d" for lazy in ("", "Lazy") for n in (1, 2, 3)],
    "pixelshuffle": ["PixelShuffle", "PixelUnshuffle"],
    "upsampling": ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"],
    "adaptive": ["AdaptiveLogSoftmaxWithLoss"],
}


@pytest.mark.parametrize("name", sorted(PATHS))
def test_module_path_holds_the_layers(name):
    module = importlib.import_module(f"torch.nn.modules.{name}")
    assert module.__all__ == PATHS[name]
    for layer in module.__all__:
        assert getattr(module, layer) is getattr(nn, layer)
