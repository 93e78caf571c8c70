"""Version of the torch-core distribution (each sibling wheel keeps its own)."""

__version__ = "0.5.0"
