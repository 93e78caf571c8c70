"""torch.nn.utils.convert_conv{2,3}d_weight_memory_format: the strides PyTorch 2.13 gives
(checked side by side with tools/ptdiff), in place, Parameters kept."""

import torch
import torch.nn as nn


def test_conv2d_weights_become_channels_last_in_place():
    net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.ConvTranspose2d(4, 2, 3), nn.Linear(2, 2))
    weight = net[0].weight
    assert nn.utils.convert_conv2d_weight_memory_format(net, torch.channels_last) is net
    assert net[0].weight is weight and weight.requires_grad
    assert net[0].weight.stride() == (27, 1, 9, 3)
    assert net[2].weight.stride() == (18, 1, 6, 2)
    assert net[3].weight.stride() == (2, 1)  # not a convolution: untouched


def test_a_converted_network_still_trains():
    net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.Conv2d(4, 2, 3))
    reference = [p.detach().clone() for p in net.parameters()]
    x = torch.randn(1, 3, 5, 5)
    expected = net(x)
    nn.utils.convert_conv2d_weight_memory_format(net, torch.channels_last)
    assert all(torch.equal(p, r) for p, r in zip(net.parameters(), reference))
    out = net(x.contiguous(memory_format=torch.channels_last))
    assert torch.allclose(out, expected, atol=1e-6)
    out.sum().backward()
    assert net[0].weight.grad.shape == (4, 3, 3, 3)


def test_conv3d_weights_become_channels_last_3d():
    net = nn.Sequential(nn.Conv3d(2, 2, 2), nn.ConvTranspose3d(2, 2, 2))
    nn.utils.convert_conv3d_weight_memory_format(net, torch.channels_last_3d)
    assert net[0].weight.stride() == (16, 1, 8, 4, 2)
    assert net[1].weight.stride() == (16, 1, 8, 4, 2)
