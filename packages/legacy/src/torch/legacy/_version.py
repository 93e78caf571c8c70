"""Version of the torch-legacy distribution."""

__version__ = "0.3.0"
