"""torch.nn.DataParallel without CUDA devices: the wrapped module runs as is."""

import torch
from torch import nn


def test_wraps_the_module_and_prefixes_the_state_dict():
    torch.manual_seed(0)
    inner = nn.Linear(3, 2)
    net = nn.DataParallel(inner)
    x = torch.randn(4, 3)
    if net.device_ids:  # a CUDA runtime is active: covered by test_simulated_devices.py
        return
    assert bool((net(x) == inner(x)).all())
    assert list(net.state_dict()) == ["module.weight", "module.bias"]
    assert repr(net) == (
        "DataParallel(\n  (module): Linear(in_features=3, out_features=2, bias=True)\n)"
    )
