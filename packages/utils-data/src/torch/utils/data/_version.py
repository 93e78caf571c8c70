"""Version of the torch-utils-data distribution."""

__version__ = "0.5.0"
