"""Version of the torch-optim distribution."""

__version__ = "0.2.1"
