"""torch.legacy.optim: Lua-Torch style functional optimizers (arriving in the following
releases)."""

__all__: list[str] = []
