"""``torch.fx.experimental.proxy_tensor``: the proxy-tensor tracing mode of ``make_fx``.
Nothing traces with proxies here (see :mod:`torch.fx`), so no mode is ever active."""

__all__ = ["get_proxy_mode"]


def get_proxy_mode():
    """The active proxy-tensor tracing mode: ``None`` (never tracing here)."""
    return None
