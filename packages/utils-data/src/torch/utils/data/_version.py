"""Version of the torch-utils-data distribution."""

__version__ = "0.4.1"
