"""Version of the torch-distributed distribution."""

__version__ = "0.1.1"
