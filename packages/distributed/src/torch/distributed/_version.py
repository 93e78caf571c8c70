"""Version of the torch-distributed distribution."""

__version__ = "0.2.0"
