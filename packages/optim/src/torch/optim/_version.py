"""Version of the torch-optim distribution."""

__version__ = "0.3.0"
