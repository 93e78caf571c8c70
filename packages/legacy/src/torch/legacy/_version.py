"""Version of the torch-legacy distribution."""

__version__ = "0.2.0"
