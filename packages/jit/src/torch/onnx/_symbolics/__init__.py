"""The built-in symbolic functions, one module per family of ops; importing this package
registers them all (see :mod:`torch.onnx._registry`)."""

from . import (  # noqa: F401 - imported for their registrations
    attention,
    elementwise,
    linalg,
    nn,
    reductions,
    rnn,
    shape,
    tensors,
)
