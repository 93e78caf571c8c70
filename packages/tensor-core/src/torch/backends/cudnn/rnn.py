"""torch.backends.cudnn.rnn: helpers of cuDNN's RNN kernels and their ``fp32_precision``."""

from __future__ import annotations

import sys as _sys

from .. import ContextProp, PropModule, _precision

__all__ = [
    "ContextProp",
    "CudnnRNNModule",
    "PropModule",
    "Unserializable",
    "get_cudnn_mode",
    "init_dropout_state",  # noqa: F822 - a static method of the module's class, as in PyTorch
]

# cuDNN's RNN modes (cudnnRNNMode_t)
_MODES = {"RNN_RELU": 0, "RNN_TANH": 1, "LSTM": 2, "GRU": 3}


def get_cudnn_mode(mode):
    """cuDNN's number for an RNN mode name (``"RNN_RELU"``, ``"RNN_TANH"``, ``"LSTM"``,
    ``"GRU"``)."""
    from .. import cudnn

    if mode not in _MODES:
        raise ValueError(f"Unknown mode: {mode}")
    if not cudnn.is_available():
        # PyTorch's CPU build has no cuDNN bindings to ask
        raise AttributeError("'NoneType' object has no attribute 'RNNMode'")
    return _MODES[mode]


class Unserializable:
    """Holds a value that pickling drops (the cuDNN dropout state of an RNN)."""

    def __init__(self, inner):
        self.inner = inner

    def get(self):
        return self.inner

    def __getstate__(self):
        return "<unserializable>"

    def __setstate__(self, state):
        self.inner = None


def _init_dropout_state(dropout, train, dropout_seed, dropout_state):
    """The cuDNN dropout state of the current device, made once and cached in
    ``dropout_state``; ``None`` when no dropout applies."""
    import torch

    key = "desc_" + str(torch.cuda.current_device())
    p = dropout if train else 0
    if key not in dropout_state or dropout_state[key].get() is None:
        if p == 0:
            dropout_state[key] = Unserializable(None)
        else:
            raise NotImplementedError(
                "cuDNN RNN dropout states are made by the CUDA backend's RNN kernels, which "
                "keep their own"
            )
    return dropout_state[key].get()


class CudnnRNNModule(PropModule):
    def __init__(self, m, name):
        super().__init__(m, name)

    @staticmethod
    def init_dropout_state(dropout, train, dropout_seed, dropout_state):
        """The cuDNN dropout state of the current device, made once and cached in
        ``dropout_state``; ``None`` when no dropout applies."""
        return _init_dropout_state(dropout, train, dropout_seed, dropout_state)

    fp32_precision = ContextProp(
        lambda: _precision.get("cuda", "rnn"),
        lambda value: _precision.set("cuda", "rnn", value),
    )


_sys.modules[__name__].__class__ = CudnnRNNModule
