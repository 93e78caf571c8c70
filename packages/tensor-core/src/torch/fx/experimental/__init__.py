"""``torch.fx.experimental``: only ``proxy_tensor.get_proxy_mode`` (see :mod:`torch.fx`)."""
