"""torch.legacy.nn: Lua-Torch style modules (arriving in the following releases)."""

__all__: list[str] = []
