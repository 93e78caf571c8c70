"""Version of the torch-nn distribution."""

__version__ = "0.6.0"
