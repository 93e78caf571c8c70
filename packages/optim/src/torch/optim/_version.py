"""Version of the torch-optim distribution."""

__version__ = "0.1.1"
