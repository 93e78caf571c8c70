"""Version of the torch-legacy distribution."""

__version__ = "0.1.4"
